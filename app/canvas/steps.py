"""One picture per step: which grids, operators and arrows a step shows, and where."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from app.canvas.arrows import ArrowSpec, AttentionArrows
from app.canvas.block_steps import BLOCK_LAYOUTS
from app.canvas.context import LayoutContext
from app.canvas.heads import ARROWS_GAP, lay_out_heads_mix
from app.canvas.layout import GAP, ROW_GAP, place_beside, place_row, place_rows, wrap_width
from app.texts.frame_words import frame_word, join_notes
from engine import Step, format_number

Layout = Callable[[LayoutContext, Step, QGraphicsItem], QRectF]
SHARE_RANGE = (0.0, 1.0)


def _inputs(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    rows = [[ctx.grid("attention.Wq"), "→ Q"], [ctx.grid("attention.Wk"), "→ K"],
            [ctx.grid("attention.Wv"), "→ V"]]
    x_rect = place_row(parent, [ctx.grid("X", title=_word(ctx, "input_rows")), "·"], 0, 0,
                       ctx.theme)
    paths = place_rows(parent, rows, x_rect.right() + 14, 0, ctx.theme)
    return x_rect.united(paths)


def _source(ctx: LayoutContext) -> str:
    block = ctx.trace.scenario.block
    return "norm1" if block is not None and block.placement == "pre" else "X"


def _projections(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The source rows once, then · Wq = Q, · Wk = K and · Wv = V beside them (below them when
    that runs past the wrap width)."""
    src = _source(ctx)
    att = ctx.trace.scenario.attention
    source = place_row(parent, [ctx.grid(src), "·"], 0, 0, ctx.theme)
    rows = []
    for out, weight, bias in (("Q", "Wq", att.bq), ("K", "Wk", att.bk), ("V", "Wv", att.bv)):
        parts: list[QGraphicsItem | str] = [ctx.grid(f"attention.{weight}")]
        if bias is not None:
            parts += ["+", ctx.grid(f"attention.b{weight[1]}")]
        parts += ["=", ctx.grid(out, title=f"{out} = {src}·{weight}")]
        rows.append(parts)
    x, y = source.right() + GAP, 0.0
    limit = wrap_width()
    probe = QGraphicsRectItem()  # owns the grids until they move to ``parent``
    if limit is not None and place_rows(probe, rows, x, y, ctx.theme).right() > limit:
        x, y = 0.0, source.bottom() + ROW_GAP
    return source.united(place_rows(parent, rows, x, y, ctx.theme))


def _word(ctx: LayoutContext, key: str, **fields: object) -> str:
    """A frame word in the frame's language."""
    return frame_word(ctx.options.lang, key, **fields)


def _head_label(ctx: LayoutContext, head: int) -> str:
    """`` · head 2`` when the scenario has several heads, else nothing."""
    return _word(ctx, "head", n=head + 1) if ctx.trace.scenario.attention.heads > 1 else ""


def _head_columns(width: int, head: int) -> slice:
    return slice(head * width, (head + 1) * width)


