"""Pictures of the positional encodings: rows P added to the token rows, RoPE's turned pairs as
dials, and ALiBi's bias grid added to q·k.

Every number is printed (angles, pairs before and after, the bias); arrows and colour only
repeat what the numbers say.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.context import LayoutContext, positions_of
from app.canvas.corner import row_width
from app.canvas.grid import NUMBER_SIZE, MatrixGrid, size_only, sized_only
from app.canvas.layout import (
    GAP,
    ROW_GAP,
    RowPart,
    TextItem,
    place_row,
    place_rows,
    place_rows_after,
    text_size,
    wrap_width,
)
from app.canvas.pieces import (
    LINE_GAP,
    custom_grid,
    mask_words,
    number,
    sentences_under,
    text_lines,
)
from app.canvas.theme import Theme, fitted_lines, text_advance
from app.model.operands import attention_at, kv_head, module_of, visible_of
from app.texts.words import say
from engine import Step
from engine.format.numbers import format_exact
from engine.scenario.names import short_name

RADIUS = 44.0
NARROW_RADIUS = 30.0
"""A dial's radius, and a narrow dial's (RoPE's picture while wrapping: the dials shrink,
not the numbers)."""
DIAL_PAD = 8.0
TEXT_SIZE = NUMBER_SIZE
"""The dials' numbers (angle, degrees, the pair before → after) and row labels are as large as
a grid's numbers."""
TEXT_GAP = 12.0
BEFORE_WIDTH = 3.0
"""The dashed before arrow is nearly as thick as the after one: it stays visible on the axis."""
MAX_PAIRS = 4
"""At most this many pairs of a head get a dial (the first ones)."""
NOTE_SIZE = 15
"""The sentences under RoPE's picture (beside it, under the angles, while wrapping)."""
NOTE_COLUMN = 170.0
"""How wide the column of the angles and the notes under them is at least, while wrapping."""


def _word(ctx: LayoutContext, key: str, **fields: object) -> str:
    return say(f"position.{key}", ctx.options.lang, **fields)


