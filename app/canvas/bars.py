"""Probabilities as labelled horizontal bars over the vocabulary, one group per position.

Every label and number is a :class:`~app.canvas.layout.TextItem`, so the printed probabilities
can be found among a frame's items and stay text in SVG and PDF exports.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsObject,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.grid import sized_only
from app.canvas.layout import TextItem
from app.canvas.remember import Store, remembered
from app.canvas.theme import Theme, font, text_advance
from engine import format_number
from engine.format.numbers import NumberFormat

BAR_LENGTH = 240.0
BAR_HEIGHT = 16.0
BAR_PITCH = 24.0
GROUP_GAP = 14.0
COLUMN_GAP = 36.0
PLACES = 6
MANY_ENTRIES = 12
TOP_ENTRIES = 10
TEXT_SIZE = 13
"""Pixel size of the bars' labels and printed probabilities; the bars scale with it."""
SIZES_KEPT = 64
"""Charts' extents kept for the layouts tried only for their size
(:func:`~app.canvas.grid.size_only`): the type scale's search lays the probabilities' step out
at every wrap and arrangement, each time with the same chart."""
_sizes: Store = OrderedDict()


@dataclass(frozen=True)
class BarsSpec:
    """What the bars show.

    Attributes
    ----------
    probs
        ``n × V`` probabilities, each row summing to 1.
    positions
        Which rows get a group of bars, in order.
    receiver
        The row drawn emphasised.
    group_titles
        One heading per position shown.
    places
        Decimals of the printed probabilities (the frame's own).
    text_size
        Pixel size of the labels and probabilities (a chart beside a grid reads at the size
        of its numbers); the bars' height and pitch grow with it.
    bar_length
        How long a bar of probability 1 is.
    legend
        The lines under the chart (a line each; empty: none, the draw's lines follow it).
    ids
        The vocabulary id of each entry, which a click on its bar picks (empty: the entry's
        own index; the draw's chart lists some entries, most probable first).
    """

    probs: npt.NDArray[np.float64]
    vocab: Sequence[str]
    positions: Sequence[int]
    receiver: int
    group_titles: Sequence[str]
    title: str
    legend: str
    columns: int = 1
    places: int = PLACES
    text_size: int = TEXT_SIZE
    bar_length: float = BAR_LENGTH
    ids: Sequence[int] = ()
    others: Mapping[int, tuple[str, float]] = field(default_factory=dict)
    """For a position whose chart leaves entries out: a row for them, its label (``the other
    50,247``) and their summed probability."""


def entries_shown(row: npt.NDArray[np.float64]) -> list[int]:
    """All entries of a small vocabulary in order; the most probable ones of a large one."""
    if len(row) <= MANY_ENTRIES:
        return list(range(len(row)))
    return remembered(row, ("top",), lambda: [int(k) for k in np.argsort(-row, kind="stable")[
        :TOP_ENTRIES]])  # a stable sort of 50,257 entries: once per row


def others_sum(row: npt.NDArray[np.float64], shown: Sequence[int]) -> float:
    """The summed probability of the entries of ``row`` not ``shown``."""
    rest = np.ones(len(row), dtype=bool)
    rest[list(shown)] = False
    return float(row[rest].sum())


@lru_cache(maxsize=16)
def widest_label(vocab: tuple[str, ...], size: int) -> float:
    """The width of the widest vocabulary label at pixel ``size``: every entry's, so the bars
    keep their place whichever entries are the most probable (measured once per vocabulary,
    not on every frame: 4,096 labels take about 10 ms)."""
    metrics = QFontMetricsF(font(size))
    return max(metrics.horizontalAdvance(str(v)) for v in vocab)


