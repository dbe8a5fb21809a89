"""The model view: every layer × head's shares in one picture, and the attention-sink frame.

Rows are the document's attentions (layers), columns their heads; each thumbnail is a heat map of
that head's shares (queries down, keys across, cividis from 0 to 1) headed ``L{l} h{h}`` and its
sink figure, the mean share on the first key (:mod:`engine.analysis.sinks`). The receiver's row is
outlined and marked ``▸``. The same item paints the window's model view and every export of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.cividis import CIVIDIS_ARGB
from app.canvas.theme import SLIDE, Theme, fitted_lines, font, ink_for
from app.model.operands import shown_tokens
from app.plain_text import as_written
from app.texts.words import say
from engine.analysis.sinks import layer_shares, sink_shares, strongest_sink
from engine.format.numbers import format_number
from engine.forward.trace import Trace

MARGIN = 24.0
TITLE_HEIGHT = 34.0
LABEL_HEIGHT = 20.0
GAP = 12.0
NARROWEST_THUMB = 84.0
"""A heat map is at least this wide: its label ``L12 h12`` and sink figure fit above it."""
LOWEST_THUMB = 48.0
LARGEST_THUMB = 220.0
SHEET = (1920.0, 1080.0)
"""The sheet the heat maps are sized for: the view fills it at about scale 1 (12 × 12 heads
too, their labels 13 px), and a 3 × 2 document's heat maps grow instead."""
CELL_FOR_NUMBERS = 30.0
"""A cell at least this many device pixels wide prints its share."""
PANEL_WIDTH = 520.0
LABEL_SIZE = 13
TEXT_SIZE = 16
SHOWN_SHARES = 8
"""The sink frame prints at most this many of the receiver's shares."""

OpenHead = Callable[[int, int], None]
"""``open_head(step, head)``: a thumbnail was clicked."""


@dataclass(frozen=True)
class ModelViewOptions:
    """What the model view shows: the receiver (``None``: the last position), which of the
    document's attentions (rows of :func:`~engine.analysis.sinks.layer_shares`), language and
    theme."""

    receiver: int | None = None
    layers: range | None = None
    lang: str = "en"
    theme: Theme = SLIDE


