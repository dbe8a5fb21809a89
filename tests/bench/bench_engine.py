"""Timing of the engine: ``compute`` of one decoder layer at growing n and of a 4-layer stack,
``explain`` of a few cells.

Run with ``.venv/bin/python tests/bench/bench_engine.py`` (not collected by pytest). Each layer:
d = 64, 8 heads of d_k = d_v = 8, Wo, FFN width 256 with ReLU, pre-norm LayerNorm, causal; a final
norm and a vocabulary head of 100 entries. The scenarios are built from the model's dataclasses,
not read from a document: 8 heads at n = 512 are past the document limits (docs/limits.md), and
what is timed here is the engine's arithmetic alone. Targets: one layer at n = 512 ≤ 50 ms
median, the 4-layer stack at n = 128 ≤ 40 ms median, one explanation under 1 ms (n = 128).
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Scenario, compute, explain
from engine.scenario.modules import Attention, Block, FeedForward, Head, Layer

D, HEADS, D_K, D_V, FFN, VOCAB = 64, 8, 8, 8, 256, 100
SIZES = (2, 16, 128, 512)


def scenario(n: int, layers: int = 1, seed: int = 0) -> Scenario:
    rng = np.random.default_rng(seed)

    def m(rows: int, cols: int) -> np.ndarray:
        return rng.normal(scale=1 / np.sqrt(rows), size=(rows, cols))

    def layer() -> Layer:
        attention = Attention(heads=HEADS, causal=True, scale=True, Wq=m(D, HEADS * D_K),
                              Wk=m(D, HEADS * D_K), Wv=m(D, HEADS * D_V), Wo=m(HEADS * D_V, D),
                              bq=rng.normal(size=HEADS * D_K), bo=rng.normal(size=D))
        ffn = FeedForward(W1=m(D, FFN), b1=rng.normal(size=FFN), W2=m(FFN, D),
                          b2=rng.normal(size=D), activation="relu")
        block = Block(norm="layernorm", eps=1e-5, placement="pre", gamma1=np.ones(D),
                      beta1=np.zeros(D), gamma2=np.ones(D), beta2=np.zeros(D), ffn=ffn)
        return Layer(attention=attention, block=block)

    head = Head(norm="layernorm", eps=1e-5, final_norm=True, gamma_f=np.ones(D),
                beta_f=np.zeros(D), unembed=m(D, VOCAB),
                vocab=tuple(f"v{k}" for k in range(VOCAB)))
    return Scenario(title=f"bench n={n}", tokens=tuple(f"t{k}" for k in range(n)),
                    X=rng.normal(size=(n, D)), layers=tuple(layer() for _ in range(layers)),
                    head=head, shorthand=layers == 1, head_in_block=layers == 1)


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


def row(label: str, times: list[float], target: float | None) -> None:
    median, p95, runs = summary(times)
    verdict = "" if target is None else (f"≤ {target:g} ms " +
                                         ("ok" if median * 1e3 <= target else "MISSED"))
    print(f"{label:<40}{ms(median)}{ms(p95)}{runs:>7}  {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=1.5,
                        help="seconds of repeats per row (default 1.5)")
    args = parser.parse_args()

    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} cpu, OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '-')}")
    print(f"layer: d={D}, heads={HEADS}, d_k=d_v={D_K}, FFN {FFN} relu, vocab {VOCAB}, causal")
    print()
    print(f"{'what':<40}{'median ms':>10}{'p95 ms':>10}{'runs':>7}  target")
    print("-" * 78)
    targets = {16: 1.0, 512: 50.0}
    for n in SIZES:
        s = scenario(n)
        row(f"compute 1 layer n={n}", timings(lambda s=s: compute(s), args.budget),
            targets.get(n))
    stack = scenario(128, layers=4)
    row("compute 4 layers n=128", timings(lambda: compute(stack), args.budget), 40.0)

    trace = compute(scenario(128))
    cells: list[tuple[str, tuple[int, ...]]] = [
        ("weights", (3, 127, 60)), ("weights", (3, 5, 90)), ("scores", (7, 100, 99)),
        ("Q", (64, 10)), ("mixed", (127, 33)), ("norm1", (64, 10)), ("norm2", (127, 63)),
        ("final_norm", (5, 5)), ("ffn_hidden", (64, 200)), ("ffn_out", (64, 10)),
        ("logits", (127, 99)), ("probs", (127, 42)),
    ]
    stacked = compute(stack)
    cells_4 = [("L4.weights", (3, 127, 60)), ("L2.Q", (64, 10)), ("L3.norm2", (127, 63))]
    for where, chosen in ((trace, cells), (stacked, cells_4)):
        for name, index in chosen:
            cell = f"{name}[{','.join(map(str, index))}]"
            row(f"explain n=128 {cell}",
                timings(lambda t=where, n=name, i=index: explain(t, n, i), args.budget / 3), 1.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
