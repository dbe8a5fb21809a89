"""Sentence documents of 8 and 16 tokens (d = 4, one causal head), seeded values."""

from __future__ import annotations

import numpy as np

from engine import Scenario, parse_scenario

WORDS = ["The", "cat", "sat", "on", "the", "mat", "and", "slept",
         "while", "the", "dog", "ran", "to", "the", "old", "red"]


def sentence_scenario(n: int, d: int = 4, heads: int = 1, seed: int = 11) -> Scenario:
    """The first ``n`` words of one sentence, ``d`` features, ``heads`` heads of width d."""
    rng = np.random.default_rng(seed)

    def table(rows: int, cols: int) -> list[list[float]]:
        values: list[list[float]] = np.round(rng.normal(0.0, 0.6, (rows, cols)), 2).tolist()
        return values

    return parse_scenario({
        "format": "qkv-studio", "version": 1, "title": f"A sentence of {n} tokens",
        "tokens": list(WORDS[:n]), "X": table(n, d),
        "attention": {"heads": heads, "causal": True, "scale": True,
                      "Wq": table(d, heads * d), "Wk": table(d, heads * d),
                      "Wv": table(d, heads * d)},
    })