class ProbabilityBars(QGraphicsObject):
    """Groups of bars: vocabulary label, a bar as long as the probability, the probability."""

    def __init__(self, spec: BarsSpec, theme: Theme) -> None:
        super().__init__()
        self.spec = spec
        self.theme = theme
        self.values: dict[tuple[int, int], str] = {}
        """(position, entry) → the probability as printed."""
        self.rows: list[tuple[QRectF, int]] = []
        """Each bar's row (its label and track, in item coordinates) and its entry's id."""
        size = spec.text_size
        self._height, self._pitch = BAR_HEIGHT * size / TEXT_SIZE, BAR_PITCH * size / TEXT_SIZE
        label_width = max([widest_label(tuple(spec.vocab), size),
                           *(text_advance(label, size) for label, _ in spec.others.values())]) + 10
        if not sized_only():
            self._rect = self._made(label_width)
            return
        what = ("bars", label_width, tuple(spec.positions), spec.receiver,
                tuple(spec.group_titles), spec.title, spec.legend, spec.columns, spec.places,
                size, spec.bar_length, tuple(sorted(spec.others.items())))
        self._rect = QRectF(remembered(spec.probs, what, lambda: self._made(label_width),
                                       store=(_sizes, SIZES_KEPT), smallest=0))  # a copy

    def _made(self, label_width: float) -> QRectF:
        """Make the title, each position's group and the legend; what they cover."""
        spec, theme = self.spec, self.theme
        title = TextItem(spec.title, theme, size=14, bold=True)
        title.setParentItem(self)
        value_width = QFontMetricsF(font(spec.text_size, bold=True)).horizontalAdvance(
            NumberFormat(spec.places).widest(spec.probs))
        group_width = label_width + spec.bar_length + 8 + value_width + 6
        top = title.boundingRect().height() + 6
        y_by_column = [top] * max(1, spec.columns)
        for k, (position, heading) in enumerate(zip(spec.positions, spec.group_titles,
                                                    strict=True)):
            column = k % len(y_by_column)
            x = column * (group_width + COLUMN_GAP)
            y_by_column[column] = self._group(position, heading, x, y_by_column[column],
                                              label_width) + GROUP_GAP
        y = max(y_by_column)
        for line in spec.legend.splitlines():  # none: the chart ends at its last bar
            legend = TextItem(line, theme, size=12, role="muted")
            legend.setParentItem(self)
            legend.setPos(0, y)
            y += legend.boundingRect().height()
        return self.childrenBoundingRect()

    def _group(self, position: int, heading: str, x: float, y: float,
               label_width: float) -> float:
        spec, theme = self.spec, self.theme
        focused = position == spec.receiver
        head = TextItem(heading, theme, size=14, bold=focused,
                        role="text" if focused else "muted")
        head.setParentItem(self)
        head.setPos(x, y)
        y += head.boundingRect().height() + 2
        row = spec.probs[position]
        ink = theme.color("accent") if focused else theme.color("grid_line")
        size, bar_height = spec.text_size, self._height
        for entry in entries_shown(row):
            share = float(row[entry])
            label = TextItem(str(spec.vocab[entry]), theme, size=size,
                             role="text" if focused else "muted", width=label_width - 10)
            label.setParentItem(self)
            label.setPos(x, y + (bar_height - label.boundingRect().height()) / 2)
            self.rows.append((QRectF(x, y, label_width + spec.bar_length, bar_height),
                              spec.ids[entry] if spec.ids else entry))
            track = QGraphicsRectItem(QRectF(0, 0, spec.bar_length, bar_height), self)
            track.setPos(x + label_width, y)
            track.setPen(QPen(theme.color("grid_line", 0.6), 1.0))
            track.setBrush(QBrush(theme.color("panel")))
            bar = QGraphicsRectItem(QRectF(0, 0, max(1.0, share * spec.bar_length), bar_height),
                                     self)
            bar.setPos(x + label_width, y)
            bar.setPen(QPen(ink, 1.0))
            bar.setBrush(QBrush(ink))
            text = format_number(share, spec.places)  # as the grids and texts print it
            value = TextItem(text, theme, size=size, bold=focused,
                             role="text" if focused else "muted")
            value.setParentItem(self)
            value.setPos(x + label_width + spec.bar_length + 8,
                         y + (bar_height - value.boundingRect().height()) / 2)
            self.values[(position, entry)] = text
            y += self._pitch
        if position in spec.others:
            y = self._others(position, x, y, label_width)
        return y

    def _others(self, position: int, x: float, y: float, label_width: float) -> float:
        """The row of the entries left out: their count and summed probability, muted, its
        bar hatched (:attr:`BarsSpec.others`)."""
        spec, theme = self.spec, self.theme
        label_text, share = spec.others[position]
        label = TextItem(label_text, theme, size=spec.text_size, role="muted")
        label.setParentItem(self)
        label.setPos(x, y + (self._height - label.boundingRect().height()) / 2)
        bar = QGraphicsRectItem(QRectF(0, 0, max(1.0, share * spec.bar_length), self._height),
                                self)
        bar.setPos(x + label_width, y)
        bar.setPen(QPen(theme.color("grid_line"), 1.0))
        bar.setBrush(QBrush(theme.color("grid_line"), Qt.BrushStyle.BDiagPattern))
        text = format_number(share, spec.places)
        value = TextItem(text, theme, size=spec.text_size, role="muted")
        value.setParentItem(self)
        value.setPos(x + label_width + spec.bar_length + 8,
                     y + (self._height - value.boundingRect().height()) / 2)
        self.values[(position, -1)] = text
        return y + self._pitch

    def entry_at(self, point: QPointF) -> int | None:
        """The vocabulary entry whose bar (or label) is at ``point``, in item coordinates."""
        return next((entry for rect, entry in self.rows if rect.contains(point)), None)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return