def _scores(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    att = ctx.trace.scenario.attention
    rows = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        cols = _head_columns(att.d_k, head)
        scaling = (_word(ctx, "scaled_note", d_k=att.d_k,
                         root=format_number(math.sqrt(att.d_k), 3)) if att.scale
                   else _word(ctx, "not_scaled_note"))
        note = join_notes(ctx.options.lang, scaling,
                          _word(ctx, "mask_note") if att.causal else "")
        rows.append([ctx.grid("Q", title=f"Q{label}", columns=cols), "·",
                     ctx.grid("K", title=f"Kᵀ{label}", columns=cols, transpose=True), "=",
                     ctx.grid("scores", title=_word(ctx, "scores") + label, head=head,
                              note=note, masked=att.causal)])
    return place_rows(parent, rows, 0, 0, ctx.theme)


def _arrows(ctx: LayoutContext) -> AttentionArrows:
    spec = ArrowSpec(tokens=ctx.tokens, weights=ctx.trace.arrays["weights"],
                     visible=ctx.trace.visible, receiver=ctx.receiver, heads=ctx.heads,
                     show_all=ctx.options.show_all_arrows, places=ctx.places)
    title = _word(ctx, "who_reads", token=ctx.tokens[ctx.receiver])
    return AttentionArrows(spec, ctx.theme, title, lang=ctx.options.lang)


def _weights(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    att = ctx.trace.scenario.attention
    rows = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        note = join_notes(ctx.options.lang, _word(ctx, "rows_sum_note"),
                          _word(ctx, "masked_zero_note") if att.causal else "")
        rows.append([ctx.grid("scores", title=_word(ctx, "scores") + label, head=head,
                              masked=att.causal, highlight_receiver=True),
                     _word(ctx, "softmax"),
                     ctx.grid("weights", title=_word(ctx, "shares") + label, head=head,
                              value_range=SHARE_RANGE, masked=att.causal,
                              highlight_receiver=True, note=note)])
    grids = place_rows(parent, rows, 0, 0, ctx.theme)
    return place_beside(parent, _arrows(ctx), grids, ARROWS_GAP)


def _mix(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    att = ctx.trace.scenario.attention
    arrows = _arrows(ctx)
    rows: list[list[QGraphicsItem | str]] = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        cols = _head_columns(att.d_v, head)
        rows.append([ctx.grid("weights", title=_word(ctx, "shares") + label, head=head,
                              value_range=SHARE_RANGE, masked=att.causal,
                              highlight_receiver=True), "·",
                     ctx.grid("V", title=f"V{label}", columns=cols), "=",
                     ctx.grid("mixed", title=_word(ctx, "mixed") + label, columns=cols,
                              highlight_receiver=True)])
    if att.heads > 1:
        return lay_out_heads_mix(ctx, parent, rows, arrows)
    if att.Wo is not None:
        tail: list[QGraphicsItem | str] = [ctx.grid("mixed", title=_word(ctx, "mixed_joined")),
                                           "·", ctx.grid("attention.Wo")]
        if att.bo is not None:
            tail += ["+", ctx.grid("attention.bo")]
        rows.append([*tail, "=", ctx.grid("attn_out", title=_word(ctx, "attention_output"))])
    grids = place_rows(parent, rows, 0, 0, ctx.theme)
    return place_beside(parent, arrows, grids, ARROWS_GAP)


def _generic(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Any step: what it reads, an arrow, what it writes."""
    readable = [name for name in step.reads
                if name in ctx.trace.arrays or _is_parameter(ctx, name)]
    parts: list[QGraphicsItem | str] = []
    for name in readable:
        if parts:
            parts.append(",")
        parts.append(ctx.grid(name, highlight_receiver=name in ctx.trace.arrays,
                              head=_head_of(ctx, name)))
    parts.append("→")
    for k, name in enumerate(step.writes):
        if k:
            parts.append(",")
        parts.append(ctx.grid(name, highlight_receiver=True, head=_head_of(ctx, name)))
    return place_row(parent, parts, 0, 0, ctx.theme)


def _head_of(ctx: LayoutContext, name: str) -> int | None:
    """The selected head of a per-head (3-D) array, None for a matrix."""
    if name in ctx.trace.arrays and ctx.trace.arrays[name].ndim == 3:
        return min(ctx.heads[0], ctx.trace.arrays[name].shape[0] - 1)
    return None


def _is_parameter(ctx: LayoutContext, name: str) -> bool:
    try:
        ctx.trace.scenario.parameter(name)
    except KeyError:
        return False
    return True


LAYOUTS: dict[str, Layout] = {
    "inputs": _inputs,
    "projections": _projections,
    "scores": _scores,
    "weights": _weights,
    "mix": _mix,
    **BLOCK_LAYOUTS,
}


def lay_out_step(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Place the picture of ``step`` under ``parent``, from (0, 0); returns what it covers."""
    return LAYOUTS.get(step.id, _generic)(ctx, step, parent)

