"""Rare wide cells: the few numbers of a grid that print far wider than the rest, drawn smaller.

A non-zero value that fixed point would round to 0 prints scientific (``1.319×10⁻⁵``: never a
false 0, :mod:`engine.numbers`), about twice as wide as the grid's other numbers. When such
values are rare (at most :data:`RARE` of the grid's cells) the cells are sized for the other
numbers (:meth:`~engine.numbers.NumberFormat.usual`) and those few are printed smaller to fit,
at least :data:`SMALLEST` of the usual size; hovering a cell gives its value in full. Otherwise
every cell is sized for the widest text, as before (a built-in example's few shares of 10⁻⁴
are a sixth of their grid or more). A frame for a back row (F5, an export:
:func:`full_size_cells`) prints every cell at full size, its cells as wide as the widest.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from app.canvas.powers import number_advance
from app.canvas.remember import number_format, remembered, spread
from engine.numbers import NumberFormat

RARE = 0.05
"""At most this share of a grid's cells (one in 20) printed smaller: a 20 × 20 grid's 20."""
SMALLEST = 0.5
"""A rare wide cell is printed at least half the size of the others, else no cell is."""
RARE_FROM = 4096
"""Arrays this large are remembered: counting their values that round to 0 reads them all."""


_FULL: ContextVar[bool] = ContextVar("full-size cells", default=False)
"""Whether grids laid out now print every cell at full size (:func:`full_size_cells`)."""


@contextmanager
def full_size_cells(full: bool = True) -> Iterator[None]:
    """Lay out grids with every cell at full size (``full``): a slide or a printed page is read
    from a back row, where a rare cell at half size (``−2.514×10⁻⁴`` at 6 px) cannot be."""
    token = _FULL.set(full)
    try:
        yield
    finally:
        _FULL.reset(token)


def cells_full_size() -> bool:
    """Whether grids laid out now print every cell at full size (:func:`full_size_cells`)."""
    return _FULL.get()


@dataclass(frozen=True)
class Sizing:
    """What a grid's cells are sized for: its one format, the text the cells are as wide as,
    and how many of its values round to 0 (0 when none is printed smaller)."""

    format: NumberFormat
    text: str
    rounding_to_zero: int


def _rounding_to_zero(values: npt.NDArray[np.float64], places: int) -> int:
    """How many non-zero ``values`` are under half a unit of the last decimal (printed
    scientific in a fixed-point grid)."""
    def count() -> int:
        return int(np.count_nonzero((values != 0) & (np.abs(values) < 0.5 * 10.0 ** -places)))
    if values.size < RARE_FROM:
        return count()
    return remembered(values, ("rounding to 0", places), count)


def sizing(values: npt.NDArray[np.float64], places: int, size: int) -> Sizing:
    """How the cells of a grid of ``values`` printed at ``size`` are sized: for the usual text
    when the values that round to 0 are rare and fit at :data:`SMALLEST` of ``size`` (unless
    :func:`full_size_cells`), else for the widest."""
    found, widest = number_format(values, places)
    if _FULL.get():
        return Sizing(found, widest, 0)
    usual = found.usual(spread(values) if values.size >= RARE_FROM else values)
    if usual == widest:
        return Sizing(found, widest, 0)
    count = _rounding_to_zero(values, places)
    shrink = number_advance(usual, size) / number_advance(widest, size)
    if not 0 < count <= RARE * values.size or shrink < SMALLEST:
        return Sizing(found, widest, 0)
    return Sizing(found, usual, count)


def small_cells(values: npt.NDArray[np.float64], found: NumberFormat, room: float,
                size: int) -> dict[tuple[int, int], int]:
    """The cells whose text is wider than ``room`` at ``size``, each with the pixel size that
    fits it."""
    sizes = {}
    near_zero = (values != 0) & (np.abs(values) < 10.0 ** -found.places)
    for row, col in np.argwhere(near_zero).tolist():
        advance = number_advance(found.text(float(values[row, col])), size)
        if advance > room:
            sizes[(row, col)] = max(1, math.floor(size * room / advance))
    return sizes
