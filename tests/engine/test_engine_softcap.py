"""Gemma 2's soft caps: of the logits (``head.softcap``, a ``softcap`` step after the logits)
and of each attention's scores (``attention.softcap``, part of the scores step): read with their
refusals, written back, computed as c·tanh(x / c), explained cell by cell in both languages and
kept by the KV cache and a grown trace (every number recomputed here)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.texts.problems import problem_words
from engine import compute, explain, parse_scenario
from engine.format.errors import ScenarioError
from engine.format.generation_keys import Settings
from engine.format.numbers import format_number
from engine.format.writer import to_document
from engine.generation.redraw import with_settings
from tests.engine.cache_agreement import assert_cached_and_grown_as_whole
from tests.engine.capped_head import CAP, capped_document, capped_scenario
from tests.engine.generation_documents import cases
from tests.engine.test_engine_masked_lm import _counted


@pytest.mark.parametrize(("value", "english", "chinese"), [
    (0, "expected a number above 0, got 0.0", "应为大于 0 的数"),
    (-3.0, "expected a number above 0, got -3.0", "应为大于 0 的数"),
    ("30", 'expected a number, got "30"', "应为一个数"),
    (True, "expected a number, got true", "应为一个数"),
])
def test_a_bad_softcap_is_refused_at_its_place_in_both_languages(
        value: object, english: str, chinese: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(capped_document() | {"head": {**capped_document()["head"],
                                                     "softcap": value}})
    assert str(refused.value) == f"head.softcap: {english}"
    zh = problem_words(refused.value, "zh")
    assert zh.startswith("head.softcap：") and chinese in zh


def test_a_softcap_without_a_vocabulary_is_refused() -> None:
    doc = capped_document()
    head = {key: value for key, value in doc["head"].items()
            if key not in ("unembed", "vocab", "bias")}
    with pytest.raises(ScenarioError) as refused:
        parse_scenario({**doc, "head": head})
    assert refused.value.place == "head.softcap"
    assert "a soft cap of the logits need the head head.unembed" in str(refused.value)


def test_null_is_no_cap_and_the_writer_keeps_a_cap() -> None:
    doc = capped_document()
    plain = parse_scenario({**doc, "head": {**doc["head"], "softcap": None}})
    assert plain.head is not None and plain.head.softcap is None
    assert "softcap" not in to_document(plain)["head"]
    assert [s.op for s in compute(plain).steps][-3:] == ["logits", "probs", "sample"]
    written = to_document(capped_scenario())
    assert written["head"]["softcap"] == CAP and written["version"] == 2
    again = parse_scenario(written)
    assert again.head is not None and again.head.softcap == CAP


def test_the_softcap_step_caps_the_logits_and_explains_a_cell() -> None:
    trace = compute(capped_scenario())
    raw = trace.arrays["logits_uncapped"]
    step = trace.steps[trace.step_index("softcap")]
    assert (step.op, step.reads, step.writes) == ("softcap", ("logits_uncapped",), ("logits",))
    assert step.title == "Soft cap: 0.5 · tanh(logits / 0.5)"
    row, col = 2, 1
    expected = 0.5 * math.tanh(float(raw[row, col]) / 0.5)
    assert float(trace.arrays["logits"][row, col]) == pytest.approx(expected, abs=1e-15)
    told = explain(trace, "logits", (row, col))
    assert told.formula == (f"logits[2,1] = 0.5 · tanh(logits_uncapped[2,1] / 0.5) = "
                            f"0.5 · tanh({format_number(float(raw[row, col]))} / 0.5) = "
                            f"{format_number(expected)}")
    assert told.details == ("the soft cap c = 0.5 keeps every value between −0.5 and 0.5; "
                            "small values pass almost unchanged",)
    zh = explain(trace, "logits", (row, col), lang="zh")
    assert zh.formula == told.formula and "软截断 c = 0.5" in zh.details[0]
    # the logits step itself is explained from its own (uncapped) numbers
    assert explain(trace, "logits_uncapped", (row, col)).formula.endswith(
        f"= {format_number(float(raw[row, col]))}")


def test_a_greedy_draw_takes_the_largest_capped_logit() -> None:
    trace = compute(with_settings(capped_scenario(), Settings(temperature=0.0)))
    capped = CAP * np.tanh(trace.arrays["logits_uncapped"][-1] / CAP)
    np.testing.assert_allclose(trace.arrays["gen1.logits"], capped, rtol=0, atol=1e-15)
    assert int(trace.arrays["gen1.chosen"][0]) == int(np.argmax(capped))


SCORE_CAP = 0.5


def _scores_capped(**more: object) -> dict[str, object]:
    """The three-layers document with every attention's scores capped at 0.5."""
    doc = capped_document(**more)
    doc["layers"] = [{**layer, "attention": {**layer["attention"], "softcap": SCORE_CAP}}
                     for layer in doc["layers"]]
    return doc


