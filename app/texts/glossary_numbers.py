"""The numbers of the generation terms' worked examples (KV cache, temperature, top-k, top-p,
cross-entropy, teacher forcing), computed by the engine when the glossary is built: its sampling
functions on small rows, and the built-in examples ``continue`` and ``training``. Both languages
print the same fields; no number of these entries is typed."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import numpy as np

from app.model.examples import example_path
from engine import compute, format_number, load_scenario, parse_scenario
from engine.format.generation_keys import Settings
from engine.format.writer import to_document
from engine.generation.kv_cache import cache_of, next_position
from engine.generation.run import generate
from engine.generation.sampling import kept_ids, renormalised, tempered

Fields = dict[str, str]

TEMPERATURE_LOGITS = (2.0, 1.0, 0.0)
TEMPERATURES = {"cold": 0.5, "plain": 1.0, "hot": 2.0}
TOP_K_LOGITS = (2.0, 1.0, 0.0, -1.0)
TOP_K = 2
TOP_P_PROBS = (0.5, 0.3, 0.15, 0.05)
TOP_P = 0.75
GENERATED = 3
"""Tokens the KV-cache example generates after the prompt of ``continue``."""


def number(value: float) -> str:
    """A number as the worked examples print it (three decimals at most)."""
    return format_number(float(value), 3)


def row(values: Iterable[float]) -> str:
    return "[" + ", ".join(number(v) for v in values) + "]"


def _temperature() -> Fields:
    logits = np.array(TEMPERATURE_LOGITS)
    fields = {name: row(tempered(logits, t)) for name, t in TEMPERATURES.items()}
    return {"logits": row(logits), **{f"T_{name}": number(t) for name, t in TEMPERATURES.items()},
            **fields}


def _top_k() -> Fields:
    probs = tempered(np.array(TOP_K_LOGITS), 1.0)
    kept = kept_ids(probs, TOP_K, 1.0)
    shares = renormalised(probs, kept)
    return {"logits": row(TOP_K_LOGITS), "k": str(TOP_K), "probs": row(probs),
            "kept": row(probs[kept]), "shares": row(shares[kept])}


def _top_p() -> Fields:
    probs = np.array(TOP_P_PROBS)
    kept = kept_ids(probs, None, TOP_P)
    mass = np.cumsum(probs[kept])
    return {"probs": row(probs), "p": number(TOP_P), "count": str(len(kept)),
            "mass": " + ".join(number(v) for v in probs[kept]) + f" = {number(mass[-1])}",
            "short": number(mass[-2]), "shares": row(renormalised(probs, kept)[kept])}


def _training() -> tuple[Fields, Fields]:
    """Cross-entropy and teacher forcing, read from the training example's loss."""
    scenario = load_scenario(example_path("training"))
    trace = compute(scenario)
    assert scenario.targets is not None and scenario.head is not None
    loss, probs = trace.arrays["loss"], trace.arrays["probs"]
    target = scenario.targets[0]
    p = float(probs[0, target])
    entropy = {"token": scenario.tokens[0], "target": scenario.head.vocab[target],
               "p": format_number(p, 7), "loss": number(loss[0]),
               "sum": " + ".join(number(v) for v in loss), "n": str(len(loss)),
               "mean": number(trace.arrays["loss_mean"][0])}
    guess = int(np.argmax(probs[0]))
    doc = to_document(scenario)
    del doc["targets"]
    doc["token_ids"], doc["tokens"] = doc["token_ids"][:1], doc["tokens"][:1]
    run = generate(parse_scenario(doc), GENERATED, Settings(temperature=0.0))
    forcing = {"sentence": " ".join(scenario.tokens), "first": scenario.tokens[0],
               "guess": scenario.head.vocab[guess], "guess_p": number(probs[0, guess]),
               "second": scenario.tokens[1], "n": str(scenario.n),
               "run": " ".join(run.scenario.tokens)}
    return entropy, forcing


def _kv_cache() -> Fields:
    """The first cached step of ``continue``: its cache, the new row's shares, rows computed."""
    trace = compute(load_scenario(example_path("continue")))
    cache = cache_of(trace)
    chosen = int(np.argmax(trace.arrays["probs"][-1]))
    new = next_position(cache, chosen)
    keys, values = cache.keys["L1."], cache.values["L1."]
    n = cache.n
    assert trace.scenario.head is not None
    return {"prompt": " ".join(trace.scenario.tokens), "n": str(n),
            "K": " × ".join(map(str, keys.shape)), "V": " × ".join(map(str, values.shape)),
            "new": trace.scenario.head.vocab[chosen], "keys": str(n + 1),
            "shares": row(new.arrays["L1.weights"][0, 0]),
            "steps": str(GENERATED),
            "cached": " + ".join([str(n)] + ["1"] * (GENERATED - 1)) + f" = {n + GENERATED - 1}",
            "full": " + ".join(str(n + k) for k in range(GENERATED))
            + f" = {sum(n + k for k in range(GENERATED))}"}




@cache
def numbers() -> dict[str, Fields]:
    """Term id → the fields its worked example prints, in either language (computed once,
    when the glossary is first built)."""
    entropy, forcing = _training()
    return {"KV-cache": _kv_cache(), "temperature": _temperature(), "top-k": _top_k(),
            "top-p": _top_p(), "cross-entropy": entropy, "teacher-forcing": forcing}


def worked(term_id: str, template: str) -> str:
    """A worked example of ``term_id``: ``template`` filled with its computed numbers."""
    return template.format(**numbers()[term_id])
