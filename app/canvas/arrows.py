"""Query → Key arrows, their width and opacity the softmax share, all drawn by one cached item."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.number_layer import paint_kept
from app.canvas.picture import draw_text, legible, on_screen
from app.canvas.points import Lines
from app.canvas.powers import number_advance, placed
from app.canvas.theme import Theme, font, text_advance, text_font, widest_advance
from app.texts.frame_words import join_notes
from app.texts.words import say
from engine.format.numbers import NumberFormat, format_number

ROW_PITCH = 34.0
COLUMN_GAP = 170.0
TOP = 54.0
LABEL_GAP = 8.0
SHARE_SIZE = 17
"""Pixel size of the share labels: the size of a grid's numbers (they are numbers too)."""
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
    """Which shares of a row get an arrow: the ``top_k`` largest (of equal shares, the first
    keys), and any ≥ ``min_share``.

    ``shares`` (finite, as a trace's are) may be one row or a matrix of rows (the last axis is
    a row). Linear in the row's length: the ``top_k``-th largest share is found by partition,
    not by sorting the row, and as the ``top_k``-th smallest of the shares negated: numpy's
    selection of an order statistic near the end of a row is several times slower where the
    row is mostly ties (a causal matrix's zeros: 7.3 ms for 512 × 512, against 1.8). A row
    keeps every share at least that large, and counts its ties in order only when they are
    more than the room left (a causal matrix's first rows, their zeros): a few passes over the
    shares, not one per question.
    """
    keep = shares >= min_share
    count = shares.shape[-1]
    if count <= top_k:
        keep[...] = True
    else:
        rows = shares.reshape(-1, count)
        negated = np.negative(rows)
        negated.partition(top_k - 1, axis=-1)
        kth = -negated[:, top_k - 1, None]
        strong = rows >= kth
        crowded = np.flatnonzero(np.count_nonzero(strong, axis=-1) > top_k)
        if crowded.size:  # more ties at the last place than room: the first keys take it
            some, last = rows[crowded], kth[crowded]
            above = some > last
            ties = some == last
            room = top_k - above.sum(axis=-1, keepdims=True)
            strong[crowded] = above | (ties & (np.cumsum(ties, axis=-1) <= room))
        keep |= strong.reshape(shares.shape)
    keep_positive: npt.NDArray[np.bool_] = keep & (shares > 0)
    return keep_positive


@dataclass(frozen=True)
class _Faint:
    """The other rows' arrows of one head at one level of share: one pen, many lines."""

    head: int
    pairs: npt.NDArray[np.intp]
    width: float
    opacity: float
    pen: QPen
    lines: Lines


@dataclass(frozen=True)
class _Focused:
    """One of the receiver's arrows, with its printed share."""

    drawn: DrawnArrow
    start: QPointF
    end: QPointF
    color: QColor
    label: str
    label_box: QRectF
    label_pen: QColor


@dataclass(frozen=True)
class _Plan:
    """Everything the arrows draw, worked out once per item (painting is then Qt calls only)."""

    faint: list[_Faint]
    focused: list[_Focused]
    masked_keys: list[int]
    plain_keys: list[int]
    other_queries: list[int]


