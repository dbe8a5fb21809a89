"""What grids work out from large arrays, kept per array and brought up to date after an edit.

An edit replaces one array of the document; the frames after it meet the others (a GPT-2-sized
layer's millions of weights, and the views of them a grid shows) again, so what was worked out from
them is looked up. The edited array itself is a copy with one number set
(:mod:`engine.forward.lineage`): what was worked out from the array it came from is brought up to
date from that one cell when the work says how, instead of reading millions of numbers again.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar, cast

import numpy as np
import numpy.typing as npt

from app.canvas.heat import block_means
from engine.format.numbers import NumberFormat, Spread
from engine.forward import lineage

T = TypeVar("T")
Update = Callable[[T, npt.NDArray[np.float64], npt.NDArray[np.intp]], T | None]
"""Given what was worked out from the parent array, the parent, and the flat indices of the
cells set since: the same for the new array, or None to work it out again."""

REMEMBERED_FROM = 4096
"""Arrays of at least this many numbers have what their grid needs remembered (smaller ones
are quicker to work out again than to look up)."""
REMEMBERED = 64
"""Entries kept of what is as large as its array (colour levels, images): when full, those of
arrays that are gone go first, then the least recently used (a frame of a GPT-2 layer asks for
about 24, and the next frame needs the edited array's from the one before)."""
SPREADS_KEPT = 4096
"""Spreads kept (a few numbers each): every array of the document's, so that laying a frame
out, which asks for the widest number of every array of a GPT-2-sized document (about 400),
reads only the arrays an edit made. Kept with the large results, 64 of them, each frame's
composition worked every spread out again."""
ROOM = 8
"""A full store drops the entries of arrays that are gone, then the least recently used down to
all but an eighth of it (:func:`remembered`): room for one more entry at a time looked for gone
arrays among all of a store's entries at every new one, and with thousands of a document's
arrays alive (a GPT-2 preset's grid sizes) that took four times as long as laying out."""
Store = OrderedDict[tuple[object, ...], tuple[weakref.ref[np.ndarray], object]]
MEANS_KEPT = 16
"""Heat maps' block means kept (:func:`means_of`): a frame draws a few heat maps."""
_remembered: Store = OrderedDict()
_spreads: Store = OrderedDict()
_means: Store = OrderedDict()


def _key(values: npt.NDArray[np.float64], what: tuple[object, ...]) -> tuple[object, ...]:
    return (values.__array_interface__["data"][0], values.shape, values.strides,
            values.dtype.str, *what)


def remembered(values: npt.NDArray[np.float64], what: tuple[object, ...],
               work: Callable[[], T], update: Update[T] | None = None,
               store: tuple[Store, int] = (_remembered, REMEMBERED),
               smallest: int = REMEMBERED_FROM) -> T:
    """``work()`` for a large array, done once per array and ``what``; for an array made from
    another by setting a few numbers, ``update`` of what the other one had, when it had it.

    An array is known by where its numbers are, its shape and its strides, while the array
    that owns them lives (arrays of documents and traces are never changed in place).
    ``store``: where it is kept, and how many entries; ``smallest``: the fewest numbers an
    array has for its result to be kept (a smaller one's is worked out again).
    """
    kept, most = store
    if values.size < smallest:
        return work()
    owner = values if values.base is None else values.base
    if not isinstance(owner, np.ndarray):
        return work()
    key = _key(values, what)
    known = kept.get(key)
    if known is not None and known[0]() is owner:
        kept.move_to_end(key)
        return cast(T, known[1])
    result = _updated(values, what, update, kept) if update is not None and owner is values \
        else None
    if result is None:
        result = work()
    if len(kept) >= most:
        for gone in [k for k, (owner_ref, _) in kept.items() if owner_ref() is None]:
            del kept[gone]  # the arrays of documents and traces no longer shown
        while len(kept) >= most - most // ROOM:
            kept.popitem(last=False)
    kept[key] = (weakref.ref(owner), result)
    return result


def _updated(values: npt.NDArray[np.float64], what: tuple[object, ...],
             update: Update[T], kept: Store) -> T | None:
    descent = lineage.parent_of(values)
    if descent is None:
        return None
    parent, cells = descent
    known = kept.get(_key(parent, what))
    if known is None or known[0]() is not parent:
        return None
    return update(cast(T, known[1]), parent, cells)


def spread(values: npt.NDArray[np.float64]) -> Spread:
    """Where ``values`` lie (their colour scale's ends, their format's extremes); a view of
    every number of its array in another shape (the one head of an array of heads) is known
    as that array."""
    values = _whole(values)

    def after(before: Spread, parent: npt.NDArray[np.float64],
              cells: npt.NDArray[np.intp]) -> Spread | None:
        return before.after(parent.flat[cells], values.flat[cells])

    return remembered(values, ("spread",), lambda: Spread.of(values), after,
                      (_spreads, SPREADS_KEPT))


def remember_spread(values: npt.NDArray[np.float64], found: Spread) -> None:
    """Keep ``found`` as the spread of ``values`` (worked out elsewhere, as :func:`spread`)."""
    remembered(_whole(values), ("spread",), lambda: found, store=(_spreads, SPREADS_KEPT))


def means_of(values: npt.NDArray[np.float64], masked: npt.NDArray[np.bool_] | None,
             block: tuple[int, int]) -> npt.NDArray[np.float64]:
    """:func:`~app.canvas.heat.block_means`, once per array and block while it lives when
    nothing is masked."""
    if masked is not None:
        return block_means(values, masked, block)
    return remembered(values, ("block means", block), lambda: block_means(values, None, block),
                      store=(_means, MEANS_KEPT))


def remember_means(values: npt.NDArray[np.float64], block: tuple[int, int],
                   means: npt.NDArray[np.float64]) -> None:
    """Keep ``means`` as :func:`means_of` ``values`` with nothing masked (worked out
    elsewhere)."""
    remembered(values, ("block means", block), lambda: means, store=(_means, MEANS_KEPT))


def _whole(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The array that owns ``values`` when ``values`` is all of its numbers in the same order,
    else ``values``."""
    owner = values.base
    if (isinstance(owner, np.ndarray) and owner.size == values.size
            and owner.dtype == values.dtype and values.flags.c_contiguous
            and owner.flags.c_contiguous
            and owner.__array_interface__["data"][0] == values.__array_interface__["data"][0]):
        return owner
    return values


FORMATS_KEPT = 512
_formats: dict[int, tuple[weakref.ref[np.ndarray], int, tuple[NumberFormat, str]]] = {}


def number_format(values: npt.NDArray[np.float64], places: int) -> tuple[NumberFormat, str]:
    """The one format of a grid of ``values`` and the widest text it prints.

    Known by the array itself while it lives: after an edit the composition asks again for
    every array of the document, and all but those downstream of the edit are the same objects.
    """
    known = _known_format(values, places)
    if known is not None:
        return known
    result = NumberFormat.with_widest(
        spread(values) if values.size >= REMEMBERED_FROM else values, places)
    if len(_formats) >= FORMATS_KEPT:
        for gone in [key for key, (array, _, _) in _formats.items() if array() is None]:
            del _formats[gone]
        if len(_formats) >= FORMATS_KEPT:
            _formats.clear()
    _formats[id(values)] = (weakref.ref(values), places, result)
    return result


def known_format(values: npt.NDArray[np.float64], places: int) -> tuple[NumberFormat, str] | None:
    """:func:`number_format` when that reads no large array's numbers (the array is small,
    or its format or spread was worked out before), else None."""
    if values.size < REMEMBERED_FROM or _known_format(values, places) is not None:
        return number_format(values, places)
    owner = values if values.base is None else values.base
    spread_known = _spreads.get(_key(values, ("spread",)))
    return number_format(values, places) \
        if spread_known is not None and spread_known[0]() is owner else None


def _known_format(values: npt.NDArray[np.float64], places: int
                  ) -> tuple[NumberFormat, str] | None:
    known = _formats.get(id(values))
    return known[2] if known is not None and known[0]() is values and known[1] == places \
        else None


PRODUCTS_KEPT = 16
"""Products kept (:func:`product`): a frame shows one feed-forward's gate at a time."""
_products: OrderedDict[tuple[int, ...], tuple[tuple[weakref.ref[np.ndarray], ...],
                                               npt.NDArray[np.float64]]] = OrderedDict()


def product(x: npt.NDArray[np.float64], weight: npt.NDArray[np.float64],
            bias: npt.NDArray[np.float64] | None) -> npt.NDArray[np.float64]:
    """``x · weight + bias`` (no bias: 0), worked out once while these three arrays live: a
    frame is laid out at several wraps and scales, and Llama-3.2-1B's gate (16 × 2,048 ·
    2,048 × 8,192) took 0.15 s each time, 7 s a frame."""
    operands = (x, weight) if bias is None else (x, weight, bias)
    key = tuple(id(array) for array in operands)
    known = _products.get(key)
    if known is not None and all(ref() is array
                                 for ref, array in zip(known[0], operands, strict=True)):
        _products.move_to_end(key)
        return known[1]
    result: npt.NDArray[np.float64] = x @ weight + (0.0 if bias is None else bias)
    _products[key] = (tuple(weakref.ref(array) for array in operands), result)
    while len(_products) > PRODUCTS_KEPT:
        _products.popitem(last=False)
    return result
