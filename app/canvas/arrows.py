"""Query → Key arrows, their width and opacity the softmax share, all drawn by one cached item."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPicture,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.picture import play
from app.canvas.theme import Theme, font
from app.texts.frame_words import frame_word, join_notes
from engine.numbers import NumberFormat, format_number

ROW_PITCH = 34.0
COLUMN_GAP = 170.0
TOP = 54.0
LABEL_GAP = 8.0
"""Between a key box and its share labels."""
LEGEND_LINE = 20.0
SAMPLE_WIDTH = 34.0
"""Length of the sample strokes in the legend."""
OTHER_ROWS_OPACITY = 0.5
"""Query boxes of the rows other than the receiver are drawn at this opacity."""
STRONG_TOP_K = 8
STRONG_MIN_SHARE = 0.02
MANY_POSITIONS = 16
FAINT_LEVELS = 8


@dataclass(frozen=True)
class DrawnArrow:
    """One arrow as drawn: which head, from which query to which key, and how strongly."""

    head: int
    query: int
    key: int
    share: float
    width: float
    opacity: float
    focused: bool
    color: str = ""
    """The arrow's colour, ``#rrggbb`` (its opacity is ``opacity``)."""


@dataclass(frozen=True)
class Connector:
    """One arrow as a line, for exporters that draw native connectors (PowerPoint).

    Points and rectangles are in the arrows item's own coordinates; ``color`` is ``#rrggbb`` and
    ``opacity`` its alpha (0–1). ``label`` is the printed share (``""`` when none is printed) and
    ``label_rect`` the box it is printed in (empty when there is no label).
    """

    start: QPointF
    end: QPointF
    width: float
    color: str
    opacity: float
    label: str = ""
    label_rect: QRectF = field(default_factory=QRectF)


@dataclass(frozen=True)
class ArrowSpec:
    """What the arrows show.

    Attributes
    ----------
    weights
        ``h × n × m`` softmax shares (``m`` keys).
    visible
        ``n × m``: may query i read key j.
    receiver
        The query row in focus; its arrows are emphasised and their shares printed.
    heads
        Which heads to draw (0-based).
    show_all
        With many positions, draw every arrow rather than each row's strongest.
    """

    tokens: Sequence[str]
    weights: npt.NDArray[np.float64]
    visible: npt.NDArray[np.bool_]
    receiver: int
    heads: Sequence[int]
    show_all: bool = False
    places: int = 3
    """Decimals of the printed shares (the frame's grids' own)."""
    keys: Sequence[str] | None = None
    """The keys' tokens when they are another list (cross-attention reads the encoder's);
    None: the keys are the queries' ``tokens``."""

    @property
    def key_tokens(self) -> Sequence[str]:
        return self.tokens if self.keys is None else self.keys


def strong_arrows(shares: npt.NDArray[np.float64], top_k: int = STRONG_TOP_K,
                  min_share: float = STRONG_MIN_SHARE) -> npt.NDArray[np.bool_]:
    """Which shares of a row get an arrow: the ``top_k`` largest, and any ≥ ``min_share``.

    ``shares`` may be one row or a matrix of rows (the last axis is a row).
    """
    keep = shares >= min_share
    order = np.argsort(-shares, axis=-1, kind="stable")[..., :top_k]
    np.put_along_axis(keep, order, True, axis=-1)
    keep_positive: npt.NDArray[np.bool_] = keep & (shares > 0)
    return keep_positive


