"""One picture per step: which grids, operators and arrows a step shows, and where."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.arrows import ArrowSpec, AttentionArrows
from app.canvas.block_steps import (
    lay_out_ffn,
    lay_out_norm,
    lay_out_residual,
    lay_out_transform,
)
from app.canvas.context import HEADS_AT_ONCE, LayoutContext, positioned_labels
from app.canvas.corner import cornered, row_width
from app.canvas.heads import ARROWS_GAP, lay_out_heads_mix
from app.canvas.kv_cache_marks import mark_kv_cache
from app.canvas.layout import (
    ROW_GAP,
    last_part,
    part_rows,
    place_arrows,
    place_row,
    place_rows,
    place_rows_after,
    rows_arrangement,
)
from app.canvas.loss_step import lay_out_loss
from app.canvas.pieces import mask_words, sentences_under
from app.canvas.position_pictures import (
    lay_out_biased_scores,
    lay_out_positions,
    lay_out_rope,
    outline_cells,
    rope_scores_marks,
)
from app.canvas.router_step import lay_out_experts, lay_out_router
from app.canvas.sample_step import lay_out_sample
from app.canvas.vocab_steps import lay_out_embed, lay_out_logits, lay_out_probs, lay_out_softcap
from app.model.operands import (
    array_name,
    attention_of,
    kv_head,
    parameter_path,
    visible_of,
)
from app.texts.frame_words import join_notes
from app.texts.mask_plans import kv_sharing
from app.texts.words import say
from engine import Step, format_number
from engine.format.numbers import format_exact
from engine.forward.step import Op
from engine.scenario.names import short_name
from engine.scenario.op_table import op_table

Layout = Callable[[LayoutContext, Step, QGraphicsItem], QRectF]
SHARE_RANGE = (0.0, 1.0)


def _inputs(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    rows: list[list[QGraphicsItem | str]] = [
        [ctx.grid(parameter_path(step, f"W{out.lower()}")), f"→ {out}"] for out in ("Q", "K", "V")]
    x_rect = place_row(parent, [ctx.grid(step.reads[0], title=_word(ctx, "input_rows")), "·"],
                       0, 0, ctx.theme)
    return place_rows_after(parent, rows, x_rect, ctx.theme, under=False)


def _projections(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The source rows once, then · Wq = Q, · Wk = K and · Wv = V beside them (below them when
    that runs past the wrap width). Cross-attention's K and V read the encoder memory: it is
    drawn, labelled by the encoder's tokens, as the source of a second group below Q's."""
    if not step.keys:
        return _projection_group(ctx, step, parent, step.reads[0], ("Q", "K", "V"), 0.0)
    queries = _projection_group(ctx, step, parent, step.reads[0], ("Q",), 0.0)
    memory = _projection_group(ctx, step, parent, step.reads[1], ("K", "V"),
                               queries.bottom() + ROW_GAP, _word(ctx, "encoder_memory"),
                               _word(ctx, "memory"))
    return queries.united(memory)


def _projection_group(ctx: LayoutContext, step: Step, parent: QGraphicsItem, src: str,
                      outputs: tuple[str, ...], top: float, title: str | None = None,
                      src_name: str | None = None) -> QRectF:
    """``src ·`` at ``top``, then one ``W + b = out`` row per output beside it (or below it
    when that runs past the wrap width); ``title`` and ``src_name`` name the source."""
    att = attention_of(ctx.trace, step)
    source_grid = ctx.grid(src, title=title)
    name = src_name or short_name(src)
    rows: list[list[QGraphicsItem | str]] = []
    pairs: list[tuple[QGraphicsItem, QGraphicsItem]] = []
    for out in outputs:
        weight = f"W{out.lower()}"
        bias = getattr(att, f"b{out.lower()}")
        factor = ctx.grid(parameter_path(step, weight))
        result = ctx.grid(array_name(step, out), title=f"{out} = {name}·{weight}",
                          note=_kv_note(ctx, att) if out != "Q" else "")
        parts: list[QGraphicsItem | str] = [factor]
        if bias is not None:
            parts += ["+", ctx.grid(parameter_path(step, f"b{weight[1]}"))]
        rows.append([*parts, "=", result])
        pairs.append((factor, result))
    if len(rows) > 1:  # presentation may show Q and K, then V, as two slides
        shown = part_rows(rows)
        pairs = [pair for row, pair in zip(rows, pairs, strict=True)
                 if any(row is kept for kept in shown)]
        rows = [list(row) for row in shown]
        if rows and isinstance(rows[0][0], str):  # a row's later piece (``= Q``): no source
            return place_rows(parent, rows, 0, top, ctx.theme)
    if rows_arrangement() == "corner" and all(len(parts) == 3 for parts in rows):  # no bias
        line = [source_grid, "·", *(part for parts in rows for part in parts)]
        corner = cornered(source_grid, pairs, row_width(line), _word(ctx, "corner_note"),
                          ctx.theme)
        if corner is not None:
            return place_row(parent, [corner], 0, top, ctx.theme)
    source = place_row(parent, [source_grid, "·"], 0, top, ctx.theme)
    return place_rows_after(parent, rows, source, ctx.theme)


