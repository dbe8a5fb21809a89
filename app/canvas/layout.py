"""Placing grids, operators and diagrams side by side inside a frame."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import TypeVar

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.grid import CELL_HEIGHT, HEADER_HEIGHT, TITLE_HEIGHT, MatrixGrid
from app.canvas.picture import draw_text, on_screen
from app.canvas.powers import number_advance, placed
from app.canvas.theme import Theme, font, text_font

GAP = 14.0
T = TypeVar("T")
ROW_GAP = 24.0
BESIDE_STRETCH = 1.25


class TextItem(QGraphicsItem):
    """A line of text drawn with the frame's font (kept as text in SVG and PDF). A plain item,
    not a QObject: laying a frame out makes tens of thousands of them, and a QGraphicsObject
    took five times as long to make."""

    def __init__(self, text: str, theme: Theme, *, size: int = 14, bold: bool = False,
                 role: str = "text", width: float | None = None) -> None:
        super().__init__()
        self.text = text
        self._font, self._color = _text_style(text, size, bold), _ink(theme, role)
        advance, height = text_size(text, size, bold)
        self._rect = QRectF(0, 0, width if width is not None else advance, height)

    @property
    def font(self) -> QFont:
        """The font the text is drawn in (pixel size in scene units)."""
        return QFont(self._font)

    @property
    def color(self) -> str:
        """The text's colour, ``#rrggbb``."""
        return self._color.name()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setFont(self._font)
        painter.setPen(self._color)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        screen = on_screen()
        for box, piece in placed(self._rect, self.text, self._font.pixelSize(), align,
                                 self._font.bold()):
            if screen:  # a line met before: from its cached layout
                draw_text(painter, box, align, piece, self._font)
            else:
                painter.drawText(box, align, piece)


@lru_cache(maxsize=8192)
def _text_style(text: str, size: int, bold: bool) -> QFont:
    """The font a :class:`TextItem` draws ``text`` in, one shared by the items of a line (a
    layout the type scale's search tries makes each of its lines again; never changed)."""
    return text_font(text, size, bold)


@lru_cache(maxsize=64)
def _ink(theme: Theme, role: str) -> QColor:
    """A theme's colour of ``role``, one shared by the text items (never changed)."""
    return theme.color(role)


@lru_cache(maxsize=8192)
def text_size(text: str, size: int, bold: bool) -> tuple[float, float]:
    """Width and height of a :class:`TextItem` line of text (words repeat across frames and
    edits)."""
    return number_advance(text, size, bold) + 4, QFontMetricsF(font(size, bold)).height() + 4


def fit_scale(covered: QRectF, area: QSizeF) -> float:
    """The largest scale at which ``covered`` fits ``area`` (unbounded for nothing)."""
    if covered.width() <= 0 or covered.height() <= 0:
        return math.inf
    return min(area.width() / covered.width(), area.height() / covered.height())


def items_of(root: QGraphicsItem, kind: type[T]) -> list[T]:
    """Every item of one kind below ``root``, breadth first (in drawing order per level)."""
    found: list[T] = []
    pending = list(root.childItems())
    while pending:
        item = pending.pop(0)
        if isinstance(item, kind):
            found.append(item)
        pending.extend(item.childItems())
    return found


def body_middle(item: QGraphicsItem) -> float:
    """Vertical middle of a grid's cells (or of any other item), relative to its top."""
    if isinstance(item, MatrixGrid):
        return TITLE_HEIGHT + HEADER_HEIGHT + min(len(item.spec.values), 8) * CELL_HEIGHT / 2
    return item.boundingRect().height() / 2


_WRAP: ContextVar[float | None] = ContextVar("wrap", default=None)
"""How wide a row may run before it wraps (scene units before the frame's scale); ``None``: the
step's natural layout, each row on one line and rows one under the other."""


