"""OLMo 2's two constructs, against numpy written here: a block without pre-norms (``pre_norms``
false: the attention and the feed-forward read the stream, their outputs normed by γ3/γ4 before
the residuals) and a QK-norm over all heads' columns together (``qk_norm_over`` "all_heads": one
RMSNorm over Q's h·d_k columns, another over K's g·d_k, before the split into heads)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engine import ScenarioError, compute, explain, format_number, parse_scenario
from engine.format.writer import to_document
from engine.scenario.resize import Sizes, resize
from tests.engine.test_engine_explain import final_number
from tests.engine.v2_documents import document

GAMMA_Q = [1.5, 0.5, 2.0, 1.0, 0.8, 1.2]
GAMMA_K = [0.9, 1.1, 1.3]
EPS = 1e-5


def _rms(x: np.ndarray, gamma: list[float]) -> np.ndarray:
    return np.asarray(gamma) * x / np.sqrt((x * x).mean(-1, keepdims=True) + EPS)


def olmo2_document(seed: int, n: int = 4) -> dict[str, Any]:
    """3 query heads and 1 key/value head of d_k 2 over rows of 4, RMSNorm, no pre-norms."""
    doc = document(seed, n=n, attention_keys={
        "heads": 3, "kv_heads": 1, "qk_norm": "rmsnorm", "qk_norm_over": "all_heads",
        "gamma_q": GAMMA_Q, "gamma_k": GAMMA_K}, block_keys={"norm": "rmsnorm"})
    rng = np.random.default_rng(seed)
    attention = doc["layers"][0]["attention"]
    attention.update(Wq=rng.normal(size=(4, 6)).tolist(), bq=rng.normal(size=6).tolist(),
                     Wk=rng.normal(size=(4, 2)).tolist(), bk=rng.normal(size=2).tolist(),
                     Wv=rng.normal(size=(4, 2)).tolist(), bv=rng.normal(size=2).tolist(),
                     Wo=rng.normal(size=(6, 4)).tolist())
    attention["gamma_k"] = GAMMA_K[:2]
    block = doc["layers"][0]["block"]
    for name in ("gamma1", "beta1", "gamma2", "beta2"):
        del block[name]
    block.update(pre_norms=False, gamma3=[1.2, 0.7, 1.0, 0.9], gamma4=[0.6, 1.4, 1.1, 0.8])
    return doc


def test_the_whole_projection_is_normed_and_the_sub_layers_read_the_stream() -> None:
    doc = olmo2_document(41)
    trace = compute(parse_scenario(doc))
    a, att = trace.arrays, doc["layers"][0]["attention"]
    x = np.asarray(doc["X"])
    q = x @ np.asarray(att["Wq"]) + np.asarray(att["bq"])
    k = x @ np.asarray(att["Wk"]) + np.asarray(att["bk"])
    assert np.abs(a["L1.Q"] - q).max() < 1e-14  # the projections read X, not a norm of it
    assert np.abs(a["L1.Q_normed"] - _rms(q, GAMMA_Q)).max() < 1e-14
    assert np.abs(a["L1.K_normed"] - _rms(k, GAMMA_K[:2])).max() < 1e-14
    # per head it would differ: the norm spans the three heads
    per_head = _rms(q.reshape(4, 3, 2), [1.0, 1.0]).reshape(4, 6) * GAMMA_Q
    assert np.abs(a["L1.Q_normed"] - per_head).max() > 0.1
    block = doc["layers"][0]["block"]
    resid1 = x + _rms(a["L1.attn_out"], block["gamma3"])
    assert np.abs(a["L1.resid1"] - resid1).max() < 1e-14
    ffn = doc["layers"][0]["block"]["ffn"]
    hidden = resid1 @ np.asarray(ffn["W1"]) + np.asarray(ffn["b1"])
    assert np.abs(a["L1.ffn_pre"] - hidden).max() < 1e-14  # the feed-forward reads resid1
    assert np.abs(a["L1.resid2"] - (resid1 + _rms(a["L1.ffn_out"], block["gamma4"]))).max() \
        < 1e-14
    ids = [step.id for step in trace.steps]
    assert "L1.norm1" not in ids and "L1.norm2" not in ids
    steps = {step.id: step for step in trace.steps}
    assert steps["L1.projections"].reads[0] == "X"
    assert steps["L1.qk_norm"].title.endswith("QK-norm (RMSNorm) of all heads' queries and keys")


def test_the_document_is_written_back_as_read() -> None:
    doc = olmo2_document(42)
    written = to_document(parse_scenario(doc))["layers"][0]
    assert written["attention"]["qk_norm_over"] == "all_heads"
    assert written["attention"]["gamma_q"] == GAMMA_Q
    assert written["block"]["pre_norms"] is False
    assert not {"gamma1", "beta1", "gamma2", "beta2"} & set(written["block"])
    again = compute(parse_scenario(to_document(parse_scenario(doc))))
    assert np.array_equal(again.arrays["logits"], compute(parse_scenario(doc)).arrays["logits"])


def _refused(doc: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    return refused.value


@pytest.mark.parametrize(("change", "place", "words"), [
    (lambda d: d["layers"][0]["attention"].update(gamma_q=[1.0, 1.0]),
     "layers.0.attention.gamma_q", "6 numbers to match Wq's columns"),
    (lambda d: d["layers"][0]["attention"].update(gamma_k=GAMMA_K),
     "layers.0.attention.gamma_k", "2 numbers to match Wk's columns"),
    (lambda d: d["layers"][0]["attention"].update(qk_norm_over="heads"),
     "layers.0.attention.qk_norm_over", 'one of "head" | "all_heads", got "heads"'),
    (lambda d: d["layers"][0]["attention"].pop("qk_norm"),
     "layers.0.attention.qk_norm_over", "what a QK-norm spans needs qk_norm"),
    (lambda d: d["layers"][0]["block"].update(gamma2=[1.0] * 4),
     "layers.0.block.gamma2", "a block without pre-norms has no γ1, β1, γ2 or β2"),
    (lambda d: d["layers"][0]["block"].update(placement="post"),
     "layers.0.block.pre_norms", "only a pre-norm block of sequential residuals"),
    (lambda d: d["layers"][0]["block"].update(pre_norms=0),
     "layers.0.block.pre_norms", "true or false"),
])
def test_a_wrong_key_is_refused_by_its_place(change: Any, place: str, words: str) -> None:
    doc = olmo2_document(44)
    change(doc)
    refused = _refused(doc)
    assert refused.place == place
    assert words in str(refused), str(refused)


def test_a_normed_cell_is_explained_over_the_whole_projection() -> None:
    doc = olmo2_document(45)
    trace = compute(parse_scenario(doc))
    q = trace.arrays["L1.Q"][2]
    mean_square = float(np.mean(q * q))  # all six columns, the three heads together
    e = explain(trace, "L1.Q_normed", (2, 5))
    assert e.formula.startswith("L1.Q_normed[2,5] = x / √(mean(x²) + ε) · γ = ")
    assert f"{format_number(float(q[5]))}) / √({format_number(mean_square)} + 0.00001) · 1.2 = " \
        in e.formula  # x is negative: in brackets
    k = trace.arrays["L1.K"][1]
    e = explain(trace, "L1.K_normed", (1, 1), "zh")
    assert f"√({format_number(float(np.mean(k * k)))} + 0.00001) · 1.1 = " in e.formula
    for name in ("L1.Q_normed", "L1.K_normed"):
        for index in np.ndindex(trace.arrays[name].shape):
            shown = explain(trace, name, index)
            assert final_number(shown.formula) == format_number(float(trace.arrays[name][index]))


def test_resizing_fits_the_whole_projections_scales_head_by_head() -> None:
    scenario = parse_scenario(olmo2_document(46))  # 3 query heads, 1 key/value head, d_k 2
    resized = resize(scenario, Sizes(n=4, d=5, d_k=3, d_v=2, heads=4))
    attention = parse_scenario(resized.document).layers[0].attention
    # each head's two old scales, a third column of 1, then a new head of 1s
    assert attention.gamma_q.tolist() == [1.5, 0.5, 1.0, 2.0, 1.0, 1.0, 0.8, 1.2, 1.0,
                                          1.0, 1.0, 1.0]
    assert attention.groups == 1 and attention.gamma_k.tolist() == [0.9, 1.1, 1.0]
    assert resized.document["layers"][0]["block"]["pre_norms"] is False