def _word(ctx: LayoutContext, key: str, **fields: object) -> str:
    """A frame word in the frame's language."""
    return say(f"frame.{key}", ctx.options.lang, **fields)


def _kv_note(ctx: LayoutContext, att: Any) -> str:
    """Which query heads read each K/V head, when g K/V heads serve h > g query heads; worded
    once per layout context (the type scale's search lays the projections out about 120
    times, K's and V's grids each time: Llama's 32 heads sharing 8 took 0.2 ms a note)."""
    key = ("kv_note", att.heads, att.groups, tuple(kv_head(att, h) for h in range(att.heads)))
    known: str | None = ctx.worded.get(key)
    if known is None:
        reads = kv_sharing(att)
        known = ctx.worded[key] = "" if reads is None else _word(
            ctx, "kv_shared_note", g=att.groups, h=att.heads, reads=reads.words(ctx.options.lang))
    return known


def _head_label(ctx: LayoutContext, head: int) -> str:
    """`` · head 2`` when the scenario has several heads, else nothing; `` · head 1 of 12``
    when all were asked for and there are too many to draw side by side."""
    if ctx.head_count > HEADS_AT_ONCE and ctx.options.head is None:
        return _word(ctx, "head_of", n=head + 1, h=ctx.head_count)
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
    query, key = short_name(step.reads[0]), short_name(step.reads[1])  # Q_rot after RoPE
    rows: list[list[QGraphicsItem | str]] = []
    sentences: list[str] = []
    mask_note, mask_sentence = mask_words(ctx, step, att) if hidden is not None else ("", "")
    for head in ctx.heads:
        label = _head_label(ctx, head)
        cols = _head_columns(att.d_k, head)
        marked, sentence = rope_scores_marks(ctx, step, head)
        sentences += [sentence] if sentence else []
        scaling = (_word(ctx, "scaled_note", d_k=format_exact(att.scale_number),
                         root=format_number(math.sqrt(att.scale_number), 3)) if att.scale
                   else _word(ctx, "not_scaled_note"))
        note = join_notes(ctx.options.lang, scaling, mask_note)
        left = ctx.grid(step.reads[0], title=f"{query}{label}", columns=cols)
        top = ctx.grid(step.reads[1], title=f"{key}ᵀ{label}{_group_label(ctx, att, head)}",
                       columns=_head_columns(att.d_k, kv_head(att, head)), transpose=True)
        scaled = _word(ctx, "scores" if att.softcap is None else "scores_uncapped") + label
        scores = ctx.grid(step.writes[0], title=scaled, head=head, note=note, masked=hidden,
                          marked=marked)
        if marked is not None:
            outline_cells(scores, marked, ctx.theme)
        row: list[QGraphicsItem | str] = [left, "·", top, "=", scores]
        corner = cornered(left, [(top, scores)], row_width(row), _word(ctx, "corner_note"),
                          ctx.theme)
        rows.append(row if corner is None else [corner])
        if att.softcap is not None:  # Gemma 2: c · tanh(s / c) of the scaled scores
            cap = format_exact(att.softcap)
            rows.append([ctx.grid(step.writes[0], title=scaled, head=head, masked=hidden),
                         _word(ctx, "scores_cap_arrow", cap=cap),
                         ctx.grid(step.writes[-1], title=_word(ctx, "scores_capped", cap=cap)
                                  + label, head=head, masked=hidden, highlight_receiver=True)])
    if len(rows) > 1:  # presentation may show the first heads, then the others, as two slides
        rows = [list(row) for row in part_rows(rows)]
    grids = place_rows(parent, rows, 0, 0, ctx.theme)
    return sentences_under(parent, grids, [mask_sentence, *sentences[:1]], ctx)


