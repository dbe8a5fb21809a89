"""A grid too large to print as a heat map: its extent bounded, its colours one square per block
of cells, each block drawn in the colour of its cells' mean.

A GPT-2 layer's X (8 × 768) printed cell by cell is 35,000 units wide and its vocabulary head
(768 × 50,257) 2.3 million: laid out at that size, every frame of the document would be drawn
at the smallest scale. A heat map spans at most :data:`HEAT_WIDTH` × :data:`HEAT_HEIGHT` units
and draws at most :data:`HEAT_BLOCKS` squares along each side; zooming in on the window's canvas
draws the exact colours and the numbers of the cells in view once they are legible
(:class:`~app.canvas.grid.MatrixGrid`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

HEAT_FROM_WIDTH = 4800.0
HEAT_FROM_HEIGHT = 3400.0
"""A grid whose cells printed at their natural size would be wider or taller than this (about
104 columns of three decimals, 130 rows) is drawn as a heat map; a 64-position document's
grids keep their printed receiver row."""
HEAT_WIDTH = 400.0
HEAT_HEIGHT = 300.0
"""The largest extent, in item units, of a heat map's cells: a GPT-2 layer's widest step
(X · W1 + b1 = hidden, four maps a row) then fits a 1920-unit sheet at about its natural
size, so a deck of its frames prints its numbers at a slide's size."""
HEAT_BLOCKS = 1024
"""At most this many squares along each side of a heat map: a longer side groups its cells
into blocks of ⌈cells / 1024⌉."""
ZOOMED_CELLS = 6000
"""Cells in view that the window draws one by one (exact colour, and the number when legible):
zoomed out further, the blocks' colours stand for them."""


@dataclass(frozen=True)
class HeatLimits:
    """When a grid is drawn as a heat map (printed wider or taller than ``from_width`` ×
    ``from_height`` units) and the largest extent of its cells then (``width`` × ``height``)."""

    from_width: float = HEAT_FROM_WIDTH
    from_height: float = HEAT_FROM_HEIGHT
    width: float = HEAT_WIDTH
    height: float = HEAT_HEIGHT


USUAL_HEAT = HeatLimits()
"""The limits every grid is laid out by but a frame by itself that needs smaller heat maps."""
_LIMITS: ContextVar[HeatLimits] = ContextVar("heat_limits", default=USUAL_HEAT)
"""The heat-map limits in force (:func:`heat_limits`)."""


def heat_limits() -> HeatLimits:
    """The heat-map limits grids are laid out by now (:func:`heat_within`)."""
    return _LIMITS.get()


@contextmanager
def heat_within(limits: HeatLimits) -> Iterator[None]:
    """Lay out grids with ``limits``: a frame laid out by itself whose printed grids could not
    be legible on its sheet at any scale (a GPT-2 layer's 8 × 64 slices of one head) draws them
    as heat maps, and its heat maps smaller so that their labels and the rest grow."""
    token = _LIMITS.set(limits)
    try:
        yield
    finally:
        _LIMITS.reset(token)


PRINTED_ALWAYS = 32
"""A grid of at most this many rows and columns prints its numbers under any limits: a small
frame by itself (a comparison's half) shrinks rather than hide them in a heat map."""


def needs_heat(rows: int, cols: int, cell_width: float, cell_height: float) -> bool:
    """Whether a grid of ``rows × cols`` cells of this size is drawn as a heat map."""
    limits = _LIMITS.get()
    if limits != USUAL_HEAT and max(rows, cols) <= PRINTED_ALWAYS:
        return False
    return cols * cell_width > limits.from_width or rows * cell_height > limits.from_height


def block_shape(rows: int, cols: int) -> tuple[int, int]:
    """How many cells (rows, columns) one square of the heat map stands for."""
    return math.ceil(rows / HEAT_BLOCKS), math.ceil(cols / HEAT_BLOCKS)


def block_means(values: npt.NDArray[np.float64], masked: npt.NDArray[np.bool_] | None,
                block: tuple[int, int]) -> npt.NDArray[np.float64]:
    """Each block's mean over its unmasked cells (NaN where every cell is masked); the last
    block of a side holds the cells left over. Sums are taken block by block
    (:func:`numpy.add.reduceat`): no copy of a 38-million-number matrix is made."""
    rows, cols = values.shape
    down, across = block
    row_starts, col_starts = np.arange(0, rows, down), np.arange(0, cols, across)
    shown = values if masked is None else np.where(masked, 0.0, values)
    sums = _block_sums(shown, row_starts, col_starts)
    if masked is None:
        counts = np.outer(np.diff(row_starts, append=rows), np.diff(col_starts, append=cols))
    else:
        counts = _block_sums((~masked).astype(np.float64), row_starts, col_starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        means: npt.NDArray[np.float64] = np.where(counts > 0, sums / counts, np.nan)
    return means


def _block_sums(values: npt.NDArray[np.float64], row_starts: npt.NDArray[np.intp],
                col_starts: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    if len(col_starts) == values.shape[1]:
        across = values
    elif values.flags.f_contiguous and not values.flags.c_contiguous:
        across = _column_blocks_summed(values, col_starts)
    else:
        across = np.add.reduceat(values, col_starts, axis=1)
    sums: npt.NDArray[np.float64] = across if len(row_starts) == values.shape[0] else \
        np.add.reduceat(across, row_starts, axis=0)
    return np.asarray(sums, dtype=np.float64)


def _column_blocks_summed(values: npt.NDArray[np.float64],
                          col_starts: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """``np.add.reduceat(values, col_starts, axis=1)`` of a column-major array (a tied
    unembedding: the embedding transposed), bit for bit, read in memory order: reduceat walked
    Llama-3.2-1B's 2,048 rows a number at a time 16 KB apart (7.5 s; this: 0.5 s). Each block's
    first column, plus the pairwise sum of the others (:func:`_pairwise`), as numpy adds."""
    columns = values.T
    ends = [*col_starts[1:].tolist(), values.shape[1]]
    sums = np.empty((values.shape[0], len(col_starts)))
    for k, (start, end) in enumerate(zip(col_starts.tolist(), ends, strict=True)):
        sums[:, k] = columns[start] + _pairwise(columns[start + 1:end]) if end - start > 1 \
            else columns[start]
    return sums


def _pairwise(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The sum of ``rows`` in numpy's pairwise order (``pairwise_sum`` in its
    ``loops_utils.h``): under 8 one by one from 0; up to 128 in 8 running sums, combined as
    ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)), then the rest one by one; beyond, the two halves
    (the first a multiple of 8) summed so and added."""
    n = len(rows)
    if n < 8:
        total = np.zeros(rows.shape[1])
        for row in rows:
            total = total + row
        return total
    if n <= 128:
        partial = [rows[j].copy() for j in range(8)]
        whole = n - n % 8
        for start in range(8, whole, 8):
            for j in range(8):
                partial[j] += rows[start + j]
        combined: npt.NDArray[np.float64] = (
            ((partial[0] + partial[1]) + (partial[2] + partial[3]))
            + ((partial[4] + partial[5]) + (partial[6] + partial[7])))
        for row in rows[whole:]:
            combined = combined + row
        return combined
    half = n // 2 - n // 2 % 8
    halves: npt.NDArray[np.float64] = _pairwise(rows[:half]) + _pairwise(rows[half:])
    return halves


def span_text(first: int, last: int) -> str:
    """``0–767`` (a single index alone)."""
    return f"{first:,}" if first == last else f"{first:,}–{last:,}"
