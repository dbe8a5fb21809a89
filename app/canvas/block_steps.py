"""Pictures of the decoder block's own steps: the norms, the two residuals and the feed-forward.

Every layout reads its arrays from the step (``step.reads`` / ``step.writes``), so one layout
serves the pre-norm and the post-norm order alike.
:data:`app.canvas.steps.LAYOUTS` registers them by op kind.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext, numbered
from app.canvas.grid import MatrixGrid
from app.canvas.layout import ROW_GAP, RowPart, place_row
from app.canvas.pieces import custom_grid, number, small_constant, text_lines, word
from app.canvas.qk_norm_step import lay_out_qk_norm
from app.model.operands import (
    array_name,
    ffn_pre,
    module_of,
    norm_statistics,
    parameter_path,
    qk_norm_of,
)
from engine import Step, explain
from engine.names import short_name

TEXT_GAP = 12.0
NEUTRAL = (0.0, 0.0)
"""A value range that colours every cell alike: for numbers whose colour would mean nothing."""


def _statistics_grid(ctx: LayoutContext, step: Step, kind: str, eps_value: float) -> MatrixGrid:
    """μ, σ² and √(σ²+ε) — or mean(x²) and √(mean(x²)+ε) — beside each row."""
    x = ctx.array(step.reads[0])
    stats = norm_statistics(ctx.trace, step)
    eps = small_constant(eps_value)
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

    return custom_grid(ctx, word(ctx, "row_statistics"), stats, ctx.labels, cols,
                       explain=explain, highlight_receiver=True, value_range=NEUTRAL)


def lay_out_norm(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Source rows → per-row statistics → normed rows; then the formula, γ and β. An
    attention's QK-norm has its own picture."""
    if qk_norm_of(ctx.trace, step) is not None:
        return lay_out_qk_norm(ctx, step, parent)
    block = module_of(ctx.trace, step)
    source, gamma, beta = step.reads[0], step.reads[1], step.reads[2]
    out = step.writes[0]
    if block.norm == "none":
        rect = place_row(parent, [ctx.grid(source, highlight_receiver=True), "=",
                                  ctx.grid(out, highlight_receiver=True)], 0, 0, ctx.theme)
        note = text_lines(parent, [word(ctx, "norm_none", out=short_name(out),
                                        source=short_name(source))], 0,
                          rect.bottom() + TEXT_GAP, ctx)
        return rect.united(note)
    stats = _statistics_grid(ctx, step, block.norm, block.eps)
    rect = place_row(parent, [ctx.grid(source, highlight_receiver=True), "→", stats, "→",
                              ctx.grid(out, highlight_receiver=True)], 0, 0, ctx.theme)
    values = stats.spec.values[ctx.receiver]
    token = ctx.tokens[ctx.receiver]
    eps = small_constant(block.eps)
    if block.norm == "layernorm":
        lines = [word(ctx, "layer_formula", eps=eps),
                 word(ctx, "layer_row", token=token, mean=_operand(ctx, float(values[0])),
                      divisor=number(ctx, float(values[2])))]
        parameters: list[RowPart] = [ctx.grid(gamma), ",", ctx.grid(beta)]
    else:
        lines = [word(ctx, "rms_formula", eps=eps),
                 word(ctx, "rms_row", token=token, divisor=number(ctx, float(values[1])))]
        parameters = [ctx.grid(gamma)]
    text = text_lines(parent, lines, 0, rect.bottom() + TEXT_GAP, ctx, size=15, role="text")
    params = place_row(parent, parameters, 0, text.bottom() + TEXT_GAP, ctx.theme)
    return rect.united(text).united(params)


def _operand(ctx: LayoutContext, value: float) -> str:
    """A number after a minus sign: a negative one in brackets, ``x − (−0.173)``."""
    text = number(ctx, value)
    return f"({text})" if text.startswith("−") else text


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


def _product(ctx: LayoutContext, step: Step, left: MatrixGrid, weight: str,
             bias: str) -> list[QGraphicsItem | str]:
    """``left · W + b``: the feed-forward's ``ffn.{weight}`` and, if it has one, ``ffn.{bias}``."""
    ffn = module_of(ctx.trace, step).ffn
    row: list[QGraphicsItem | str] = [left, "·", ctx.grid(parameter_path(step, f"ffn.{weight}"))]
    if getattr(ffn, bias) is not None:
        row += ["+", ctx.grid(parameter_path(step, f"ffn.{bias}"))]
    return row


