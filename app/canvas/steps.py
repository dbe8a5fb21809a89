"""One picture per step: which grids, operators and arrows a step shows, and where."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from app.canvas.arrows import ArrowSpec, AttentionArrows
from app.canvas.block_steps import BLOCK_LAYOUTS
from app.canvas.context import LayoutContext
from app.canvas.heads import ARROWS_GAP, lay_out_heads_mix
from app.canvas.layout import GAP, ROW_GAP, place_beside, place_row, place_rows, wrap_width
from app.canvas.position_steps import POSITION_LAYOUTS, lay_out_biased_scores
from app.tape import (
    array_name,
    attention_of,
    is_qk_norm,
    kv_head,
    parameter_path,
    tokens_of,
    visible_of,
)
from app.texts.frame_words import frame_word, join_notes
from engine import Step, format_number
from engine.names import short_name

Layout = Callable[[LayoutContext, Step, QGraphicsItem], QRectF]
SHARE_RANGE = (0.0, 1.0)


def _inputs(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    rows: list[list[QGraphicsItem | str]] = [
        [ctx.grid(parameter_path(step, f"W{out.lower()}")), f"→ {out}"] for out in ("Q", "K", "V")]
    x_rect = place_row(parent, [ctx.grid(step.reads[0], title=_word(ctx, "input_rows")), "·"],
                       0, 0, ctx.theme)
    paths = place_rows(parent, rows, x_rect.right() + 14, 0, ctx.theme)
    return x_rect.united(paths)


def _projections(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The source rows once, then · Wq = Q, · Wk = K and · Wv = V beside them (below them when
    that runs past the wrap width)."""
    src = step.reads[0]
    att = attention_of(ctx.trace, step)
    source = place_row(parent, [ctx.grid(src), "·"], 0, 0, ctx.theme)
    rows = []
    for out, weight, bias in (("Q", "Wq", att.bq), ("K", "Wk", att.bk), ("V", "Wv", att.bv)):
        parts: list[QGraphicsItem | str] = [ctx.grid(parameter_path(step, weight))]
        if bias is not None:
            parts += ["+", ctx.grid(parameter_path(step, f"b{weight[1]}"))]
        parts += ["=", ctx.grid(array_name(step, out), title=f"{out} = {short_name(src)}·{weight}")]
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
    return _word(ctx, "head", n=head + 1) if ctx.head_count > 1 else ""


def _group_label(ctx: LayoutContext, att: Any, head: int) -> str:
    """`` (K/V group 1)`` when query heads share keys and values (grouped-query attention)."""
    group = kv_head(att, head)
    shared = any(kv_head(att, other) != other for other in range(att.heads))
    return _word(ctx, "kv_group", n=group + 1) if shared else ""


def _head_columns(width: int, head: int) -> slice:
    return slice(head * width, (head + 1) * width)


