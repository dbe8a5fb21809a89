"""A labelled matrix drawn as a grid of coloured cells with every number printed."""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QPainter,
    QPen,
    QPicture,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.bidi import codes_left_to_right
from app.canvas.cividis import CIVIDIS_ARGB
from app.canvas.heat import (
    ZOOMED_CELLS,
    block_means,
    block_shape,
    heat_limits,
    needs_heat,
)
from app.canvas.number_layer import Words, paint_kept, paint_layer
from app.canvas.picture import (
    draw_text,
    font_key,
    heat_numbers_left_out,
    legible,
    note_in_view,
    on_screen,
    play,
)
from app.canvas.points import Lines
from app.canvas.powers import number_advance, placed
from app.canvas.rare_cells import cells_full_size, sizing, small_cells
from app.canvas.remember import Store, means_of, remembered, spread
from app.canvas.theme import (
    Theme,
    cell_color,
    fitted_lines,
    font,
    ink_for,
    text_advance,
    text_font,
    widest_advance,
)
from app.plain_text import as_written
from app.texts.frame_words import join_notes
from app.texts.words import say
from engine.format.numbers import NumberFormat

NUMBER_SIZE = 17
"""Pixel size of the printed numbers (before the frame's scale)."""
CELL_HEIGHT = 26.0
LARGE_GRID_CELLS = 1024
"""Above this many cells a grid draws its colours as one image and prints only the numbers of
its highlighted rows (the receiver); hovering still explains every cell."""
LABEL_GAP = 6.0
TITLE_HEIGHT = 24.0
SWATCH = QRectF(0.0, TITLE_HEIGHT / 2 - 6, 12.0, 12.0)
"""The head's colour square before a grid's title (item units)."""
MARK_SIZE = 9.0
"""The legs of the corner triangle that marks a cell (a ReLU-zeroed unit)."""
HEADER_HEIGHT = 20.0
DECIMALS = 3
LEGEND_HEIGHT = 22.0
LEGEND_BAR = 100.0
LINE_HEIGHT = 18.0
"""A heat map's colour scale under its note: its lowest number, the bar, its highest."""
ZOOMED_TEXT = 5.0
"""On screen, a heat map prints the numbers of the cells in view once they are this many
pixels tall (zoomed in); hovering gives any cell's exact value at every size."""
BLANK = "—"
"""What a blank cell prints (:attr:`GridSpec.blank`)."""
ASKED = "?"
"""The mark in the empty box of a cell an exercise asks for (:attr:`GridSpec.asked`); the
cell's own text is empty."""

Explainer = Callable[[int, int], str]


@dataclass
class GridSpec:
    """What one grid shows.

    Attributes
    ----------
    title
        Shown above the grid, e.g. ``"Q = X·Wq"``; the shape is appended.
    values
        The 2-D array.
    row_labels, col_labels
        One label per row / column (token labels, vocabulary entries or indices).
    value_range
        The range the colours span; by default the array's own minimum and maximum.
    masked
        Cells hidden by the causal mask: drawn hatched and grey, number kept.
    blank
        Cells with no number to show: printed :data:`BLANK` instead of their value (give them
        ``masked`` too to grey them).
    asked
        Cells an exercise asks for (:attr:`FrameOptions.blanks`): drawn empty on the page's
        colour in a dashed box marked :data:`ASKED`, no number, no colour and no hover
        arithmetic that would give the value away (a large grid greys them as masked).
    highlight_rows
        Rows drawn with an accent outline (the receiver in focus).
    marked
        Cells marked with a small corner triangle (ReLU-zeroed units, picked rows …).
    note
        A line under the grid (``"÷ √2 = 1.414"``).
    lang
        Language of the grid's own words (the note of a large grid).
    """

    title: str
    values: npt.NDArray[np.float64]
    row_labels: Sequence[str]
    col_labels: Sequence[str]
    value_range: tuple[float, float] | None = None
    masked: npt.NDArray[np.bool_] | None = None
    blank: npt.NDArray[np.bool_] | None = None
    asked: npt.NDArray[np.bool_] | None = None
    highlight_rows: frozenset[int] = frozenset()
    marked: npt.NDArray[np.bool_] | None = None
    note: str = ""
    swatch: str = ""
    explain: Explainer | None = field(default=None, compare=False)
    lang: str = "en"
    decimals: int = DECIMALS


Cell = tuple[int, ...]
"""A cell's whole index in a trace array: ``(row, col)``, or ``(head, row, col)``."""


@dataclass(frozen=True)
class GridCells:
    """How a grid's cells map to the cells of the trace array it shows (a head's slice, some
    columns, transposed): a click on the grid names the array's cell."""

    head: int | None
    col_offset: int
    transpose: bool

    def index_of(self, row: int, col: int) -> Cell:
        """The array's index of the grid's cell (``row``, ``col``)."""
        r, c = (col, row) if self.transpose else (row, col)
        c += self.col_offset
        return (self.head, r, c) if self.head is not None else (r, c)


def _levels(values: npt.NDArray[np.float64], lo: float, hi: float) -> npt.NDArray[np.uint8]:
    """Each value's cividis level, 0 to 255, across ``lo`` … ``hi`` (worked in one buffer: a
    large grid has a quarter of a million cells)."""
    span = hi - lo
    if not span > 0:
        return np.full(values.shape, 128, dtype=np.uint8)  # round(0.5 · 255)
    scaled = np.subtract(values, lo, dtype=np.float64)
    scaled /= span
    np.clip(scaled, 0.0, 1.0, out=scaled)
    scaled *= 255
    np.rint(scaled, out=scaled)
    levels: npt.NDArray[np.uint8] = scaled.astype(np.uint8)
    return levels


def _heat_image(cells: _Cells, masked_rgb: tuple[int, int, int]) -> QImage:
    """A large grid's colours, a pixel per cell; masked cells in flat grey."""
    red, green, blue = masked_rgb
    argb = CIVIDIS_ARGB[cells.shade]  # fancy indexing: a copy to paint on
    argb[cells.masked] = 0xFF << 24 | red << 16 | green << 8 | blue
    return _argb_image(argb)


def _heat_after(before: QImage, cells: _Cells, changed: npt.NDArray[np.intp]) -> QImage:
    """:func:`_heat_image` of a grid whose ``changed`` cells (flat indices) are all that differ
    from the grid ``before`` was made for, with the same colour scale and mask."""
    image = QImage(before)  # shares the pixels until the first one is set
    rows, cols = np.divmod(changed, cells.shade.shape[1])
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        if not cells.masked[row, col]:
            image.setPixel(col, row, int(CIVIDIS_ARGB[cells.shade[row, col]]))
    return image


def _blocks_image(means: npt.NDArray[np.float64], lo: float, hi: float,
                  masked_rgb: tuple[int, int, int]) -> QImage:
    """A heat map's colours, a pixel per block in its mean's colour; blocks whose every cell is
    masked (a NaN mean) in flat grey."""
    return _argb_image(_blocks_argb(means, lo, hi, masked_rgb))


