"""A masked-language-model head (``head.transform``): its numbers against numpy written here,
its explanation, saving and reading it back, what it refuses, and that it does not generate."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from math import erf
from typing import Any

import numpy as np
import pytest

import engine.scenario.scenario
from engine import ScenarioError, compute, explain, parse_scenario
from engine.format.generation_keys import Settings
from engine.format.io import dumps_scenario
from engine.forward.masked_lm import fills, masked_positions
from engine.generation.run import generate

D, V = 4, 5
VOCAB = ["我", "爱", "你", "[MASK]", "。"]


def _doc(**head: Any) -> dict[str, Any]:
    """One non-causal post-norm layer over 我 [MASK] 你 (ids 0, 3, 2) and a masked-LM head."""
    rng = np.random.default_rng(7)

    def m(rows: int, cols: int) -> list[list[float]]:
        return np.round(rng.normal(0, 0.8, (rows, cols)), 2).tolist()

    embedding = m(V, D)
    transform = {"W": m(D, D), "b": [0.1, -0.2, 0.3, 0.0], "activation": "gelu",
                 "gamma": [1.5, 0.5, 1.0, 2.0], "beta": [0.1, 0.0, -0.1, 0.2], "eps": 1e-12}
    return {"version": 2, "tokens": ["我", "[MASK]", "你"], "token_ids": [0, 3, 2],
            "embedding": embedding,
            "layers": [{"attention": {"causal": False, "Wq": m(D, D), "Wk": m(D, D),
                                      "Wv": m(D, D)},
                        "block": {"placement": "post", "eps": 1e-12,
                                  "ffn": {"W1": m(D, 6), "W2": m(6, D), "activation": "gelu"}}}],
            "head": {"final_norm": False, "transform": transform,
                     "unembed": np.array(embedding).T.tolist(), "bias": [0.5, -0.5, 0.0, 1.0, 0.2],
                     "vocab": VOCAB, **head}}


def _gelu(z: np.ndarray) -> np.ndarray:
    return 0.5 * z * (1 + np.vectorize(erf)(z / np.sqrt(2)))


def test_the_transform_logits_and_probabilities_are_bert_heads_numbers() -> None:
    doc = _doc()
    trace = compute(parse_scenario(doc))
    ids = [s.id for s in trace.steps]
    assert ids[-3:] == ["transform", "logits", "probs"]
    step = trace.steps[-3]
    assert step.op == "transform" and step.module == "head.transform"
    assert step.reads == ("L1.norm2", "head.transform.W", "head.transform.b",
                          "head.transform.gamma", "head.transform.beta")
    t = doc["head"]["transform"]
    x = trace.arrays["L1.norm2"]
    z = x @ np.array(t["W"]) + np.array(t["b"])
    h = _gelu(z)
    mean = h.mean(axis=1, keepdims=True)
    var = ((h - mean) ** 2).mean(axis=1, keepdims=True)
    out = (h - mean) / np.sqrt(var + 1e-12) * np.array(t["gamma"]) + np.array(t["beta"])
    np.testing.assert_allclose(trace.arrays["transform_pre"], z, rtol=0, atol=1e-12)
    np.testing.assert_allclose(trace.arrays["transform_hidden"], h, rtol=0, atol=1e-12)
    np.testing.assert_allclose(trace.arrays["transform"], out, rtol=0, atol=1e-12)
    logits = out @ np.array(doc["embedding"]).T + np.array(doc["head"]["bias"])
    np.testing.assert_allclose(trace.arrays["logits"], logits, rtol=0, atol=1e-12)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    np.testing.assert_allclose(trace.arrays["probs"], e / e.sum(axis=1, keepdims=True),
                               rtol=0, atol=1e-14)
    # the blank: position 1, its entries ranked by probability
    assert masked_positions(trace.scenario) == (1,)
    order = np.argsort(-trace.arrays["probs"][1])
    assert [v for v, _ in fills(trace.arrays["probs"], 1)] == order[:3].tolist()
    assert fills(trace.arrays["probs"], 1)[0][1] == trace.arrays["probs"][1].max()


def test_without_a_transform_no_position_is_a_blank() -> None:
    doc = _doc()
    del doc["head"]["transform"]
    assert masked_positions(parse_scenario(doc)) == ()


def test_explain_works_each_transform_cell() -> None:
    trace = compute(parse_scenario(_doc()))
    t = trace.scenario.head.transform
    assert t is not None
    x = trace.arrays["L1.norm2"][1]
    pre = explain(trace, "transform_pre", (1, 2))
    assert pre.value == pytest.approx(float(x @ t.W[:, 2] + t.b[2]), abs=1e-12)
    assert pre.formula.startswith("transform_pre[1,2] = ") and "+ 0.3 =" in pre.formula
    hidden = explain(trace, "transform_hidden", (1, 2))
    assert hidden.formula.startswith("transform_hidden[1,2] = gelu(transform_pre[1,2]) = gelu(")
    normed = explain(trace, "transform", (1, 3))
    h = trace.arrays["transform_hidden"][1]
    assert "(x − μ) / √(σ² + ε) · γ + β" in normed.formula
    assert "1×10⁻¹²" in normed.formula  # the transform's own ε, not the block's
    assert normed.value == pytest.approx(
        float((h[3] - h.mean()) / np.sqrt(h.var() + 1e-12) * 2.0 + 0.2), abs=1e-12)
    assert explain(trace, "transform", (1, 3), lang="zh").details != normed.details


def test_the_head_is_saved_and_read_back_unchanged() -> None:
    scenario = parse_scenario(_doc())
    again = parse_scenario(json.loads(dumps_scenario(scenario)))
    t, u = scenario.head.transform, again.head.transform
    assert t is not None and u is not None
    for name in ("W", "b", "gamma", "beta"):
        np.testing.assert_array_equal(getattr(t, name), getattr(u, name))
    assert (u.activation, u.eps) == ("gelu", 1e-12)
    np.testing.assert_array_equal(compute(again).arrays["probs"],
                                  compute(scenario).arrays["probs"])


@pytest.mark.parametrize(("change", "place", "words"), [
    ({"unembed": None}, "head.transform", "a masked-language-model transform need the head "
                                          "head.unembed"),
    ({"transform": {"W": [[1.0] * D] * (D - 1)}}, "head.transform.W", "4"),
    ({"transform": {"W": np.eye(D).tolist(), "activation": "tanh"}},
     "head.transform.activation", "tanh"),
    ({"transform": {"b": [0.0] * D}}, "head.transform.W", "missing"),
    ({"transform": {"W": np.eye(D).tolist(), "norm": "rmsnorm"}}, "head.transform.norm", ""),
    ({"transform": {"W": np.eye(D).tolist(), "eps": -1}}, "head.transform.eps", ""),
])
def test_a_bad_transform_is_refused_at_its_place(change: dict[str, Any], place: str,
                                                  words: str) -> None:
    doc = _doc()
    for key, value in change.items():
        if value is None:
            del doc["head"][key]
            doc["head"].pop("bias")
            doc["head"].pop("vocab")
        else:
            doc["head"][key] = value
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert refused.value.place == place
    assert words in str(refused.value)


def test_a_masked_lm_head_does_not_generate() -> None:
    scenario = parse_scenario(_doc())
    assert not any(step.op == "sample" for step in compute(scenario).steps)
    with pytest.raises(ScenarioError) as refused:
        generate(scenario, 1, Settings(temperature=0.0))
    assert refused.value.place == "head.transform"
    assert str(refused.value) == (
        "head.transform: a masked-language-model head (head.transform) fills [MASK] positions "
        "from both sides: it does not continue the text, so it does not generate")


def _counted(doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> int:
    """The trace size the limit counts for ``doc`` (read off the refusal at a limit of 0)."""
    monkeypatch.setattr(engine.scenario.scenario, "MAX_TRACE_NUMBERS", 0)
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    found = re.search(r"the trace would hold ([\d,]+) numbers", str(refused.value))
    assert found is not None, str(refused.value)
    return int(found[1].replace(",", ""))


def test_the_trace_size_limit_counts_the_transforms_three_arrays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {**_doc(), "targets": [0, 1, 2]}  # neither draws: only the transform differs
    trace = compute(parse_scenario(doc))
    plain = {**_doc(), "targets": [0, 1, 2]}
    del plain["head"]["transform"]
    n, d = 3, D
    added = sum(trace.arrays[name].size for name in ("transform_pre", "transform_hidden",
                                                     "transform"))
    assert added == 3 * n * d
    assert _counted(doc, monkeypatch) - _counted(plain, monkeypatch) == added


def test_the_block_view_carries_every_field_of_the_head() -> None:
    """``Scenario.block`` (version 1's block with the head's keys) takes each field of the head
    the block has not, by the fields themselves: a new head field is carried without a line
    more (the transform, which a hand-made copy left out, with the rest)."""
    scenario = parse_scenario(_doc())
    block, head, own = scenario.block, scenario.head, scenario.layers[0].block
    assert block is not None and head is not None and own is not None
    heads = [item.name for item in fields(head) if item.name not in {f.name for f in fields(own)}]
    assert {"transform", "unembed", "bias", "vocab", "final_norm", "gamma_f"} <= set(heads)
    for name in heads:
        assert getattr(block, name) is getattr(head, name), name
    for item in fields(own):  # the block's own norm and ε, not the head's
        assert getattr(block, item.name) is getattr(own, item.name), item.name
