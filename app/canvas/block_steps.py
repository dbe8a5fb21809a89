"""Pictures of the decoder block's own steps: the norms, the two residuals and the feed-forward.

Every layout reads its arrays from the step (``step.reads`` / ``step.writes``), so one layout
serves the pre-norm and the post-norm order alike.
:data:`app.canvas.steps.STEP_LAYOUTS` registers them by op kind.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext, drawn, numbered
from app.canvas.grid import MatrixGrid
from app.canvas.layout import (
    ROW_GAP,
    RowPart,
    part_rows,
    part_shown,
    place_row,
    place_rows,
    wrap_width,
)
from app.canvas.pieces import custom_grid, number, small_constant, text_lines, word
from app.canvas.qk_norm_step import lay_out_qk_norm
from app.canvas.remember import product
from app.model.operands import (
    array_name,
    ffn_pre,
    module_of,
    norm_statistics,
    parameter_path,
    qk_norm_of,
)
from engine import Step, explain
from engine.scenario.names import short_name

TEXT_GAP = 12.0
ROUNDING_NOISE = 1e-12
"""A row's mean this small against its largest magnitude is the sum's rounding, not a value:
[0.1, 0.2, −0.3] averages to 1.85×10⁻¹⁷ in floating point."""
NEUTRAL = (0.0, 0.0)
"""A value range that colours every cell alike: for numbers whose colour would mean nothing."""


def _statistics_grid(ctx: LayoutContext, step: Step, kind: str, eps_value: float) -> MatrixGrid:
    """μ, σ² and √(σ²+ε) — or mean(x²) and √(mean(x²)+ε) — beside each row; a mean that is
    rounding noise (:data:`ROUNDING_NOISE` of the row's largest magnitude) is printed 0, its
    hover giving the exact value."""
    x = ctx.array(step.reads[0])
    stats = norm_statistics(ctx.trace, step)
    shown = stats
    if kind == "layernorm":
        noise = np.abs(stats[:, 0]) <= ROUNDING_NOISE * np.abs(x).max(axis=1)
        if noise.any():
            shown = stats.copy()
            shown[noise, 0] = 0.0
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

    return custom_grid(ctx, word(ctx, "row_statistics"), shown, ctx.labels, cols,
                       explain=explain, highlight_receiver=True, value_range=NEUTRAL)


def lay_out_norm(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Source rows → per-row statistics → normed rows; then the formula, γ and β. An
    attention's QK-norm has its own picture."""
    if qk_norm_of(ctx.trace, step) is not None:
        return lay_out_qk_norm(ctx, step, parent)
    block = module_of(ctx.trace, step)
    source, gamma = step.reads[0], step.reads[1]
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
        parameters: list[RowPart] = [ctx.grid(gamma), ",", ctx.grid(step.reads[2])]
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
    """The residual as an addition: stream + sub-layer output = new stream; a parallel block's
    stream + attention output + feed-forward output = its output. Split over slides
    (:func:`~app.canvas.layout.part_rows`), the sum is cut before its operators (``X + attn``,
    then ``+ ffn = resid2``)."""
    terms: list[RowPart] = []
    for name in step.reads:
        terms += ["+", ctx.grid(name, highlight_receiver=True)]
    row = [*terms[1:], "=", ctx.grid(step.writes[0], highlight_receiver=True)]
    rect = place_rows(parent, part_rows([row]), 0, 0, ctx.theme)
    lines = [word(ctx, "residual_note")]
    if len(step.reads) > 2:
        lines.insert(0, word(ctx, "parallel_note", source=short_name(step.reads[0])))
    note = text_lines(parent, lines, 0, rect.bottom() + TEXT_GAP, ctx)
    return rect.united(note)


def _activation_note(ctx: LayoutContext, activation: str) -> str:
    return word(ctx, {"relu": "relu_marked", "gelu": "gelu_note", "silu": "silu_note",
                      "identity": "identity_note", "gelu_tanh": "gelu_tanh_note"}[activation])


def _weights(ctx: LayoutContext, step: Step, weight: str, bias: str) -> list[RowPart]:
    """``· W + b``: the feed-forward's ``ffn.{weight}`` and, if it has one, ``ffn.{bias}``."""
    parts: list[RowPart] = ["·", ctx.grid(parameter_path(step, f"ffn.{weight}"))]
    if getattr(module_of(ctx.trace, step).ffn, bias) is not None:
        parts += ["+", ctx.grid(parameter_path(step, f"ffn.{bias}"))]
    return parts


def _gate_row(ctx: LayoutContext, step: Step) -> list[RowPart]:
    """A gated feed-forward's gate: source · Wg + bg = z → activation → gate."""
    ffn = module_of(ctx.trace, step).ffn
    source, gate = step.reads[0], array_name(step, "ffn_gate")
    z = product(ctx.trace.arrays[source], drawn(ffn.Wg), ffn.bg)  # the grid beside it widens it too

    def explain_z(row: int, col: int) -> str:
        return explain(ctx.trace, gate, (row, col), ctx.options.lang, ctx.places).details[0]

    return [ctx.grid(source, highlight_receiver=True), *_weights(ctx, step, "Wg", "bg"), "=",
            custom_grid(ctx, word(ctx, "gate_z_title", source=short_name(source)), z,
                        ctx.labels, numbered(z.shape[1]), explain=explain_z,
                        highlight_receiver=True),
            f"→ {ffn.activation} →",
            ctx.grid(gate, title=word(ctx, "gate_title", activation=ffn.activation),
                     highlight_receiver=True, note=_activation_note(ctx, ffn.activation))]


def _hidden_row(ctx: LayoutContext, step: Step
                ) -> tuple[list[RowPart], str, npt.NDArray[np.bool_] | None]:
    """The row that ends in the hidden units, their title and the cells ReLU zeroed:
    source · W1 + b1 = z → activation → hidden, or, gated, source · W1 + b1 = up ⊙ gate =
    hidden."""
    ffn = module_of(ctx.trace, step).ffn
    source, hidden = step.reads[0], array_name(step, "ffn_hidden")
    first = [ctx.grid(source, highlight_receiver=True), *_weights(ctx, step, "W1", "b1"), "="]
    bias = word(ctx, "z_bias") if ffn.b1 is not None else ""
    if ffn.Wg is not None:
        title = word(ctx, "gated_hidden_title")
        up_title = word(ctx, "up_title", source=short_name(source)) + bias
        return [*first, ctx.grid(array_name(step, "ffn_up"), title=up_title,
                                 highlight_receiver=True), word(ctx, "times_gate"),
                ctx.grid(hidden, title=title, highlight_receiver=True)], title, None
    z = ffn_pre(ctx.trace, step)
    activation = ffn.activation
    marked = (z <= 0) if activation == "relu" else None

    def explain_z(row: int, col: int) -> str:
        return explain(ctx.trace, hidden, (row, col), ctx.options.lang, ctx.places).details[0]

    z_title = word(ctx, "z_title", source=short_name(source)) + bias
    title = word(ctx, "hidden_title", activation=activation)
    return [*first, custom_grid(ctx, z_title, z, ctx.labels, numbered(z.shape[1]),
                                explain=explain_z, highlight_receiver=True),
            f"→ {activation} →",
            ctx.grid(hidden, title=title, highlight_receiver=True, marked=marked,
                     note=_activation_note(ctx, activation))], title, marked


def lay_out_transform(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """A masked-language-model transform: source · W + b = z → activation → hidden; then
    hidden → LayerNorm (ε) · γ + β → transform, the rows the vocabulary reads. Split over two
    slides, the dense and activation come first."""
    t = module_of(ctx.trace, step)
    source, W, b, gamma, beta = step.reads
    hidden = "transform_hidden"
    first: list[RowPart] = [
        ctx.grid(source, highlight_receiver=True), "·", ctx.grid(W), "+", ctx.grid(b), "=",
        ctx.grid("transform_pre", highlight_receiver=True,
                 title=word(ctx, "transform_pre_title", source=short_name(source))),
        f"→ {t.activation} →",
        ctx.grid(hidden, highlight_receiver=True, note=_activation_note(ctx, t.activation))]
    second: list[RowPart] = [
        ctx.grid(hidden, highlight_receiver=True),
        word(ctx, "transform_norm", eps=small_constant(t.eps)),
        ctx.grid("transform", highlight_receiver=True, title=word(ctx, "transform_title")),
        ctx.grid(gamma, title="γ"), ctx.grid(beta, title="β")]
    return place_rows(parent, part_rows([first, second]), 0, 0, ctx.theme)


def lay_out_ffn(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """source · W1 + b1 = z → activation → hidden (ReLU's zeros marked); hidden · W2 + b2.
    Naturally two rows, the second starting from hidden again; while :func:`wrapping`, one
    chain that draws hidden once (``… → hidden · W2 + b2 = out``), so its lines fill the
    wrap width. A gated feed-forward (SwiGLU) has its gate's row first, then
    ``source · W1 = up ⊙ gate = hidden`` in place of z. Split over two slides
    (:func:`~app.canvas.layout.part_rows`), the rows up to hidden come first, then
    ``hidden · W2 + b2 = out``."""
    ffn = module_of(ctx.trace, step).ffn
    first, hidden_title, marked = _hidden_row(ctx, step)
    out_title = word(ctx, "ffn_out_title") + (word(ctx, "ffn_out_bias") if ffn.b2 is not None
                                              else "")
    second = [*_weights(ctx, step, "W2", "b2"), "=",
              ctx.grid(array_name(step, "ffn_out"), title=out_title, highlight_receiver=True)]
    gate = [_gate_row(ctx, step)] if ffn.Wg is not None else []

    def again() -> MatrixGrid:
        return ctx.grid(array_name(step, "ffn_hidden"), title=hidden_title,
                        highlight_receiver=True, marked=marked)

    if part_shown() is not None:
        return place_rows(parent, part_rows([*gate, first, [again(), *second]]), 0, 0,
                          ctx.theme)
    top = place_row(parent, gate[0], 0, 0, ctx.theme) if gate else QRectF()
    y = top.bottom() + ROW_GAP if gate else 0.0
    if wrap_width() is not None:
        return top.united(place_row(parent, [*first, *second], 0, y, ctx.theme))
    middle = place_row(parent, first, 0, y, ctx.theme)
    bottom = place_row(parent, [again(), *second], 0, middle.bottom() + ROW_GAP, ctx.theme)
    return top.united(middle).united(bottom)