@contextmanager
def wrapping(width: float | None) -> Iterator[None]:
    """Lay out with rows wrapping at ``width``, and short rows flowing side by side
    (``None``: the natural layout). The frame picks the width that suits its sheet."""
    token = _WRAP.set(width)
    try:
        yield
    finally:
        _WRAP.reset(token)


def wrap_width() -> float | None:
    """The width rows wrap at now (:func:`wrapping`); None for the natural layout."""
    return _WRAP.get()


def _row_items(parts: Sequence[QGraphicsItem | str], theme: Theme) -> list[QGraphicsItem]:
    """The items of a row; strings become operators (·, =, +, →)."""
    return [TextItem(part, theme, size=22, bold=True, role="muted") if isinstance(part, str)
            else part for part in parts]


def _arrange(items: Sequence[QGraphicsItem], x: float, y: float,
             limit: float | None) -> tuple[list[QPointF], QRectF]:
    """Where each item of a row goes from (x, y), wrapping to a new line beyond ``limit``
    (an operator that would end a line starts the next one instead; one that leads the row,
    as the second half of a split step's row, stays level with what follows it)."""
    positions: list[QPointF] = []
    leading = len(items) > 1 and isinstance(items[0], TextItem)
    cursor, top, middle = x, y, body_middle(items[1]) if leading else 0.0
    line_bottom = covered_bottom = y
    right = x
    for k, item in enumerate(items):
        width = item.boundingRect().width()
        height = item.boundingRect().height()
        operator = isinstance(item, TextItem)
        span = width
        if operator and k + 1 < len(items):  # keep an operator with what follows it
            span += GAP + items[k + 1].boundingRect().width()
        led = leading and k == 1  # a row's leading operator stays with what it leads
        if limit is not None and cursor > x and cursor + span - x > limit and not led:
            top = line_bottom + ROW_GAP
            cursor = x
            if operator:  # level with what it leads, not with the line above
                leads = k + 1 < len(items) and span <= limit
                middle = body_middle(items[k + 1]) if leads else height / 2
        if operator:
            position = QPointF(cursor, top + middle - height / 2)
        else:
            position = QPointF(cursor, top)
            middle = body_middle(item)
        positions.append(position)
        line_bottom = max(line_bottom, top, position.y() + height)
        covered_bottom = max(covered_bottom, line_bottom)
        right = max(right, cursor + width)
        cursor += width + GAP
    return positions, QRectF(x, y, right - x, covered_bottom - y)


def _place(parent: QGraphicsItem, items: Sequence[QGraphicsItem],
           positions: Sequence[QPointF]) -> None:
    for item, position in zip(items, positions, strict=True):
        item.setParentItem(parent)
        item.setPos(position)


RowPart = QGraphicsItem | str
"""A piece of a row: an item, or an operator written between items (·, =, +, →)."""


def place_row(parent: QGraphicsItem, parts: Sequence[RowPart], x: float, y: float,
              theme: Theme) -> QRectF:
    """Lay ``parts`` left to right from (x, y); strings become operators (·, =, +, →).

    Operators sit level with the middle of the first rows of the grid before them. While
    :func:`wrapping`, the row breaks into lines no wider than the wrap width.
    Returns the rectangle the row covers, in the parent's coordinates.
    """
    items = _row_items(parts, theme)
    positions, covered = _arrange(items, x, y, _WRAP.get())
    _place(parent, items, positions)
    return covered


def place_rows(parent: QGraphicsItem, rows: Sequence[Sequence[RowPart]], x: float,
               y: float, theme: Theme) -> QRectF:
    """Several :func:`place_row` rows, one under the other; while :func:`wrapping`, rows that
    fit side by side within the wrap width share a band."""
    limit = _WRAP.get()
    covered = QRectF(x, y, 0, 0)
    band_x, band_top, band_bottom = x, y, y
    for parts in rows:
        items = _row_items(parts, theme)
        positions, rect = _arrange(items, band_x, band_top, limit)
        beside_fits = limit is not None and rect.right() - x <= limit
        if band_x > x and not beside_fits:
            band_x, band_top = x, band_bottom + ROW_GAP
            positions, rect = _arrange(items, band_x, band_top, limit)
        _place(parent, items, positions)
        covered = covered.united(rect)
        band_bottom = max(band_bottom, rect.bottom())
        if limit is None:
            band_top = rect.bottom() + ROW_GAP
        else:
            band_x = rect.right() + ROW_GAP
    return covered