def lay_out_positions(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Token rows + position rows P (+ type rows T) = X, or the sum an embedding norm takes:
    the addition that tells positions (and segments) apart."""
    terms = [name for name in step.reads if name in ctx.trace.arrays]
    parts: list[RowPart] = []
    for name in terms:
        kind = name.rsplit(".", 1)[-1]
        parts += [ctx.grid(name, title=_word(ctx, kind), highlight_receiver=True), "+"]
    out = step.writes[0]
    typed = any(name.endswith("type_rows") for name in terms)
    title = (_word(ctx, "with_positions") if not typed and not out.endswith("embed_sum")
             else _word(ctx, "summed", name=short_name(out)))
    parts[-1] = "="
    rect = place_row(parent, [*parts, ctx.grid(out, title=title, highlight_receiver=True)], 0, 0,
                     ctx.theme)
    notes = [_word(ctx, "added_note")] if len(terms) > 2 or not typed else []
    if typed:
        notes.append(_word(ctx, "types_note"))
    if out.endswith("embed_sum"):
        notes.append(_word(ctx, "norm_follows"))
    note = text_lines(parent, notes, 0, rect.bottom() + TEXT_GAP, ctx)
    return rect.united(note)


class RotationDial(QGraphicsObject):
    """One pair (x, y) of a row turned by its angle p·θ: a dashed orange arrow before the turn
    (seen on the axis too), a solid arrow after it (the same length), the arc between them,
    and the numbers printed beneath.

    Attributes
    ----------
    before, after
        The pair before and after the turn.
    angle
        The angle p·θ in radians (counter-clockwise).
    lines
        The printed lines: the angle's arithmetic, in degrees, the pair before → after (drawn
        on two lines, broken after the arrow, and the dial smaller when ``narrow``).
    """

    def __init__(self, before: tuple[float, float], after: tuple[float, float], angle: float,
                 lines: Sequence[str], reach: float, theme: Theme, color: str,
                 narrow: bool = False) -> None:
        super().__init__()
        self.before, self.after, self.angle = before, after, angle
        self.lines = list(lines)
        self._reach = reach if reach > 0 else 1.0
        self._theme = theme
        self._color = color
        self._radius = NARROW_RADIUS if narrow else RADIUS
        drawn = [(k, part) for k, line in enumerate(self.lines)
                 for part in (_broken(line) if narrow else [line])]
        self._texts = [TextItem(part, theme, size=TEXT_SIZE, role="text" if k == 0 else "muted",
                                bold=k == 0) for k, part in drawn]
        width = max([2 * self._radius + 2 * DIAL_PAD] +
                    [t.boundingRect().width() + 4 for t in self._texts])
        y = 2 * self._radius + 2 * DIAL_PAD
        for text in self._texts:
            text.setParentItem(self)
            text.setPos((width - text.boundingRect().width()) / 2, y)
            y += text.boundingRect().height() - 2
        self._rect = QRectF(0, 0, width, y + 2)

    @property
    def center(self) -> QPointF:
        return QPointF(self._rect.width() / 2, DIAL_PAD + self._radius)

    def tip(self, pair: tuple[float, float]) -> QPointF:
        """Where the arrow of ``pair`` ends (y grows upwards on the dial)."""
        k = self._radius / self._reach
        return self.center + QPointF(pair[0] * k, -pair[1] * k)

    def drawn_turn(self) -> float:
        """The angle from the before arrow to the after one as drawn, in (−π, π]."""
        c = self.center
        a, b = self.tip(self.before) - c, self.tip(self.after) - c
        turn = math.atan2(-b.y(), b.x()) - math.atan2(-a.y(), a.x())
        return math.atan2(math.sin(turn), math.cos(turn))

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        theme, c = self._theme, self.center
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(theme.color("grid_line"), 1.0))
        painter.setBrush(QBrush(theme.color("panel")))
        painter.drawEllipse(c, self._radius, self._radius)
        painter.drawLine(QPointF(c.x() - self._radius, c.y()), QPointF(c.x() + self._radius, c.y()))
        start = math.degrees(math.atan2(self.before[1], self.before[0]))
        arc = QPainterPath()
        r = self._radius
        box = QRectF(c.x() - r * 0.45, c.y() - r * 0.45, r * 0.9, r * 0.9)
        arc.arcMoveTo(box, start)
        arc.arcTo(box, start, math.degrees(self.angle))
        painter.setPen(QPen(theme.color("text"), 1.2, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(arc)
        self._arrow(painter, self.tip(self.before), BEFORE_WIDTH, self.before_color,
                    Qt.PenStyle.DashLine)
        self._arrow(painter, self.tip(self.after), 3.5, theme.color(self._color))

    @property
    def before_color(self) -> QColor:
        """The colour of the arrow before the turn: the first head colour (orange), apart from
        the grey axis it may lie on and from the after arrow's accent."""
        return self._theme.head_color(0)

    def _arrow(self, painter: QPainter, tip: QPointF, width: float, color: QColor,
               style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> None:
        c = self.center
        line = tip - c
        length = math.hypot(line.x(), line.y())
        if length < 1e-9:
            return
        ux, uy = line.x() / length, line.y() / length
        head = min(8.0 + width, length * 0.5)
        base = tip - QPointF(ux * head, uy * head)
        pen = QPen(color, width, style)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        painter.drawLine(c, base)
        normal = QPointF(-uy, ux) * (head * 0.5)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(color))
        painter.drawPolygon(QPolygonF([tip, base + normal, base - normal]))


