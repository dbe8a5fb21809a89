"""Rare wide cells: the few numbers of a grid that print far wider than the rest, drawn smaller.

A non-zero value that fixed point would round to 0 prints scientific (``1.319×10⁻⁵``: never a false
0, :mod:`engine.format.numbers`), about twice as wide as the grid's other numbers. When such values
are rare (at most :data:`RARE` of the grid's cells) the cells are sized for the other numbers
(:meth:`~engine.format.numbers.NumberFormat.usual`) and those few are printed smaller to fit, at
least :data:`SMALLEST` of the usual size; hovering a cell gives its value in full. Otherwise every
cell is sized for the widest text, as before (a built-in example's few shares of 10⁻⁴ are a sixth of
their grid or more). A frame for a back row (F5, an export: :func:`full_size_cells`) prints every
cell at full size: the columns holding rare wide cells (at most :data:`WIDE_COLUMNS` of them) are
each as wide as their own widest text, the others sized for the usual one; more, and every cell
is as wide as the widest.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from app.canvas.powers import number_advance
from app.canvas.remember import Store, number_format, remembered, spread
from engine.format.numbers import NumberFormat, in_blocks

RARE = 0.05
"""At most this share of a grid's cells (one in 20) printed smaller: a 20 × 20 grid's 20."""
SMALLEST = 0.5
"""A rare wide cell is printed at least half the size of the others, else no cell is."""
WIDE_COLUMNS = 512
"""At most this many rare wide cells widen only their own columns on a back row; beyond, every
column is as wide as the widest (a big grid's layout stays one width, quick)."""
RARE_FROM = 4096
"""Arrays this large are remembered: counting their values that round to 0 reads them all."""


SIZINGS_KEPT = 4096
"""Sizings kept (:func:`sizing`), of arrays of every size: laying one frame of a GPT-2-sized
preset out tries its arrangements with thousands of grids of the same few hundred arrays (and
views of them), and each grid asked for its sizing again (about a third of a millisecond)."""
_sizings: Store = OrderedDict()


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
    how many of its values round to 0 (0 when none is printed smaller), and on a back row the
    columns wider than the others (each column's index and its widest text)."""

    format: NumberFormat
    text: str
    rounding_to_zero: int
    wide_columns: tuple[tuple[int, str], ...] = ()


def rounding_to_zero(values: npt.NDArray[np.float64], places: int) -> int:
    """How many non-zero ``values`` are under half a unit of the last decimal (printed
    scientific in a fixed-point grid)."""
    half = 0.5 * 10.0 ** -places
    return sum(int(np.count_nonzero((block != 0) & (np.abs(block) < half)))
               for block in in_blocks(values))


def remembered_rounding(values: npt.NDArray[np.float64], places: int, found: int | None = None
                        ) -> int:
    """:func:`rounding_to_zero`, once per large array and places while it lives (``found``:
    the count worked out elsewhere, kept)."""
    if values.size < RARE_FROM:
        return rounding_to_zero(values, places)
    return remembered(values, ("rounding to 0", places),
                      lambda: rounding_to_zero(values, places) if found is None else found)


def sizing(values: npt.NDArray[np.float64], places: int, size: int) -> Sizing:
    """:func:`_sized`, once per array (a view of one included) while it lives, places, size and
    :func:`full_size_cells`."""
    full = _FULL.get()
    return remembered(values, ("sizing", places, size, full),
                      lambda: _sized(values, places, size, full), store=(_sizings, SIZINGS_KEPT),
                      smallest=0)


def _sized(values: npt.NDArray[np.float64], places: int, size: int, full: bool) -> Sizing:
    """How the cells of a grid of ``values`` printed at ``size`` are sized: for the usual text
    when the values that round to 0 are rare and fit at :data:`SMALLEST` of ``size``, else for
    the widest; when ``full`` (:func:`full_size_cells`), for the usual text with the columns
    of up to :data:`WIDE_COLUMNS` such values each as wide as its own, else for the widest."""
    found, widest = number_format(values, places)
    usual = found.usual(spread(values) if values.size >= RARE_FROM else values)
    if usual == widest:
        return Sizing(found, widest, 0)
    count = remembered_rounding(values, places)
    if full:
        if not 0 < count <= WIDE_COLUMNS:
            return Sizing(found, widest, 0)
        return Sizing(found, usual, 0, _wide_columns(values, found, usual, size))
    shrink = number_advance(usual, size) / number_advance(widest, size)
    if not 0 < count <= RARE * values.size or shrink < SMALLEST:
        return Sizing(found, widest, 0)
    return Sizing(found, usual, count)


def _near_zero(values: npt.NDArray[np.float64], found: NumberFormat) -> list[list[int]]:
    """Where the non-zero ``values`` that round to 0 are (row, col; an array of heads as its
    rows one under the other)."""
    flat = values.reshape(-1, values.shape[-1]) if values.ndim else values.reshape(1, 1)
    near = (flat != 0) & (np.abs(flat) < 0.5 * 10.0 ** -found.places)
    cells: list[list[int]] = np.argwhere(near).tolist()
    return cells


def _wide_columns(values: npt.NDArray[np.float64], found: NumberFormat, usual: str,
                  size: int) -> tuple[tuple[int, str], ...]:
    """The columns whose cells print wider than ``usual`` at ``size``, each with its widest
    text."""
    room = number_advance(usual, size)
    widest: dict[int, tuple[float, str]] = {}
    flat = values.reshape(-1, values.shape[-1])
    for row, col in _near_zero(values, found):
        text = found.text(float(flat[row, col]))
        advance = number_advance(text, size)
        if advance > max(room, widest.get(col, (0.0, ""))[0]):
            widest[col] = (advance, text)
    return tuple((col, text) for col, (_, text) in sorted(widest.items()))


def small_cells(values: npt.NDArray[np.float64], found: NumberFormat, room: float,
                size: int) -> dict[tuple[int, int], int]:
    """The cells whose text is wider than ``room`` at ``size``, each with the pixel size that
    fits it."""
    sizes = {}
    for row, col in _near_zero(values, found):
        advance = number_advance(found.text(float(values[row, col])), size)
        if advance > room:
            sizes[(row, col)] = max(1, math.floor(size * room / advance))
    return sizes
