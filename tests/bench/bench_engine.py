"""Timing of the engine on one decoder block: ``compute`` at growing n, ``explain`` of a few cells.

Run with ``.venv/bin/python tests/bench/bench_engine.py`` (not collected by pytest). The scenario:
d = 64, 8 heads of d_k = d_v = 8, Wo, FFN width 256 with ReLU, pre-norm LayerNorm, final norm,
vocabulary head of 100 entries, causal. Targets: well under 1 ms at n = 16, under 50 ms at
n = 512, one explanation under 1 ms (at n = 128).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Scenario, compute, explain, parse_scenario

D, HEADS, D_K, D_V, FFN, VOCAB = 64, 8, 8, 8, 256, 100
SIZES = (2, 16, 128, 512)


def scenario(n: int, seed: int = 0) -> Scenario:
    rng = np.random.default_rng(seed)

    def m(rows: int, cols: int) -> np.ndarray:
        return rng.normal(scale=1 / np.sqrt(rows), size=(rows, cols))

    doc: dict[str, Any] = {
        "format": "qkv-studio", "version": 1, "title": f"bench n={n}",
        "X": rng.normal(size=(n, D)),
        "attention": {"heads": HEADS, "causal": True, "scale": True,
                      "Wq": m(D, HEADS * D_K), "Wk": m(D, HEADS * D_K),
                      "Wv": m(D, HEADS * D_V), "Wo": m(HEADS * D_V, D),
                      "bq": rng.normal(size=HEADS * D_K), "bo": rng.normal(size=D)},
        "block": {"norm": "layernorm", "placement": "pre", "final_norm": True,
                  "ffn": {"W1": m(D, FFN), "b1": rng.normal(size=FFN), "activation": "relu",
                          "W2": m(FFN, D), "b2": rng.normal(size=D)},
                  "unembed": m(D, VOCAB)},
    }
    return parse_scenario(doc)


def timings(work: Callable[[], object], budget: float, least: int = 20,
            most: int = 5000) -> list[float]:
    """Run ``work`` repeatedly for about ``budget`` seconds; per-call times in seconds."""
    work()  # warm-up
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < most and (len(times) < least or time.perf_counter() - started < budget):
        t0 = time.perf_counter()
        work()
        times.append(time.perf_counter() - t0)
    return times


def summary(times: list[float]) -> tuple[float, float, int]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, len(ordered)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=1.5,
                        help="seconds of repeats per row (default 1.5)")
    args = parser.parse_args()

    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} cpu, OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '-')}")
    print(f"block: d={D}, heads={HEADS}, d_k=d_v={D_K}, FFN {FFN} relu, vocab {VOCAB}, causal")
    print()
    print(f"{'what':<34}{'median ms':>10}{'p95 ms':>10}{'runs':>7}  target")
    print("-" * 72)
    targets = {16: 1.0, 512: 50.0}
    for n in SIZES:
        s = scenario(n)
        median, p95, runs = summary(timings(lambda s=s: compute(s), args.budget))
        target = targets.get(n)
        verdict = "" if target is None else (f"< {target:g} ms " +
                                             ("ok" if median * 1e3 < target else "MISSED"))
        print(f"{f'compute n={n}':<34}{ms(median)}{ms(p95)}{runs:>7}  {verdict}")

    trace = compute(scenario(128))
    cells: list[tuple[str, tuple[int, ...]]] = [
        ("weights", (3, 127, 60)), ("weights", (3, 5, 90)), ("scores", (7, 100, 99)),
        ("Q", (64, 10)), ("mixed", (127, 33)), ("norm1", (64, 10)), ("norm2", (127, 63)),
        ("final_norm", (5, 5)), ("ffn_hidden", (64, 200)), ("ffn_out", (64, 10)),
        ("logits", (127, 99)), ("probs", (127, 42)),
    ]
    for name, index in cells:
        cell = f"{name}[{','.join(map(str, index))}]"
        median, p95, runs = summary(timings(lambda n=name, i=index: explain(trace, n, i),
                                            args.budget / 3))
        verdict = "< 1 ms " + ("ok" if median * 1e3 < 1.0 else "MISSED")
        print(f"{f'explain n=128 {cell}':<34}{ms(median)}{ms(p95)}{runs:>7}  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