class AttentionArrows(QGraphicsObject):
    """Query nodes on the left, key nodes on the right, one arrow per visible pair.

    What is drawn is worked out once (:meth:`_plan`, plain data); every paint draws it straight
    onto the device: on screen, words too small to read are skipped and words met before are
    drawn from their cached layout; files get every word as real text.
    """

    def __init__(self, spec: ArrowSpec, theme: Theme, title: str, lang: str = "en", *,
                 words_only: bool = False) -> None:
        super().__init__()
        self.spec = spec
        self.theme = theme
        self.title = title
        self.lang = lang
        self.words_only = words_only
        """Paint the words, boxes and legend but no arrow or share label: a deck draws those
        as connectors and text boxes over this picture, laid out exactly as the arrows."""
        n = max(len(spec.tokens), len(spec.key_tokens))
        self.node_width = widest_advance(tuple(f"q {t}" for t in (*spec.tokens, *spec.key_tokens)),
                                         13, bold=True) + 18
        self.filtered = n > MANY_POSITIONS and not spec.show_all
        self.several = spec.weights.shape[0] > 1
        """Several heads in the scenario: each head in its colour, named in its share labels."""
        self.label_width = number_advance(
            (f"h{'8' * len(str(spec.weights.shape[0]))} " if self.several else "")
            + NumberFormat(spec.places).widest(spec.weights),
            SHARE_SIZE, bold=True) + 12
        self._legend_room = max(self.label_left + len(spec.heads) * self.label_width,
                                text_advance(title, 14, bold=True) + 8)
        """How wide the arrows are without their legend: a legend line wider splits."""
        legend_width = max(text_advance(line, 12)
                           for line in self.legend_lines()) + SAMPLE_WIDTH + 12
        self._width = max(self._legend_room, legend_width)
        self._legend_top = TOP + n * ROW_PITCH + 10
        self._height = self._legend_top + len(self.legend_lines()) * LEGEND_LINE + 4
        self._planned: _Plan | None = None
        """Worked out at the first paint or question: laying out needs only the size."""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def _plan(self) -> _Plan:
        if self._planned is None:
            self._planned = self._work_out()
        return self._planned

    @property
    def share_labels(self) -> list[str]:
        """The receiver's printed shares, in drawing order."""
        return [arrow.label for arrow in self._plan().focused]

    @property
    def masked_keys(self) -> list[int]:
        """Keys the receiver may not read (drawn dashed, no arrow)."""
        return self._plan().masked_keys

    def boundingRect(self) -> QRectF:
        return QRectF(0.0, 0.0, self._width, self._height)

    @property
    def drawn(self) -> list[DrawnArrow]:
        """Every arrow drawn, the other rows' faint ones first, then the receiver's."""
        plan = self._plan()
        weights = self.spec.weights
        faint = [DrawnArrow(batch.head, i, j, float(weights[batch.head, i, j]), batch.width,
                            batch.opacity, False, self.ink(batch.head, focused=False))
                 for batch in plan.faint for i, j in batch.pairs.tolist()]
        return faint + [arrow.drawn for arrow in plan.focused]

    def connectors(self) -> list[Connector]:
        """Every arrow as a :class:`Connector`: the other rows' faint ones first (no label),
        then the receiver's with their printed shares."""
        plan = self._plan()
        faint = []
        for batch in plan.faint:
            offset = self._head_offset(self.spec.heads.index(batch.head))
            color = self.ink(batch.head, focused=False)
            for i, j in batch.pairs.tolist():
                start = self.query_anchor(i) + QPointF(0, offset)
                end = self.key_anchor(j) + QPointF(-4, offset)
                faint.append(Connector(start, end, batch.width, color, batch.opacity))
        focused = [Connector(arrow.start, arrow.end - QPointF(4, 0), arrow.drawn.width,
                             arrow.drawn.color, arrow.drawn.opacity, arrow.label,
                             QRectF(arrow.label_box))
                   for arrow in plan.focused]
        return faint + focused

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
        """The lines under the arrows: what width and opacity mean and that each row of shares
        sums to 1 (on a line of its own when the two would be wider than the arrows), what the
        faint ones are, and the filter when one applies."""
        meaning = say("frame.arrow_legend", self.lang)
        rows_sum = say("frame.rows_sum_legend", self.lang)
        both = join_notes(self.lang, meaning, rows_sum)
        split = text_advance(both, 12) + SAMPLE_WIDTH + 12 > self._legend_room
        lines = [meaning if split else both,
                 say("frame.legend_heads" if self.several else "frame.legend_other", self.lang)]
        if split:
            lines.append(rows_sum)
        if self.filtered:
            lines.append(say("frame.arrow_filter", self.lang, top_k=STRONG_TOP_K,
                             min_share=STRONG_MIN_SHARE))
        return lines

    def legend(self) -> str:
        """The legend as one line of text."""
        return join_notes(self.lang, *self.legend_lines())

    def query_anchor(self, i: int) -> QPointF:
        return QPointF(self.node_width, TOP + i * ROW_PITCH + ROW_PITCH / 2)

    def key_anchor(self, j: int) -> QPointF:
        return QPointF(self.node_width + COLUMN_GAP, TOP + j * ROW_PITCH + ROW_PITCH / 2)

    def node_rect(self, anchor: QPointF, left: bool) -> QRectF:
        """The box of a query (``left``) or key node at ``anchor``."""
        return QRectF(anchor.x() - (self.node_width if left else 0), anchor.y() - 13,
                      self.node_width, 26)

    # -- working out what is drawn -------------------------------------------------------------
    def _work_out(self) -> _Plan:
        spec = self.spec
        n = len(spec.tokens)
        focus = spec.receiver
        focused: list[_Focused] = []
        masked: list[int] = []
        if 0 <= focus < n:
            for rank, head in enumerate(spec.heads):
                focused += self._receivers_arrows(rank, head)
            masked = np.flatnonzero(~spec.visible[focus]).tolist()
        hidden = set(masked)
        return _Plan(self._faint_arrows(), focused, masked,
                     [j for j in range(len(spec.key_tokens)) if j not in hidden],
                     [i for i in range(n) if i != focus])

    def _receivers_arrows(self, rank: int, head: int) -> list[_Focused]:
        spec, theme = self.spec, self.theme
        focus = spec.receiver
        shares = spec.weights[head, focus]
        keep = strong_arrows(shares) if self.filtered else shares > 0
        offset = self._head_offset(rank)
        start = self.query_anchor(focus) + QPointF(0, offset)
        ink = theme.head_color(head) if self.several else theme.color("accent")
        ink_name = ink.name()
        label_height = QFontMetricsF(font(SHARE_SIZE, bold=True)).height() + 2
        label_width = self.label_width - 4
        # Share labels sit right of their key box, level with it; one column per head.
        label_x = self.label_left + (rank + 0.5) * self.label_width - label_width / 2
        key_x = self.node_width + COLUMN_GAP
        prefix = f"h{head + 1} " if self.several else ""
        arrows = []
        for j in np.flatnonzero(keep & spec.visible[focus]).tolist():
            share = float(shares[j])
            width, opacity = 1.5 + 9.0 * share, 0.35 + 0.65 * share
            color = QColor(ink)
            color.setAlphaF(opacity)
            middle = TOP + j * ROW_PITCH + ROW_PITCH / 2  # level with key j (key_anchor)
            arrows.append(_Focused(
                DrawnArrow(head, focus, j, share, width, opacity, True, ink_name),
                start, QPointF(key_x, middle + offset), color,
                prefix + format_number(share, spec.places),
                QRectF(label_x, middle - label_height / 2, label_width, label_height), ink))
        return arrows

    def _head_offset(self, rank: int) -> float:
        return (rank - (len(self.spec.heads) - 1) / 2) * 5.0

    def _faint_arrows(self) -> list[_Faint]:
        """The other rows' arrows: thin, faint, no heads, in a few batches of equal pens.

        Shares are grouped into :data:`FAINT_LEVELS` levels of width and opacity, so a frame with
        thousands of arrows costs a few ``drawLines`` calls; each head's lines are worked out in
        one pass and each level takes its run of them.
        """
        spec, theme = self.spec, self.theme
        n = len(spec.tokens)
        others = np.ones(n, dtype=bool)
        if 0 <= spec.receiver < n:
            others[spec.receiver] = False
        x0, x1 = self.node_width, self.node_width + COLUMN_GAP - 4
        batches = []
        for rank, head in enumerate(spec.heads):
            shares = spec.weights[head]
            keep = strong_arrows(shares) if self.filtered else shares > 0
            keep &= spec.visible & others[:, None]
            flat = np.flatnonzero(keep)
            levels = np.minimum((shares.ravel()[flat] * FAINT_LEVELS).astype(int),
                                FAINT_LEVELS - 1)
            order = np.argsort(levels, kind="stable")  # row-major within each level
            flat, levels = flat[order], levels[order]
            bounds = np.searchsorted(levels, np.arange(FAINT_LEVELS + 1)).tolist()
            pairs = np.stack(np.divmod(flat, shares.shape[1]), axis=1)
            ends = np.empty((len(pairs), 2, 2))
            ends[:, 0, 0], ends[:, 1, 0] = x0, x1
            ends[:, :, 1] = TOP + (pairs + 0.5) * ROW_PITCH + self._head_offset(rank)
            for level in range(FAINT_LEVELS):
                start, stop = bounds[level], bounds[level + 1]
                if start == stop:
                    continue
                width, opacity, pen = _faint_pen(theme, head if self.several else None, level)
                batches.append(_Faint(head, pairs[start:stop], width, opacity, pen,
                                      Lines(ends[start:stop])))
        return batches

    # -- painting ------------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        plan = self._plan()
        # Words too small to read are left out as the grids leave theirs (the canvas then
        # says to zoom in); the boxes they sit in still show where they are.
        words = _Words(painter, legible(painter, option), option.exposedRect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        faintest = _faintest_visible(painter, option)
        if words.screen:  # what no edit of the shares changes: kept as pixels, over the arrows
            self._draw_arrows(painter, plan, faintest)
            bounds = self.boundingRect()
            if not paint_kept(painter, self._fixed_key(plan, words.shown), bounds,
                              lambda layer: self._draw_fixed(
                                  layer, _Words(layer, words.shown, bounds), plan)):
                self._draw_fixed(painter, words, plan)
            self._draw_labels(painter, words, plan)
            return
        self._draw_heading(painter, words)  # files: real shapes and text, in reading order
        self._draw_arrows(painter, plan, faintest)
        self._draw_nodes(painter, words, plan)
        self._draw_labels(painter, words, plan)
        self._draw_legend(painter, words)

    def _fixed_key(self, plan: _Plan, shown: bool) -> Hashable:
        """Everything that decides how the title, boxes, tokens and legend look (``shown``:
        whether their words are legible)."""
        spec = self.spec
        return ("arrows", self.title, tuple(spec.tokens), tuple(spec.key_tokens),
                spec.keys is None, spec.receiver, tuple(spec.heads), tuple(plan.masked_keys),
                self.several, self.lang, self.theme, self.node_width, self._width,
                self._height, tuple(self.legend_lines()), shown)

    def _draw_fixed(self, painter: QPainter, words: _Words, plan: _Plan) -> None:
        """The title and headings, the boxes with their tokens, and the legend."""
        self._draw_heading(painter, words)
        self._draw_nodes(painter, words, plan)
        self._draw_legend(painter, words)

    def _draw_heading(self, painter: QPainter, words: _Words) -> None:
        """The title, and the queries' and keys' headings."""
        theme = self.theme
        left = Qt.AlignmentFlag.AlignLeft
        words.write(QRectF(0, 0, self._width, 22), left, self.title,
                    text_font(self.title, 14, True), theme.color("text"))
        if self.spec.keys is None:
            key_width, key_word = self.node_width + 40, say("frame.key", self.lang)
        else:  # the encoder's keys: a longer word
            key_width = self._width - self.node_width - COLUMN_GAP
            key_word = say("frame.key_encoder", self.lang)
        muted = theme.color("muted")
        words.write(QRectF(0, 24, self.node_width + 40, 20), left,
                    say("frame.query", self.lang), font(12), muted)
        words.write(QRectF(self.node_width + COLUMN_GAP, 24, key_width, 20), left, key_word,
                    font(12), muted)

    def _draw_arrows(self, painter: QPainter, plan: _Plan, faintest: float) -> None:
        """The other rows' faint arrows (those at least ``faintest``), then the receiver's."""
        if self.words_only:
            return
        for batch in plan.faint:
            if batch.width * batch.opacity >= faintest:
                painter.setPen(batch.pen)
                batch.lines.draw(painter)
        for arrow in plan.focused:
            self._arrow(painter, arrow.start, arrow.end, arrow.drawn.width, arrow.color)

    def _draw_nodes(self, painter: QPainter, words: _Words, plan: _Plan) -> None:
        """The key boxes (a masked one dashed), then the other queries' boxes faint and the
        receiver's in the accent."""
        spec = self.spec
        focus = spec.receiver
        self._plain_nodes(painter, words, plan.plain_keys, left=False)
        for j in plan.masked_keys:
            self._node(painter, words, self.key_anchor(j), f"k {spec.key_tokens[j]}",
                       left=False, hidden=True)
        painter.save()
        if 0 <= focus < len(spec.tokens):
            painter.setOpacity(OTHER_ROWS_OPACITY)
        self._plain_nodes(painter, words, plan.other_queries, left=True)
        painter.restore()
        if 0 <= focus < len(spec.tokens):
            self._node(painter, words, self.query_anchor(focus), f"q {spec.tokens[focus]}",
                       left=True, focused=True)

    def _draw_labels(self, painter: QPainter, words: _Words, plan: _Plan) -> None:
        """The receiver's printed shares, each in a box in its arrow's ink."""
        if self.words_only:
            return
        background, text = self.theme.color("background", 0.92), self.theme.color("text")
        for arrow in plan.focused:
            painter.setPen(QPen(arrow.label_pen, 1))
            painter.setBrush(QBrush(background))
            painter.drawRoundedRect(arrow.label_box, 3, 3)
            words.write(arrow.label_box, Qt.AlignmentFlag.AlignCenter, arrow.label,
                        font(SHARE_SIZE, bold=True), text)

    def _draw_legend(self, painter: QPainter, words: _Words) -> None:
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
            words.write(QRectF(SAMPLE_WIDTH + 8, top, self._width, LEGEND_LINE),
                        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line,
                        font(12), theme.color("muted"))

    def _arrow(self, painter: QPainter, start: QPointF, end: QPointF, width: float,
               color: QColor) -> None:
        """A shaft from ``start`` and a head whose tip is 4 units short of ``end``, the head
        ``8 + width`` long along the line (worked in floats: a dozen QPointF operations per
        arrow cost more than drawing it)."""
        x0, y0, x1, y1 = start.x(), start.y(), end.x(), end.y()
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        ux, uy = (x0 + dx / length) - x0, (y0 + dy / length) - y0  # as QLineF.unitVector()
        head_length = 8.0 + width
        tip_x = x1 - 4.0
        base_x, base_y = tip_x - ux * head_length, y1 - uy * head_length
        nx, ny = -uy * head_length * 0.55, ux * head_length * 0.55
        pen = QPen(color, width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        painter.drawLine(QLineF(x0, y0, base_x, base_y))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawPolygon(QPolygonF([QPointF(tip_x, y1), QPointF(base_x + nx, base_y + ny),
                                       QPointF(base_x - nx, base_y - ny)]))

    def _plain_nodes(self, painter: QPainter, words: _Words, rows: list[int], *,
                     left: bool) -> None:
        """Query (``left``) or key nodes in the plain style: one path, then their labels."""
        theme = self.theme
        anchor = self.query_anchor(0) if left else self.key_anchor(0)
        outline, rects = _node_boxes(anchor.x() - (self.node_width if left else 0),
                                     self.node_width, tuple(rows))
        painter.setPen(QPen(theme.color("grid_line"), 1.0))
        painter.setBrush(QBrush(theme.color("panel")))
        painter.drawPath(outline)
        prefix = "q" if left else "k"
        tokens = self.spec.tokens if left else self.spec.key_tokens
        ink = theme.color("text")
        for k, rect in zip(rows, rects, strict=True):
            label = f"{prefix} {tokens[k]}"
            words.write(rect, Qt.AlignmentFlag.AlignCenter, label, text_font(label, 13), ink)

    def _node(self, painter: QPainter, words: _Words, anchor: QPointF, text: str, *,
              left: bool, focused: bool = False, hidden: bool = False) -> None:
        theme = self.theme
        rect = self.node_rect(anchor, left)
        pen = QPen(theme.color("accent" if focused else "grid_line"), 2.0 if focused else 1.0)
        if hidden:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(theme.color("accent") if focused else theme.color("panel")))
        painter.drawRoundedRect(rect, 5, 5)
        words.write(rect, Qt.AlignmentFlag.AlignCenter, text, text_font(text, 13, focused),
                    theme.color("background") if focused else
                    theme.color("muted" if hidden else "text"))
        if hidden:
            words.write(QRectF(rect.right() + 6, rect.top(), 80, rect.height()),
                        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                        say("frame.masked", self.lang), font(12), theme.color("muted"))


UNSEEN_INK = 0.5 / 255
"""A line whose width on the device (in pixels) times its opacity is below this changes no
pixel by half a level of 8-bit colour."""


def _faintest_visible(painter: QPainter, option: QStyleOptionGraphicsItem) -> float:
    """The least ``width × opacity`` (item units) a faint line needs to be drawn: on screen,
    lines that would change no pixel are skipped (a frame of 512 positions zoomed to fit has
    thousands); files get every line."""
    if not on_screen():
        return 0.0
    return UNSEEN_INK / max(option.levelOfDetailFromTransform(painter.worldTransform()), 1e-12)


@lru_cache(maxsize=256)
def _faint_pen(theme: Theme, head: int | None, level: int) -> tuple[float, float, QPen]:
    """Width, opacity and pen of the faint lines of one level of share: in ``head``'s colour,
    or muted when the document has one head (``None``)."""
    share = (level + 0.5) / FAINT_LEVELS
    width, opacity = 0.8 + 2.5 * share, 0.10 + 0.25 * share
    color = theme.color("muted", opacity) if head is None else theme.head_color(head, opacity)
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return width, opacity, pen


@lru_cache(maxsize=16)
def _node_boxes(left: float, width: float, rows: tuple[int, ...]
                ) -> tuple[QPainterPath, list[QRectF]]:
    """The boxes of a column of nodes (one per row) and their outline as one path: the same
    for every edit of a document, so worked out once."""
    rects = [QRectF(left, TOP + k * ROW_PITCH + ROW_PITCH / 2 - 13, width, 26) for k in rows]
    outline = QPainterPath()
    for rect in rects:
        outline.addRoundedRect(rect, 5, 5)
    return outline, rects


class _Words:
    """Writes the arrows' words: real text in files; on screen only when legible and inside
    the part being painted (``exposed``), from cached layouts."""

    def __init__(self, painter: QPainter, shown: bool, exposed: QRectF) -> None:
        self.painter = painter
        self.shown = shown
        self.screen = on_screen()
        self.exposed = exposed

    def write(self, rect: QRectF, align: Qt.AlignmentFlag, text: str, text_font: QFont,
              ink: QColor) -> None:
        if not self.shown or (self.screen and not rect.intersects(self.exposed)):
            return
        painter = self.painter
        painter.setFont(text_font)
        painter.setPen(ink)
        for box, piece in placed(rect, text, text_font.pixelSize(), align, text_font.bold()):
            if self.screen:
                draw_text(painter, box, align, piece, text_font)
            else:
                painter.drawText(box, align, piece)