def _arrows(ctx: LayoutContext, step: Step) -> AttentionArrows:
    """Arrows from the query rows to the keys: the encoder's rows for cross-attention."""
    keys = positioned_labels(ctx.trace, step.keys, ctx.options.lang) \
        if step.keys and step.keys != step.rows else None
    spec = ArrowSpec(tokens=ctx.labels, weights=ctx.array(array_name(step, "weights")),
                     visible=visible_of(ctx.trace, step), receiver=ctx.receiver, heads=ctx.heads,
                     show_all=ctx.options.show_all_arrows, places=ctx.places, keys=keys)
    title = _word(ctx, "who_reads", token=ctx.tokens[ctx.receiver])
    return AttentionArrows(spec, ctx.theme, title, lang=ctx.options.lang)


def _weights(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """scores → softmax → shares for each head, the arrows beside them; split over two
    slides (:func:`~app.canvas.layout.part_rows`), the scores first, then the shares."""
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
    grids = place_rows(parent, part_rows(rows), 0, 0, ctx.theme)
    return _beside_arrows(ctx, step, parent, grids)


def _beside_arrows(ctx: LayoutContext, step: Step, parent: QGraphicsItem,
                   covered: QRectF) -> QRectF:
    """The arrows right of what ``covered`` holds, unless the options leave them out (or the
    half of a split step shown is the first: they go with the shares, in the last)."""
    if not ctx.options.arrows or not last_part():
        return covered
    return place_arrows(parent, _arrows(ctx, step), covered, ARROWS_GAP)


def _mix(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    att = attention_of(ctx.trace, step)
    hidden = ctx.hidden(step)
    weights, mixed = array_name(step, "weights"), array_name(step, "mixed")
    rows: list[list[QGraphicsItem | str]] = []
    for head in ctx.heads:
        label = _head_label(ctx, head)
        named = _word(ctx, "head", n=head + 1) if ctx.head_count > 1 else ""  # "of 12": once
        cols = _head_columns(att.d_v, head)
        cut = _word(ctx, "ablated_mark") if head in att.ablate_heads else ""
        rows.append([ctx.grid(weights, title=_word(ctx, "shares") + label, head=head,
                              value_range=SHARE_RANGE, masked=hidden,
                              highlight_receiver=True), "·",
                     ctx.grid(array_name(step, "V"),
                              title=f"V{named}{_group_label(ctx, att, head)}",
                              columns=_head_columns(att.d_v, kv_head(att, head))), "=",
                     ctx.grid(mixed, title=_word(ctx, "mixed") + named + cut, columns=cols,
                              highlight_receiver=True)])
    if att.heads > 1:
        return lay_out_heads_mix(ctx, step, parent, rows,
                                 partial(_beside_arrows, ctx, step, parent))
    if att.Wo is not None:
        cut = _word(ctx, "ablated_mark") if att.ablate_heads else ""
        tail: list[QGraphicsItem | str] = [ctx.grid(mixed, title=_word(ctx, "mixed_joined") + cut),
                                           "·", ctx.grid(parameter_path(step, "Wo"))]
        if att.bo is not None:
            tail += ["+", ctx.grid(parameter_path(step, "bo"))]
        rows.append([*tail, "=", ctx.grid(array_name(step, "attn_out"),
                                          title=_word(ctx, "attention_output"))])
    return _beside_arrows(ctx, step, parent, place_rows(parent, rows, 0, 0, ctx.theme))


STEP_LAYOUTS: Mapping[Op, Layout] = op_table("canvas.layout", {
    "embed": lay_out_embed,
    "positions": lay_out_positions,
    "inputs": _inputs,
    "norm": lay_out_norm,
    "projection": _projections,
    "rope": lay_out_rope,
    "scores": _scores,
    "weights": _weights,
    "mix": _mix,
    "residual": lay_out_residual,
    "ffn": lay_out_ffn,
    "router": lay_out_router,
    "experts": lay_out_experts,
    "transform": lay_out_transform,
    "logits": lay_out_logits,
    "softcap": lay_out_softcap,
    "probs": lay_out_probs,
    "loss": lay_out_loss,
    "sample": lay_out_sample,
})
"""Each op kind's picture."""


def lay_out_step(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Place the picture of ``step`` under ``parent``, from (0, 0); returns what it covers."""
    own = ctx.for_step(step)
    first = len(own.made)
    covered = STEP_LAYOUTS[step.op](own, step, parent)
    return mark_kv_cache(own, step, parent, covered, own.made[first:])