class ModelViewItem(QGraphicsItem):
    """Every chosen layer × head's shares as thumbnails, with the sink frame to their right."""

    def __init__(self, trace: Trace, options: ModelViewOptions,
                 open_head: OpenHead | None = None) -> None:
        super().__init__()
        every = layer_shares(trace)
        chosen = options.layers if options.layers is not None else range(len(every))
        self.layers = tuple(every[k] for k in chosen)
        self.options = options
        self.tokens = shown_tokens(trace.scenario.tokens)
        steps = [trace.steps[shares.step] for shares in self.layers]
        self.queries = [shown_tokens(trace.tokens_of(step.rows)) for step in steps]
        """Each attention's query tokens (an encoder's are its own) and key tokens."""
        self.keys = [shown_tokens(trace.tokens_of(step.keys)) for step in steps]
        self.receiver = len(self.tokens) - 1 if options.receiver is None else options.receiver
        self.receives = [queries == self.tokens for queries in self.queries]
        """Whether an attention's queries are the document's tokens (not an encoder's): only
        those have the receiver's row."""
        self.sinks = tuple(sink_shares(shares) for shares in self.layers)
        self.open_head = open_head
        heads = max((shares.heads for shares in self.layers), default=1)
        self.thumb = thumb_size(len(self.layers), heads)
        self.pitch = (self.thumb[0] + GAP, LABEL_HEIGHT + self.thumb[1] + GAP)
        self.grid_left, self.grid_top = MARGIN + 14.0, MARGIN + TITLE_HEIGHT
        grid_width = heads * self.pitch[0]
        self.panel_rect = QRectF(self.grid_left + grid_width + GAP, self.grid_top, PANEL_WIDTH, 0.0)
        self.panel_lines = self._panel_lines()
        panel_height = len(self.panel_lines) * (TEXT_SIZE + 8) + 2 * GAP
        grid_height = len(self.layers) * self.pitch[1]
        self.panel_rect.setHeight(panel_height)
        self._rect = QRectF(0.0, 0.0, self.panel_rect.right() + MARGIN,
                            self.grid_top + max(grid_height, panel_height) + MARGIN)
        self._images = [[_heat_image(shares.weights[h], shares.visible, options.theme)
                         for h in range(shares.heads)] for shares in self.layers]
        self.setAcceptHoverEvents(True)

    # -- words -------------------------------------------------------------------------------
    def word(self, key: str, /, **fields: object) -> str:
        return say(f"model_view.{key}", self.options.lang, **fields)

    def head_label(self, row: int, head: int) -> str:
        """``L2 h3`` (heads counted from 1)."""
        return self.word("head", layer=self.layers[row].label, head=head + 1)

    def title(self) -> str:
        heads = max((shares.heads for shares in self.layers), default=1)
        return self.word("title", layers=len(self.layers), heads=heads,
                         token=self.tokens[self.receiver], position=self.receiver)

    def _panel_lines(self) -> list[tuple[str, bool]]:
        width = (PANEL_WIDTH - 2 * GAP) * 0.9  # room for the typeface's own spacing
        lines: list[tuple[str, bool]] = [(self.word("sink_title"), True)]
        if not self.layers:
            return [*lines, (self.word("no_attention"), False)]
        first = self.keys[0][0]
        texts = [self.word("legend", first=first), self.word("sink_what", first=first)]
        rows = [row for row, receives in enumerate(self.receives) if receives]
        sink = strongest_sink(tuple(self.layers[row] for row in rows), self.receiver)
        if sink is None:
            texts.append(self.word("sink_none"))
        else:
            label = self.head_label(rows[sink.layer], sink.head)
            texts.append(self.word("sink_strongest", label=label,
                                   mean=format_number(sink.mean, 3),
                                   first=self.keys[rows[sink.layer]][0]))
            texts.append(self.word("sink_removed", label=label,
                                   token=self.tokens[self.receiver],
                                   first_share=format_number(float(sink.row[0]), 3),
                                   rest=format_number(1.0 - float(sink.row[0]), 3)))
        for text in texts:
            lines.extend((line, False) for line in fitted_lines(text, width, TEXT_SIZE))
        if sink is not None:
            lines.append((self.word("sink_before", shares=_shares_text(sink.row)), False))
            lines.append((self.word("sink_after",
                                    shares=_shares_text(sink.renormalised, "–")), False))
        return lines

    # -- geometry ----------------------------------------------------------------------------
    def thumb_rect(self, row: int, head: int) -> QRectF:
        """Where the heat map of head ``head`` of attention ``row`` is drawn."""
        return QRectF(self.grid_left + head * self.pitch[0],
                      self.grid_top + row * self.pitch[1] + LABEL_HEIGHT, *self.thumb)

    def head_at(self, point: QPointF) -> tuple[int, int] | None:
        """The (attention row, head) whose thumbnail or label holds ``point``."""
        for row, shares in enumerate(self.layers):
            for head in range(shares.heads):
                rect = self.thumb_rect(row, head).adjusted(0.0, -LABEL_HEIGHT, 0.0, 0.0)
                if rect.contains(point):
                    return row, head
        return None

    def cell_at(self, point: QPointF) -> tuple[int, int, int, int] | None:
        """(row, head, query, key) of the thumbnail cell under ``point``."""
        found = self.head_at(point)
        if found is None:
            return None
        row, head = found
        rect = self.thumb_rect(row, head)
        if not rect.contains(point):
            return None
        queries, keys = self.layers[row].weights.shape[1:]
        query = min(queries - 1, int((point.y() - rect.top()) / rect.height() * queries))
        key = min(keys - 1, int((point.x() - rect.left()) / rect.width() * keys))
        return row, head, query, key

    def hover_text(self, point: QPointF) -> str:
        """What the cell under ``point`` holds, in words (empty off the thumbnails)."""
        cell = self.cell_at(point)
        if cell is None:
            return ""
        row, head, query, key = cell
        shares = self.layers[row]
        fields = {"label": self.head_label(row, head), "query": self.queries[row][query],
                  "row": query, "key": self.keys[row][key], "col": key}
        if not shares.visible[query, key]:
            return self.word("hover_masked", **fields)
        return self.word("hover", share=format_number(float(shares.weights[head, query, key])),
                         **fields)

    # -- QGraphicsItem -----------------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        theme = self.options.theme
        scale = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setFont(font(TEXT_SIZE + 4, bold=True))
        painter.setPen(theme.color("text"))
        painter.drawText(QRectF(MARGIN, MARGIN, self._rect.width(), TITLE_HEIGHT),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, self.title())
        for row, shares in enumerate(self.layers):
            sinks = self.sinks[row]
            for head in range(shares.heads):
                self._paint_head(painter, row, head, float(sinks[head]), scale)
        self._paint_panel(painter)

    def _paint_head(self, painter: QPainter, row: int, head: int, sink: float,
                    scale: float) -> None:
        theme = self.options.theme
        rect = self.thumb_rect(row, head)
        label = QRectF(rect.left(), rect.top() - LABEL_HEIGHT, rect.width(), LABEL_HEIGHT - 2)
        painter.setPen(theme.color("text"))
        painter.setFont(font(LABEL_SIZE, bold=True))
        painter.drawText(label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.head_label(row, head))
        painter.setFont(font(LABEL_SIZE))
        painter.drawText(label, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         format_number(sink, 2, pad=True))
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(rect, self._images[row][head])
        painter.restore()
        weights = self.layers[row].weights[head]
        queries, keys = weights.shape
        cell_w, cell_h = rect.width() / keys, rect.height() / queries
        if min(cell_w, cell_h) * scale >= CELL_FOR_NUMBERS:
            self._paint_numbers(painter, rect, weights, self.layers[row].visible)
        if self.receives[row]:
            top = rect.top() + self.receiver * cell_h
            pen = QPen(theme.color("accent"), 2.5)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(rect.left(), top, rect.width(), cell_h))
            painter.setPen(theme.color("text"))
            painter.setFont(font(12, bold=True))
            painter.drawText(QRectF(rect.left() - 14.0, top + cell_h / 2 - 8.0, 13.0, 16.0),
                             Qt.AlignmentFlag.AlignCenter, "▸")

    def _paint_numbers(self, painter: QPainter, rect: QRectF, weights: np.ndarray,
                       visible: np.ndarray) -> None:
        queries, keys = weights.shape
        cell_w, cell_h = rect.width() / keys, rect.height() / queries
        painter.setFont(font(max(4, int(min(cell_w / 3.2, cell_h / 2.0)))))
        for i in range(queries):
            for j in range(keys):
                if not visible[i, j]:
                    continue
                fill = QColor.fromRgb(int(CIVIDIS_ARGB[_level(float(weights[i, j]))]))
                painter.setPen(ink_for(fill))
                painter.drawText(QRectF(rect.left() + j * cell_w, rect.top() + i * cell_h,
                                        cell_w, cell_h), Qt.AlignmentFlag.AlignCenter,
                                 format_number(float(weights[i, j]), 2, pad=True))

    def _paint_panel(self, painter: QPainter) -> None:
        theme = self.options.theme
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.color("panel"))
        painter.drawRect(self.panel_rect)
        painter.setPen(theme.color("text"))
        top = self.panel_rect.top() + GAP
        for line, bold in self.panel_lines:
            painter.setFont(font(TEXT_SIZE, bold=bold))
            painter.drawText(QRectF(self.panel_rect.left() + GAP, top, PANEL_WIDTH - 2 * GAP,
                                    TEXT_SIZE + 8), Qt.AlignmentFlag.AlignLeft
                             | Qt.AlignmentFlag.AlignVCenter, line)
            top += TEXT_SIZE + 8

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self.setToolTip(as_written(self.hover_text(event.pos())))

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        found = self.head_at(event.pos())
        if found is None or self.open_head is None:
            event.ignore()
            return
        row, head = found
        self.open_head(self.layers[row].step, head)


