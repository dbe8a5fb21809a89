"""Placing grids, operators and diagrams side by side inside a frame."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.grid import CELL_HEIGHT, HEADER_HEIGHT, TITLE_HEIGHT, MatrixGrid
from app.canvas.theme import Theme, font

GAP = 14.0
T = TypeVar("T")
ROW_GAP = 30.0


class TextItem(QGraphicsObject):
    """A line of text drawn with the frame's font (kept as text in SVG and PDF)."""

    def __init__(self, text: str, theme: Theme, *, size: int = 14, bold: bool = False,
                 role: str = "text", width: float | None = None) -> None:
        super().__init__()
        self.text = text
        self._font = font(size, bold)
        self._color = theme.color(role)
        metrics = QFontMetricsF(self._font)
        self._rect = QRectF(0, 0, width if width is not None else
                            metrics.horizontalAdvance(text) + 4, metrics.height() + 4)

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
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.text)


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


def _body_middle(item: QGraphicsItem) -> float:
    """Vertical middle of a grid's cells (or of any other item), relative to its top."""
    if isinstance(item, MatrixGrid):
        return TITLE_HEIGHT + HEADER_HEIGHT + min(item.spec.values.shape[0], 8) * CELL_HEIGHT / 2
    return item.boundingRect().height() / 2


def place_row(parent: QGraphicsItem, parts: Sequence[QGraphicsItem | str], x: float, y: float,
              theme: Theme) -> QRectF:
    """Lay ``parts`` left to right from (x, y); strings become operators (·, =, +, →).

    Operators sit level with the middle of the first rows of the grid before them.
    Returns the rectangle the row covers, in the parent's coordinates.
    """
    cursor = x
    middle = 0.0
    bottom = y
    for part in parts:
        if isinstance(part, str):
            item: QGraphicsItem = TextItem(part, theme, size=22, bold=True, role="muted")
            height = item.boundingRect().height()
            item.setParentItem(parent)
            item.setPos(cursor, y + middle - height / 2)
        else:
            item = part
            item.setParentItem(parent)
            item.setPos(cursor, y)
            middle = _body_middle(item)
        bottom = max(bottom, y + item.boundingRect().height())
        cursor += item.boundingRect().width() + GAP
    return QRectF(x, y, cursor - GAP - x, bottom - y)


def place_rows(parent: QGraphicsItem, rows: Sequence[Sequence[QGraphicsItem | str]], x: float,
               y: float, theme: Theme) -> QRectF:
    """Several :func:`place_row` rows, one under the other."""
    covered = QRectF(x, y, 0, 0)
    for parts in rows:
        rect = place_row(parent, parts, x, y, theme)
        covered = covered.united(rect)
        y = rect.bottom() + ROW_GAP
    return covered
