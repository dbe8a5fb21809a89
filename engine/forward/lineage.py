"""Which array was made from which by setting a few of its numbers.

A one-cell edit of a large matrix (the W1 of a GPT-2 layer holds 2.4 million numbers) copies it and
sets one number (:func:`engine.scenario.edit.with_cell`). Whoever worked something out
from the old array — its extremes, its colours — can bring that up to date from the changed cells
instead of reading millions of numbers again: :func:`parent_of` says which array the new one came
from and which cells differ.

Only the fact is kept, never the arrays: an entry lasts while both arrays live. Arrays of
documents and traces are never changed in place, so the fact stays true.
"""

from __future__ import annotations

import weakref

import numpy as np
import numpy.typing as npt

_PARENTS: dict[int, tuple[weakref.ref[np.ndarray], weakref.ref[np.ndarray],
                          npt.NDArray[np.intp]]] = {}
"""By the child's id: the child, its parent, and the flat indices of the cells set."""


def record(child: np.ndarray, parent: np.ndarray, cells: npt.ArrayLike) -> None:
    """Note that ``child`` is ``parent`` (same shape, same layout) with only the numbers at the
    flat indices ``cells`` set."""
    if child.shape != parent.shape or child.strides != parent.strides:
        raise ValueError("a child array has its parent's shape and layout")
    key = id(child)
    _PARENTS[key] = (weakref.ref(child, lambda _gone: _PARENTS.pop(key, None)),
                     weakref.ref(parent), np.array(cells, dtype=np.intp, ndmin=1))


def parent_of(child: np.ndarray) -> tuple[np.ndarray, npt.NDArray[np.intp]] | None:
    """The array ``child`` was made from and the flat indices of the cells that differ, while
    both live; None when nothing is known."""
    known = _PARENTS.get(id(child))
    if known is None or known[0]() is not child:
        return None
    parent = known[1]()
    return None if parent is None else (parent, known[2])