class AttentionArrows(QGraphicsObject):
    """Query nodes on the left, key nodes on the right, one arrow per visible pair."""

    def __init__(self, spec: ArrowSpec, theme: Theme, title: str, lang: str = "en") -> None:
        super().__init__()
        self.spec = spec
        self.theme = theme
        self.title = title
        self.lang = lang
        n = max(len(spec.tokens), len(spec.key_tokens))
        metrics = QFontMetricsF(font(13, bold=True))
        self.node_width = max(metrics.horizontalAdvance(f"q {t}")
                              for t in (*spec.tokens, *spec.key_tokens)) + 18
        self.filtered = n > MANY_POSITIONS and not spec.show_all
        self.several = spec.weights.shape[0] > 1
        """Several heads in the scenario: each head in its colour, named in its share labels."""
        self.label_width = metrics.horizontalAdvance(
            ("h8 " if self.several else "") + NumberFormat(spec.places).widest(spec.weights)) + 12
        labels_right = self.label_left + len(spec.heads) * self.label_width
        legend_width = max(QFontMetricsF(font(12)).horizontalAdvance(line)
                           for line in self.legend_lines()) + SAMPLE_WIDTH + 12
        self._width = max(labels_right, legend_width,
                          QFontMetricsF(font(14, bold=True)).horizontalAdvance(title) + 8)
        self._legend_top = TOP + n * ROW_PITCH + 10
        self._height = self._legend_top + len(self.legend_lines()) * LEGEND_LINE + 4
        self._focused: list[DrawnArrow] = []
        self._faint: list[tuple[int, npt.NDArray[np.intp], float, float]] = []
        self._share_labels: list[str] = []
        self._connectors: list[Connector] = []
        self._masked_keys: list[int] = []
        self._recorded: QPicture | None = None
        """Recorded at the first paint or question: laying out needs only the size."""

    @property
    def _picture(self) -> QPicture:
        if self._recorded is None:
            self._recorded = self._record()
        return self._recorded

    @property
    def share_labels(self) -> list[str]:
        """The receiver's printed shares, in drawing order."""
        self._picture  # noqa: B018 - recording fills it
        return self._share_labels

    @property
    def masked_keys(self) -> list[int]:
        """Keys the receiver may not read (drawn dashed, no arrow)."""
        self._picture  # noqa: B018 - recording fills it
        return self._masked_keys

    def boundingRect(self) -> QRectF:
        return QRectF(0.0, 0.0, self._width, self._height)

    @property
    def drawn(self) -> list[DrawnArrow]:
        """Every arrow drawn, the other rows' faint ones first, then the receiver's."""
        self._picture  # noqa: B018 - recording fills it
        weights = self.spec.weights
        faint = [DrawnArrow(head, i, j, float(weights[head, i, j]), width, opacity, False,
                            self.ink(head, focused=False))
                 for head, pairs, width, opacity in self._faint for i, j in pairs.tolist()]
        return faint + self._focused

    def connectors(self) -> list[Connector]:
        """Every arrow as a :class:`Connector`: the other rows' faint ones first (no label),
        then the receiver's with their printed shares."""
        self._picture  # noqa: B018 - recording fills it
        faint = []
        for head, pairs, width, opacity in self._faint:
            offset = self._head_offset(self.spec.heads.index(head))
            color = self.ink(head, focused=False)
            for i, j in pairs.tolist():
                start = self.query_anchor(i) + QPointF(0, offset)
                end = self.key_anchor(j) + QPointF(-4, offset)
                faint.append(Connector(start, end, width, color, opacity))
        return faint + list(self._connectors)

    def ink(self, head: int, focused: bool = True) -> str:
        """The colour of ``head``'s arrows: its Okabe–Ito colour when the scenario has several
        heads (even while one head is shown), else the accent (muted for other rows)."""
        if self.several:
            return self.theme.head_color(head).name()
        return self.theme.color("accent" if focused else "muted").name()

    @property
    def label_left(self) -> float:
        """Left edge of the share labels: just right of the key boxes."""
        return self.node_width * 2 + COLUMN_GAP + LABEL_GAP

    def legend_lines(self) -> list[str]:
        """The lines under the arrows: what width and opacity mean, what the faint ones are,
        and the filter when one applies."""
        lines = [frame_word(self.lang, "arrow_legend"),
                 frame_word(self.lang, "legend_heads" if self.several else "legend_other")]
        if self.filtered:
            lines.append(frame_word(self.lang, "arrow_filter", top_k=STRONG_TOP_K,
                                    min_share=STRONG_MIN_SHARE))
        return lines

    def legend(self) -> str:
        """The legend as one line of text."""
        return join_notes(self.lang, *self.legend_lines())

    def query_anchor(self, i: int) -> QPointF:
        return QPointF(self.node_width, TOP + i * ROW_PITCH + ROW_PITCH / 2)

    def key_anchor(self, j: int) -> QPointF:
        return QPointF(self.node_width + COLUMN_GAP, TOP + j * ROW_PITCH + ROW_PITCH / 2)

    def _record(self) -> QPicture:
        spec, theme = self.spec, self.theme
        n = len(spec.tokens)
        picture = QPicture()
        painter = QPainter(picture)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(font(14, bold=True))
        painter.setPen(theme.color("text"))
        painter.drawText(QRectF(0, 0, self._width, 22), Qt.AlignmentFlag.AlignLeft, self.title)
        painter.setFont(font(12))
        painter.setPen(theme.color("muted"))
        painter.drawText(QRectF(0, 24, self.node_width + 40, 20), Qt.AlignmentFlag.AlignLeft,
                         frame_word(self.lang, "query"))
        if spec.keys is None:
            key_width, key_word = self.node_width + 40, frame_word(self.lang, "key")
        else:  # the encoder's keys: a longer word
            key_width = self._width - self.node_width - COLUMN_GAP
            key_word = frame_word(self.lang, "key_encoder")
        painter.drawText(QRectF(self.node_width + COLUMN_GAP, 24, key_width, 20),
                         Qt.AlignmentFlag.AlignLeft, key_word)
        several = self.several
        focus = spec.receiver
        self._faint_arrows(painter, several)
        labels: list[tuple[QPointF, str, int, Connector]] = []
        if 0 <= focus < n:
            for rank, head in enumerate(spec.heads):
                shares = spec.weights[head, focus]
                keep = strong_arrows(shares) if self.filtered else shares > 0
                for j in np.flatnonzero(keep & spec.visible[focus]).tolist():
                    share = float(shares[j])
                    offset = QPointF(0, self._head_offset(rank))
                    start, end = self.query_anchor(focus) + offset, self.key_anchor(j) + offset
                    width, opacity = 1.5 + 9.0 * share, 0.35 + 0.65 * share
                    color = (theme.head_color(head, opacity) if several
                             else theme.color("accent", opacity))
                    self._arrow(painter, start, end, width, color)
                    self._focused.append(DrawnArrow(head, focus, j, share, width, opacity, True,
                                                    color.name()))
                    text = format_number(share, spec.places)
                    text = f"h{head + 1} {text}" if several else text
                    point = self._key_label_point(j, rank)
                    line = Connector(start, end - QPointF(4, 0), width, color.name(), opacity)
                    labels.append((point, text, head, line))
        if 0 <= focus < n:
            self._masked_keys = np.flatnonzero(~spec.visible[focus]).tolist()
        self._plain_nodes(painter, [j for j in range(len(spec.key_tokens))
                                    if j not in self._masked_keys], left=False)
        for j in self._masked_keys:
            self._node(painter, self.key_anchor(j), f"k {spec.key_tokens[j]}", left=False,
                       hidden=True)
        painter.save()
        if 0 <= focus < n:
            painter.setOpacity(OTHER_ROWS_OPACITY)
        self._plain_nodes(painter, [i for i in range(n) if i != focus], left=True)
        painter.restore()
        if 0 <= focus < n:
            self._node(painter, self.query_anchor(focus), f"q {spec.tokens[focus]}", left=True,
                       focused=True)
        painter.setFont(font(13, bold=True))
        metrics = QFontMetricsF(font(13, bold=True))
        for point, text, head, line in labels:
            box = QRectF(0, 0, self.label_width - 4, metrics.height() + 2)
            box.moveCenter(point)
            self._connectors.append(replace(line, label=text, label_rect=QRectF(box)))
            painter.setPen(QPen(theme.head_color(head) if several else theme.color("accent"), 1))
            painter.setBrush(QBrush(theme.color("background", 0.92)))
            painter.drawRoundedRect(box, 3, 3)
            painter.setPen(theme.color("text"))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
            self._share_labels.append(text)
        self._draw_legend(painter)
        painter.end()
        return picture

    def _draw_legend(self, painter: QPainter) -> None:
        """Each legend line after a sample: a thick and a thin arrow stroke for what width and
        opacity mean, a faint stroke for the other rows' arrows."""
        theme = self.theme
        first = self.spec.heads[0] if self.spec.heads else 0  # a copy without arrows has none
        ink = theme.head_color(first) if self.several else theme.color("accent")
        for k, line in enumerate(self.legend_lines()):
            top = self._legend_top + k * LEGEND_LINE
            middle = top + LEGEND_LINE / 2
            samples: list[tuple[float, float, QColor]] = []
            if k == 0:
                samples = [(middle - 4, 6.0, ink), (middle + 4, 1.5, QColor(ink.red(), ink.green(),
                                                                           ink.blue(), 110))]
            elif k == 1:
                samples = [(middle, 1.6, theme.color("muted", 0.35) if not self.several
                            else QColor(ink.red(), ink.green(), ink.blue(), 70))]
            for y, width, color in samples:
                pen = QPen(color, width)
                pen.setCapStyle(Qt.PenCapStyle.FlatCap)
                painter.setPen(pen)
                painter.drawLine(QLineF(0, y, SAMPLE_WIDTH, y))
            painter.setFont(font(12))
            painter.setPen(theme.color("muted"))
            painter.drawText(QRectF(SAMPLE_WIDTH + 8, top, self._width, LEGEND_LINE),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)

    def _head_offset(self, rank: int) -> float:
        return (rank - (len(self.spec.heads) - 1) / 2) * 5.0

    def _faint_arrows(self, painter: QPainter, several: bool) -> None:
        """The other rows' arrows: thin, faint, no heads, drawn in a few batches of equal pens.

        Shares are grouped into :data:`FAINT_LEVELS` levels of width and opacity, so a frame with
        thousands of arrows costs a few ``drawLines`` calls.
        """
        spec, theme = self.spec, self.theme
        n = len(spec.tokens)
        others = np.ones(n, dtype=bool)
        if 0 <= spec.receiver < n:
            others[spec.receiver] = False
        for rank, head in enumerate(spec.heads):
            shares = spec.weights[head]
            keep = strong_arrows(shares) if self.filtered else shares > 0
            keep &= spec.visible & others[:, None]
            levels = np.minimum((shares * FAINT_LEVELS).astype(int), FAINT_LEVELS - 1)
            offset = self._head_offset(rank)
            for level in range(FAINT_LEVELS):
                pairs = np.argwhere(keep & (levels == level))
                if not len(pairs):
                    continue
                share = (level + 0.5) / FAINT_LEVELS
                width, opacity = 0.8 + 2.5 * share, 0.10 + 0.25 * share
                color = (theme.head_color(head, opacity) if several
                         else theme.color("muted", opacity))
                pen = QPen(color, width)
                pen.setCapStyle(Qt.PenCapStyle.FlatCap)
                painter.setPen(pen)
                x0, x1 = self.node_width, self.node_width + COLUMN_GAP - 4
                lines = [QLineF(x0, TOP + (i + 0.5) * ROW_PITCH + offset,
                                x1, TOP + (j + 0.5) * ROW_PITCH + offset)
                         for i, j in pairs.tolist()]
                painter.drawLines(lines)
                self._faint.append((head, pairs, width, opacity))

    def _key_label_point(self, key: int, rank: int) -> QPointF:
        """Share labels sit right of their key box, level with it; one column per head."""
        return QPointF(self.label_left + (rank + 0.5) * self.label_width,
                       self.key_anchor(key).y())

    def _arrow(self, painter: QPainter, start: QPointF, end: QPointF, width: float,
               color: QColor) -> None:
        pen = QPen(color, width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        line = QLineF(start, end)
        head_length = 8.0 + width
        tip = end - QPointF(4, 0)
        direction = line.unitVector()
        dx, dy = direction.dx(), direction.dy()
        shaft_end = tip - QPointF(dx * head_length, dy * head_length)
        painter.setPen(pen)
        painter.drawLine(QLineF(start, shaft_end))
        normal = QPointF(-dy, dx) * (head_length * 0.55)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(color))
        painter.drawPolygon(QPolygonF([tip, shaft_end + normal, shaft_end - normal]))

    def node_rect(self, anchor: QPointF, left: bool) -> QRectF:
        """The box of a query (``left``) or key node at ``anchor``."""
        return QRectF(anchor.x() - (self.node_width if left else 0), anchor.y() - 13,
                      self.node_width, 26)

    def _plain_nodes(self, painter: QPainter, rows: list[int], *, left: bool) -> None:
        """Query (``left``) or key nodes in the plain style: one path, then their labels."""
        theme = self.theme
        anchor = self.query_anchor if left else self.key_anchor
        prefix = "q" if left else "k"
        tokens = self.spec.tokens if left else self.spec.key_tokens
        rects = [self.node_rect(anchor(k), left) for k in rows]
        outline = QPainterPath()
        for rect in rects:
            outline.addRoundedRect(rect, 5, 5)
        painter.setPen(QPen(theme.color("grid_line"), 1.0))
        painter.setBrush(QBrush(theme.color("panel")))
        painter.drawPath(outline)
        painter.setFont(font(13))
        painter.setPen(theme.color("text"))
        for k, rect in zip(rows, rects, strict=True):
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{prefix} {tokens[k]}")

    def _node(self, painter: QPainter, anchor: QPointF, text: str, *, left: bool,
              focused: bool = False, hidden: bool = False) -> None:
        theme = self.theme
        rect = self.node_rect(anchor, left)
        pen = QPen(theme.color("accent" if focused else "grid_line"), 2.0 if focused else 1.0)
        if hidden:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(theme.color("accent") if focused else theme.color("panel")))
        painter.drawRoundedRect(rect, 5, 5)
        painter.setFont(font(13, bold=focused))
        painter.setPen(theme.color("background") if focused else
                       theme.color("muted" if hidden else "text"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        if hidden:
            painter.setFont(font(12))
            painter.setPen(theme.color("muted"))
            painter.drawText(QRectF(rect.right() + 6, rect.top(), 80, rect.height()),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             frame_word(self.lang, "masked"))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        play(self._picture, painter)
