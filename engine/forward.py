"""The forward pass: attention alone, or one decoder block around it, as named arrays."""

from __future__ import annotations

import numpy as np

from engine.ops import activate, causal_visibility, norm, softmax
from engine.reader import FloatArray
from engine.scenario import Attention, Block, Scenario


def visibility(attention: Attention, n: int) -> np.ndarray:
    """Which keys each query may read: lower triangle when causal, everything otherwise."""
    return causal_visibility(n) if attention.causal else np.ones((n, n), dtype=bool)


def attend(attention: Attention, x: FloatArray) -> dict[str, FloatArray]:
    """Multi-head attention on the rows ``x``: Q, K, V, scores, weights, mixed and attn_out."""
    a = attention
    n, h = int(x.shape[0]), a.heads
    Q = x @ a.Wq + (a.bq if a.bq is not None else 0.0)
    K = x @ a.Wk + (a.bk if a.bk is not None else 0.0)
    V = x @ a.Wv + (a.bv if a.bv is not None else 0.0)
    q = Q.reshape(n, h, a.d_k).transpose(1, 0, 2)
    k = K.reshape(n, h, a.d_k).transpose(1, 0, 2)
    v = V.reshape(n, h, a.d_v).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1)
    if a.scale:
        scores /= np.sqrt(a.d_k)
    weights = softmax(scores, np.broadcast_to(visibility(a, n), scores.shape))
    mixed = (weights @ v).transpose(1, 0, 2).reshape(n, h * a.d_v)
    attn_out = mixed @ a.Wo + (a.bo if a.bo is not None else 0.0) if a.Wo is not None else mixed
    return {"Q": Q, "K": K, "V": V, "scores": scores, "weights": weights, "mixed": mixed,
            "attn_out": attn_out}


def _norm(block: Block, x: FloatArray, which: str) -> FloatArray:
    gamma, beta = {"1": (block.gamma1, block.beta1), "2": (block.gamma2, block.beta2),
                   "f": (block.gamma_f, block.beta_f)}[which]
    return norm(block.norm, x, gamma, beta, block.eps)


def pre_activation(block: Block, x: FloatArray) -> FloatArray:
    """z = x @ W1 + b1: the feed-forward's hidden units before the activation."""
    f = block.ffn
    z: FloatArray = x @ f.W1 + (f.b1 if f.b1 is not None else 0.0)
    return z


def _feed_forward(block: Block, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    f = block.ffn
    hidden = activate(f.activation, pre_activation(block, x))
    out = hidden @ f.W2 + (f.b2 if f.b2 is not None else 0.0)
    return hidden, out


def run(scenario: Scenario) -> dict[str, FloatArray]:
    """Every array the scenario produces, by the names of the format's table."""
    X = scenario.X
    arrays: dict[str, FloatArray] = {"X": X}
    block = scenario.block
    if block is None:
        arrays.update(attend(scenario.attention, X))
        return arrays
    if block.placement == "pre":
        arrays["norm1"] = _norm(block, X, "1")
        arrays.update(attend(scenario.attention, arrays["norm1"]))
        arrays["resid1"] = X + arrays["attn_out"]
        arrays["norm2"] = _norm(block, arrays["resid1"], "2")
        arrays["ffn_hidden"], arrays["ffn_out"] = _feed_forward(block, arrays["norm2"])
        arrays["resid2"] = arrays["resid1"] + arrays["ffn_out"]
        output = arrays["resid2"]
    else:
        arrays.update(attend(scenario.attention, X))
        arrays["resid1"] = X + arrays["attn_out"]
        arrays["norm1"] = _norm(block, arrays["resid1"], "1")
        arrays["ffn_hidden"], arrays["ffn_out"] = _feed_forward(block, arrays["norm1"])
        arrays["resid2"] = arrays["norm1"] + arrays["ffn_out"]
        arrays["norm2"] = _norm(block, arrays["resid2"], "2")
        output = arrays["norm2"]
    if block.final_norm:
        arrays["final_norm"] = output = _norm(block, output, "f")
    if block.unembed is not None:
        arrays["logits"] = output @ block.unembed
        arrays["probs"] = softmax(arrays["logits"])
    return arrays
