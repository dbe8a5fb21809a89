"""The numeric operations of one block, in float64: softmax, norms, activations."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from engine.format.reader import FloatArray

BoolArray = npt.NDArray[np.bool_]

_erf = np.frompyfunc(math.erf, 1, 1)

_CUBE_LIMIT = 1e100
"""Beyond ±1e100 the tanh of GELU's inner term is ±1 in float64 (it is already from about
±20), so the cube there is taken of ±1e100: z³ itself would overflow from about 5.6e102."""


def softmax(scores: FloatArray, visible: BoolArray | None = None) -> FloatArray:
    """Softmax over the last axis, stable for any finite scores.

    Hidden entries (``visible`` False) get a share of exactly 0 and take no part in the maximum.
    Every row must have at least one visible entry.
    """
    # One scratch array, worked in place: shift by the row's visible maximum, exp, normalise.
    # A hidden entry is −∞ after the shift, and exp(−∞) is exactly 0 (no warning, no overflow).
    # A shift below −1.8e308 (scores 1e308 and −1e308 in one row) overflows to −∞, and that is
    # the right limit: its exp is exactly 0, far below what float64 can show next to the 1.
    # Only visible entries go through exp (a causal mask hides half of them); hidden ones are
    # then set to the 0 that exp(−∞) would give, so the result is the same to the bit.
    with np.errstate(over="ignore"):
        if visible is None:
            shifted = scores - scores.max(axis=-1, keepdims=True)
            exps: FloatArray = np.exp(shifted, out=shifted)
        else:
            shifted = np.where(visible, scores, -np.inf)
            shifted -= shifted.max(axis=-1, keepdims=True)
            exps = np.exp(shifted, out=shifted, where=np.broadcast_to(visible, shifted.shape))
            np.copyto(exps, 0.0, where=~visible)
    exps /= exps.sum(axis=-1, keepdims=True)
    return exps


def key_visibility(n: int, n_keys: int, causal: bool, window: int | None = None,
                   key_mask: tuple[bool, ...] | None = None, first: int = 0) -> BoolArray:
    """``visible[i, j]``: query i may read key j — causal (j ≤ i), inside the sliding window
    (i − j < w) and not hidden by the key mask, each only when asked for; the queries are the
    positions ``first … first + n − 1`` (one new query of a KV-cache step: ``first`` = its
    position)."""
    offset = np.arange(first, first + n)[:, None] - np.arange(n_keys)[None, :]
    visible = np.ones((n, n_keys), dtype=bool)
    if causal:
        visible &= offset >= 0
    if window is not None:
        visible &= offset < window
    if key_mask is not None:
        visible &= np.array(key_mask, dtype=bool)[None, :]
    return visible


def row_mean(x: FloatArray) -> FloatArray:
    """The mean of each row (n × 1); exactly the common value of a row whose entries are equal.

    ``mean([0.1, 0.1, 0.1])`` is 0.10000000000000002 in floating point, which would give a
    constant row a tiny variance and, with ε = 0, a "normalised" row of −1s instead of the
    division by zero it is.
    """
    mean = x.mean(axis=-1, keepdims=True)
    constant = (x == x[..., :1]).all(axis=-1, keepdims=True)
    exact: FloatArray = np.where(constant, x[..., :1], mean)
    return exact


def layer_norm(x: FloatArray, gamma: FloatArray, beta: FloatArray, eps: float) -> FloatArray:
    """(x − mean) / √(var + ε) · γ + β per row, with the population variance."""
    mean = row_mean(x)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    out: FloatArray = (x - mean) / np.sqrt(var + eps) * gamma + beta
    return out


def rms_norm(x: FloatArray, gamma: FloatArray, eps: float) -> FloatArray:
    """x / √(mean(x²) + ε) · γ per row."""
    out: FloatArray = x / np.sqrt((x**2).mean(axis=-1, keepdims=True) + eps) * gamma
    return out


def norm(kind: str, x: FloatArray, gamma: FloatArray, beta: FloatArray, eps: float) -> FloatArray:
    """The block's norm by name: ``layernorm``, ``rmsnorm`` or ``none`` (a copy of x)."""
    if kind == "layernorm":
        return layer_norm(x, gamma, beta, eps)
    if kind == "rmsnorm":
        return rms_norm(x, gamma, eps)
    return x.copy()


def row_statistics(kind: str, x: FloatArray, eps: float) -> FloatArray:
    """The per-row numbers a norm divides by, one column each (n × k).

    LayerNorm: mean μ, population variance σ² and the divisor √(σ² + ε). RMSNorm: mean(x²) and
    the divisor √(mean(x²) + ε). No norm: no columns (n × 0).
    """
    if kind == "layernorm":
        mean = row_mean(x)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return np.concatenate([mean, var, np.sqrt(var + eps)], axis=-1)
    if kind == "rmsnorm":
        mean_square = (x**2).mean(axis=-1, keepdims=True)
        return np.concatenate([mean_square, np.sqrt(mean_square + eps)], axis=-1)
    return np.zeros((x.shape[0], 0), dtype=np.float64)


def activate(kind: str, z: FloatArray) -> FloatArray:
    """ReLU, GELU (exact, with erf), GELU (tanh form), SiLU or identity, elementwise."""
    if kind == "relu":
        return np.maximum(z, 0.0)
    if kind == "gelu":
        erf = np.asarray(_erf(z / math.sqrt(2.0)), dtype=np.float64)
        out: FloatArray = 0.5 * z * (1.0 + erf)
        return out
    if kind == "gelu_tanh":
        cube = np.clip(z, -_CUBE_LIMIT, _CUBE_LIMIT) ** 3
        inner = math.sqrt(2.0 / math.pi) * (z + 0.044715 * cube)
        tanh: FloatArray = 0.5 * z * (1.0 + np.tanh(inner))
        return tanh
    if kind == "silu":
        silu: FloatArray = z * sigmoid(z)
        return silu
    return z.copy()


def sigmoid(z: FloatArray) -> FloatArray:
    """σ(z) = 1 / (1 + exp(−z)), elementwise, written so that neither branch overflows."""
    small: FloatArray = np.exp(-np.abs(z))
    out: FloatArray = np.where(z >= 0, 1.0 / (1.0 + small), small / (1.0 + small))
    return out