def _blocks_argb(means: npt.NDArray[np.float64], lo: float, hi: float,
                 masked_rgb: tuple[int, int, int]) -> npt.NDArray[np.uint32]:
    hidden = np.isnan(means)
    red, green, blue = masked_rgb
    argb: npt.NDArray[np.uint32] = CIVIDIS_ARGB[_levels(np.where(hidden, lo, means), lo, hi)]
    argb[hidden] = 0xFF << 24 | red << 16 | green << 8 | blue
    return argb


def _blocks_after(before: QImage, values: npt.NDArray[np.float64],
                  masked: npt.NDArray[np.bool_] | None, block: tuple[int, int], lo: float,
                  hi: float, masked_rgb: tuple[int, int, int],
                  changed: npt.NDArray[np.intp]) -> QImage:
    """:func:`_blocks_image` of ``values`` whose ``changed`` cells (flat indices) are all that
    differ from the array ``before`` was made for, with the same colour scale and mask: the
    blocks holding them worked out again from their own cells (the same sums, bit for bit)."""
    image = QImage(before)  # shares the pixels until the first one is set
    down, across = block
    rows, cols = np.divmod(changed, values.shape[1])
    for top, left in dict.fromkeys(zip((rows // down * down).tolist(),
                                       (cols // across * across).tolist(), strict=True)):
        cells = (slice(top, top + down), slice(left, left + across))
        mean = block_means(values[cells], None if masked is None else masked[cells], block)
        image.setPixel(left // across, top // down,
                       int(_blocks_argb(mean, lo, hi, masked_rgb)[0, 0]))
    return image


def _cell_image(shade: npt.NDArray[np.uint8], clear: npt.NDArray[np.bool_]) -> QImage:
    """An image of a pixel per cell in the cells' cividis colours; ``clear`` cells transparent."""
    argb = CIVIDIS_ARGB[shade]
    argb[clear] = 0
    return _argb_image(argb)


def _argb_image(argb: npt.NDArray[np.uint32]) -> QImage:
    """Pixels each opaque or wholly clear, so the same bits are premultiplied: the format the
    screen draws without converting it first (a fifth of the time for a grid's colours)."""
    rows, cols = argb.shape
    image = QImage(np.ascontiguousarray(argb).tobytes(), cols, rows, cols * 4,
                   QImage.Format.Format_ARGB32_Premultiplied)
    return image.copy()


@dataclass(frozen=True)
class _ScreenGeometry:
    """What a grid draws on screen besides its words, worked out once per grid."""

    image: QImage | None
    """A small grid's colours, a pixel per cell (a large grid's are drawn under everything)."""
    hatched: Sequence[QRectF]
    lines: Lines


@dataclass
class _Cells:
    """What painting a grid's cells needs, worked out once per grid."""

    lo: float
    hi: float
    rows: list[int]
    """The rows whose cells are drawn one by one (a large grid: its highlighted rows)."""
    shade: npt.NDArray[np.uint8]
    """Each cell's cividis level, 0 to 255."""
    masked: npt.NDArray[np.bool_]
    asked: npt.NDArray[np.bool_]
    """Cells an exercise asks for: no colour, no number (:attr:`GridSpec.asked`)."""


GEOMETRIES_KEPT = 128
"""Grid outlines and masked runs kept: they depend on the layout and the mask, not on the
numbers, so an edit's new grids find them again."""


Columns = float | tuple[float, ...]
"""A grid's columns: one width for all, or each column's left edge from the first's and the
last's right edge (a back row's columns each as wide as their own text)."""


def column_edges(cols: int, columns: Columns) -> npt.NDArray[np.float64]:
    """The ``cols + 1`` edges of the columns from the first column's left edge."""
    if isinstance(columns, tuple):
        return np.asarray(columns, dtype=np.float64)
    return np.arange(cols + 1, dtype=np.float64) * columns


@lru_cache(maxsize=16)
def _edges(cols: int, columns: Columns) -> tuple[float, ...]:
    """:func:`column_edges` as a tuple, once per count and widths: a layout's search builds
    grids of the vocabulary's 128,256 columns dozens of times (1 s of the logits step)."""
    return tuple(column_edges(cols, columns).tolist())


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _grid_lines(rows: int, cols: int, origin: tuple[float, float], columns: Columns) -> Lines:
    ox, oy = origin
    down = ox + column_edges(cols, columns)
    right, bottom = float(down[-1]), oy + rows * CELL_HEIGHT
    across = oy + np.arange(rows + 1) * CELL_HEIGHT
    ends = np.empty((rows + cols + 2, 2, 2))
    ends[:rows + 1, :, 0] = ox, right
    ends[:rows + 1, :, 1] = across[:, None]
    ends[rows + 1:, :, 0] = down[:, None]
    ends[rows + 1:, :, 1] = oy, bottom
    return Lines(ends)


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _row_lines(cell_rows: tuple[int, ...], cols: int, origin: tuple[float, float],
               columns: Columns) -> Lines:
    ox, oy = origin
    edges = ox + column_edges(cols, columns)
    right = float(edges[-1])
    tops = oy + np.asarray(cell_rows, dtype=float) * CELL_HEIGHT
    across = np.empty((len(cell_rows), 2, 2, 2))
    across[..., 0] = ox, right
    across[:, 0, :, 1] = tops[:, None]
    across[:, 1, :, 1] = tops[:, None] + CELL_HEIGHT
    down = np.empty((len(cell_rows), cols + 1, 2, 2))
    down[..., 0] = edges[None, :, None]
    down[:, :, 0, 1] = tops[:, None]
    down[:, :, 1, 1] = tops[:, None] + CELL_HEIGHT
    return Lines(np.concatenate([across.reshape(-1, 2, 2), down.reshape(-1, 2, 2)]))


@lru_cache(maxsize=GEOMETRIES_KEPT)
def _masked_runs(packed: bytes, shape: tuple[int, ...], rows: tuple[int, ...],
                 origin: tuple[float, float], columns: Columns) -> tuple[QRectF, ...]:
    """``packed``: the mask of ``rows`` (``shape``) as :func:`numpy.packbits` packs it."""
    count = shape[0] * shape[1]
    masked = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), count=count).reshape(shape)
    ox, oy = origin
    edges = (ox + column_edges(shape[1], columns)).tolist()
    padded = np.zeros((len(rows), shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = masked
    steps = np.diff(padded, axis=1)
    starts, ends = np.nonzero(steps == 1), np.nonzero(steps == -1)  # row-major: paired
    return tuple(QRectF(edges[start], oy + rows[k] * CELL_HEIGHT,
                        edges[end] - edges[start], CELL_HEIGHT)
                 for k, start, end in zip(starts[0].tolist(), starts[1].tolist(),
                                          ends[1].tolist(), strict=True))


@cache
def _dark_ink_levels() -> tuple[bool, ...]:
    """For each of the 256 cividis levels: is black ink the readable one?"""
    return tuple(ink_for(cell_color(level / 255)).name() == "#000000" for level in range(256))


_DARK_INK = np.array(_dark_ink_levels())
""":func:`_dark_ink_levels` to index with an array of levels."""


_Run = tuple[QFont, QColor, QRectF, Qt.AlignmentFlag, list[tuple[QRectF, str]]]
"""Texts drawn in one font, ink and alignment: the font, the ink, the area they cover, the
alignment, and each text with its rectangle."""


def _label_runs(ink: QColor, area: QRectF, align: Qt.AlignmentFlag,
                labels: list[tuple[QRectF, str]]) -> list[_Run]:
    """An axis's labels as runs, one per font they are drawn in: ``好 · p2`` in the font that
    narrows its middle dot (as its width was measured), ``我`` in the frame's font."""
    by_font: dict[int, _Run] = {}
    for rect, label in labels:
        label_font = text_font(label, 12)
        by_font.setdefault(id(label_font), (label_font, ink, area, align, []))[4].append(
            (rect, label))
    return list(by_font.values())


_SIZE_ONLY: ContextVar[bool] = ContextVar("grid_size_only", default=False)
"""Whether the grids made now are only measured (:func:`size_only`)."""
_EXTENDED_STYLE = QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption


@contextmanager
def size_only(only: bool = True) -> Iterator[None]:
    """Make grids only to read their sizes (``only``; a layout the type scale's search tries
    and throws away): their painting flag and hovering, a fifth of a grid's making, unset."""
    token = _SIZE_ONLY.set(only)
    try:
        yield
    finally:
        _SIZE_ONLY.reset(token)


def sized_only() -> bool:
    """Whether what is made now is only measured (:func:`size_only`)."""
    return _SIZE_ONLY.get()


GRID_SIZES_KEPT = 4096
"""Grid sizes kept (:func:`grid_size`): laying one frame of a GPT-2-sized preset out tries its
arrangements with thousands of grids of the same few hundred arrays (and views of them)."""
SIZED_LABELS = 4096
"""Grids with more labels than this are sized afresh (their labels would make a long key)."""
_grid_sizes: Store = OrderedDict()


@dataclass(frozen=True)
class GridSize:
    """What a grid's layout is worked out from its spec: its cells, labels, note and extent
    (:class:`MatrixGrid`'s attributes of the same names; shared by the grids of one spec, so
    never changed)."""

    format: NumberFormat
    """One format for every cell (scientific for all when one value is huge)."""
    cell_width: float
    """The width of every column (of the others, when some are wider: :attr:`columns`)."""
    columns: Columns
    """One width for every column, or (a back row's rare wide cells,
    :mod:`app.canvas.rare_cells`) each column's edges, those columns as wide as their text."""
    heat: bool
    """Drawn as a heat map (:mod:`app.canvas.heat`): its cells squeezed into a bounded
    extent, its colours by blocks, its numbers only when zoomed in."""
    natural_width: float
    """A cell's width printed normally (a heat map's numbers are drawn at this size, scaled
    down to its cells)."""
    cell_height: float
    edges: tuple[float, ...]
    """Each column's left edge from the first's, and the last's right edge."""
    row_ticks: tuple[int, ...]
    col_ticks: tuple[int, ...]
    label_width: float
    large: bool
    small_cells: dict[tuple[int, int], int]
    """The rare cells printed smaller than :data:`NUMBER_SIZE`, each with its pixel size."""
    note: str
    note_lines: tuple[str, ...]
    """The note as drawn, a line each: a heat map's own note and what a square is, wrapped
    at its cells', title's or colour scale's width (never wider than the map needs)."""
    width: float
    height: float


def grid_size(spec: GridSpec) -> GridSize:
    """:func:`_grid_size`, once per array (a view of one included) while it lives, and what
    else of ``spec`` and the layout's settings (heat limits, full-size cells) decides it."""
    if len(spec.row_labels) + len(spec.col_labels) > SIZED_LABELS:
        return _grid_size(spec)
    what = ("grid size", spec.decimals, cells_full_size(), heat_limits(), spec.title,
            spec.note, spec.lang, bool(spec.highlight_rows), spec.value_range,
            tuple(spec.row_labels), tuple(spec.col_labels))
    return remembered(spec.values, what, lambda: _grid_size(spec),
                      store=(_grid_sizes, GRID_SIZES_KEPT), smallest=0)


def _grid_size(spec: GridSpec) -> GridSize:
    """How a grid of ``spec`` is laid out under the heat limits and cell sizing now."""
    values = spec.values
    sized = sizing(values, spec.decimals, NUMBER_SIZE)
    found, widest_text = sized.format, sized.text
    widest = number_advance(widest_text, NUMBER_SIZE)
    rows, cols = values.shape
    # Columns too many to print even at the narrowest cell: a heat map, whose first and last
    # labels alone are printed (no need to measure 50,257 vocabulary entries).
    widest_col = 0.0 if needs_heat(0, cols, max(46.0, widest + 8.0), 0.0) else \
        widest_advance(tuple(map(str, spec.col_labels)), 12)
    # 4 units each side of the widest number: enough to keep neighbours apart, and 3-decimal
    # grids of 8 tokens then print their numbers 20 px tall on a 1920×1080 sheet.
    cell_width = max(46.0, widest + 8.0, widest_col + 8.0)
    wide = {col: max(cell_width, number_advance(text, NUMBER_SIZE) + 8.0)
            for col, text in sized.wide_columns}
    heat = needs_heat(rows, cols, max([cell_width, *wide.values()]), CELL_HEIGHT)
    if heat and wide:
        cell_width, wide = max(wide.values()), {}
    columns: Columns = cell_width if not wide else tuple(np.concatenate(
        [[0.0], np.cumsum([wide.get(c, cell_width) for c in range(cols)])]).tolist())
    cell_height = CELL_HEIGHT
    natural_width = cell_width
    if heat:
        limits = heat_limits()
        cell_width = columns = min(cell_width, limits.width / cols)
        cell_height = min(CELL_HEIGHT, limits.height / rows)
    edges = _edges(cols, columns)
    if heat and widest_col == 0.0 and cell_width >= 8.0:
        # Its labels, not measured for a map of many columns, are measured when its columns
        # might hold them (a few hundred at most): 48 vocabulary entries over 12-unit columns
        # printed every label, each over its neighbours.
        widest_col = widest_advance(tuple(map(str, spec.col_labels)), 12)
    row_ticks = _ticks(rows, cell_height >= CELL_HEIGHT)
    col_ticks = _ticks(cols, cell_width >= widest_col + 8.0)
    label_width = widest_advance(tuple(str(spec.row_labels[r]) for r in row_ticks),
                                 12) + LABEL_GAP
    title_width = text_advance(_title(spec), 14, bold=True) + 22
    large = rows * cols > LARGE_GRID_CELLS or heat
    cells = small_cells(values, found, cell_width - 8.0, NUMBER_SIZE) \
        if sized.rounding_to_zero and not heat else {}
    note = spec.note
    note_lines: tuple[str, ...] = (note,) if note else ()
    scale_width = 0.0
    if heat:
        down, across = block_shape(rows, cols)
        square = say("frame.heat_cell" if down * across == 1 else "frame.heat_block", spec.lang,
                     down=down, across=across)
        note = join_notes(spec.lang, spec.note, square)
        low, high = (found.text(end) for end in _value_range(spec))
        scale_width = text_advance(low, 12) + LEGEND_BAR + text_advance(high, 12) + 16
        room = max(label_width + edges[-1], title_width, scale_width)
        note_lines = tuple(line for part in (spec.note, square) if part
                           for line in fitted_lines(part, room - 4, 12))
    elif large:
        shown = say("frame.large_highlighted" if spec.highlight_rows
                    else "frame.large_colours", spec.lang)
        note = join_notes(spec.lang, note,
                          say("frame.large_note", spec.lang, cells=rows * cols, shown=shown))
        note_lines = (note,)
    note_width = max([text_advance(line, 12) + 4 for line in note_lines], default=0.0)
    if heat:
        note_width = max(note_width, scale_width)
    width = max(label_width + edges[-1], title_width, note_width)
    height = TITLE_HEIGHT + HEADER_HEIGHT + rows * cell_height + \
        (2.0 + LINE_HEIGHT * len(note_lines) if note_lines else 0.0) + \
        (LEGEND_HEIGHT if heat else 0.0)
    return GridSize(found, cell_width, columns, heat, natural_width, cell_height, edges,
                    row_ticks, col_ticks, label_width, large, cells, note, note_lines, width,
                    height)


def _ticks(count: int, every: bool) -> tuple[int, ...]:
    """The labels an axis prints: every one, or (its cells too narrow for them) the first
    and the last."""
    return tuple(range(count)) if every else tuple(sorted({0, count - 1}))


def _title(spec: GridSpec) -> str:
    """A grid's title as drawn: the spec's, then its shape."""
    rows, cols = spec.values.shape
    return f"{spec.title}   {rows}×{cols}"


def _value_range(spec: GridSpec) -> tuple[float, float]:
    """The values a grid's colours span: the spec's range, else the values' own ends."""
    if spec.value_range is not None:
        return spec.value_range
    where = spread(spec.values)
    return where.low, where.high


class MatrixGrid(QGraphicsItem):
    """One matrix as a grid item; its drawing is recorded once into a picture and replayed."""

    _hovered: tuple[int, int] | None = None
    _heat: tuple[QRectF, QImage] | None = None
    _cell_plan: _Cells | None = None
    _shape_picture: QPicture | None = None
    """Recorded for files at their first paint."""
    _screen: _ScreenGeometry | None = None
    _text_picture: QPicture | None = None
    _word_runs: list[tuple[QFont, QColor, QRectF, Qt.AlignmentFlag, list[
        tuple[QRectF, str]]]] | None = None
    """Worked out at the first paint, texts only when they are drawn: laying out (and
    measuring a whole document's steps for its type scale) needs only the sizes, and a
    grid drawn too small to read on screen never formats its numbers."""
    _cells_from: QPointF | None = None

    def __init__(self, spec: GridSpec, theme: Theme) -> None:
        super().__init__()
        self.spec = spec
        self.theme = theme
        self.source: tuple[str, GridCells] | None = None
        """The trace array the grid shows and how its cells map to the array's (None: a
        parameter, or numbers of the painter's own)."""
        size = grid_size(spec)
        self.format = size.format
        self.cell_width = size.cell_width
        self.columns = size.columns
        self.heat = size.heat
        self.cell_height = size.cell_height
        self._natural_width = size.natural_width
        self._edges = size.edges
        self._row_ticks = size.row_ticks
        self._col_ticks = size.col_ticks
        self.label_width = size.label_width
        self.large = size.large
        self.small_cells = size.small_cells
        self.note = size.note
        self._note_lines = size.note_lines
        self._width = size.width
        self._height = size.height
        if not sized_only():  # a grid drawn: a grid only measured is never painted
            self.setFlag(_EXTENDED_STYLE, True)
            if spec.explain is not None:
                self.setAcceptHoverEvents(True)

    @property
    def natural_cell(self) -> QSizeF:
        """A cell's size printed normally (a heat map's numbers are drawn at this size)."""
        return QSizeF(self._natural_width, CELL_HEIGHT)

    @property
    def grid_origin(self) -> QPointF:
        """Where the cells start: right of the row labels, under the title and column labels
        (made at its first use: a grid only measured seldom asks)."""
        if self._cells_from is None:
            self._cells_from = QPointF(self.label_width, TITLE_HEIGHT + HEADER_HEIGHT)
        return self._cells_from

    def boundingRect(self) -> QRectF:
        return QRectF(0.0, 0.0, self._width, self._height)

    def col_left(self, col: int) -> float:
        """Where column ``col`` starts (``cols``: where the last ends), in item coordinates."""
        return self.grid_origin.x() + self._edges[col]

    def col_width(self, col: int) -> float:
        """How wide column ``col`` is."""
        return self._edges[col + 1] - self._edges[col]

    def _col_under(self, x: float) -> int:
        """The column whose span holds ``x`` (item coordinates; −1 left of the first, ``cols``
        right of the last)."""
        return bisect_right(self._edges, x - self.grid_origin.x()) - 1

    def cell_rect(self, row: int, col: int) -> QRectF:
        """Where cell (row, col) is, in item coordinates."""
        return QRectF(self.col_left(col), self.grid_origin.y() + row * self.cell_height,
                      self.col_width(col), self.cell_height)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        """The cell under ``point`` (item coordinates), or None."""
        col = self._col_under(point.x())
        row = int((point.y() - self.grid_origin.y()) // self.cell_height)
        rows, cols = self.spec.values.shape
        if point.x() < self.grid_origin.x() or point.y() < self.grid_origin.y():
            return None
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def _cells(self) -> _Cells:
        """Which rows get cells drawn, each cell's colour level and mask (worked out once)."""
        if self._cell_plan is None:
            spec = self.spec
            values = spec.values
            lo, hi = _value_range(self.spec)

            def shade_after(before: npt.NDArray[np.uint8], _parent: npt.NDArray[np.float64],
                            cells: npt.NDArray[np.intp]) -> npt.NDArray[np.uint8]:
                shade = before.copy()
                shade.flat[cells] = _levels(values.flat[cells], lo, hi)
                return shade

            rows = values.shape[0]
            drawn = [] if self.heat else \
                sorted(r for r in spec.highlight_rows if 0 <= r < rows) if self.large \
                else list(range(rows))
            nothing = np.broadcast_to(np.False_, values.shape)  # no memory for 38 million cells
            asked = spec.asked if spec.asked is not None else nothing
            masked = spec.masked if spec.masked is not None else nothing
            if self.heat and block_shape(*values.shape) != (1, 1):
                # no cell drawn one by one: levels only of the blocks and the cells in view
                self._cell_plan = _Cells(lo, hi, [], np.zeros((0, 0), np.uint8), masked, asked)
                return self._cell_plan
            self._cell_plan = _Cells(
                lo, hi, drawn,
                remembered(values, ("shade", lo, hi), lambda: _levels(values, lo, hi),
                           shade_after),
                masked | asked if self.large else masked, asked)
        return self._cell_plan

    def _file_shapes(self) -> QPicture:
        """Fills, lines and marks for files, recorded at the first paint: cells of one colour
        are filled by one ``drawRects`` call (vector shapes in SVG and PDF)."""
        if self._shape_picture is None:
            shapes = QPicture()
            sp = QPainter(shapes)
            self._draw_shapes(sp, screen=False)
            sp.end()
            self._shape_picture = shapes
        return self._shape_picture

    def _heat_picture(self) -> tuple[QRectF, QImage] | None:
        """A large grid's colours as one image of a pixel per cell (a heat map's: a pixel per
        block, in the colour of its cells' mean), and where it goes."""
        if self.large and self._heat is None:
            spec, theme, cells = self.spec, self.theme, self._cells()
            rows, cols = spec.values.shape
            masked_rgb = theme.color("masked")
            grey = (masked_rgb.red(), masked_rgb.green(), masked_rgb.blue())
            block = block_shape(rows, cols)
            if block != (1, 1):
                mask = None if spec.masked is None else hash(spec.masked.tobytes())
                image = remembered(spec.values, ("blocks", block, cells.lo, cells.hi, mask, grey),
                                   lambda: _blocks_image(means_of(spec.values, spec.masked, block),
                                                         cells.lo, cells.hi, grey),
                                   lambda before, _parent, changed: _blocks_after(
                                       before, spec.values, spec.masked, block, cells.lo,
                                       cells.hi, grey, changed))
            else:
                mask = hash(cells.masked.tobytes()) if cells.masked.any() else None
                image = remembered(spec.values, ("heat", cells.lo, cells.hi, mask, grey),
                                   lambda: _heat_image(cells, grey),
                                   lambda before, _parent, changed: _heat_after(before, cells,
                                                                                changed))
            self._heat = (self.cells_area(), image)
        return self._heat

    def cells_area(self) -> QRectF:
        """Where the cells are drawn, in item coordinates."""
        rows, cols = self.spec.values.shape
        return QRectF(self.grid_origin.x(), self.grid_origin.y(), self._edges[cols],
                      rows * self.cell_height)

    def _screen_geometry(self) -> _ScreenGeometry:
        """What the screen draws of the cells, worked out at the first paint: a small grid's
        colours as one image of a pixel per cell (masked ones clear), scaled up without
        smoothing; the masked cells as one rectangle per run in a row (a large grid: in its
        highlighted rows, over the image of every colour); the grid's lines."""
        if self._screen is None:
            cells = self._cells()
            rows = cells.rows if self.large else list(range(self.spec.values.shape[0]))
            self._screen = _ScreenGeometry(
                None if self.large else _cell_image(cells.shade, cells.masked | cells.asked),
                self._masked_runs(cells.masked[rows], rows),
                self._row_lines(cells.rows) if self.large else self._lines())
        return self._screen

    def _draw_shapes(self, sp: QPainter, screen: bool) -> None:
        """Fills, lines and marks: straight onto the window, or recorded for files."""
        spec, theme = self.spec, self.theme
        cells = self._cells()
        values, masked, shade, cell_rows = spec.values, cells.masked, cells.shade, cells.rows
        rows, cols = values.shape
        ox, oy = self.grid_origin.x(), self.grid_origin.y()
        sp.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if spec.swatch:
            sp.setPen(QPen(theme.color("text"), 1.0))
            sp.setBrush(QBrush(QColor(spec.swatch)))
            sp.drawRect(SWATCH)
        right, bottom = ox + self._edges[cols], oy + rows * self.cell_height
        if screen:
            geometry = self._screen_geometry()
            if geometry.image is not None:
                sp.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
                self._draw_columns(sp, QRectF(ox, oy, right - ox, bottom - oy), geometry.image)

            def hatch_and_lines(painter: QPainter) -> None:
                painter.setPen(Qt.PenStyle.NoPen)
                self._hatch(painter, geometry.hatched)
                self._draw_lines(painter, geometry.lines, cells)

            pad = 1.0 + 2.0 / max(abs(sp.worldTransform().m11()), abs(
                sp.worldTransform().m22()), 1e-6)  # a line's half width and two pixels
            if self.large or not paint_kept(  # a large grid's few lines: cheaper than a layer
                    sp, self._lines_key(cells),
                    self.cells_area().adjusted(-pad, -pad, pad, pad), hatch_and_lines):
                hatch_and_lines(sp)
        else:
            self._fill_as_rects(sp, cells)
            self._draw_lines(sp, self._row_lines(cell_rows) if self.large else self._lines(),
                             cells)
        dark_ink = _dark_ink_levels()
        if spec.marked is not None:
            for k, c in np.argwhere(spec.marked[cell_rows]).tolist():
                r = cell_rows[k]  # only the rows drawn cell by cell: not every cell
                corner = self.cell_rect(r, c).topLeft()
                sp.setPen(Qt.PenStyle.NoPen)
                sp.setBrush(QBrush(theme.color("accent") if masked[r, c] else
                                   QColor("#000000" if dark_ink[int(shade[r, c])]
                                          else "#ffffff")))
                sp.drawPolygon([corner, corner + QPointF(MARK_SIZE, 0),
                                corner + QPointF(0, MARK_SIZE)])
        sp.setBrush(Qt.BrushStyle.NoBrush)
        sp.setPen(QPen(theme.color("accent"), 3.0))
        for r in sorted(spec.highlight_rows):
            if 0 <= r < rows:
                sp.drawRect(QRectF(ox, oy + r * self.cell_height, right - ox,
                                   self.cell_height))
        if self.heat:
            self._draw_legend(sp)

    def _draw_lines(self, painter: QPainter, lines: Lines, cells: _Cells) -> None:
        """The grid's lines (a large grid's outline too) and its asked cells' boxes."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(self.theme.color("grid_line"), 1.0))
        if self.large:
            painter.drawRect(self.cells_area())
        lines.draw(painter)
        self._draw_asked(painter, cells)

    def _lines_key(self, cells: _Cells) -> Hashable:
        """All that decides the pixels of the masked cells' hatching, the lines and the asked
        boxes (the same for every edit that leaves the mask and the sizes be): the screen
        keeps them as one layer (:func:`~app.canvas.number_layer.paint_kept`)."""
        return ("grid lines", self.spec.values.shape, self._origin(), self.columns,
                np.packbits(cells.masked).tobytes(),
                np.packbits(cells.asked & ~cells.masked).tobytes(),
                tuple(self.theme.color(role).rgba() for role in ("masked", "grid_line",
                                                                  "accent")))

    def _draw_columns(self, painter: QPainter, rect: QRectF, image: QImage) -> None:
        """``image`` (a pixel per cell, or a heat map's per block) over ``rect``: at once when
        the columns share one width, else each run of columns of one width from its pixels."""
        cols = self.spec.values.shape[1]
        if not isinstance(self.columns, tuple) or image.width() != cols:
            painter.drawImage(rect, image)
            return
        start = 0
        for c in range(1, cols + 1):
            if c == cols or self.col_width(c) != self.col_width(start):
                left = self.col_left(start)
                painter.drawImage(QRectF(left, rect.top(), self.col_left(c) - left,
                                         rect.height()),
                                  image, QRectF(start, 0, c - start, image.height()))
                start = c

    def _legend_rect(self) -> QRectF:
        """Where a heat map's colour bar goes: between its lowest and highest number."""
        top = self.note_rect().bottom()
        low = text_advance(self._legend_ends()[0], 12) + 6
        return QRectF(low, top + 4, LEGEND_BAR, LEGEND_HEIGHT - 10)

    def _legend_ends(self) -> tuple[str, str]:
        cells = self._cells()
        return self.format.text(cells.lo), self.format.text(cells.hi)

    def _draw_legend(self, sp: QPainter) -> None:
        """The colour scale: cividis from the lowest colour to the highest, outlined."""
        bar = self._legend_rect()
        sp.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        sp.drawImage(bar, _argb_image(CIVIDIS_ARGB[None, :]))
        sp.setPen(QPen(self.theme.color("grid_line"), 1.0))
        sp.drawRect(bar)

    def _draw_asked(self, sp: QPainter, cells: _Cells) -> None:
        """Each asked cell a dashed box in the accent (its :data:`ASKED` is one of the grid's
        words)."""
        rows = cells.rows  # a large grid's highlighted rows, a heat map's none: not every cell
        boxes = [self.cell_rect(rows[k], c).adjusted(2.0, 2.0, -2.0, -2.0)
                 for k, c in np.argwhere(cells.asked[rows] & ~cells.masked[rows]).tolist()]
        if boxes:
            sp.setBrush(Qt.BrushStyle.NoBrush)
            sp.setPen(QPen(self.theme.color("accent"), 2.0, Qt.PenStyle.DashLine))
            sp.drawRects(boxes)

    def _lines(self) -> Lines:
        """Every row's and column's line of a whole grid, as point pairs."""
        rows, cols = self.spec.values.shape
        return _grid_lines(rows, cols, self._origin(), self.columns)

    def _row_lines(self, cell_rows: list[int]) -> Lines:
        """The lines around each cell of ``cell_rows`` (a large grid's highlighted rows)."""
        return _row_lines(tuple(cell_rows), self.spec.values.shape[1], self._origin(),
                          self.columns)

    def _origin(self) -> tuple[float, float]:
        return self.grid_origin.x(), self.grid_origin.y()

    def _fill_as_rects(self, sp: QPainter, cells: _Cells) -> None:
        """Each cell a rectangle, those of one colour in one call; masked cells hatched."""
        oy = self.grid_origin.y()
        cols = self.spec.values.shape[1]
        masked, shade = cells.masked, cells.shade
        groups: dict[int, list[QRectF]] = {}
        hidden: list[QRectF] = []
        for r in cells.rows:
            top = oy + r * CELL_HEIGHT
            for c in range(cols):
                rect = QRectF(self.col_left(c), top, self.col_width(c), CELL_HEIGHT)
                if masked[r, c]:
                    hidden.append(rect)
                elif not cells.asked[r, c]:
                    groups.setdefault(int(shade[r, c]), []).append(rect)
        sp.setPen(Qt.PenStyle.NoPen)
        for level, rects in groups.items():
            sp.setBrush(QBrush(cell_color(level / 255)))
            sp.drawRects(rects)
        self._hatch(sp, hidden)

    def _masked_runs(self, masked: npt.NDArray[np.bool_], rows: list[int]) -> tuple[QRectF, ...]:
        """The masked cells as one rectangle per run of them in a row (``masked`` holds the
        cells of ``rows``)."""
        return _masked_runs(np.packbits(masked).tobytes(), masked.shape, tuple(rows),
                            self._origin(), self.columns)

    def _hatch(self, sp: QPainter, hidden: Sequence[QRectF]) -> None:
        """Masked cells: the masked grey, faint, then hatched."""
        if hidden:
            sp.setBrush(QBrush(self.theme.color("masked", 0.35)))
            sp.drawRects(hidden)
            sp.setBrush(QBrush(self.theme.color("masked"), Qt.BrushStyle.BDiagPattern))
            sp.drawRects(hidden)

    def _words(self) -> list[_Run]:
        """Every text of the grid in drawing order, as runs of one font, ink and alignment:
        the title, the column and row labels, the numbers (one run per ink), the note."""
        cells = self._cells()
        cols = self.spec.values.shape[1]
        return [*self._label_words(), *self._number_words(
            [(r, c) for r in cells.rows for c in range(cols)]), *self._note_words()]

    def _label_words(self) -> list[_Run]:
        """The title and the column and row labels, as runs."""
        spec, theme = self.spec, self.theme
        ox, oy = self.grid_origin.x(), self.grid_origin.y()
        muted = theme.color("muted")
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        title_x = 18.0 if spec.swatch else 0.0
        title = QRectF(title_x, 0, self._width, TITLE_HEIGHT)
        runs: list[_Run] = [(text_font(_title(self.spec), 14, True), theme.color("text"), title,
                             left, [(title, _title(self.spec))])]
        area = self.cells_area()
        runs += _label_runs(muted, QRectF(ox, TITLE_HEIGHT, area.width(), HEADER_HEIGHT),
                            Qt.AlignmentFlag.AlignCenter,
                            [(self.col_label_rect(c), str(spec.col_labels[c]))
                             for c in self._col_ticks])
        runs += _label_runs(muted, QRectF(0, oy, self.label_width, area.height()),
                            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                            [(self.row_label_rect(r), str(spec.row_labels[r]))
                             for r in self._row_ticks])
        return runs

    def _number_words(self, printed: Sequence[tuple[int, int]],
                      texts: Sequence[str] | None = None,
                      rects: Sequence[QRectF] | None = None) -> list[_Run]:
        """The numbers of the ``printed`` cells (``texts``: their :meth:`cell_text`, and
        ``rects`` their :meth:`cell_rect`, when the caller has them), one run per ink and size
        (an asked cell's mark in the accent)."""
        if not printed:
            return []
        cells = self._cells()
        where = np.array(printed, dtype=np.intp).reshape(-1, 2)
        rows, cols = where[:, 0], where[:, 1]
        masked = cells.masked[rows, cols]
        asked = (cells.asked[rows, cols] & ~masked).tolist()
        # each cell's ink, all at once: 0 muted (masked), 1 black, 2 white (on its colour)
        ink_of = np.where(masked, 0, np.where(_DARK_INK[cells.shade[rows, cols]], 1, 2)).tolist()
        sizes = [self.number_size(r, c) for r, c in printed] if self.small_cells else \
            [NUMBER_SIZE] * len(printed)
        if texts is None:
            texts = [self.cell_text(r, c) for r, c in printed]
        if rects is None:
            rects = [self.cell_rect(r, c) for r, c in printed]
        inks_named = (self.theme.color("muted").name(), "#000000", "#ffffff")
        inks: dict[tuple[str, int], list[tuple[QRectF, str]]] = {}
        marks: list[tuple[QRectF, str]] = []
        centre = Qt.AlignmentFlag.AlignCenter
        for rect, text, ink, size, is_asked in zip(rects, texts, ink_of, sizes, asked,
                                                   strict=True):
            if is_asked:
                marks.append((rect, ASKED))
            else:
                inks.setdefault((inks_named[ink], size), []).extend(
                    placed(rect, text, size, centre))
        area = self.cells_area()
        runs: list[_Run] = [(font(size), QColor(ink), area, centre, words)
                            for (ink, size), words in inks.items()]
        if marks:
            runs.append((font(NUMBER_SIZE), self.theme.color("accent"), area, centre, marks))
        return runs

    def _note_words(self) -> list[_Run]:
        """The note under the grid and a heat map's colour scale's ends, as runs."""
        muted = self.theme.color("muted")
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        note = self.note_rect()
        runs = _label_runs(muted, note, left, [
            (QRectF(0, note.top() + k * LINE_HEIGHT, self._width, LINE_HEIGHT), line)
            for k, line in enumerate(self._note_lines)])
        if self.heat:
            low, high = self._legend_ends()
            bar = self._legend_rect()
            ends = QRectF(0, bar.top() - 4, self._width, LEGEND_HEIGHT - 2)
            runs.append((text_font(low + high, 12), muted, ends, left,
                         [(QRectF(0, ends.top(), bar.left(), ends.height()), low),
                          (QRectF(bar.right() + 6, ends.top(), ends.right() - bar.right(),
                                  ends.height()), high)]))
        return runs

    def _layer_words(self) -> Words:
        """The grid's words as its on-screen layer keeps them (:mod:`app.canvas.number_layer`):
        known by everything but the numbers, each printed cell by its value and looks."""
        spec, theme, cells = self.spec, self.theme, self._cells()
        rows, cols = cells.rows, spec.values.shape[1]
        every = len(rows) == spec.values.shape[0]
        values = spec.values if every else spec.values[rows]
        pick = slice(None) if every else rows
        masked, asked = cells.masked[pick], cells.asked[pick]
        looks = np.where(_DARK_INK[cells.shade[pick]], 0, 1).astype(np.int64)
        looks[masked] = 2
        looks[asked & ~masked] = 3
        if spec.blank is not None:
            looks |= spec.blank[pick].astype(np.int64) << 2
        if self.small_cells:
            sizes = np.full(values.shape, NUMBER_SIZE, dtype=np.int64)
            where = {row: k for k, row in enumerate(rows)}
            for (r, c), size in self.small_cells.items():
                if r in where:
                    sizes[where[r], c] = size
            looks |= sizes << 3
        key = ("grid words", _title(self.spec), spec.swatch != "", tuple(map(str, spec.col_labels)),
               tuple(map(str, spec.row_labels)), tuple(self._note_lines),
               self._width, self._height,
               self.label_width, self.columns, self.cell_height, spec.values.shape,
               tuple(rows), self.format,
               tuple(theme.color(role).name() for role in ("text", "muted", "accent")),
               font_key(font(NUMBER_SIZE)))

        def cells_at(flat: npt.NDArray[np.intp]) -> list[tuple[int, int]]:
            return [(rows[k], c) for k, c in zip(*np.divmod(flat, cols), strict=True)]

        flat_values = values.reshape(-1)
        unprinted = asked if spec.blank is None else asked | spec.blank[pick]
        kept = np.flatnonzero(unprinted.reshape(-1))  # blank or asked: cell_text words them

        def texts_at(flat: npt.NDArray[np.intp]) -> list[str]:
            texts = self.format.texts(flat_values[flat])
            for k in np.flatnonzero(np.isin(flat, kept)).tolist():
                texts[k] = self.cell_text(*cells_at(flat[k:k + 1])[0])
            return texts

        return Words(key, self.boundingRect(), flat_values, looks.reshape(-1), cells_at,
                     texts_at,
                     lambda painter: self._draw_runs(
                         painter, [*self._label_words(), *self._note_words()]),
                     lambda painter, printed, texts, rects: self._draw_runs(
                         painter, self._number_words(printed, texts, rects)),
                     self.cell_rect)

    def _texts(self) -> QPicture:
        """Every text recorded as real text, for exports (SVG and PDF text stays selectable)."""
        if self._text_picture is None:
            texts = QPicture()
            tp = QPainter(texts)
            tp.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            for run_font, ink, _area, align, run in self._words():
                tp.setFont(run_font)
                tp.setPen(ink)
                for rect, text in run:
                    tp.drawText(rect, align, text)
            tp.end()
            self._text_picture = texts
        return self._text_picture

    def _paint_words(self, painter: QPainter, exposed: QRectF) -> None:
        """The texts on screen: laid-out glyphs cached by text and font, only where exposed."""
        self._draw_runs(painter, self._screen_words(), exposed)

    @staticmethod
    def _draw_runs(painter: QPainter, runs: list[_Run], exposed: QRectF | None = None) -> None:
        """``runs`` on screen (only where ``exposed``, when given; none: into the grid's words
        layer, which keeps the pixels, so each text is drawn plainly, not laid out to keep)."""
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        for run_font, ink, area, align, run in runs:
            if exposed is not None and not area.intersects(exposed):
                continue
            painter.setFont(run_font)
            painter.setPen(ink)
            for rect, text in run:
                if exposed is None:
                    painter.drawText(rect, align, text)
                elif rect.intersects(exposed):
                    draw_text(painter, rect, align, text, run_font)

    def _screen_words(self) -> list[_Run]:
        if self._word_runs is None:
            self._word_runs = self._words()
        return self._word_runs

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        screen = on_screen()
        heat = self._heat_picture()
        if heat is not None:
            # One pixel per cell, scaled up: nearest neighbour keeps every cell a flat square.
            smooth = painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            self._draw_columns(painter, *heat)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
        if screen:  # drawn straight away: recording would only add a step per edit
            painter.save()
            self._draw_shapes(painter, screen=True)
            painter.restore()
        else:
            play(self._file_shapes(), painter)
        if not screen:
            play(self._texts(), painter)
        elif legible(painter, option) and (self.heat  # its zoomed numbers are drawn apart
                                           or not paint_layer(painter, self._layer_words())):
            self._paint_words(painter, option.exposedRect)
        if screen and self.heat and not (legible(painter, option)
                                         and self._paint_zoomed(painter, option)):
            heat_numbers_left_out()
        if self._hovered is not None:
            painter.setPen(QPen(self.theme.color("text"), 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.cell_rect(*self._hovered))

    def cells_in(self, rect: QRectF) -> tuple[range, range]:
        """The rows and columns of the cells ``rect`` (item coordinates) touches."""
        area = self.cells_area().intersected(rect)
        if area.isEmpty():
            return range(0), range(0)
        rows, cols = self.spec.values.shape
        oy = self.grid_origin.y()
        first_row = max(0, int((area.top() - oy) // self.cell_height))
        first_col = max(0, self._col_under(area.left()))
        last_row = min(rows - 1, int((area.bottom() - oy) // self.cell_height))
        last_col = min(cols - 1, self._col_under(area.right()))
        return range(first_row, last_row + 1), range(first_col, last_col + 1)

    def _paint_zoomed(self, painter: QPainter, option: QStyleOptionGraphicsItem) -> bool:
        """A heat map zoomed in on the window: the cells in view in their own colours (not
        their block's), their numbers once legible, and which rows and columns are in view
        (:func:`~app.canvas.picture.note_in_view`); whether it printed the numbers."""
        rows, cols = self.cells_in(option.exposedRect)
        shown = len(rows) * len(cols)
        if not shown or shown > ZOOMED_CELLS:
            return not shown
        spec, cells = self.spec, self._cells()
        part = spec.values[rows.start:rows.stop, cols.start:cols.stop]
        hidden = np.asarray(cells.masked[rows.start:rows.stop, cols.start:cols.stop])
        shade = _levels(part, cells.lo, cells.hi)
        first = self.cell_rect(rows.start, cols.start).topLeft()
        where = QRectF(first.x(), first.y(), self.col_left(cols.stop) - first.x(),
                       len(rows) * self.cell_height)
        smooth = painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(where, _cell_image(shade, hidden))
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
        natural = self.natural_cell
        shrink = min(self.cell_width / natural.width(), self.cell_height / natural.height())
        detail = option.levelOfDetailFromTransform(painter.worldTransform())
        note_in_view(_title(self.spec), rows, cols)
        if detail * shrink * NUMBER_SIZE < ZOOMED_TEXT:
            return False
        dark_ink = _dark_ink_levels()
        muted = self.theme.color("muted")
        painter.setFont(font(NUMBER_SIZE))
        for r in rows:
            for c in cols:
                rect = self.cell_rect(r, c)
                painter.save()
                painter.translate(rect.center())
                painter.scale(shrink, shrink)
                level = int(shade[r - rows.start, c - cols.start])
                painter.setPen(muted if hidden[r - rows.start, c - cols.start] else
                               QColor("#000000" if dark_ink[level] else "#ffffff"))
                painter.drawText(QRectF(-natural.width() / 2, -natural.height() / 2,
                                        natural.width(), natural.height()),
                                 Qt.AlignmentFlag.AlignCenter, self.cell_text(r, c))
                painter.restore()
        return True

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        cell = self.cell_at(event.pos())
        if cell != self._hovered:
            self._hovered = cell
            explain = None if cell is not None and self._asked(*cell) else self.spec.explain
            self.setToolTip(as_written(codes_left_to_right(explain(*cell)))
                            if cell is not None and explain is not None else "")
            self.update()

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hovered = None
        self.setToolTip("")
        self.update()

    def cell_text(self, row: int, col: int) -> str:
        """The number shown in a cell, exactly as drawn (:data:`BLANK` for a blank one)."""
        blank = self.spec.blank
        if blank is not None and blank[row, col]:
            return BLANK
        if self._asked(row, col):
            return ""
        return self.format.text(float(self.spec.values[row, col]))

    def number_size(self, row: int, col: int) -> int:
        """The pixel size a cell's number is printed at (smaller for a rare wide one)."""
        return self.small_cells.get((row, col), NUMBER_SIZE)

    def _asked(self, row: int, col: int) -> bool:
        """Whether an exercise asks for the cell (drawn empty)."""
        asked = self.spec.asked
        return asked is not None and bool(asked[row, col])

    # What exporters that rebuild a grid natively (PowerPoint tables) read; item coordinates.

    @property
    def title_text(self) -> str:
        """The title line as drawn: the title, then the shape."""
        return _title(self.spec)

    def title_rect(self) -> QRectF:
        """Where the title line is drawn (right of the head swatch when there is one)."""
        left = 18.0 if self.spec.swatch else 0.0
        return QRectF(left, 0.0, self._width - left, TITLE_HEIGHT)

    def col_label_rect(self, col: int) -> QRectF:
        """Where column ``col``'s label (``spec.col_labels[col]``) is drawn, centred (a heat
        map's first and last, too narrow for it: a natural cell's width inside the map, at most
        half the map's, so the two never overlap)."""
        own = self.col_width(col)
        width = max(own, min(self.natural_cell.width(),
                             self.cells_area().width() / len(self._col_ticks)))
        left = self.col_left(col)
        if width > own:
            left = min(max(left, self.grid_origin.x()), self.cells_area().right() - width)
        return QRectF(left, TITLE_HEIGHT, width, HEADER_HEIGHT)

    def row_label_rect(self, row: int) -> QRectF:
        """Where row ``row``'s label (``spec.row_labels[row]``) is drawn, right-aligned (a heat
        map's first and last, too low for it: a natural cell's height inside the map)."""
        height = max(self.cell_height, CELL_HEIGHT)
        top = self.grid_origin.y() + row * self.cell_height
        if height > self.cell_height:
            top = min(max(top, self.grid_origin.y()), self.cells_area().bottom() - height)
        return QRectF(0.0, top, self.label_width - LABEL_GAP, height)

    @property
    def note_lines(self) -> tuple[str, ...]:
        """The note as drawn, a line each (a heat map's wrapped at its width)."""
        return tuple(self._note_lines)

    @property
    def note_text(self) -> str:
        """The line under the grid (``""`` when there is none)."""
        return self.note

    def note_rect(self) -> QRectF:
        """Where the note is drawn (empty when there is no note)."""
        if not self._note_lines:
            return QRectF()
        return QRectF(0.0, self.cells_area().bottom() + 2, self._width,
                      LINE_HEIGHT * len(self._note_lines))

    def cell_fill(self, row: int, col: int) -> str:
        """A cell's fill colour, ``#rrggbb`` (the masked grey for a masked cell)."""
        spec = self.spec
        if spec.masked is not None and spec.masked[row, col]:
            return self.theme.color("masked").name()
        if self._asked(row, col):
            return self.theme.color("background").name()
        return cell_color(self._level(row, col) / 255).name()  # as painted

    def _level(self, row: int, col: int) -> int:
        """A cell's cividis level (a heat map works out only the cells asked for)."""
        cells = self._cells()
        if cells.shade.size:
            return int(cells.shade[row, col])
        return int(_levels(self.spec.values[row:row + 1, col:col + 1], cells.lo, cells.hi)[0, 0])

    def cell_ink(self, row: int, col: int) -> str:
        """The colour a cell's number is printed in, ``#rrggbb``."""
        if self.spec.masked is not None and self.spec.masked[row, col]:
            return self.theme.color("muted").name()
        return ink_for(QColor(self.cell_fill(row, col))).name()

    def prints_numbers(self, row: int) -> bool:
        """Whether the numbers of ``row`` are printed (a large grid prints only its
        highlighted rows)."""
        return not self.large or (not self.heat and row in self.spec.highlight_rows)