def test_the_scores_step_caps_the_scaled_scores_that_the_softmax_reads() -> None:
    trace = compute(parse_scenario(_scores_capped()))
    step = trace.steps[trace.step_index("L1.scores")]
    assert step.writes == ("L1.scores_uncapped", "L1.scores")
    assert step.title == ("Layer 1: Scores q·k, divided by √dₖ, then soft-capped: "
                          "0.5 · tanh(s / 0.5)")
    att = trace.scenario.layers[0].attention
    q, k = trace.arrays["L1.Q"], trace.arrays["L1.K"]
    d_k = att.d_k
    raw = np.stack([q[:, h * d_k:(h + 1) * d_k] @ k[:, h * d_k:(h + 1) * d_k].T / math.sqrt(d_k)
                    for h in range(att.heads)])
    np.testing.assert_allclose(trace.arrays["L1.scores_uncapped"], raw, rtol=0, atol=1e-15)
    capped = SCORE_CAP * np.tanh(raw / SCORE_CAP)
    assert np.abs(capped - raw).max() > 0.5  # the cap bites
    np.testing.assert_allclose(trace.arrays["L1.scores"], capped, rtol=0, atol=1e-15)
    seen = np.tril(np.ones((3, 3), dtype=bool))
    exps = np.where(seen, np.exp(capped - capped.max(axis=-1, keepdims=True)), 0.0)
    np.testing.assert_allclose(trace.arrays["L1.weights"], exps / exps.sum(-1, keepdims=True),
                               rtol=0, atol=1e-15)
    h, i, j = 1, 2, 0
    told = explain(trace, "L1.scores", (h, i, j))
    assert told.formula == (
        f"L1.scores[1,2,0] = 0.5 · tanh(L1.scores_uncapped[1,2,0] / 0.5) = "
        f"0.5 · tanh({format_number(float(raw[h, i, j]))} / 0.5) = "
        f"{format_number(float(capped[h, i, j]))}")
    assert "软截断 c = 0.5" in explain(trace, "L1.scores", (h, i, j), lang="zh").details[0]
    assert explain(trace, "L1.scores_uncapped", (h, i, j)).formula.startswith(
        "L1.scores_uncapped[1,2,0] = (")


def test_the_writer_keeps_each_scores_cap_and_null_is_none() -> None:
    written = to_document(parse_scenario(_scores_capped()))
    assert [layer["attention"]["softcap"] for layer in written["layers"]] == [SCORE_CAP] * 3
    again = parse_scenario(written)
    assert [layer.attention.softcap for layer in again.layers] == [SCORE_CAP] * 3
    doc = _scores_capped()
    doc["layers"][0]["attention"]["softcap"] = None
    assert parse_scenario(doc).layers[0].attention.softcap is None
    doc["layers"][0]["attention"]["softcap"] = -1
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert str(refused.value) == "layers.0.attention.softcap: expected a number above 0, got -1.0"


def test_the_kv_cache_and_a_grown_trace_cap_the_scores_as_the_full_computation() -> None:
    assert_cached_and_grown_as_whole(_scores_capped(), ("L2.scores_uncapped", "L2.scores",
                                                        "L2.weights", "gen2.logits"))


def test_a_scores_cap_beside_alibi_is_refused_in_both_languages() -> None:
    doc = cases()["alibi"]
    doc["layers"][1]["attention"]["softcap"] = 5.0
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert str(refused.value) == (
        "layers.1.attention.softcap: a soft cap of the scores beside ALiBi's bias is not "
        "computed: QKV Studio caps the scores of models without ALiBi (Gemma 2)")
    assert "不计算与 ALiBi 偏置并用的分数软截断" in problem_words(refused.value, "zh")


def test_the_trace_size_limit_counts_the_uncapped_arrays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain, capped = capped_document(), _scores_capped()
    plain["head"] = {key: value for key, value in plain["head"].items() if key != "softcap"}
    for layer in plain["layers"]:
        assert "softcap" not in layer["attention"]
    trace = compute(parse_scenario(capped))
    added = sum(trace.arrays[name].size for name in trace.arrays if name.endswith("_uncapped"))
    assert added == 3 * 3 + 3 * (2 * 3 * 3)  # n × V, and h × n × n in each of three layers
    assert _counted(capped, monkeypatch) - _counted(plain, monkeypatch) == added
