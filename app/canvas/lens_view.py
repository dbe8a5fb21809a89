"""The logit lens as a picture: what the model would predict if it stopped after each layer.

Rows are the layer boundaries (the stream entering layer 1, then the stream leaving each layer),
columns the positions; each cell prints the most probable token at that position, read through
the document's final norm and vocabulary head (:mod:`engine.analysis.lens`), and its probability,
on a cividis shade of that probability (the number is always printed: the shade is never the only
cue). The last row is the document's own probabilities. The readings are worked out when the
picture is made, not with every computation: a GPT-2-small-shaped document reads 13 × 50,257
logits per position. The same item paints the window's lens and every export of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.cividis import CIVIDIS_ARGB
from app.canvas.theme import SLIDE, Theme, fitted_lines, font, ink_for, text_font
from app.model.operands import shown_tokens
from app.plain_text import as_written
from app.texts.words import say
from engine.analysis.lens import Reading, read_layers, top_tokens
from engine.format.numbers import format_number
from engine.forward.trace import Trace

MARGIN = 24.0
TITLE_SIZE = 20
TEXT_SIZE = 16
LINE = TEXT_SIZE + 8.0
ROW_LABEL_WIDTH = 190.0
HEADER_HEIGHT = 30.0
SHEET = (1920.0, 1080.0)
"""The sheet the cells are sized for: a few positions' cells grow to fill it, many shrink to
:data:`NARROWEST_CELL` (the window zooms; an export scales the whole picture down)."""
NARROWEST_CELL = 96.0
WIDEST_CELL = 220.0
LOWEST_CELL = 48.0
HIGHEST_CELL = 96.0
PLACES = 3
"""The probabilities are printed with three decimals, as the probabilities step prints them."""
HOVER_TOP = 5
"""A cell's hover names this many of its most probable tokens."""


@dataclass(frozen=True)
class LensOptions:
    """What the lens shows: the receiver (``None``: the last position), language and theme."""

    receiver: int | None = None
    lang: str = "en"
    theme: Theme = SLIDE


