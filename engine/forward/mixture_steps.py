"""A mixture of experts on the tape: the router's step, then the chosen experts' step.

``{scope}router`` writes each row's router logits x · W_r (n × E), their softmax over the
experts (``router_shares``), the k chosen experts (``router_chosen``, n × k, largest share first)
and their weights (``router_weights``, n × k: the chosen shares, divided by their sum when the
mixture normalises). ``{scope}experts`` writes each chosen expert's feed-forward of its row
(``expert_out``, k × n × d: rank by row) and ``ffn_out`` = Σₖ weightₖ · expertₖ(x), the array
the block's second residual adds as it adds a plain feed-forward's. A shared expert runs in the
same step on every row: its gate's weight σ(x · w_g) (``shared_weight``, n × 1), its
feed-forward (``shared_out``, n × d), and ``ffn_out`` adds their product.
"""

from __future__ import annotations

import numpy as np

from engine.format.reader import FloatArray
from engine.forward.numerics import sigmoid, softmax
from engine.forward.tape import Place, Tape, ffn_output, hidden_units
from engine.forward.top_k import top_k
from engine.scenario.modules import Mixture
from engine.scenario.tree import array_fields
from engine.words import english


def route(m: Mixture, x: FloatArray) -> dict[str, FloatArray]:
    """The router's arrays for rows ``x``: logits, shares, chosen experts and their weights."""
    logits: FloatArray = x @ m.router
    shares = softmax(logits)
    chosen = top_k(shares, m.top_k)
    picked: FloatArray = np.take_along_axis(shares, chosen.astype(np.intp), axis=-1)
    weights = picked / picked.sum(axis=-1, keepdims=True) if m.normalize else picked.copy()
    return {"router_logits": logits, "router_shares": shares, "router_chosen": chosen,
            "router_weights": weights}


def mixture(tape: Tape, place: Place, m: Mixture, source: str) -> None:
    """The router's step and the experts' step of mixture ``m`` reading rows ``source``; each
    replayed by itself (a cell edit of an expert recomputes from the experts' step)."""
    s = place.scope
    x = tape[source]
    if not tape.replayed():
        routed = route(m, x)
        for name, array in routed.items():
            tape.arrays[s + name] = array
        tape.step(place, "router", english("title.block.router", top_k=m.top_k,
                                            experts=len(m.experts)),
                  (source, place.param("ffn.router")), tuple(s + name for name in routed),
                  "block.router", "router")
    if tape.replayed():
        return
    chosen = tape[f"{s}router_chosen"].astype(np.intp)
    outputs = np.zeros((m.top_k, *x.shape), dtype=np.float64)
    for e, expert in enumerate(m.experts):
        rows, ranks = np.nonzero(chosen == e)
        if rows.size:
            outputs[ranks, rows] = ffn_output(expert, hidden_units(expert, x[rows])[2])
    tape.arrays[f"{s}expert_out"] = outputs
    summed = np.einsum("kn,knd->nd", tape[f"{s}router_weights"].T, outputs)
    params = tuple(place.param(f"ffn.experts.{e}.{name}") for e, expert in enumerate(m.experts)
                   for name in array_fields(expert))
    writes: tuple[str, ...] = (f"{s}expert_out",)
    title = english("title.block.experts")
    if m.shared is not None and m.shared_gate is not None:
        gate: FloatArray = sigmoid(x @ m.shared_gate)
        shared = ffn_output(m.shared, hidden_units(m.shared, x)[2])
        tape.arrays[f"{s}shared_weight"], tape.arrays[f"{s}shared_out"] = gate, shared
        summed = summed + gate * shared
        params += (place.param("ffn.shared_gate"),
                   *(place.param(f"ffn.shared.{name}") for name in array_fields(m.shared)))
        writes += (f"{s}shared_weight", f"{s}shared_out")
        title = english("title.block.experts_shared")
    tape.arrays[f"{s}ffn_out"] = summed
    tape.step(place, "experts", title,
              (source, f"{s}router_chosen", f"{s}router_weights", *params),
              (*writes, f"{s}ffn_out"), "block.experts", "experts")


__all__ = ["mixture", "route"]
