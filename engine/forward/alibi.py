"""ALiBi's numbers: the default slope of each head, and the bias it adds to the scores."""

from __future__ import annotations

import numpy as np

from engine.format.reader import FloatArray


def _geometric(heads: int) -> FloatArray:
    """2^(−8k/h), k = 1 … h."""
    slopes: FloatArray = np.power(2.0, -8.0 * np.arange(1, heads + 1) / heads)
    return slopes


def alibi_slopes(heads: int) -> FloatArray:
    """ALiBi's default slopes, the paper's rule (as MPT and BLOOM): for h a power of two
    2^(−8k/h), k = 1 … h (h = 8: 1/2, 1/4, … 1/256); otherwise the slopes of the nearest
    lower power of two m, then every other slope of 2m, for the h − m heads left (h = 3:
    1/16, 1/256, then 1/4)."""
    lower = 1 << (heads.bit_length() - 1)
    if lower == heads:
        return _geometric(heads)
    extra: FloatArray = _geometric(2 * lower)[0::2][:heads - lower]
    slopes: FloatArray = np.concatenate([_geometric(lower), extra])
    return slopes


def alibi_bias(slopes: FloatArray, n: int, causal: bool) -> FloatArray:
    """The h × n × n bias added to the scores: −slope·(i − j), or −slope·|i − j| non-causal.

    Under the causal mask the cells j > i are hidden anyway; their bias is −slope·(i − j) too.
    """
    offsets = np.arange(n)[:, None] - np.arange(n)[None, :]
    distance = offsets if causal else np.abs(offsets)
    bias: FloatArray = slopes[:, None, None] * -distance[None, :, :]  # 0, not −0, at i = j
    return bias


__all__ = ["alibi_bias", "alibi_slopes"]
