"""The last version-2 constructs (issue 25, item 1): embedding_scale, token_types + type_table,
embedding_norm, QK-norm's beta_q/beta_k, sinusoidal layout "halves" and ALiBi's paper slopes.

Every golden number comes from an independent numpy computation written here (BERT's
embeddings: word + position + type rows, then LayerNorm; Marian's sinusoid table; BLOOM's slope
rule), never from the engine's own helpers.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from engine import ScenarioError, compute, explain, parse_scenario
from engine.format.numbers import format_number
from engine.format.writer import to_document
from engine.generation.append import extend
from engine.generation.kv_cache import cache_of, next_position
from tests.engine.test_engine_v2_stacks import m, v
from tests.engine.test_engine_validation import put

Doc = dict[str, Any]


def layer(d: int, heads: int = 2, causal: bool = False, placement: str = "post",
          **attention: object) -> Doc:
    att: Doc = {"heads": heads, "causal": causal, "Wq": m(d, d), "Wk": m(d, d), "Wv": m(d, d),
                "Wo": m(d, d), "bq": v(d)}
    att.update(attention)
    return {"attention": att,
            "block": {"norm": "layernorm", "eps": 1e-12, "placement": placement,
                      "gamma1": v(d, 1), "beta1": v(d), "gamma2": v(d, 1), "beta2": v(d),
                      "ffn": {"W1": m(d, 6), "b1": v(6), "activation": "gelu", "W2": m(6, d),
                              "b2": v(d)}}}


def bert(n: int = 4, d: int = 4) -> Doc:
    """A BERT-shaped document: word + learned position + type rows, LayerNorm, post-norm."""
    return {"format": "qkv-studio", "version": 2, "title": "bert",
            "tokens": ["[CLS]", "猫", "[SEP]", "狗"][:n], "token_ids": [0, 3, 1, 2][:n],
            "embedding": m(5, d), "token_types": [0, 0, 0, 1][:n], "type_table": m(2, d),
            "positions": {"kind": "learned", "table": m(6, d)},
            "embedding_norm": {"norm": "layernorm", "eps": 1e-12, "gamma": v(d, 1),
                               "beta": v(d)},
            "layers": [layer(d), layer(d)],
            "head": {"final_norm": False, "unembed": m(d, 5),
                     "vocab": ["[CLS]", "[SEP]", "狗", "猫", "鱼"]}}


def layer_norm(x: np.ndarray, gamma: list[float], beta: list[float], eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * np.array(gamma) + np.array(beta)


# --- computed ----------------------------------------------------------------------------------

def test_bert_embeddings_are_word_plus_position_plus_type_rows_then_layernorm() -> None:
    doc = bert()
    trace = compute(parse_scenario(doc))
    words = np.array(doc["embedding"])[doc["token_ids"]]
    places = np.array(doc["positions"]["table"])[:4]
    kinds = np.array(doc["type_table"])[doc["token_types"]]
    total = words + places + kinds
    norm = doc["embedding_norm"]
    expected = layer_norm(total, norm["gamma"], norm["beta"], 1e-12)
    a = trace.arrays
    np.testing.assert_allclose(a["embedded"], words, rtol=0, atol=0)
    np.testing.assert_allclose(a["positions"], places, rtol=0, atol=0)
    np.testing.assert_allclose(a["type_rows"], kinds, rtol=0, atol=0)
    np.testing.assert_allclose(a["embed_sum"], total, rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(a["X"], expected, rtol=1e-12, atol=1e-12)
    att = doc["layers"][0]["attention"]
    np.testing.assert_allclose(a["L1.Q"], expected @ np.array(att["Wq"]) + np.array(att["bq"]),
                               rtol=1e-12, atol=1e-12)  # X is what the first layer reads
    steps = {s.id: s for s in trace.steps}
    assert [s.id for s in trace.steps[:3]] == ["embed", "positions", "embedding_norm"]
    assert steps["embed"].writes == ("embedded",)
    assert steps["positions"].reads == ("embedded", "positions", "positions.table", "type_rows",
                                        "type_table")
    assert steps["positions"].writes == ("embed_sum",)
    assert steps["positions"].explain_key == "input.types"
    assert steps["embedding_norm"].op == "norm"
    assert steps["embedding_norm"].module == "embedding_norm"
    assert steps["embedding_norm"].reads == ("embed_sum", "embedding_norm.gamma",
                                             "embedding_norm.beta")
    assert steps["embedding_norm"].writes == ("X",)
    assert steps["L1.projections"].reads[0] == "X"


def test_type_rows_alone_and_default_types_of_zero() -> None:
    doc = bert()
    del doc["positions"], doc["embedding_norm"], doc["token_types"]
    trace = compute(parse_scenario(doc))
    row0 = np.array(doc["type_table"])[0]
    words = np.array(doc["embedding"])[doc["token_ids"]]
    np.testing.assert_allclose(trace.arrays["X"], words + row0, rtol=0, atol=1e-15)
    step = trace.steps[1]
    assert (step.id, step.op, step.writes) == ("types", "positions", ("X",))
    assert to_document(parse_scenario(doc))["token_types"] == [0, 0, 0, 0]


def test_embedding_scale_multiplies_the_looked_up_rows_before_positions() -> None:
    doc = bert()
    del doc["token_types"], doc["type_table"], doc["embedding_norm"]
    doc["positions"] = {"kind": "sinusoidal"}
    doc["embedding_scale"] = 2.0
    trace = compute(parse_scenario(doc))
    words = np.array(doc["embedding"])[doc["token_ids"]] * 2.0
    p = np.arange(4)[:, None]
    i = np.arange(4)[None, :] // 2
    angle = p / 10000 ** (2 * i / 4)
    sinus = np.where(np.arange(4) % 2 == 0, np.sin(angle), np.cos(angle))
    np.testing.assert_allclose(trace.arrays["embedded"], words, rtol=0, atol=0)
    np.testing.assert_allclose(trace.arrays["X"], words + sinus, rtol=1e-15, atol=1e-15)
    assert trace.steps[0].title == "Token ids look up rows of the embedding table, times 2"


def test_gemma_scale_alone_writes_x_directly() -> None:
    doc = bert()
    for key in ("token_types", "type_table", "embedding_norm", "positions"):
        del doc[key]
    doc["embedding_scale"] = math.sqrt(4)
    trace = compute(parse_scenario(doc))
    assert trace.steps[0].writes == ("X",) and "embedded" not in trace.arrays
    np.testing.assert_allclose(trace.arrays["X"], np.array(doc["embedding"])[[0, 3, 1, 2]] * 2,
                               rtol=0, atol=0)


def test_sinusoidal_halves_is_marians_table() -> None:
    n, d = 5, 6
    doc = bert(4, d)
    for key in ("token_types", "type_table", "embedding_norm"):
        del doc[key]
    doc["positions"] = {"kind": "sinusoidal", "layout": "halves"}
    trace = compute(parse_scenario(doc))
    # transformers' MarianSinusoidalPositionalEmbedding, written out with numpy
    enc = np.array([[pos / np.power(10000, 2 * (j // 2) / d) for j in range(d)]
                    for pos in range(n)])
    table = np.zeros((n, d))
    table[:, :d // 2] = np.sin(enc[:, 0::2])
    table[:, d // 2:] = np.cos(enc[:, 1::2])
    np.testing.assert_allclose(trace.arrays["positions"], table[:4], rtol=1e-15, atol=1e-15)
    assert to_document(parse_scenario(doc))["positions"] == {"kind": "sinusoidal",
                                                              "base": 10000, "layout": "halves"}


def bloom_slopes(heads: int) -> list[float]:
    """transformers' build_alibi_tensor slopes (BLOOM), written out."""
    closest = 2 ** math.floor(math.log2(heads))
    base = 2 ** (-(2 ** -(math.log2(closest) - 3)))
    slopes = [base ** k for k in range(1, closest + 1)]
    if closest != heads:
        extra = 2 ** (-(2 ** -(math.log2(2 * closest) - 3)))
        slopes += [extra ** k for k in range(1, 1 + 2 * (heads - closest), 2)]
    return slopes