def _broken(line: str) -> list[str]:
    """A dial's line on two: a pair ``(x, y) → (x′, y′)`` broken after the arrow, an angle
    ``p·θ₀ = 2·1 = 2 rad`` before its last ``=``."""
    head, arrow, tail = line.partition("→ ")
    if arrow:
        return [head + arrow.strip(), tail]
    head, equals, tail = line.rpartition(" = ")
    return [head, "= " + tail] if equals and " = " in head else [line]


def _subscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _pairing(ctx: LayoutContext, step: Step) -> str:
    """RoPE's pairing of columns (``half`` or ``interleaved``), from the step's positions."""
    return str(module_of(ctx.trace, step).pairing)


def _pair_columns(i: int, r: int, pairing: str) -> tuple[int, int]:
    return (i, i + r // 2) if pairing == "half" else (2 * i, 2 * i + 1)


class DialTable(QGraphicsObject):
    """The dials of one position's row of one head: one per pair, side by side under the
    table's title (which names the position); it paints nothing itself.

    Attributes
    ----------
    dials
        ``dials[i]``: the dial of pair i.
    """

    dials: list[RotationDial]
    sized: QRectF | None = None
    """What a table made only to be measured covers (it has no dials then)."""

    def boundingRect(self) -> QRectF:
        return QRectF(self.sized) if self.sized is not None else self.childrenBoundingRect()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return


def _theta(ctx: LayoutContext, angles: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each pair's θ: the angles of the row at position 1 (drawn by token, row k sits at
    position ``ctx.positions[k]``)."""
    if angles.shape[0] < 2:
        return np.zeros(angles.shape[1])
    row: npt.NDArray[np.float64] = angles[list(ctx.positions).index(1)]
    return row


def _theta_heads(ctx: LayoutContext, name: str,
                 angles: npt.NDArray[np.float64]) -> list[str]:
    """The angle grid's column heads, each pair's θᵢ printed, worded once per layout context
    (of one trace; ``name``: the array ``angles`` is): the type scale's search lays RoPE out
    about 300 times, and printing Llama's 32 θᵢ at each layout took about a third of them."""
    key = ("theta", name, tuple(ctx.positions))
    known: list[str] | None = ctx.worded.get(key)
    if known is None:
        known = ctx.worded[key] = [
            _word(ctx, "theta", i=_subscript(i), theta=number(ctx, float(t)))
            for i, t in enumerate(_theta(ctx, angles))]
    return known


def _dial_words(ctx: LayoutContext, known_as: tuple[object, ...],
                before: npt.NDArray[np.float64], after: npt.NDArray[np.float64],
                angles: npt.NDArray[np.float64], p: int, columns: Sequence[tuple[int, int]],
                angle_lines: bool) -> list[tuple[list[str], str]]:
    """Each dial's printed lines and its pair's heading (:func:`dial_table`), worded once per
    layout context (of one trace): ``known_as`` names the arrays the numbers are read from
    (the trace's, and the head's columns of them)."""
    at = list(ctx.positions)  # drawn by token, row k sits at position at[k]
    key = ("dials", *known_as, p, at[p], tuple(columns), angle_lines)
    known: list[tuple[list[str], str]] | None = ctx.worded.get(key)
    if known is not None:
        return known
    theta = _theta(ctx, angles)
    worded = []
    for i, (a, b) in enumerate(columns):
        angle = float(angles[p, i])
        lines = [_word(ctx, "dial_angle", i=_subscript(i), p=at[p],
                       theta=number(ctx, float(theta[i])), angle=number(ctx, angle)),
                 _word(ctx, "dial_degrees", degrees=number(ctx, math.degrees(angle)))
                 ] if angle_lines else []
        lines += [_word(ctx, "dial_pair", x=number(ctx, float(before[p, a])),
                        y=number(ctx, float(before[p, b])), x2=number(ctx, float(after[p, a])),
                        y2=number(ctx, float(after[p, b])))]
        worded.append((lines, _word(ctx, "pair", i=i, a=a, b=b)))
    ctx.worded[key] = worded
    return worded


def dial_table(ctx: LayoutContext, title: str, before: npt.NDArray[np.float64],
               after: npt.NDArray[np.float64], angles: npt.NDArray[np.float64], p: int,
               columns: Sequence[tuple[int, int]], color: str, known_as: tuple[object, ...],
               angle_lines: bool = True, narrow: bool = False) -> DialTable:
    """One dial per pair (``columns``) of row ``p`` of one head's rows; without
    ``angle_lines`` each prints only its pair before → after (the angles printed by another
    table of the same position); ``narrow``: that pair on two lines; ``known_as``: the names
    of the arrays ``before``, ``after`` and ``angles`` are read from, and which columns.

    In a layout made only to be measured (:func:`~app.canvas.grid.sized_only`) the table is
    an empty item as large as the one made of the same words (known per layout context):
    the type scale's search lays RoPE out about 300 times, and making Llama's 2 × 32 dials
    each time took half of the 0.4 s the step froze the window."""
    if sized_only():
        worded = _dial_words(ctx, known_as, before, after, angles, p, columns, angle_lines)
        key = ("dial_table", title, narrow, tuple((tuple(lines), pair) for lines, pair in worded))
        sized: QRectF | None = ctx.worded.get(key)
        if sized is None:
            with size_only(False):
                sized = ctx.worded[key] = QRectF(dial_table(
                    ctx, title, before, after, angles, p, columns, color, known_as,
                    angle_lines, narrow).boundingRect())
        table = DialTable()
        table.dials, table.sized = [], QRectF(sized)
        return table
    table = DialTable()
    heading = TextItem(title, ctx.theme, size=14, bold=True)
    heading.setParentItem(table)
    top = heading.boundingRect().height() + 2
    reach = max(float(np.max(np.hypot(before[:, [a for a, _ in columns]],
                                      before[:, [b for _, b in columns]]))), 1e-12)
    worded = _dial_words(ctx, known_as, before, after, angles, p, columns, angle_lines)
    table.dials = []
    x = 0.0
    for i, ((a, b), (lines, pair)) in enumerate(zip(columns, worded, strict=True)):
        angle = float(angles[p, i])
        dial = RotationDial((float(before[p, a]), float(before[p, b])),
                            (float(after[p, a]), float(after[p, b])), angle, lines, reach,
                            ctx.theme, color, narrow)
        head = TextItem(pair, ctx.theme, size=TEXT_SIZE, role="muted")
        width = max(dial.boundingRect().width(), head.boundingRect().width())
        head.setParentItem(table)
        head.setPos(x + (width - head.boundingRect().width()) / 2, top)
        dial.setParentItem(table)
        dial.setPos(x + (width - dial.boundingRect().width()) / 2, top + TEXT_SIZE * 1.6 + 4)
        table.dials.append(dial)
        x += width + GAP
    return table


def lay_out_rope(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The angles p·θᵢ, then (beside them, or below when that is too wide) Q → Q_rot and
    K → K_rot with the receiver's q and k pairs as dials (the head in focus; none when the
    options leave the arrows out, as a comparison's halves do): one compact picture, so RoPE
    does not shrink the document's scale."""
    att = attention_at(ctx.trace, step.scope)
    angles_name = step.reads[2]  # the stack's rope_angles, or the layer's own
    angles = ctx.array(angles_name)
    r = 2 * int(angles.shape[1])
    angle_grid = custom_grid(
        ctx, _word(ctx, "angles"), angles, ctx.labels, _theta_heads(ctx, angles_name, angles),
        highlight_receiver=True, value_range=(0.0, 0.0), shows=angles_name)
    head = ctx.heads[0]
    group = kv_head(att, head)  # K's head (shared by several query heads in GQA)
    pairing = _pairing(ctx, step)
    columns = [_pair_columns(i, r, pairing) for i in range(min(r // 2, MAX_PAIRS))]
    label = _word(ctx, "head", n=head + 1) if ctx.head_count > 1 else ""
    color = "accent"
    narrow = wrap_width() is not None  # the heading says what turns Q into Q_rot
    rows: list[list[QGraphicsItem | str]] = []
    for source, out, key, h in ((step.reads[0], step.writes[0], "dials_q", head),
                                (step.reads[1], step.writes[1], "dials_k", group)):
        cols = slice(h * att.d_k, (h + 1) * att.d_k)
        before = ctx.array(source)[:, cols]
        after = ctx.array(out)[:, cols]
        row: list[QGraphicsItem | str] = [
            ctx.grid(source, columns=cols, highlight_receiver=True),
            "→" if narrow else _word(ctx, "turn"),
            ctx.grid(out, columns=cols, highlight_receiver=True)]
        if ctx.options.arrows:  # a comparison reads the grids alone, as at the shares
            row.append(dial_table(ctx, _word(ctx, key, token=ctx.labels[ctx.receiver],
                                             head=label),
                                  before, after, angles, ctx.receiver, columns, color,
                                  (source, out, angles_name, cols.start, cols.stop),
                                  angle_lines=key == "dials_q",  # every angle: the grid
                                  narrow=narrow))
        rows.append(row)
    notes = [_word(ctx, "rope_note")]
    if ctx.options.arrows:
        notes.append(_word(ctx, "dial_legend"))
    if r < att.d_k:
        notes.append(_word(ctx, "kept_columns", first=r, last=att.d_k - 1))
    stack = module_of(ctx.trace, step)
    positions = att.turned_by(stack)  # the layer's own base, its scaling or none
    if positions.scaling is not None:  # what the scaling did to the θᵢ the grid heads
        numbers = positions.scaling.described(r, positions.base)
        notes.append(_word(ctx, f"scaled_{positions.scaling.type}", **{
            key: format_exact(value) if key == "factor" else number(ctx, value)
            for key, value in numbers.items()}))
    elif stack.scaling is not None:  # the layer leaves the stack's scaling out
        notes.append(_word(ctx, "unscaled_note", kind=stack.scaling.type))
    if wrap_width() is not None and ctx.options.arrows:  # the dials end every row
        return _rope_in_columns(ctx, parent, angle_grid, rows, notes)
    angles_rect = place_row(parent, [angle_grid], 0, 0, ctx.theme)
    body = place_rows_after(parent, rows, angles_rect, ctx.theme)
    text = text_lines(parent, notes, 0, body.bottom() + TEXT_GAP, ctx, size=NOTE_SIZE,
                      role="text")
    return body.united(text)


def _rope_in_columns(ctx: LayoutContext, parent: QGraphicsItem, angles: QGraphicsItem,
                     rows: Sequence[Sequence[QGraphicsItem | str]],
                     notes: Sequence[str]) -> QRectF:
    """RoPE's picture while wrapping: the angles with the notes under them in a column of
    their own, then the rows Q → Q_rot and K → K_rot one under the other, their dials either
    beside each row (:data:`BESIDE`, wide and short: a 16:9 sheet) or side by side under the
    rows (narrow and tall: 4:3), whichever is the shorter within the wrap width."""
    limit = wrap_width()
    assert limit is not None
    grids = [list(row[:-1]) for row in rows]
    dials = [row[-1] for row in rows]
    assert all(isinstance(dial, QGraphicsItem) for dial in dials)
    row_w = max(row_width(row) for row in grids)
    row_h = max(item.boundingRect().height() for row in grids for item in row
                if isinstance(item, QGraphicsItem))
    sizes = [dial.boundingRect() for dial in dials if isinstance(dial, QGraphicsItem)]
    column = max(angles.boundingRect().width(), NOTE_COLUMN)
    x = column + 2 * GAP
    beside_w = x + row_w + GAP + max(size.width() for size in sizes)
    beside_h = sum(max(row_h, size.height()) for size in sizes) + ROW_GAP * (len(sizes) - 1)
    under_w = x + max(row_w, sum(size.width() for size in sizes) + ROW_GAP * (len(sizes) - 1))
    under_h = len(sizes) * (row_h + ROW_GAP) + max(size.height() for size in sizes)
    beside = beside_w <= limit and (under_w > limit or beside_h <= under_h)
    y = 0.0
    covered = place_row(parent, [angles], 0, 0, ctx.theme)
    for row, dial, size in zip(grids, dials, sizes, strict=True):
        covered = covered.united(place_row(parent, row, x, y, ctx.theme))
        if beside:
            covered = covered.united(place_row(parent, [dial], x + row_w + GAP, y, ctx.theme))
        y += (max(row_h, size.height()) if beside else row_h) + ROW_GAP
    if not beside:
        covered = covered.united(place_row(parent, dials, x, y, ctx.theme))
    lines = [line for note in notes for line in fitted_lines(note, column, NOTE_SIZE)]
    top = angles.boundingRect().height() + TEXT_GAP
    room = covered.bottom() - top
    if (len(lines) * (text_size("0", NOTE_SIZE, False)[1] + LINE_GAP) > room
            or any(text_advance(line, NOTE_SIZE) > column for line in lines)):
        lines, top = list(notes), covered.bottom() + TEXT_GAP  # under it all
    text = text_lines(parent, lines, 0, top, ctx, size=NOTE_SIZE, role="text")
    return covered.united(text)


Cell = tuple[int, int]


def equal_distance_pair(scores: npt.NDArray[np.float64], queries: npt.NDArray[np.float64],
                        keys: npt.NDArray[np.float64], visible: npt.NDArray[np.bool_],
                        printed: Callable[[float], str]) -> tuple[Cell, Cell] | None:
    """Two visible cells (i, j), (i′, j′) at the same distance i − j ≠ 0 (0 if no other) whose
    rows of q and k before the turn print the same and whose scores print the same: RoPE's
    point, that a score depends on how far apart the positions are, not where they are."""
    n, m = scores.shape
    rows: dict[tuple[int, int], tuple[str, ...]] = {}

    def row(values: npt.NDArray[np.float64], k: int) -> tuple[str, ...]:
        """Row ``k`` printed, once per call (a row meets every distance: Llama's 64-number
        heads at 16 positions took 17,000 numbers printed per layout tried)."""
        key = (id(values), k)
        if key not in rows:
            rows[key] = tuple(map(printed, values[k].tolist()))
        return rows[key]

    distances = sorted({i - j for i in range(n) for j in range(m)},
                       key=lambda d: (d == 0, abs(d), d))
    for d in distances:
        seen: dict[tuple[object, ...], Cell] = {}
        for i in range(max(0, d), min(n, m + d)):
            j = i - d
            if not visible[i, j]:
                continue
            key = (printed(float(scores[i, j])), row(queries, i), row(keys, j))
            if key in seen:
                return seen[key], (i, j)
            seen[key] = (i, j)
    return None


def rope_scores_marks(ctx: LayoutContext, step: Step,
                      head: int) -> tuple[npt.NDArray[np.bool_] | None, str]:
    """On the scores after RoPE: the cells of an equal-distance pair of ``head`` to mark (a
    read-only array) and the sentence saying why they are equal; (None, "") when the frame
    shows none. Found once per layout context: the type scale's search lays the scores step
    out about 60 times, and at Llama-3.2-1B's 64-number heads each search printed about
    2,000 numbers (0.2 s of the step's 0.23 s)."""
    key = ("equal_distance", step.id, head)
    known: tuple[npt.NDArray[np.bool_] | None, str] | None = ctx.worded.get(key)
    if known is None:
        known = ctx.worded[key] = _rope_scores_marks(ctx, step, head)
    return known


def _rope_scores_marks(ctx: LayoutContext, step: Step,
                       head: int) -> tuple[npt.NDArray[np.bool_] | None, str]:
    """:func:`rope_scores_marks`, worked out."""
    positions = positions_of(ctx.trace, step.rows)
    if positions is None or positions.kind != "rope" or step.keys != step.rows \
            or ctx.trace.row_order is not None:  # drawn by token, a row is not its position
        return None, ""
    att = attention_at(ctx.trace, step.scope)
    q_cols = slice(head * att.d_k, (head + 1) * att.d_k)
    group = kv_head(att, head)
    k_cols = slice(group * att.d_k, (group + 1) * att.d_k)
    scores = ctx.array(step.writes[-1])[head]
    pair = equal_distance_pair(scores, ctx.array(step.scope + "Q")[:, q_cols],
                               ctx.array(step.scope + "K")[:, k_cols],
                               visible_of(ctx.trace, step), lambda v: number(ctx, v))
    if pair is None:
        return None, ""
    (i, j), (k, m) = pair
    marked = np.zeros(scores.shape, dtype=bool)
    marked[i, j] = marked[k, m] = True
    marked.flags.writeable = False
    return marked, _word(ctx, "equal_distance", a=f"{i},{j}", b=f"{k},{m}",
                         value=number(ctx, float(scores[i, j])), d=abs(i - j))


def outline_cells(grid: MatrixGrid, marked: npt.NDArray[np.bool_], theme: Theme) -> None:
    """A thick orange frame round each marked cell of ``grid`` (the equal-distance pair)."""
    for r, c in np.argwhere(marked).tolist():
        box = QGraphicsRectItem(grid.cell_rect(r, c).adjusted(1.5, 1.5, -1.5, -1.5), grid)
        box.setPen(QPen(theme.head_color(0), 3.0))
        box.setBrush(Qt.BrushStyle.NoBrush)


def lay_out_biased_scores(ctx: LayoutContext, step: Step, parent: QGraphicsItem,
                          hidden: npt.NDArray[np.bool_] | None) -> QRectF:
    """Per head: Q · Kᵀ = q·k, then q·k + the ALiBi bias grid = scores; the scores grid says
    what hides its hatched cells, and a sentence under the grids names every rule beyond the
    causal mask, as the other scores pictures do."""
    att = attention_at(ctx.trace, step.scope)
    qk, bias, scores = step.writes
    mask_note, mask_sentence = mask_words(ctx, step, att) if hidden is not None else ("", "")
    rows: list[list[QGraphicsItem | str]] = []
    for head in ctx.heads:
        label = _word(ctx, "head", n=head + 1) if ctx.head_count > 1 else ""
        cols = slice(head * att.d_k, (head + 1) * att.d_k)
        k_cols = slice(kv_head(att, head) * att.d_k, (kv_head(att, head) + 1) * att.d_k)
        rows.append([ctx.grid(step.reads[0], title=f"Q{label}", columns=cols), "·",
                     ctx.grid(step.reads[1], title=f"Kᵀ{label}", columns=k_cols,
                              transpose=True), "=",
                     ctx.grid(qk, title=_word(ctx, "qk") + label, head=head, masked=hidden)])
        values = ctx.array(bias)[head]
        slope = -float(values[1, 0]) if values.shape[0] > 1 else 0.0
        rows.append([ctx.grid(qk, title=_word(ctx, "qk") + label, head=head, masked=hidden),
                     "+",
                     ctx.grid(bias, title=_word(ctx, "alibi") + label, head=head,
                              masked=hidden, note=_word(ctx, "alibi_note",
                                                        slope=number(ctx, slope))),
                     "=",
                     ctx.grid(scores, title=_word(ctx, "scores_biased") + label, head=head,
                              masked=hidden, highlight_receiver=True, note=mask_note)])
    return sentences_under(parent, place_rows(parent, rows, 0, 0, ctx.theme), [mask_sentence],
                           ctx)
