"""Shared pieces of the benchmark scripts: repeat-and-time, a summary line, random scenarios."""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Scenario, compute, parse_scenario


def timed(action: Callable[[], object], runs: int) -> list[float]:
    """Milliseconds of ``runs`` calls of ``action``, after one warm-up call."""
    action()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def p95(values: list[float]) -> float:
    return float(np.percentile(values, 95))


def report(label: str, times: list[float], target: float | None = None,
           on: str = "median") -> None:
    """One line: median and p95 in ms, and whether ``on`` (median or p95) meets ``target``."""
    median = statistics.median(times)
    checked = median if on == "median" else p95(times)
    verdict = "" if target is None else (f"  ok ({on} ≤ {target:g})" if checked <= target
                                         else f"  MISSED ({on} > {target:g})")
    print(f"{label:<44} median {median:8.1f} ms   p95 {p95(times):8.1f} ms   "
          f"(n={len(times)}){verdict}")


def attention_scenario(n: int, d: int = 16, heads: int = 2, width: int = 8,
                       seed: int = 7) -> Scenario:
    """Causal attention over ``n`` positions with seeded random values (two decimals)."""
    rng = np.random.default_rng(seed)

    def table(rows: int, cols: int) -> list[list[float]]:
        values: list[list[float]] = np.round(rng.normal(0.0, 0.5, (rows, cols)), 2).tolist()
        return values

    return parse_scenario({
        "format": "qkv-studio", "version": 1, "title": f"Benchmark · {n} positions, {heads} heads",
        "tokens": [f"t{k}" for k in range(n)], "X": table(n, d),
        "attention": {"heads": heads, "causal": True, "scale": True,
                      "Wq": table(d, heads * width), "Wk": table(d, heads * width),
                      "Wv": table(d, heads * width)},
    })


def gpt2_layer(n: int = 8, d: int = 768, ffn: int = 3072, heads: int = 12) -> dict[str, object]:
    """One decoder layer of GPT-2 small's size (12 heads of width 64; every weight matrix and
    bias, the block's norms), seeded random values with two decimals, as a document's lists."""
    return _listed(gpt2_layer_arrays(n, d, ffn, heads))


def _listed(node: object) -> object:
    """``node`` with every array in it a list of numbers, as a document read from JSON."""
    if isinstance(node, dict):
        return {key: _listed(value) for key, value in node.items()}
    return node.tolist() if isinstance(node, np.ndarray) else node


def gpt2_layer_arrays(n: int = 8, d: int = 768, ffn: int = 3072,
                      heads: int = 12) -> dict[str, Any]:
    """:func:`gpt2_layer` with its values left as arrays (the same numbers): what a test that
    needs the model, not its reading, parses without reading 5 million numbers one by one."""
    rng = np.random.default_rng(5)

    def table(*shape: int) -> object:
        return np.round(rng.normal(0.0, 0.05, shape), 2)

    return {"format": "qkv-studio", "version": 1, "title": f"d = {d}, FFN {ffn}, n = {n}",
            "tokens": [f"t{k}" for k in range(n)], "X": table(n, d),
            "attention": {"heads": heads, "causal": True, "scale": True,
                          **{name: table(d, d) for name in ("Wq", "Wk", "Wv", "Wo")},
                          **{name: table(d) for name in ("bq", "bk", "bv", "bo")}},
            "block": {"norm": "layernorm", "ffn": {"W1": table(d, ffn), "b1": table(ffn),
                                                   "activation": "gelu", "W2": table(ffn, d),
                                                   "b2": table(d)}}}


def gpt2_shaped(n: int = 8, d: int = 768, vocab: int = 50_257, heads: int = 12) -> Scenario:
    """:func:`gpt2_layer` (FFN 4d) with its final norm and a vocabulary head of ``vocab``
    entries (GPT-2's 50,257), seeded. Past the reader's vocabulary limit the head is set on the
    parsed scenario directly (:func:`dataclasses.replace`): what the engine computes, before
    the sidecar work lets a document hold it."""
    doc = gpt2_layer_arrays(n=n, d=d, ffn=4 * d, heads=heads)
    block = doc["block"]
    block["unembed"] = [[0.0] * 2] * d
    block["vocab"] = ["a", "b"]
    scenario = parse_scenario(doc)
    rng = np.random.default_rng(11)
    assert scenario.head is not None
    head = dataclasses.replace(scenario.head,
                               unembed=np.round(rng.normal(0.0, 0.05, (d, vocab)), 2),
                               vocab=tuple(f"w{k}" for k in range(vocab)))
    return dataclasses.replace(scenario, head=head)


def gpt2_stack(layers: int = 12, n: int = 20, vocab: int = 1000,
               tiny_score: float | None = None) -> Scenario:
    """:func:`gpt2_shaped`'s layer ``layers`` times (GPT-2 small's 12), its Wq and Wk scaled to
    GPT-2's initial spread (standard deviation 0.02, as ``gpt2_small.make_checkpoint``), the
    vocabulary cut to ``vocab`` entries to keep it quick. With ``tiny_score`` the first layer's
    first head scores "t0" against itself exactly that (1.32e-5: a real checkpoint's score that
    fixed point would round to 0), through one cell of its Wq: the score is linear in it."""
    one = gpt2_shaped(n=n, vocab=vocab)
    attention = one.layers[0].attention
    layer = dataclasses.replace(one.layers[0], attention=dataclasses.replace(
        attention, Wq=attention.Wq * 0.4, Wk=attention.Wk * 0.4))
    stack = dataclasses.replace(one, layers=(layer,) * layers, shorthand=False)
    if tiny_score is None:
        return stack

    def first(weight: float) -> Scenario:
        Wq = layer.attention.Wq.copy()
        Wq[0, 0] = weight
        forced = dataclasses.replace(layer, attention=dataclasses.replace(layer.attention, Wq=Wq))
        return dataclasses.replace(stack, layers=(forced, *stack.layers[1:]))

    def score(weight: float) -> float:
        alone = dataclasses.replace(first(weight), layers=first(weight).layers[:1], head=None)
        return float(compute(alone).arrays["L1.scores"][0, 0, 0])

    start = float(layer.attention.Wq[0, 0])
    at_start, slope = score(start), score(start + 1.0) - score(start)
    return first(start + (tiny_score - at_start) / slope)