def thumb_size(layers: int, heads: int) -> tuple[float, float]:
    """Width and height of each heat map: as large as lets ``layers`` × ``heads`` of them and
    the sink frame fill the :data:`SHEET`, square where that leaves them at least
    :data:`NARROWEST_THUMB` wide, at most :data:`LARGEST_THUMB`."""
    across = (SHEET[0] - 2 * MARGIN - 14.0 - GAP - PANEL_WIDTH) / max(1, heads) - GAP
    down = (SHEET[1] - 2 * MARGIN - TITLE_HEIGHT) / max(1, layers) - LABEL_HEIGHT - GAP
    width = max(NARROWEST_THUMB, min(LARGEST_THUMB, across, down))
    return width, max(LOWEST_THUMB, min(LARGEST_THUMB, down, width))


def _level(share: float) -> int:
    return round(max(0.0, min(1.0, share)) * 255)


def _heat_image(weights: np.ndarray, visible: np.ndarray, theme: Theme) -> QImage:
    """One pixel per cell: cividis from share 0 to 1, masked cells in the theme's masked grey."""
    levels = np.rint(np.clip(weights, 0.0, 1.0) * 255).astype(np.intp)
    pixels = np.where(visible, CIVIDIS_ARGB[levels], np.uint32(theme.color("masked").rgba()))
    pixels = np.ascontiguousarray(pixels, dtype=np.uint32)
    rows, cols = pixels.shape
    image = QImage(pixels.data, cols, rows, 4 * cols, QImage.Format.Format_RGB32)
    return image.copy()  # own the pixels: the array goes away


def _shares_text(row: np.ndarray, first: str | None = None) -> str:
    """``[0.81, 0.12, …]`` (the first :data:`SHOWN_SHARES`), ``first`` standing for key 0."""
    numbers = [format_number(float(v), 3, pad=True) for v in row]
    if first is not None:
        numbers = [first, *numbers]
    shown = numbers[:SHOWN_SHARES]
    return "[" + ", ".join(shown) + (", …]" if len(numbers) > SHOWN_SHARES else "]")
