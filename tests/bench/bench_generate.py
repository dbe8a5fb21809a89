"""Timing of one generated token (issue 24): the KV cache's one new row against a full recompute
of the extended document, at the GPT-2 small layer size (d = 768, 12 heads of 64, FFN 3072 with
exact GELU, every bias, pre-norm; a vocabulary of 256 entries, which with the layer is near the
limit of numbers a document holds), n = 8 → 9.

Run with ``.venv/bin/python tests/bench/bench_generate.py [--runs 40]`` (not collected by
pytest). Targets: the cached token ≤ 30 ms median and ≤ ¼ of the full recompute's median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Scenario, compute, parse_scenario
from engine.forward.numerics import activate
from engine.generation.append import extend
from engine.generation.kv_cache import cache_of, next_position
from tests.bench.timing import report, timed

N, D, FFN, HEADS, VOCAB = 8, 768, 3072, 12, 256
TOKEN = 5


def gpt2_layer() -> dict[str, Any]:
    """One GPT-2 small decoder layer with an embedding and a vocabulary head (seeded random
    weights, as numpy arrays: the reader takes them as they are)."""
    rng = np.random.default_rng(24)

    def table(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.02, shape)

    return {"title": "GPT-2 small, one layer, generating", "tokens": [f"t{k}" for k in range(N)],
            "token_ids": list(range(N)), "embedding": table(VOCAB, D),
            "attention": {"heads": HEADS, "causal": True, "scale": True,
                          **{name: table(D, D) for name in ("Wq", "Wk", "Wv", "Wo")},
                          **{name: table(D) for name in ("bq", "bk", "bv", "bo")}},
            "block": {"norm": "layernorm", "placement": "pre",
                      "ffn": {"W1": table(D, FFN), "b1": table(FFN), "activation": "gelu",
                              "W2": table(FFN, D), "b2": table(D)}},
            "head": {"final_norm": True, "unembed": table(D, VOCAB),
                     "vocab": [f"w{k}" for k in range(VOCAB)]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    document = parse_scenario(gpt2_layer())
    cache = cache_of(compute(document))
    longer = extend(document, TOKEN)
    row = next_position(cache, TOKEN)
    gap = float(np.abs(row.probs - compute(longer).arrays["probs"][-1]).max())
    print(f"cached row against the full recompute: largest difference {gap:.1e}")
    cached = timed(lambda: next_position(cache, TOKEN), runs)
    full = timed(lambda: compute(longer), runs)
    report("one token with the KV cache (n = 8 → 9)", cached, 30.0)
    report("full recompute of the 9 tokens", full)
    report("extend: the 9-token document, validated", timed(lambda: extend(document, TOKEN),
                                                           runs))
    ratio = statistics.median(cached) / statistics.median(full)
    verdict = "ok" if ratio <= 0.25 else "MISSED"
    print(f"cached / full (medians): {ratio:.2f}  {verdict} (≤ 0.25)")
    parts(document, runs)


def parts(document: Scenario, runs: int) -> None:
    """Where the time goes: the layer's and the head's seven weight products alone (the 58 MB
    of float64 weights read once), for one row as the cache computes and for the nine rows of a
    full recompute, and the exact GELU (one ``math.erf`` a unit) on one row and on nine."""
    layer = document.layers[0]
    a, block, head = layer.attention, layer.block, document.head
    assert block is not None and head is not None and head.unembed is not None
    f = block.ffn
    weights = (a.Wq, a.Wk, a.Wv, a.Wo, f.W1, f.W2, head.unembed)
    print(f"weights read per token: {sum(w.nbytes for w in weights) / 1e6:.1f} MB")
    rng = np.random.default_rng(0)

    def products(x: np.ndarray, hidden: np.ndarray) -> list[np.ndarray]:
        return [x @ w for w in weights if w is not f.W2] + [hidden @ f.W2]

    for n in (1, N + 1):
        x, hidden = rng.normal(size=(n, D)), rng.normal(size=(n, FFN))
        report(f"  the 7 weight products alone, {n} row(s)",
               timed(lambda x=x, hidden=hidden: products(x, hidden), runs))
        report(f"  exact GELU, {n} row(s) × {FFN}", timed(lambda h=hidden: activate("gelu", h),
                                                          runs))


if __name__ == "__main__":
    main()