@pytest.mark.parametrize("heads", [1, 2, 3, 4, 5, 6, 7, 8, 12])
def test_alibi_default_slopes_follow_the_paper_for_every_head_count(heads: int) -> None:
    d = 2 * heads
    doc = bert(4, d)
    for key in ("token_types", "type_table", "embedding_norm"):
        del doc[key]
    doc["positions"] = {"kind": "alibi"}
    doc["layers"] = [layer(d, heads=heads, causal=True)]
    scenario = parse_scenario(doc)
    trace = compute(scenario)
    slopes = np.array(bloom_slopes(heads))
    distance = np.arange(4)[:, None] - np.arange(4)[None, :]
    np.testing.assert_allclose(trace.arrays["L1.alibi"], -slopes[:, None, None] * distance,
                               rtol=1e-15, atol=0)  # pow's last bit
    saved = to_document(scenario)["positions"]
    if heads & (heads - 1):
        assert saved["slopes"] == pytest.approx(slopes.tolist(), rel=1e-15, abs=0)
    else:
        assert "slopes" not in saved


def test_alibi_three_heads_explains_the_papers_rule() -> None:
    doc = bert(4, 6)
    for key in ("token_types", "type_table", "embedding_norm"):
        del doc[key]
    doc["positions"] = {"kind": "alibi"}
    doc["layers"] = [layer(6, heads=3, causal=True)]
    text = explain(compute(parse_scenario(doc)), "L1.alibi", (2, 3, 1))
    assert text.formula == "L1.alibi[2,3,1] = −slope·(i − j) = −0.25·(3 − 1) = −0.5"
    assert "the paper's default for h = 3, not a power of two: the slopes of 2 heads " \
        "2^(−8k/2), then every other slope of 4 heads" in text.details[0]


