"""An attention's ``scale_dk``: the scores divided by √scale_dk in place of √d_k (Gemma 2 27B's
``query_pre_attn_scalar`` 144 with heads 128 wide): read with its refusals, written back,
computed as transformers multiplies (q·k × scale_dk^(−1/2)), titled and explained in both
languages, and kept by the KV cache and a grown trace (every number recomputed here)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from app.texts.problems import problem_words
from engine import compute, explain, parse_scenario
from engine.format.errors import ScenarioError
from engine.format.numbers import format_number
from engine.format.writer import to_document
from tests.engine.cache_agreement import assert_cached_and_grown_as_whole
from tests.engine.generation_documents import cases

SCALE_DK = 12.0
"""Not the three-layers document's d_k (2): its scores are divided by √12 = 3.464, not √2."""


def _rescaled(**attention: Any) -> dict[str, Any]:
    """The three-layers document, each attention's ``scale_dk`` :data:`SCALE_DK` (and
    ``attention``'s keys)."""
    doc = cases()["three-layers"]
    doc["layers"] = [{**layer, "attention": {**layer["attention"], "scale_dk": SCALE_DK,
                                             **attention}} for layer in doc["layers"]]
    return doc


@pytest.mark.parametrize(("value", "english", "chinese"), [
    (0, "expected a number above 0, got 0.0", "应为大于 0 的数"),
    (-144, "expected a number above 0, got -144.0", "应为大于 0 的数"),
    ("144", 'expected a number, got "144"', "应为一个数"),
    (True, "expected a number, got true", "应为一个数"),
])
def test_a_bad_scale_dk_is_refused_at_its_place_in_both_languages(
        value: object, english: str, chinese: str) -> None:
    doc = _rescaled()
    doc["layers"][1]["attention"]["scale_dk"] = value
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert str(refused.value) == f"layers.1.attention.scale_dk: {english}"
    zh = problem_words(refused.value, "zh")
    assert zh.startswith("layers.1.attention.scale_dk：") and chinese in zh


def test_a_scale_dk_without_scaling_is_refused_in_both_languages() -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(_rescaled(scale=False))
    assert str(refused.value) == (
        "layers.0.attention.scale_dk: scale_dk is the number under the square root the scores "
        "are divided by; with scale false they are divided by nothing")
    assert problem_words(refused.value, "zh") == (
        "layers.0.attention.scale_dk：scale_dk 是分数所除的平方根下的数；scale 为 false 时分数"
        "不做除法，它无处可用")


def test_null_is_d_k_and_the_writer_keeps_a_scale_dk() -> None:
    plain = _rescaled(scale_dk=None)
    assert parse_scenario(plain).layers[0].attention.scale_dk is None
    assert "scale_dk" not in to_document(parse_scenario(plain))["layers"][0]["attention"]
    written = to_document(parse_scenario(_rescaled()))
    assert [layer["attention"]["scale_dk"] for layer in written["layers"]] == [SCALE_DK] * 3
    again = parse_scenario(written)
    assert [layer.attention.scale_dk for layer in again.layers] == [SCALE_DK] * 3


def test_the_scores_are_q_dot_k_times_scale_dk_to_the_minus_half() -> None:
    trace = compute(parse_scenario(_rescaled()))
    att = trace.scenario.layers[1].attention
    q, k, d_k = trace.arrays["L2.Q"], trace.arrays["L2.K"], att.d_k
    groups = [att.kv_head(h) for h in range(att.heads)]
    expected = np.stack([q[:, h * d_k:(h + 1) * d_k] @ k[:, g * d_k:(g + 1) * d_k].T
                         * SCALE_DK ** -0.5 for h, g in enumerate(groups)])
    np.testing.assert_allclose(trace.arrays["L2.scores"], expected, rtol=0, atol=1e-15)
    unscaled = compute(parse_scenario(cases()["three-layers"])).arrays["L2.scores"]
    assert np.abs(unscaled - trace.arrays["L2.scores"]).max() > 0.1  # √12 is not √2
    step = trace.steps[trace.step_index("L2.scores")]
    assert step.title == "Layer 2: Scores q·k, divided by √12"
    h, i, j = 0, 2, 1
    told = explain(trace, "L2.scores", (h, i, j))
    raw = float(q[i, :d_k] @ k[j, groups[0] * d_k:(groups[0] + 1) * d_k])
    assert told.formula.startswith("L2.scores[0,2,1] = (L2.Q[2,0]·L2.K[1,0] + ")
    assert ") / √12 = (" in told.formula
    assert told.formula.endswith(f") / 3.464102 = {format_number(raw)} / 3.464102 = "
                                 f"{format_number(float(expected[h, i, j]))}")
    assert explain(trace, "L2.scores", (h, i, j), lang="zh").formula == told.formula


def test_the_kv_cache_and_a_grown_trace_scale_as_the_full_computation() -> None:
    assert_cached_and_grown_as_whole(_rescaled(), ("L2.scores", "L2.weights", "gen2.logits"))