ROWS_AFTER = ("beside", "columns", "around", "corner")
"""How the rows that follow a source (Wq = Q, Wk = K …; Q → Q_rot, K → K_rot) are arranged
(:func:`rows_after`): beside it one under the other (under it when that runs past the wrap
width), under it as columns (:func:`place_columns`), beside it while they fit alongside it
and the rest under it, or products in the corner arrangement where a step draws them so
(:mod:`app.canvas.corner`; else as beside it)."""


def place_rows_after(parent: QGraphicsItem, rows: Sequence[Sequence[RowPart]], first: QRectF,
                     theme: Theme, under: bool = True) -> QRectF:
    """``rows`` after what ``first`` covers, as :func:`rows_after` says (beside it, ``under``
    it when that would run past the wrap width, as they come); what both cover."""
    arrangement = rows_arrangement() if len(rows) > 1 else "beside"
    if arrangement == "columns":
        return first.united(place_columns(parent, rows, first.left(),
                                          first.bottom() + ROW_GAP, theme))
    if arrangement == "around":
        return _place_around(parent, rows, first, theme)
    x, y = first.right() + GAP, first.top()
    limit = _WRAP.get()
    probe = QGraphicsRectItem()  # owns the rows' items until they move to ``parent``
    if under and limit is not None and place_rows(probe, rows, x, y, theme).right() > limit:
        x, y = first.left(), first.bottom() + ROW_GAP
    return first.united(place_rows(parent, rows, x, y, theme))


def _place_around(parent: QGraphicsItem, rows: Sequence[Sequence[RowPart]], first: QRectF,
                  theme: Theme) -> QRectF:
    """The first rows one under the other beside ``first`` while they start alongside it and
    fit the wrap width, the rest :func:`place_rows` under both; what all cover."""
    limit = _WRAP.get()
    x, y = first.right() + GAP, first.top()
    covered = QRectF(first)
    for k, parts in enumerate(rows):
        items = _row_items(parts, theme)
        positions, rect = _arrange(items, x, y, limit)
        if y >= first.bottom() or (limit is not None and rect.right() > limit):
            rest = place_rows(parent, rows[k:], first.left(), covered.bottom() + ROW_GAP, theme)
            return covered.united(rest)
        _place(parent, items, positions)
        covered = covered.united(rect)
        y = rect.bottom() + ROW_GAP
    return covered


_AFTER: ContextVar[str] = ContextVar("rows_after", default="beside")
"""How the rows that follow a source are arranged (:data:`ROWS_AFTER`)."""
_ASKED: ContextVar[list[str] | None] = ContextVar("arrangement_asked", default=None)
"""The arrangements the layout made now asked for, while :func:`noting_arrangement`."""


def rows_arrangement() -> str:
    """The arrangement of the rows after a source in force (:func:`rows_after`); the one
    reader of it, so that :func:`noting_arrangement` sees every layout that depends on it."""
    arrangement = _AFTER.get()
    asked = _ASKED.get()
    if asked is not None:
        asked.append(arrangement)
    return arrangement


@contextmanager
def noting_arrangement() -> Iterator[list[str]]:
    """Note each time a layout asks how the rows after a source are arranged: one that never
    asks lays out the same picture under every arrangement (RoPE's wrapped layouts, its dials
    ending each row)."""
    asked: list[str] = []
    token = _ASKED.set(asked)
    try:
        yield asked
    finally:
        _ASKED.reset(token)