def test_layernorm_qk_norm_adds_its_shifts() -> None:
    d = 4
    doc = bert(4, d)
    beta_q, beta_k, gamma_q = [0.5, -0.25], [0.125, 1.0], [1.5, 0.5]
    doc["layers"] = [layer(d, qk_norm="layernorm", gamma_q=gamma_q, beta_q=beta_q,
                           beta_k=beta_k)]
    trace = compute(parse_scenario(doc))
    q = trace.arrays["L1.Q"].reshape(4, 2, 2)
    k = trace.arrays["L1.K"].reshape(4, 2, 2)
    np.testing.assert_allclose(trace.arrays["L1.Q_normed"].reshape(4, 2, 2),
                               layer_norm(q, gamma_q, beta_q, 1e-12), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(trace.arrays["L1.K_normed"].reshape(4, 2, 2),
                               layer_norm(k, [1, 1], beta_k, 1e-12), rtol=1e-12, atol=1e-12)
    step = next(s for s in trace.steps if s.id == "L1.qk_norm")
    assert step.reads[-2:] == ("layers.0.attention.beta_q", "layers.0.attention.beta_k")
    text = explain(trace, "L1.Q_normed", (1, 3))
    # Over two numbers the norm gives ±1: + where q[1,3] is the larger of head 2's pair (the
    # shared random matrices make either happen, by the order tests draw them).
    result = "0.25" if q[1, 1, 1] > q[1, 1, 0] else "−0.75"
    assert text.formula.endswith(f"· 0.5 + (−0.25) = {result}"), text.formula
    assert text.details[0].endswith("γ[3] = 0.5; β[3] = −0.25")


def test_an_encoder_has_its_own_scale_and_norm() -> None:
    d = 4
    doc = bert(3, d)
    for key in ("token_types", "type_table", "embedding_norm", "positions"):
        del doc[key]
    doc["encoder"] = {"token_ids": [4, 0], "embedding_scale": 3,
                      "embedding_norm": {"norm": "rmsnorm", "eps": 1e-6, "gamma": v(d, 1)},
                      "layers": [layer(d)]}
    for item in doc["layers"]:
        item["cross_attention"] = {"heads": 2, "Wq": m(d, d), "Wk": m(d, d), "Wv": m(d, d),
                                   "Wo": m(d, d)}
        item["block"].update(gamma_c=v(d, 1), beta_c=v(d))
    trace = compute(parse_scenario(doc))
    rows = np.array(doc["embedding"])[[4, 0]] * 3
    gamma = np.array(doc["encoder"]["embedding_norm"]["gamma"])
    expected = rows / np.sqrt((rows ** 2).mean(axis=1, keepdims=True) + 1e-6) * gamma
    np.testing.assert_allclose(trace.arrays["enc.embedded"], rows, rtol=0, atol=0)
    np.testing.assert_allclose(trace.arrays["enc.X"], expected, rtol=1e-13, atol=1e-13)
    ids = [s.id for s in trace.steps[:3]]
    assert ids == ["enc.embed", "enc.embedding_norm", "enc.L1.projections"]
    assert trace.steps[1].module == "encoder.embedding_norm"


# --- saved, explained ----------------------------------------------------------------------

def test_every_new_key_survives_a_round_trip() -> None:
    doc = bert()
    doc["embedding_scale"] = 1.5
    doc["layers"][1]["attention"].update(qk_norm="layernorm", beta_q=[0.5, 0.25],
                                         beta_k=[-1, 0])
    first = parse_scenario(doc)
    saved = json.loads(json.dumps(to_document(first)))
    for key in ("embedding_scale", "token_types", "type_table", "embedding_norm"):
        assert saved[key] == doc[key], key
    assert saved["layers"][1]["attention"]["beta_k"] == [-1, 0]
    again = parse_scenario(saved)
    assert to_document(again) == saved
    a, b = compute(first).arrays, compute(again).arrays
    assert a.keys() == b.keys()
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    assert {"type_table", "embedding_norm.gamma", "embedding_norm.beta",
            "layers.1.attention.beta_q"} <= set(again.parameter_paths())


def test_explain_names_each_embedding_cell() -> None:
    doc = bert()
    doc["embedding_scale"] = 2
    trace = compute(parse_scenario(doc))
    a = trace.arrays
    emb = np.array(doc["embedding"])
    cell = explain(trace, "embedded", (1, 2))
    assert cell.formula == (f"embedded[1,2] = embedding[3,2] × 2 = {format_number(emb[3, 2])} "
                            f"× 2 = {format_number(2 * emb[3, 2])}")
    assert a["embedded"][1, 2] == 2 * emb[3, 2]
    assert "row 3 of the table times embedding_scale = 2" in cell.details[0]
    total = explain(trace, "embed_sum", (3, 0))
    assert total.formula.startswith(
        "embed_sum[3,0] = embedded[3,0] + positions[3,0] + type_rows[3,0] = ")
    assert total.details == ("the row of “狗” plus the row of position 3 and the row of its "
                             "type 1",)
    kind = explain(trace, "type_rows", (3, 1))
    assert kind.formula.startswith("type_rows[3,1] = type_table[1,1] = ")
    assert kind.details[0].startswith("“狗” at position 3 has type 1")
    normed = explain(trace, "X", (2, 1))
    assert normed.formula.startswith("X[2,1] = (x − μ) / √(σ² + ε) · γ + β = ")
    assert "x = embed_sum[2,·]" in normed.details[0] and "ε = 1×10⁻¹²" in normed.details[0]
    assert explain(trace, "X_stats", (0, 0)).formula.startswith("X_stats[0,0] = μ = mean(x) = ")
    zh = explain(trace, "type_rows", (3, 1), lang="zh")
    assert zh.details[0].startswith("位置 3 的“狗”类型是 1")


def test_a_sine_of_the_halves_layout_is_explained_by_its_pair() -> None:
    doc = bert(4, 6)
    for key in ("token_types", "type_table", "embedding_norm"):
        del doc[key]
    doc["positions"] = {"kind": "sinusoidal", "layout": "halves"}
    text = explain(compute(parse_scenario(doc)), "positions", (2, 4))
    assert text.formula.startswith("positions[2,4] = cos(p / base^(2i/d)) = cos(2 / 10000^(2/6))")
    assert text.details[0].startswith("column 4 is pair i = 1: the first 3 columns take the sine")


# --- generation with the constructs ---------------------------------------------------------

def test_the_kv_cache_builds_the_new_row_as_the_whole_document_does() -> None:
    doc = bert()
    doc["embedding_scale"] = 0.5
    doc["layers"] = [layer(4, causal=True, placement="pre"), layer(4, causal=True)]
    scenario = parse_scenario(doc)
    row = next_position(cache_of(compute(scenario)), 4)
    longer = extend(scenario, 4)
    assert longer.token_types == (0, 0, 0, 1, 1), "the new token continues the last segment"
    whole = compute(longer).arrays
    for name in ("embedded", "type_rows", "embed_sum", "X", "L2.norm2", "logits"):
        np.testing.assert_allclose(row.arrays[name], whole[name][-1:], rtol=1e-12, atol=1e-12,
                                   err_msg=name)


# --- refused ------------------------------------------------------------------------------

def _refusal(change: Any) -> str:
    doc = copy.deepcopy(bert())
    change(doc)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    return str(caught.value)


def _without(key: str) -> Any:
    return lambda doc: doc.pop(key)


def _x_instead(doc: Doc) -> None:
    doc["X"] = m(4, 4)
    for key in ("token_ids", "embedding"):
        del doc[key]
    doc["embedding_scale"] = 2


REFUSALS = [
    (put("embedding_scale", value=0), "embedding_scale: expected a number above 0, got 0"),
    (put("embedding_scale", value="big"), 'embedding_scale: expected a number, got "big"'),
    (_x_instead, "embedding_scale: scales the rows token_ids look up; this document gives its "
     "rows as X (scale those numbers instead)"),
    (_without("type_table"), "token_types: token types need a type_table (the T × d rows they "
     "pick)"),
    (put("token_types", value=[0, 1]), "token_types: expected 4 type ids (one per position), "
     "got 2"),
    (put("token_types", value="0011"), 'token_types: expected a list of 4 type ids (one per '
     'position), got "0011"'),
    (put("token_types", value=[0, 0, 2, 1]), "token_types[2]: expected a whole number from 0 "
     "to 1, got 2"),
    (put("type_table", value=[[1, 2, 3]]), "type_table: expected 4 columns to match d=4, got 3"),
    (put("embedding_norm", "norm", value="none"), 'embedding_norm.norm: expected one of '
     '"layernorm" | "rmsnorm", got "none"'),
    (put("embedding_norm", "eps", value=-1), "embedding_norm.eps: ε must not be negative, got "
     "-1.0"),
    (put("embedding_norm", "gamma", value=[1, 2]), "embedding_norm.gamma: expected 4 numbers "
     "to match d=4, got 2"),
    (put("embedding_norm", "shift", value=[1, 2]), "embedding_norm.shift: unknown key (allowed "
     "here: norm, eps, gamma, beta)"),
    (put("positions", value={"kind": "sinusoidal", "layout": "paired"}), 'positions.layout: '
     'expected one of "interleaved" | "halves", got "paired"'),
    (put("positions", value={"kind": "rope", "layout": "halves"}), "positions.layout: belongs "
     "to kind sinusoidal, not rope"),
    (put("layers", 0, "attention", "beta_q", value=[1, 2]), "layers.0.attention.beta_q: a "
     'QK-norm shift needs qk_norm "layernorm" (RMSNorm has no shift)'),
]


@pytest.mark.parametrize(("change", "message"), REFUSALS,
                         ids=[f"r{k}" for k in range(len(REFUSALS))])
def test_bad_values_are_refused_naming_the_place(change: Any, message: str) -> None:
    assert _refusal(change) == message


def test_a_qk_shift_has_d_k_numbers_and_needs_layernorm() -> None:
    def rms(doc: Doc) -> None:
        doc["layers"][0]["attention"].update(qk_norm="rmsnorm", beta_k=[0, 0])

    def short(doc: Doc) -> None:
        doc["layers"][0]["attention"].update(qk_norm="layernorm", beta_k=[0, 0, 0])

    assert _refusal(rms) == ('layers.0.attention.beta_k: a QK-norm shift needs qk_norm '
                             '"layernorm" (RMSNorm has no shift)')
    assert _refusal(short) == ("layers.0.attention.beta_k: expected 2 numbers to match d_k=2, "
                               "got 3")