class LensItem(QGraphicsItem):
    """Every layer boundary × position's most probable token and its probability.

    Raises
    ------
    ScenarioError
        At ``head`` when the document has no vocabulary head (nothing to read the layers with).
    """

    def __init__(self, trace: Trace, options: LensOptions,
                 readings: tuple[Reading, ...] | None = None) -> None:
        super().__init__()
        self.readings = read_layers(trace) if readings is None else readings
        """``readings``, when given, are ``trace``'s, read in a worker (a GPT-2-small shape
        takes seconds: :func:`~engine.analysis.lens.read_layers`)."""
        self.options = options
        self.tokens = shown_tokens(trace.tokens_of("tokens"))
        self.vocab = shown_tokens(trace.tokens_of("vocab"))
        self.receiver = len(self.tokens) - 1 if options.receiver is None else options.receiver
        self.best = [np.argmax(reading.probs, axis=1) for reading in self.readings]
        """Each reading's most probable id per position (ties: the lower id, as the CLI's)."""
        positions, rows = len(self.tokens), len(self.readings)
        width = (SHEET[0] - 2 * MARGIN - ROW_LABEL_WIDTH) / max(1, positions)
        self.cell_width = max(NARROWEST_CELL, min(WIDEST_CELL, width))
        table_width = ROW_LABEL_WIDTH + positions * self.cell_width
        self.legend = fitted_lines(self.word("legend"), max(table_width, 900.0) * 0.92,
                                   TEXT_SIZE)
        self.table_top = MARGIN + TITLE_SIZE + 16.0 + len(self.legend) * LINE + 12.0 \
            + HEADER_HEIGHT
        height = (SHEET[1] - self.table_top - MARGIN) / max(1, rows)
        self.cell_height = max(LOWEST_CELL, min(HIGHEST_CELL, height))
        self.table_left = MARGIN + ROW_LABEL_WIDTH
        self._rect = QRectF(0.0, 0.0, max(self.table_left + positions * self.cell_width,
                                          MARGIN + 900.0) + MARGIN,
                            self.table_top + rows * self.cell_height + MARGIN)
        self.number_size = int(max(12, min(TEXT_SIZE + 2, self.cell_height / 3.2,
                                           self.cell_width / 6.0)))
        self.setAcceptHoverEvents(True)

    # -- words -------------------------------------------------------------------------------
    def word(self, key: str, /, **fields: object) -> str:
        return say(f"lens.{key}", self.options.lang, **fields)

    def title(self) -> str:
        layers = len(self.readings) - 1
        return self.word("title", layers=layers) if layers > 1 else self.word("title_one")

    def row_label(self, row: int) -> str:
        """``embedding`` for the stream entering layer 1, else ``after L2`` (the last row says
        it is the output)."""
        if row == 0:
            return self.word("row_input")
        key = "row_last" if row == len(self.readings) - 1 else "row_layer"
        return self.word(key, layer=self.readings[row].layer)

    def cell_value(self, row: int, position: int) -> tuple[int, float]:
        """The most probable id of a cell and its probability."""
        best = int(self.best[row][position])
        return best, float(self.readings[row].probs[position, best])

    def cell_words(self, row: int, position: int) -> tuple[str, str]:
        """The token a cell prints and its probability, as printed."""
        best, p = self.cell_value(row, position)
        return self.vocab[best], format_number(p, PLACES, pad=True)

    def hover_text(self, point: QPointF) -> str:
        """A cell's reading in words: where the row comes from, its most probable tokens with
        their probabilities and logits, and the softmax that gives them (empty off the
        table)."""
        cell = self.cell_at(point)
        if cell is None:
            return ""
        row, position = cell
        reading = self.readings[row]
        top = top_tokens(reading.probs[position], HOVER_TOP)
        entries = [self.word("top_entry", label=self.vocab[i], p=format_number(p, PLACES),
                             logit=format_number(float(reading.logits[position, i]), PLACES))
                   for i, p in top]
        return self.word("hover", row=self.row_label(row), position=position,
                         token=self.tokens[position], stream=reading.stream,
                         top="; ".join(entries))

    # -- geometry ----------------------------------------------------------------------------
    def cell_rect(self, row: int, position: int) -> QRectF:
        """Where the cell of reading ``row`` at ``position`` is drawn."""
        return QRectF(self.table_left + position * self.cell_width,
                      self.table_top + row * self.cell_height, self.cell_width, self.cell_height)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        """(row, position) of the cell under ``point``."""
        col = int((point.x() - self.table_left) // self.cell_width)
        row = int((point.y() - self.table_top) // self.cell_height)
        if point.x() < self.table_left or point.y() < self.table_top:
            return None
        if 0 <= row < len(self.readings) and 0 <= col < len(self.tokens):
            return row, col
        return None

    # -- QGraphicsItem -----------------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        theme = self.options.theme
        text = theme.color("text")
        painter.setPen(text)
        painter.setFont(font(TITLE_SIZE + 2, bold=True))
        painter.drawText(QRectF(MARGIN, MARGIN, self._rect.width(), TITLE_SIZE + 12),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, self.title())
        top = MARGIN + TITLE_SIZE + 16.0
        painter.setFont(font(TEXT_SIZE))
        for line in self.legend:
            painter.drawText(QRectF(MARGIN, top, self._rect.width(), LINE),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)
            top += LINE
        self._paint_header(painter)
        for row in range(len(self.readings)):
            self._paint_row(painter, row)
        left = self.table_left + self.receiver * self.cell_width
        painter.setPen(QPen(theme.color("accent"), 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(left, self.table_top, self.cell_width,
                                len(self.readings) * self.cell_height))

    def _paint_header(self, painter: QPainter) -> None:
        painter.setPen(self.options.theme.color("text"))
        top = self.table_top - HEADER_HEIGHT
        for position, token in enumerate(self.tokens):
            mark = "▸ " if position == self.receiver else ""
            label = self.word("column", position=position, token=token)
            rect = QRectF(self.table_left + position * self.cell_width, top, self.cell_width,
                          HEADER_HEIGHT - 4)
            painter.setFont(text_font(label, TEXT_SIZE - 2, bold=bool(mark)))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                             _elided(mark + label, rect.width() - 6, painter))

    def _paint_row(self, painter: QPainter, row: int) -> None:
        theme = self.options.theme
        label = self.row_label(row)
        painter.setPen(theme.color("text"))
        painter.setFont(text_font(label, TEXT_SIZE, bold=row == len(self.readings) - 1))
        painter.drawText(QRectF(MARGIN, self.table_top + row * self.cell_height,
                                ROW_LABEL_WIDTH - 10, self.cell_height),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        grid = QPen(theme.color("background"), 1.0)
        for position in range(len(self.tokens)):
            rect = self.cell_rect(row, position)
            token, p = self.cell_words(row, position)
            fill = QColor.fromRgb(int(CIVIDIS_ARGB[_level(self.cell_value(row, position)[1])]))
            painter.setPen(grid)
            painter.setBrush(fill)
            painter.drawRect(rect)
            painter.setPen(ink_for(fill))
            upper = QRectF(rect.left() + 3, rect.top() + 2, rect.width() - 6, rect.height() / 2)
            lower = QRectF(rect.left() + 3, rect.center().y(), rect.width() - 6,
                           rect.height() / 2 - 2)
            painter.setFont(text_font(token, self.number_size, bold=True))
            painter.drawText(upper, Qt.AlignmentFlag.AlignCenter,
                             _elided(token, upper.width(), painter))
            painter.setFont(font(self.number_size))
            painter.drawText(lower, Qt.AlignmentFlag.AlignCenter, p)

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self.setToolTip(as_written(self.hover_text(event.pos())))


def _level(p: float) -> int:
    return round(max(0.0, min(1.0, p)) * 255)


def _elided(text: str, width: float, painter: QPainter) -> str:
    """``text`` cut with … to ``width`` in the painter's font (a long token's label)."""
    return QFontMetricsF(painter.font()).elidedText(text, Qt.TextElideMode.ElideRight, width)