@contextmanager
def rows_after(arrangement: str) -> Iterator[None]:
    """Lay out with the rows that follow a source arranged one of the :data:`ROWS_AFTER`
    ways: the others are arrangements a frame alone may be largest in."""
    token = _AFTER.set(arrangement)
    try:
        yield
    finally:
        _AFTER.reset(token)


def _column_width(items: Sequence[QGraphicsItem]) -> float:
    """The width a row wraps at as a column: its widest part with the operator before it."""
    widest = 0.0
    for k, item in enumerate(items):
        if isinstance(item, TextItem) and k + 1 < len(items):
            continue  # an operator counts with what follows it
        width = item.boundingRect().width()
        if k > 0 and isinstance(items[k - 1], TextItem):
            width += items[k - 1].boundingRect().width() + GAP
        widest = max(widest, width)
    return widest


def place_columns(parent: QGraphicsItem, rows: Sequence[Sequence[RowPart]], x: float,
                  y: float, theme: Theme) -> QRectF:
    """``rows`` side by side from (x, y), each a column wrapped at its own widest part (a grid
    a line, an operator leading the line of what follows it: Wq over = Q); what they cover."""
    covered = QRectF(x, y, 0, 0)
    for parts in rows:
        items = _row_items(parts, theme)
        positions, rect = _arrange(items, x, y, _column_width(items))
        _place(parent, items, positions)
        covered = covered.united(rect)
        x = rect.right() + ROW_GAP
    return covered


_DROP_ARROWS: ContextVar[bool] = ContextVar("drop_arrows", default=False)
"""Whether the shares' arrows are left out of the step's picture (:func:`dropping_arrows`)."""


@contextmanager
def dropping_arrows(drop: bool = True) -> Iterator[None]:
    """Lay out with the shares' arrows left out (``drop``): a frame alone on its screen whose
    numbers would be too small with them; the shares grid still prints every share."""
    token = _DROP_ARROWS.set(drop)
    try:
        yield
    finally:
        _DROP_ARROWS.reset(token)


def place_arrows(parent: QGraphicsItem, arrows: QGraphicsItem, covered: QRectF,
                 gap: float) -> QRectF:
    """:func:`place_beside` for the shares' arrows, unless :func:`dropping_arrows` leaves them
    out; what the picture covers."""
    return covered if _DROP_ARROWS.get() else place_beside(parent, arrows, covered, gap)


def place_beside(parent: QGraphicsItem, item: QGraphicsItem, covered: QRectF,
                 gap: float) -> QRectF:
    """Put ``item`` right of what ``covered`` holds, or under it when that would run well past
    the wrap width (a side picture may stretch it by half). Returns what both cover."""
    item.setParentItem(parent)
    width = item.boundingRect().width()
    limit = _WRAP.get()
    if limit is not None and covered.width() + gap + width > BESIDE_STRETCH * limit:
        item.setPos(covered.left(), covered.bottom() + ROW_GAP)
    else:
        item.setPos(covered.right() + gap, covered.top())
    return covered.united(item.mapRectToParent(item.boundingRect()))


PARTS = 2
"""How many slides a step too wide for its screen is shown as first (presentation: its first
half, then its second, :func:`part_rows`); more when two are not enough (:data:`MOST_PARTS`)."""
MOST_PARTS = 6
"""The most slides one step is split over (a gated feed-forward on a 4:3 projector: its gate's
row, its up row and ``hidden · W2 = out`` each cut in two)."""
_PART: ContextVar[tuple[int, int] | None] = ContextVar("part", default=None)
"""The part of a step split over several slides laid out now, and how many there are
(:func:`showing_part`)."""


@contextmanager
def showing_part(part: int | None, count: int = PARTS) -> Iterator[None]:
    """Lay out only part ``part`` (0-based) of ``count`` of a step that presentation splits
    over several slides (``None``: the whole step)."""
    token = _PART.set(None if part is None else (part, count))
    try:
        yield
    finally:
        _PART.reset(token)


