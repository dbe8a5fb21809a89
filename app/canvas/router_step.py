"""The pictures of a mixture of experts: the router (logits, shares with the chosen marked ▲,
the chosen experts and their weights) and the experts (each choice's output, a shared
expert's gate and output, then their weighted sum)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext
from app.canvas.layout import RowPart, part_rows, place_rows
from app.model.operands import array_name, module_of
from app.texts.words import say
from engine import Step
from engine.scenario.modules import Mixture


def _mixture(ctx: LayoutContext, step: Step) -> Mixture:
    ffn = module_of(ctx.trace, step).ffn
    assert isinstance(ffn, Mixture)
    return ffn


def lay_out_router(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """``source · W_r = logits → softmax → shares (▲ chosen)``, then ``→ top k → chosen
    experts, weights``: every number printed, the chosen shares marked by a corner, not by
    colour alone."""
    lang, m = ctx.options.lang, _mixture(ctx, step)
    source, router = step.reads
    shares = ctx.array(array_name(step, "router_shares"))
    chosen = ctx.array(array_name(step, "router_chosen")).astype(int)
    marked = np.zeros(shares.shape, dtype=bool)
    np.put_along_axis(marked, chosen, True, axis=-1)
    weights = "router_weights" if m.normalize else "router_weights_raw"
    first: list[RowPart] = [
        ctx.grid(source, highlight_receiver=True), "·", ctx.grid(router), "=",
        ctx.grid(array_name(step, "router_logits"), title=say("frame.router_logits", lang),
                 highlight_receiver=True),
        say("frame.router_softmax", lang),
        ctx.grid(array_name(step, "router_shares"), title=say("frame.router_shares", lang),
                 highlight_receiver=True, marked=marked)]
    second: list[RowPart] = [
        say("frame.router_top", lang, k=m.top_k),
        ctx.grid(array_name(step, "router_chosen"), title=say("frame.router_chosen", lang),
                 highlight_receiver=True, decimals=0),
        ctx.grid(array_name(step, "router_weights"), title=say(f"frame.{weights}", lang),
                 highlight_receiver=True)]
    return place_rows(parent, part_rows([first, second]), 0, 0, ctx.theme)


def lay_out_experts(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """``source → chosen experts' FFNs →`` each choice's output (k grids); with a shared
    expert ``x · w_g → σ →`` its gate and ``x → shared expert's FFN →`` its output; then
    ``Σ weight · output (+ gate · shared) = ffn_out`` beside the router's weights."""
    lang, m = ctx.options.lang, _mixture(ctx, step)
    outputs = array_name(step, "expert_out")
    first: list[RowPart] = [ctx.grid(step.reads[0], highlight_receiver=True),
                            say("frame.experts_run", lang)]
    first += [ctx.grid(outputs, head=r, title=say("frame.expert_choice", lang, rank=r + 1),
                       highlight_receiver=True) for r in range(m.top_k)]
    rows = [first]
    total = "frame.experts_sum"
    if m.shared is not None:
        gate = next(name for name in step.reads if name.endswith(".shared_gate"))
        rows.append([
            say("frame.shared_input", lang), ctx.grid(gate), say("frame.shared_sigmoid", lang),
            ctx.grid(array_name(step, "shared_weight"), title=say("frame.shared_weight", lang),
                     highlight_receiver=True),
            say("frame.shared_run", lang),
            ctx.grid(array_name(step, "shared_out"), title=say("frame.shared_out", lang),
                     highlight_receiver=True)])
        total = "frame.experts_shared_sum"
    rows.append([ctx.grid(array_name(step, "router_weights"), highlight_receiver=True),
                 say(total, lang), ctx.grid(array_name(step, "ffn_out"), highlight_receiver=True)])
    return place_rows(parent, part_rows(rows), 0, 0, ctx.theme)


__all__ = ["lay_out_experts", "lay_out_router"]
