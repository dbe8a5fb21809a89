"""Several heads: each head's mix in its own colour, then the heads concatenated into Wo.

The chapter's shape example: two heads of width 2 are joined side by side (head 1 | head 2) into
width 4, and Wo of shape 4×6 brings each position back to 6 numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.context import LayoutContext
from app.canvas.grid import HEADER_HEIGHT, TITLE_HEIGHT, MatrixGrid
from app.canvas.layout import (
    ROW_GAP,
    part_rows,
    part_shown,
    parts_shown,
    place_row,
    place_rows,
    showing_part,
)
from app.canvas.pieces import custom_grid, text_lines, word
from app.canvas.theme import font, text_advance
from app.model.operands import array_name, attention_of, parameter_path
from app.texts import words
from engine import Step

ARROWS_GAP = 40.0
BAND_HEIGHT = 4.0
DIVIDER = 3.0
"""The width of the line between two heads' columns: at most an eighth of a head's span (a
heat map's twelve heads of 64 columns are about 12 units each)."""


class HeadBands(QGraphicsObject):
    """Drawn over a concatenated grid: each head's name and colour above its columns, and a
    dividing line between heads. The names are left out when one would run past its columns
    (a heat map's: the sentence under the row counts the heads); the colours stay."""

    def __init__(self, grid: MatrixGrid, heads: int, width: int, labels: Sequence[str],
                 colors: Sequence[str]) -> None:
        super().__init__()
        self.grid = grid
        self.heads = heads
        self.width = width
        self.labels = list(labels)
        self.colors = list(colors)
        rows = grid.spec.values.shape[0]
        right = grid.cell_rect(0, heads * width - 1).right()
        self._rect = QRectF(grid.grid_origin.x(), TITLE_HEIGHT, right - grid.grid_origin.x(),
                            HEADER_HEIGHT + rows * grid.cell_rect(0, 0).height())
        span = self.head_span(0).width()
        self.named = all(text_advance(label, 12, bold=True) <= span for label in self.labels)
        """Whether the heads' names are drawn over their columns."""
        self.divider = min(DIVIDER, span / 8)

    def boundingRect(self) -> QRectF:
        return self._rect

    def head_span(self, head: int) -> QRectF:
        """The header strip over the columns of ``head``."""
        left = self.grid.cell_rect(0, head * self.width).left()
        right = self.grid.cell_rect(0, (head + 1) * self.width - 1).right()
        return QRectF(left, TITLE_HEIGHT, right - left, HEADER_HEIGHT)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        theme = self.grid.theme
        painter.setFont(font(12, bold=True))
        for head in range(self.heads):
            span = self.head_span(head)
            band = QRectF(span.left() + 2, span.bottom() - BAND_HEIGHT - 1, span.width() - 4,
                          BAND_HEIGHT)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(theme.head_color(head)))
            painter.drawRect(band)
            if self.named:
                painter.setPen(theme.color("text"))
                painter.drawText(span.adjusted(0, 0, 0, -BAND_HEIGHT - 1),
                                 Qt.AlignmentFlag.AlignCenter, self.labels[head])
        painter.setPen(QPen(theme.color("text"), self.divider))
        for head in range(1, self.heads):
            x = self.head_span(head).left()
            painter.drawLine(QLineF(x, TITLE_HEIGHT + 2, x, self._rect.bottom()))


def concatenation_row(ctx: LayoutContext, step: Step) -> list[QGraphicsItem | str]:
    """mixed (head 1 | head 2 …) · Wo + bo = output, or the joined heads alone without Wo."""
    att = attention_of(ctx.trace, step)
    width = att.heads * att.d_v
    labels = [word(ctx, "head_band_ablated" if h in att.ablate_heads else "head_band", n=h + 1)
              for h in range(att.heads)]
    mixed = array_name(step, "mixed")
    explain = ctx.grid(mixed).spec.explain
    joined = custom_grid(ctx, word(ctx, "concat_title", width=width),
                         ctx.array(mixed), ctx.labels, [""] * width, explain=explain,
                         highlight_receiver=True, asked=ctx.asked(mixed))
    if joined.spec.asked is not None:  # the heads' outputs an exercise hides, here too
        ctx.mark_verdicts(joined, mixed)
    bands = HeadBands(joined, att.heads, att.d_v, labels,
                      [ctx.theme.heads[h % len(ctx.theme.heads)] for h in range(att.heads)])
    bands.setParentItem(joined)
    if att.Wo is None:
        return [joined]
    parts: list[QGraphicsItem | str] = [joined, "·", ctx.grid(parameter_path(step, "Wo"))]
    if att.bo is not None:
        parts += ["+", ctx.grid(parameter_path(step, "bo"))]
    return [*parts, "=", ctx.grid(array_name(step, "attn_out"),
                                  title=word(ctx, "output_width", d_out=att.d_out),
                                  highlight_receiver=True)]


def lay_out_heads_mix(ctx: LayoutContext, step: Step, parent: QGraphicsItem,
                      head_rows: Sequence[Sequence[QGraphicsItem | str]],
                      beside: Callable[[QRectF], QRectF]) -> QRectF:
    """Each head's shares · V = mixed, ``beside`` them (the arrows: what it places, with
    what it is given), the concatenation below (presentation may show each on a slide of its
    own, the concatenation on the next, or cut over the next ones where one is not enough:
    :func:`~app.canvas.layout.part_rows`)."""
    att = attention_of(ctx.trace, step)
    part = part_shown()  # presentation may show the heads, then the concatenation, as slides
    covered = QRectF(0, -ROW_GAP, 0, 0)
    if not part:
        covered = beside(place_rows(parent, head_rows, 0, 0, ctx.theme))
        if part == 0:
            return covered
    joined = concatenation_row(ctx, step)
    if part is not None:
        with showing_part(part - 1, parts_shown() - 1):
            pieces = part_rows([joined])
        if not pieces:  # a part beyond what the concatenation can be cut into
            return QRectF()
        joined = list(pieces[0])
    row = place_row(parent, joined, 0, covered.bottom() + ROW_GAP, ctx.theme)
    width = att.heads * att.d_v
    note = (word(ctx, "concat_wo", h=att.heads, d_v=att.d_v, width=width, d_out=att.d_out)
            if att.Wo is not None else
            word(ctx, "concat_no_wo", h=att.heads, d_v=att.d_v, width=width))
    lines = [note]
    if att.ablate_heads:
        lines.append(word(ctx, "concat_ablated", heads=words.joined(
            (h + 1 for h in sorted(att.ablate_heads)), ctx.options.lang)))
    text = text_lines(parent, lines, 0, row.bottom() + 10, ctx, size=15, role="text")
    return covered.united(row).united(text)
