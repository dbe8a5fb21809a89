"""An attention's ``rope_scaled`` false: a layer leaving the stack's RoPE scaling out (Gemma 3
4B: its global layers scaled by linear 8, its sliding ones not) — read with its refusals,
written back, computed into the layer's own ``rope_angles``, titled and explained, and kept by
the KV cache and a grown trace (every number recomputed here)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from app.texts.problems import problem_words
from engine import compute, explain, parse_scenario
from engine.format.errors import ScenarioError
from engine.format.writer import to_document
from tests.engine.cache_agreement import assert_cached_and_grown_as_whole
from tests.engine.test_engine_rope_base import OWN_BASE, STACK_BASE, _turned
from tests.engine.test_engine_rope_base import _document as _own_base_document

YARN = {"type": "yarn", "factor": 4, "original_max_position_embeddings": 8}
"""Over 8 positions, r = 4: pair 0 keeps θ₀ (ramp 0), pair 1 is divided by 4 (ramp 1); cos and
sin × 1 + 0.1·ln 4."""


def _document(scaling: dict[str, Any] | None = None) -> dict[str, Any]:
    """Three layers under a scaled RoPE of base :data:`STACK_BASE`: layer 1 scaled, layer 2 by
    its own base :data:`OWN_BASE` unscaled, layer 3 by the stack's base unscaled."""
    doc = _own_base_document(scaling=scaling or YARN)
    for layer in doc["layers"][1:]:
        layer["attention"]["rope_scaled"] = False
    return doc


def test_an_unscaled_layer_turns_by_its_plain_angles_and_the_others_by_the_scaled() -> None:
    trace = compute(parse_scenario(_document()))
    p = np.arange(3, dtype=np.float64)[:, None]
    plain = p * STACK_BASE ** (-np.arange(0, 4, 2) / 4)
    scaled = plain * np.array([1.0, 0.25])  # yarn's m: 1 for pair 0, 1/4 for pair 1
    own = p * OWN_BASE ** (-np.arange(0, 4, 2) / 4)
    attention_factor = 1 + 0.1 * math.log(4)
    np.testing.assert_allclose(trace.arrays["rope_angles"], scaled, rtol=0, atol=1e-15)
    np.testing.assert_allclose(trace.arrays["L2.rope_angles"], own, rtol=0, atol=1e-15)
    np.testing.assert_allclose(trace.arrays["L3.rope_angles"], plain, rtol=0, atol=1e-15)
    assert plain[2, 1] == pytest.approx(0.02) and scaled[2, 1] == pytest.approx(0.005)
    for layer, angles, factor in (("L1", scaled, attention_factor), ("L2", own, 1.0),
                                  ("L3", plain, 1.0)):
        for rows, turned in (("Q", "Q_rot"), ("K", "K_rot")):
            np.testing.assert_allclose(
                trace.arrays[f"{layer}.{turned}"],
                factor * _turned(trace.arrays[f"{layer}.{rows}"], angles), rtol=0, atol=1e-14)
    titles = [trace.steps[trace.step_index(f"L{k}.rope")].title for k in (1, 2, 3)]
    assert titles == [
        "Layer 1: RoPE: each pair of q and k turned by p·θ",
        "Layer 2: RoPE: each pair of q and k turned by p·θ, θ from this layer's base 100, "
        "without the stack's scaling",
        "Layer 3: RoPE: each pair of q and k turned by p·θ, without the stack's scaling"]
    assert trace.steps[trace.step_index("L3.rope")].reads == ("L3.Q", "L3.K", "L3.rope_angles")
    told = explain(trace, "L3.rope_angles", (2, 1))
    assert told.formula == "L3.rope_angles[2,1] = p·θ₁ = 2·10000^(−2/4) = 2·0.01 = 0.02"
    assert not any("yarn" in line for line in told.details)
    assert explain(trace, "rope_angles", (2, 1)).formula == \
        "rope_angles[2,1] = p·θ₁·m = 2·10000^(−2/4)·m = 2·0.01·0.25 = 0.005"
    assert ")·a = " in explain(trace, "L1.Q_rot", (2, 0)).formula  # yarn's attention factor
    assert ")·a" not in explain(trace, "L3.Q_rot", (2, 0)).formula


def test_the_writer_keeps_rope_scaled_false_and_true_is_the_default() -> None:
    written = to_document(parse_scenario(_document()))
    assert ["rope_scaled" in layer["attention"] for layer in written["layers"]] == \
        [False, True, True]
    assert [layer["attention"].get("rope_scaled") for layer in written["layers"][1:]] == \
        [False, False]
    again = parse_scenario(written)
    assert [layer.attention.rope_scaled for layer in again.layers] == [True, False, False]
    doc = _document()
    doc["layers"][1]["attention"]["rope_scaled"] = True
    with pytest.raises(ScenarioError):  # its own base beside the scaling it takes
        parse_scenario(doc)
    doc["layers"][1]["attention"]["rope_base"] = None
    assert parse_scenario(doc).layers[1].attention.rope_scaled


@pytest.mark.parametrize(("change", "place", "english", "chinese"), [
    (lambda d: d["positions"].pop("scaling"), "layers.1.attention.rope_scaled",
     "rope_scaled false leaves out the stack's RoPE scaling; these positions have no scaling "
     "to leave out", "rope_scaled 为 false 表示本层不用这一栈的 RoPE 缩放"),
    (lambda d: d.pop("positions"), "layers.1.attention.rope_scaled",
     "rope_scaled false leaves out the stack's RoPE scaling", "rope_scaled 为 false"),
    (lambda d: d["layers"][1]["attention"].update(rope_scaled=True), "layers.1.attention.rope_base",
     "a layer's own RoPE base beside a RoPE scaling is computed only for a layer that leaves the "
     "scaling out (\"rope_scaled\": false)", "层自己的 RoPE 基数只能用于不采用缩放的层"),
    (lambda d: d["layers"][2]["attention"].update(rope_scaled="no"),
     "layers.2.attention.rope_scaled", "expected true or false", "应为 true 或 false"),
])
def test_a_rope_scaled_the_engine_cannot_compute_is_refused_in_both_languages(
        change: Any, place: str, english: str, chinese: str) -> None:
    doc = _document()
    change(doc)
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert str(refused.value).startswith(f"{place}: {english}")
    assert problem_words(refused.value, "zh").startswith(f"{place}：{chinese}")


def test_the_kv_cache_and_a_grown_trace_leave_the_scaling_out_as_the_whole_does() -> None:
    assert_cached_and_grown_as_whole(_document(), (
        "rope_angles", "L2.rope_angles", "L3.rope_angles", "L1.Q_rot", "L3.Q_rot", "L3.K_rot",
        "L3.scores", "gen2.logits"))
