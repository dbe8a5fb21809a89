"""A matrix product drawn in the corner arrangement when its row would wrap: the right factor
above the result, the left factor level with it, so each cell of the result sits beside its row
of the left factor and under its column of the right one (Falk's scheme). Narrower than the
row, and no taller than the row wrapped when the right factor is the shorter, it lets a product
a sheet cannot hold on one line be drawn larger (a pronoun's Q · Kᵀ = scores)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.grid import MatrixGrid
from app.canvas.layout import GAP, ROW_GAP, TextItem, body_middle, text_size, wrap_width
from app.canvas.theme import Theme, fitted_lines

NOTE_SIZE = 15
"""The sentence under the arrangement that says how a cell is read."""
OPERATOR = "·"
OPERATOR_SIZE = 22
"""The product sign between the left factor and the results, as a row writes it."""

Pairs = Sequence[tuple[QGraphicsItem, QGraphicsItem]]
"""Each right factor with its result (one left factor: X · Wq = Q, X · Wk = K …)."""


def _cells_left(item: QGraphicsItem) -> float:
    """Where a grid's cells start, from its left edge (an item that is not a grid: 0)."""
    return item.grid_origin.x() if isinstance(item, MatrixGrid) else 0.0


def _placements(left: QGraphicsItem, pairs: Pairs,
                note: str) -> tuple[list[QPointF], list[str], QPointF, float]:
    """Where ``left``, then each pair's right factor and result go, the note's lines and where
    they start, and how wide it all runs. The note fills the empty corner above ``left`` when
    its lines fit there, else it is one line under everything."""
    band = max(top.boundingRect().height() for top, _ in pairs)
    y = band + ROW_GAP
    places = [QPointF(0, y)]
    x = left.boundingRect().width() + 2 * GAP + text_size(OPERATOR, OPERATOR_SIZE, True)[0]
    corner = x
    bottom = y + left.boundingRect().height()
    for top, result in pairs:
        shift = _cells_left(result) - _cells_left(top)  # the top's cells over the result's
        top_x, result_x = x + max(0.0, shift), x + max(0.0, -shift)
        places += [QPointF(top_x, band - top.boundingRect().height()), QPointF(result_x, y)]
        corner = min(corner, top_x - GAP)
        x = max(top_x + top.boundingRect().width(), result_x + result.boundingRect().width())
        x += ROW_GAP
        bottom = max(bottom, y + result.boundingRect().height())
    lines = fitted_lines(note, corner, NOTE_SIZE)
    height = len(lines) * _line_height()
    if height <= band and all(text_size(line, NOTE_SIZE, False)[0] <= corner for line in lines):
        return places, lines, QPointF(0, band - height), x - ROW_GAP
    width = text_size(note, NOTE_SIZE, False)[0]
    return places, [note], QPointF(0, bottom + ROW_GAP / 2), max(x - ROW_GAP, width)


def _line_height() -> float:
    return text_size("0", NOTE_SIZE, False)[1]


class CornerProduct(QGraphicsObject):
    """``left · top = result`` for each (top, result) pair: the tops in a band above their
    results (their cells in the same columns), ``left`` level with the results and the sign
    between them, and lines saying how a cell is read; it paints nothing itself.

    Attributes
    ----------
    notes
        The lines saying how a cell is read.
    """

    def __init__(self, left: QGraphicsItem, pairs: Pairs, note: str, theme: Theme) -> None:
        super().__init__()
        places, lines, start, _width = _placements(left, pairs, note)
        items = [left, *(item for pair in pairs for item in pair)]
        for item, place in zip(items, places, strict=True):
            item.setParentItem(self)
            item.setPos(place)
        operator = TextItem(OPERATOR, theme, size=OPERATOR_SIZE, bold=True, role="muted")
        operator.setParentItem(self)
        operator.setPos(left.boundingRect().width() + GAP,
                        places[0].y() + body_middle(left) - operator.boundingRect().height() / 2)
        self.notes = [TextItem(line, theme, size=NOTE_SIZE) for line in lines]
        for k, text in enumerate(self.notes):
            text.setParentItem(self)
            text.setPos(start + QPointF(0, k * _line_height()))
        self._rect = QRectF()
        for item in self.childItems():
            self._rect = self._rect.united(item.mapRectToParent(item.boundingRect()))

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return


def cornered(left: QGraphicsItem, pairs: Pairs, straight: float, note: str,
             theme: Theme) -> CornerProduct | None:
    """The products in the corner arrangement when a wrap is in force, their straight layout
    (``straight`` wide) runs past it and the corner fits within it; else None (lay them out as
    usual)."""
    limit = wrap_width()
    if limit is None or straight <= limit:
        return None
    width = _placements(left, pairs, note)[3]
    return CornerProduct(left, pairs, note, theme) if width <= limit else None


def row_width(parts: Sequence[QGraphicsItem | str]) -> float:
    """How wide ``parts`` run on one line, operators as a row writes them."""
    widths = [text_size(part, OPERATOR_SIZE, True)[0] if isinstance(part, str)
              else part.boundingRect().width() for part in parts]
    return sum(widths) + GAP * (len(widths) - 1)
