"""The three-layers example's forward pass written out in numpy, with heads switched off: the
independent computation the ablation exercise's answers are checked against."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def _norm(x: np.ndarray, gamma: list[float], beta: list[float], eps: float) -> np.ndarray:
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * np.array(gamma) + np.array(beta)


def _attention(x: np.ndarray, att: dict[str, Any], off: set[int]) -> np.ndarray:
    heads = att["heads"]
    q, k, v = (x @ np.array(att[w]) for w in ("Wq", "Wk", "Wv"))
    width = q.shape[1] // heads
    n = len(x)
    mixed = np.zeros_like(q)
    for h in range(heads):
        part = slice(h * width, (h + 1) * width)
        for i in range(n):
            s = q[i, part] @ k[:i + 1, part].T / math.sqrt(width)
            w = np.exp(s - s.max())
            mixed[i, part] = (w / w.sum()) @ v[:i + 1, part]
        if h in off:
            mixed[:, part] = 0.0
    return mixed @ np.array(att["Wo"])


def reference_probs(doc: dict[str, Any], off: dict[int, set[int]]) -> np.ndarray:
    """The pre-norm stack by hand: x + attention(LN1 x), then + W2 gelu(LN2 x · W1), a final
    LayerNorm and the unembedding; ``off``: layer → heads whose slice of ``mixed`` is 0."""
    x = np.array(doc["X"], dtype=float)
    for t, layer in enumerate(doc["layers"]):
        b = layer["block"]
        x = x + _attention(_norm(x, b["gamma1"], b["beta1"], b["eps"]), layer["attention"],
                           off.get(t, set()))
        hidden = _norm(x, b["gamma2"], b["beta2"], b["eps"]) @ np.array(b["ffn"]["W1"])
        gelu = np.vectorize(lambda u: 0.5 * u * (1 + math.erf(u / math.sqrt(2))))(hidden)
        x = x + gelu @ np.array(b["ffn"]["W2"])
    head = doc["head"]
    logits = _norm(x, head["gamma_f"], head["beta_f"], 1e-5) @ np.array(head["unembed"])
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