def _gated_rows(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """A gated feed-forward's hidden units: source · Wg + bg = z → activation → gate, then
    source · W1 + b1 = up, and up ⊙ gate = hidden (SwiGLU, GeGLU)."""
    ffn = module_of(ctx.trace, step).ffn
    source = step.reads[0]
    gate, up = array_name(step, "ffn_gate"), array_name(step, "ffn_up")
    z = ctx.trace.arrays[source] @ ffn.Wg + (0.0 if ffn.bg is None else ffn.bg)

    def explain_z(row: int, col: int) -> str:
        return explain(ctx.trace, gate, (row, col)).details[0]

    first = _product(ctx, step, ctx.grid(source, highlight_receiver=True), "Wg", "bg")
    first += ["=", custom_grid(ctx, word(ctx, "gate_z_title", source=short_name(source)), z,
                               ctx.labels, numbered(z.shape[1]), explain=explain_z,
                               highlight_receiver=True),
              f"→ {ffn.activation} →",
              ctx.grid(gate, title=word(ctx, "gate_title", activation=ffn.activation),
                       highlight_receiver=True, note=_activation_note(ctx, ffn.activation))]
    top = place_row(parent, first, 0, 0, ctx.theme)
    second = _product(ctx, step, ctx.grid(source, highlight_receiver=True), "W1", "b1")
    up_title = word(ctx, "up_title", source=short_name(source)) + (
        word(ctx, "z_bias") if ffn.b1 is not None else "")
    second += ["=", ctx.grid(up, title=up_title, highlight_receiver=True),
               word(ctx, "times_gate"),
               ctx.grid(array_name(step, "ffn_hidden"), title=word(ctx, "gated_hidden_title"),
                        highlight_receiver=True)]
    return top.united(place_row(parent, second, 0, top.bottom() + ROW_GAP, ctx.theme))


def lay_out_ffn(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """source · W1 + b1 = z → activation → hidden (ReLU's zeros marked); hidden · W2 + b2.
    A gated feed-forward shows its gate and its up-projection instead of z."""
    ffn = module_of(ctx.trace, step).ffn
    if ffn.Wg is not None:
        top = _gated_rows(ctx, step, parent)
        bottom = _output_row(ctx, step, parent, top.bottom() + ROW_GAP,
                             word(ctx, "gated_hidden_title"), None)
        return top.united(bottom)
    source = step.reads[0]
    z = ffn_pre(ctx.trace, step)
    units = numbered(z.shape[1])
    activation = ffn.activation
    marked = (z <= 0) if activation == "relu" else None
    hidden = array_name(step, "ffn_hidden")

    def explain_z(row: int, col: int) -> str:
        return explain(ctx.trace, hidden, (row, col)).details[0]

    first = _product(ctx, step, ctx.grid(source, highlight_receiver=True), "W1", "b1")
    z_title = word(ctx, "z_title", source=short_name(source)) + (
        word(ctx, "z_bias") if ffn.b1 is not None else "")
    first += ["=", custom_grid(ctx, z_title, z, ctx.labels, units, explain=explain_z,
                               highlight_receiver=True),
              f"→ {activation} →",
              ctx.grid(hidden, title=word(ctx, "hidden_title", activation=activation),
                       highlight_receiver=True, marked=marked,
                       note=_activation_note(ctx, activation))]
    top = place_row(parent, first, 0, 0, ctx.theme)
    bottom = _output_row(ctx, step, parent, top.bottom() + ROW_GAP,
                         word(ctx, "hidden_title", activation=activation), marked)
    return top.united(bottom)


def _output_row(ctx: LayoutContext, step: Step, parent: QGraphicsItem, y: float,
                hidden_title: str, marked: npt.NDArray[np.bool_] | None) -> QRectF:
    """hidden · W2 + b2 = ffn_out, at height ``y``."""
    ffn = module_of(ctx.trace, step).ffn
    second = _product(ctx, step, ctx.grid(array_name(step, "ffn_hidden"), title=hidden_title,
                                          highlight_receiver=True, marked=marked), "W2", "b2")
    out_title = word(ctx, "ffn_out_title") + (word(ctx, "ffn_out_bias") if ffn.b2 is not None
                                              else "")
    second += ["=", ctx.grid(array_name(step, "ffn_out"), title=out_title,
                             highlight_receiver=True)]
    return place_row(parent, second, 0, y, ctx.theme)
