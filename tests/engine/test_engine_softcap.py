"""Gemma 2's soft cap of the logits, ``head.softcap``: read with its refusals, written back,
computed as c·tanh(x / c) in a ``softcap`` step after the logits and explained cell by cell in
both languages (every number recomputed here)."""

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
from tests.engine.capped_head import CAP, capped_document, capped_scenario


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