def part_shown() -> int | None:
    """The part of a split step laid out now (:func:`showing_part`); None: the whole step."""
    shown = _PART.get()
    return None if shown is None else shown[0]


_CUTS: ContextVar[list[tuple[int, ...]] | None] = ContextVar("cuts", default=None)
"""Where :func:`part_rows` cut the rows laid out now, while :func:`noting_cuts`."""


@contextmanager
def noting_cuts() -> Iterator[list[tuple[int, ...]]]:
    """Note what each :func:`part_rows` call of a layout kept: the rows and pieces of rows it
    gave, one tuple a call (two parts that keep the same pieces lay out the same picture,
    whichever their number and count)."""
    cuts: list[tuple[int, ...]] = []
    token = _CUTS.set(cuts)
    try:
        yield cuts
    finally:
        _CUTS.reset(token)


def _noted(kept: list[Sequence[RowPart]], where: tuple[int, ...]) -> list[Sequence[RowPart]]:
    cuts = _CUTS.get()
    if cuts is not None:
        cuts.append(where)
    return kept


def parts_shown() -> int:
    """How many parts the step laid out now is split over (1: the whole step)."""
    shown = _PART.get()
    return 1 if shown is None else shown[1]


def last_part() -> bool:
    """Whether what is laid out ends the step (its last part, or the whole step): the shares'
    arrows and the worked row go with it."""
    shown = _PART.get()
    return shown is None or shown[0] == shown[1] - 1


def part_rows(rows: Sequence[Sequence[RowPart]]) -> list[Sequence[RowPart]]:
    """The rows of the part shown (:func:`showing_part`): every row for the whole step; of
    no more rows than parts, as many consecutive groups as there are parts, the first ones
    the larger; of more parts than rows, the longest rows are cut before operators spaced
    evenly along them, which then lead the next piece (``→ softmax → shares``), a piece a
    part (:func:`noting_cuts` notes which). A part beyond what the rows can give gets
    nothing (a row with no operator is not cut: with one row, every part shows it)."""
    shown = _PART.get()
    if shown is None:
        return list(rows)
    part, count = shown
    if len(rows) >= count:
        start, end = _bounds(len(rows), part, count)
        group = (start, 0, 1) if end == start + 1 else (start, end)  # a row whole: a piece
        return _noted(list(rows[start:end]), (len(rows), *group))
    pieces = [1] * len(rows)
    while sum(pieces) < count:
        cuttable = [k for k, row in enumerate(rows) if len(_operators(row)) >= pieces[k]]
        if not cuttable:
            break
        longest = max(cuttable, key=lambda k: len(rows[k]) / pieces[k])
        pieces[longest] += 1
    cut = [piece for row, many in zip(rows, pieces, strict=True) for piece in _cut(row, many)]
    if len(cut) == 1 < count:
        return cut
    where = [(k, piece, many) for k, many in enumerate(pieces) for piece in range(many)]
    return _noted(cut[part:part + 1], (len(rows), *(where[part] if part < len(where) else ())))


def _operators(row: Sequence[RowPart]) -> list[int]:
    """Where ``row``'s operators (its strings: ·, =, → softmax →) are."""
    return [k for k, piece in enumerate(row) if isinstance(piece, str)]


def _cut(row: Sequence[RowPart], count: int) -> list[Sequence[RowPart]]:
    """``row`` in ``count`` pieces, cut before operators spaced evenly along it."""
    operators = _operators(row)
    cuts = [0, *(operators[len(operators) * k // count] for k in range(1, count)), len(row)]
    return [row[cuts[k]:cuts[k + 1]] for k in range(count)]


def _bounds(size: int, part: int, count: int) -> tuple[int, int]:
    """Where part ``part`` of ``count`` of ``size`` items starts and ends, the first parts
    one larger than the rest when they do not share evenly."""
    small, extra = divmod(size, count)
    start = part * small + min(part, extra)
    return start, start + small + (1 if part < extra else 0)
