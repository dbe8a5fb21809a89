"""The picture of QK-norm: each head's columns of Q and of K normalised (or all heads' columns
together), then scaled by γ."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext
from app.canvas.layout import RowPart, place_rows
from app.model.operands import module_of, qk_norm_of
from app.texts.words import say
from engine import Step
from engine.scenario.names import NORM_NAMES


def lay_out_qk_norm(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """``Q → RMSNorm per head · γq = Q_normed``, and the same row for K (the step reads Q, K,
    γq, γk, and a LayerNorm's shifts βq, βk when given, ``+ βq`` before the ``=``; it writes
    Q_normed, K_normed); "over all heads" in place of "per head" when the norm spans the
    whole projection (OLMo 2)."""
    kind = qk_norm_of(ctx.trace, step)
    assert kind is not None
    whole = module_of(ctx.trace, step).qk_norm_over == "all_heads"
    operator = say("frame.qk_norm_all_op" if whole else "frame.qk_norm_op", ctx.options.lang,
                   norm=NORM_NAMES[kind])
    q, k, gamma_q, gamma_k = step.reads[:4]
    shifts = {name.rsplit(".", 1)[-1]: name for name in step.reads[4:]}
    rows: list[list[RowPart]] = []
    for source, gamma, which, out in ((q, gamma_q, "q", step.writes[0]),
                                      (k, gamma_k, "k", step.writes[1])):
        row: list[RowPart] = [ctx.grid(source, highlight_receiver=True), operator,
                              ctx.grid(gamma)]
        if f"beta_{which}" in shifts:
            row += ["+", ctx.grid(shifts[f"beta_{which}"])]
        rows.append([*row, "=", ctx.grid(out, highlight_receiver=True)])
    return place_rows(parent, rows, 0, 0, ctx.theme)
