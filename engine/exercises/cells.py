"""A cell of an exercise named in full index form: a one-head attention array's head added,
the index checked against the array's shape."""

from __future__ import annotations

from engine.exercises.document import Index
from engine.format.errors import ScenarioError
from engine.words.refusals import Refusal


def full_index(index: Index, shape: tuple[int, ...], name: str, place: str) -> Index:
    """``index`` with a one-head attention array's head added, checked against ``shape``."""
    if len(index) == 2 and len(shape) == 3 and shape[0] == 1:
        index = (0, *index)
    if len(index) != len(shape):
        raise ScenarioError(place, Refusal("exercise_index_rank", array=name, rank=len(shape),
                                           count=len(index)))
    if any(not 0 <= k < n for k, n in zip(index, shape, strict=True)):
        raise ScenarioError(place, Refusal("exercise_outside", cell=cell_text(index), array=name,
                                           shape="×".join(str(n) for n in shape)))
    return index


def cell_text(index: Index) -> str:
    """``index`` as documents write it: ``[2,0]``."""
    return "[" + ",".join(str(k) for k in index) + "]"


__all__ = ["cell_text", "full_index"]