def _scores(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    att = attention_of(ctx.trace, step)
    hidden = ctx.hidden(step)
    if array_name(step, "alibi") in step.writes:
        return lay_out_biased_scores(ctx, step, parent, hidden)
    rows: list[list[QGraphicsItem | str]] = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        cols = _head_columns(att.d_k, head)
        scaling = (_word(ctx, "scaled_note", d_k=att.d_k,
                         root=format_number(math.sqrt(att.d_k), 3)) if att.scale
                   else _word(ctx, "not_scaled_note"))
        note = join_notes(ctx.options.lang, scaling,
                          _word(ctx, "mask_note") if hidden is not None else "")
        rows.append([ctx.grid(step.reads[0], title=f"Q{label}", columns=cols), "·",
                     ctx.grid(step.reads[1], title=f"Kᵀ{label}{_group_label(ctx, att, head)}",
                              columns=_head_columns(att.d_k, kv_head(att, head)),
                              transpose=True), "=",
                     ctx.grid(step.writes[-1], title=_word(ctx, "scores") + label, head=head,
                              note=note, masked=hidden)])
    return place_rows(parent, rows, 0, 0, ctx.theme)


def _arrows(ctx: LayoutContext, step: Step) -> AttentionArrows:
    """Arrows from the query rows to the keys: the encoder's rows for cross-attention."""
    keys = tokens_of(ctx.trace, step.keys) if step.keys and step.keys != step.rows else None
    spec = ArrowSpec(tokens=ctx.tokens, weights=ctx.array(array_name(step, "weights")),
                     visible=visible_of(ctx.trace, step), receiver=ctx.receiver, heads=ctx.heads,
                     show_all=ctx.options.show_all_arrows, places=ctx.places, keys=keys)
    title = _word(ctx, "who_reads", token=ctx.tokens[ctx.receiver])
    return AttentionArrows(spec, ctx.theme, title, lang=ctx.options.lang)


def _weights(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    hidden = ctx.hidden(step)
    rows: list[list[QGraphicsItem | str]] = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        note = join_notes(ctx.options.lang, _word(ctx, "rows_sum_note"),
                          _word(ctx, "masked_zero_note") if hidden is not None else "")
        rows.append([ctx.grid(step.reads[0], title=_word(ctx, "scores") + label, head=head,
                              masked=hidden, highlight_receiver=True),
                     _word(ctx, "softmax"),
                     ctx.grid(step.writes[0], title=_word(ctx, "shares") + label, head=head,
                              value_range=SHARE_RANGE, masked=hidden,
                              highlight_receiver=True, note=note)])
    grids = place_rows(parent, rows, 0, 0, ctx.theme)
    return place_beside(parent, _arrows(ctx, step), grids, ARROWS_GAP)


def _mix(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    att = attention_of(ctx.trace, step)
    hidden = ctx.hidden(step)
    arrows = _arrows(ctx, step)
    weights, mixed = array_name(step, "weights"), array_name(step, "mixed")
    rows: list[list[QGraphicsItem | str]] = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        cols = _head_columns(att.d_v, head)
        rows.append([ctx.grid(weights, title=_word(ctx, "shares") + label, head=head,
                              value_range=SHARE_RANGE, masked=hidden,
                              highlight_receiver=True), "·",
                     ctx.grid(array_name(step, "V"),
                              title=f"V{label}{_group_label(ctx, att, head)}",
                              columns=_head_columns(att.d_v, kv_head(att, head))), "=",
                     ctx.grid(mixed, title=_word(ctx, "mixed") + label, columns=cols,
                              highlight_receiver=True)])
    if att.heads > 1:
        return lay_out_heads_mix(ctx, step, parent, rows, arrows)
    if att.Wo is not None:
        tail: list[QGraphicsItem | str] = [ctx.grid(mixed, title=_word(ctx, "mixed_joined")),
                                           "·", ctx.grid(parameter_path(step, "Wo"))]
        if att.bo is not None:
            tail += ["+", ctx.grid(parameter_path(step, "bo"))]
        rows.append([*tail, "=", ctx.grid(array_name(step, "attn_out"),
                                          title=_word(ctx, "attention_output"))])
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
        return min(int(ctx.heads[0]), int(ctx.trace.arrays[name].shape[0]) - 1)
    return None


def _is_parameter(ctx: LayoutContext, name: str) -> bool:
    try:
        ctx.trace.scenario.parameter(name)
    except KeyError:
        return False
    return True


LAYOUTS: dict[str, Layout] = {
    "inputs": _inputs,
    "projection": _projections,
    "scores": _scores,
    "weights": _weights,
    "mix": _mix,
    **BLOCK_LAYOUTS,
    **POSITION_LAYOUTS,
}


def lay_out_step(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Place the picture of ``step`` under ``parent``, from (0, 0); returns what it covers."""
    layout = _generic if is_qk_norm(ctx.trace, step) else LAYOUTS.get(step.op, _generic)
    return layout(ctx.for_step(step), step, parent)

