"""Pictures of the decoder block's own steps: the norms, the two residuals and the feed-forward.

Every layout reads its arrays from the step (``step.reads`` / ``step.writes``), so one layout
serves the pre-norm and the post-norm order alike. :data:`BLOCK_LAYOUTS` also carries the
embedding, logits and probabilities pictures of :mod:`app.canvas.vocab_steps`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext
from app.canvas.grid import MatrixGrid
from app.canvas.layout import ROW_GAP, place_row
from app.canvas.pieces import custom_grid, number, small_constant, text_lines, word
from app.canvas.vocab_steps import VOCAB_LAYOUTS
from engine import Block, Step, explain
from engine.forward import pre_activation
from engine.ops import row_statistics

Layout = Callable[[LayoutContext, Step, QGraphicsItem], QRectF]
TEXT_GAP = 12.0
NEUTRAL = (0.0, 0.0)
"""A value range that colours every cell alike: for numbers whose colour would mean nothing."""


def _block(ctx: LayoutContext) -> Block:
    block = ctx.trace.scenario.block
    assert block is not None, "a block step needs a block"
    return block


def _statistics_grid(ctx: LayoutContext, kind: str, source: str) -> MatrixGrid:
    """μ, σ² and √(σ²+ε) — or mean(x²) and √(mean(x²)+ε) — beside each row."""
    block = _block(ctx)
    x = ctx.array(source)
    stats = row_statistics(kind, x, block.eps)
    eps = small_constant(block.eps)
    if kind == "layernorm":
        cols = [word(ctx, "mean"), word(ctx, "variance"), word(ctx, "divisor")]
    else:
        cols = [word(ctx, "mean_square"), word(ctx, "rms_divisor")]

    def explain(row: int, col: int) -> str:
        token, value = ctx.tokens[row], number(ctx, float(stats[row, col]))
        if kind == "layernorm":
            fields = {"token": token, "value": value, "d": x.shape[1], "eps": eps,
                      "variance": number(ctx, float(stats[row, 1]))}
            return word(ctx, ("stat_mean", "stat_variance", "stat_divisor")[col], **fields)
        return word(ctx, ("stat_mean_square", "stat_rms_divisor")[col], token=token,
                    value=value, eps=eps, mean_square=number(ctx, float(stats[row, 0])))

    return custom_grid(ctx, word(ctx, "row_statistics"), stats, ctx.tokens, cols,
                       explain=explain, highlight_receiver=True, value_range=NEUTRAL)


def lay_out_norm(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Source rows → per-row statistics → normed rows; then the formula, γ and β."""
    block = _block(ctx)
    source, gamma, beta = step.reads[0], step.reads[1], step.reads[2]
    out = step.writes[0]
    if block.norm == "none":
        rect = place_row(parent, [ctx.grid(source, highlight_receiver=True), "=",
                                  ctx.grid(out, highlight_receiver=True)], 0, 0, ctx.theme)
        note = text_lines(parent, [word(ctx, "norm_none", out=out, source=source)], 0,
                          rect.bottom() + TEXT_GAP, ctx)
        return rect.united(note)
    stats = _statistics_grid(ctx, block.norm, source)
    rect = place_row(parent, [ctx.grid(source, highlight_receiver=True), "→", stats, "→",
                              ctx.grid(out, highlight_receiver=True)], 0, 0, ctx.theme)
    values = stats.spec.values[ctx.receiver]
    token = ctx.tokens[ctx.receiver]
    eps = small_constant(block.eps)
    if block.norm == "layernorm":
        lines = [word(ctx, "layer_formula", eps=eps),
                 word(ctx, "layer_row", token=token, mean=number(ctx, float(values[0])),
                      divisor=number(ctx, float(values[2])))]
        parameters = [ctx.grid(gamma), ",", ctx.grid(beta)]
    else:
        lines = [word(ctx, "rms_formula", eps=eps),
                 word(ctx, "rms_row", token=token, divisor=number(ctx, float(values[1])))]
        parameters = [ctx.grid(gamma)]
    text = text_lines(parent, lines, 0, rect.bottom() + TEXT_GAP, ctx, size=15, role="text")
    params = place_row(parent, parameters, 0, text.bottom() + TEXT_GAP, ctx.theme)
    return rect.united(text).united(params)


def lay_out_residual(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The residual as an addition: stream + sub-layer output = new stream."""
    left, right = step.reads[0], step.reads[1]
    out = step.writes[0]
    rect = place_row(parent, [ctx.grid(left, highlight_receiver=True), "+",
                              ctx.grid(right, highlight_receiver=True), "=",
                              ctx.grid(out, highlight_receiver=True)], 0, 0, ctx.theme)
    note = text_lines(parent, [word(ctx, "residual_note")], 0, rect.bottom() + TEXT_GAP, ctx)
    return rect.united(note)


def _activation_note(ctx: LayoutContext, activation: str) -> str:
    return word(ctx, {"relu": "relu_marked", "gelu": "gelu_note", "silu": "silu_note",
                      "identity": "identity_note", "gelu_tanh": "gelu_tanh_note"}[activation])


def lay_out_ffn(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """source · W1 + b1 = z → activation → hidden (ReLU's zeros marked); hidden · W2 + b2."""
    block = _block(ctx)
    ffn = block.ffn
    source = step.reads[0]
    z = pre_activation(block, ctx.array(source))
    units = [str(k) for k in range(z.shape[1])]
    activation = ffn.activation
    marked = (z <= 0) if activation == "relu" else None

    def explain_z(row: int, col: int) -> str:
        return explain(ctx.trace, "ffn_hidden", (row, col)).details[0]

    first: list[QGraphicsItem | str] = [ctx.grid(source, highlight_receiver=True), "·",
                                        ctx.grid("block.ffn.W1")]
    if ffn.b1 is not None:
        first += ["+", ctx.grid("block.ffn.b1")]
    z_title = word(ctx, "z_title", source=source) + (word(ctx, "z_bias") if ffn.b1 is not None
                                                      else "")
    first += ["=", custom_grid(ctx, z_title, z, ctx.tokens, units, explain=explain_z,
                               highlight_receiver=True),
              f"→ {activation} →",
              ctx.grid("ffn_hidden", title=word(ctx, "hidden_title", activation=activation),
                       highlight_receiver=True, marked=marked,
                       note=_activation_note(ctx, activation))]
    top = place_row(parent, first, 0, 0, ctx.theme)
    second: list[QGraphicsItem | str] = [
        ctx.grid("ffn_hidden", title=word(ctx, "hidden_title", activation=activation),
                 highlight_receiver=True, marked=marked), "·", ctx.grid("block.ffn.W2")]
    if ffn.b2 is not None:
        second += ["+", ctx.grid("block.ffn.b2")]
    out_title = word(ctx, "ffn_out_title") + (word(ctx, "ffn_out_bias") if ffn.b2 is not None
                                              else "")
    second += ["=", ctx.grid("ffn_out", title=out_title, highlight_receiver=True)]
    bottom = place_row(parent, second, 0, top.bottom() + ROW_GAP, ctx.theme)
    return top.united(bottom)


BLOCK_LAYOUTS: dict[str, Layout] = {
    "norm1": lay_out_norm,
    "norm2": lay_out_norm,
    "final_norm": lay_out_norm,
    "resid1": lay_out_residual,
    "resid2": lay_out_residual,
    "ffn": lay_out_ffn,
    **VOCAB_LAYOUTS,
}
"""Step id → layout, merged into :data:`app.canvas.steps.LAYOUTS`."""
