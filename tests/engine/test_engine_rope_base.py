"""An attention's ``rope_base``: a layer turning q and k by its own RoPE base (Gemma 3: 10000 in
its sliding layers beside the global 1000000) — read with its refusals, written back, computed
into the layer's own ``rope_angles``, titled and explained in both languages, and kept by the
KV cache and a grown trace (every number recomputed here)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from app.texts.problems import problem_words
from engine import compute, explain, parse_scenario
from engine.format.errors import ScenarioError
from engine.format.writer import to_document
from tests.engine.cache_agreement import assert_cached_and_grown_as_whole
from tests.engine.generation_documents import cases

STACK_BASE, OWN_BASE = 10000.0, 100.0


def _document(**positions: Any) -> dict[str, Any]:
    """The three-layers document with one head of 4 columns (two pairs, so the base matters),
    RoPE of base :data:`STACK_BASE`, and layer 2 turning by :data:`OWN_BASE`."""
    doc = cases()["three-layers"]
    doc["positions"] = {"kind": "rope", "base": STACK_BASE, **positions}
    for layer in doc["layers"]:
        layer["attention"]["heads"] = 1
    doc["layers"][1]["attention"]["rope_base"] = OWN_BASE
    return doc


def _turned(rows: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Pairs (i, i + 2) of a 4-column head turned by their angles (rotate_half's pairing)."""
    cos, sin = np.cos(angles), np.sin(angles)
    first, second = rows[:, :2], rows[:, 2:]
    return np.concatenate([first * cos - second * sin, first * sin + second * cos], axis=1)


def test_a_layer_turns_by_its_own_base_and_the_others_by_the_stacks() -> None:
    trace = compute(parse_scenario(_document()))
    p = np.arange(3, dtype=np.float64)[:, None]
    own = p * OWN_BASE ** (-np.arange(0, 4, 2) / 4)
    stack = p * STACK_BASE ** (-np.arange(0, 4, 2) / 4)
    np.testing.assert_allclose(trace.arrays["L2.rope_angles"], own, rtol=0, atol=1e-15)
    np.testing.assert_allclose(trace.arrays["rope_angles"], stack, rtol=0, atol=1e-15)
    assert own[2, 1] == pytest.approx(0.2) and stack[2, 1] == pytest.approx(0.02)
    for layer, angles in (("L1", stack), ("L2", own), ("L3", stack)):
        np.testing.assert_allclose(trace.arrays[f"{layer}.Q_rot"],
                                   _turned(trace.arrays[f"{layer}.Q"], angles), rtol=0,
                                   atol=1e-15)
    step = trace.steps[trace.step_index("L2.rope")]
    assert step.reads == ("L2.Q", "L2.K", "L2.rope_angles")
    assert step.title == "Layer 2: RoPE: each pair of q and k turned by p·θ, θ from this layer's " \
                         "base 100"
    assert trace.steps[trace.step_index("L1.rope")].reads[2] == "rope_angles"
    told = explain(trace, "L2.rope_angles", (2, 1))
    assert told.formula == "L2.rope_angles[2,1] = p·θ₁ = 2·100^(−2/4) = 2·0.1 = 0.2"
    assert explain(trace, "rope_angles", (2, 1)).formula.startswith(
        "rope_angles[2,1] = p·θ₁ = 2·10000^(−2/4)")


def test_the_writer_keeps_a_rope_base_and_null_is_the_stacks() -> None:
    written = to_document(parse_scenario(_document()))
    assert [layer["attention"].get("rope_base") for layer in written["layers"]] == \
        [None, OWN_BASE, None]
    again = parse_scenario(written)
    assert [layer.attention.rope_base for layer in again.layers] == [None, OWN_BASE, None]
    doc = _document()
    doc["layers"][1]["attention"]["rope_base"] = None
    assert parse_scenario(doc).layers[1].attention.rope_base is None


@pytest.mark.parametrize(("change", "place", "english", "chinese"), [
    (lambda d: d.pop("positions"), "layers.1.attention.rope_base",
     "a layer's own RoPE base needs the stack's positions to be RoPE (\"kind\": \"rope\")",
     "层自己的 RoPE 基数要求这一栈的位置编码是 RoPE"),
    (lambda d: d.update(positions={"kind": "alibi"}), "layers.1.attention.rope_base",
     "a layer's own RoPE base needs the stack's positions to be RoPE (\"kind\": \"rope\")",
     "层自己的 RoPE 基数要求这一栈的位置编码是 RoPE"),
    (lambda d: d["positions"].update(scaling={"type": "linear", "factor": 2}),
     "layers.1.attention.rope_base",
     "a layer's own RoPE base beside a RoPE scaling is computed only for a layer that leaves "
     "the scaling out (\"rope_scaled\": false)", "层自己的 RoPE 基数只能用于不采用缩放的层"),
    (lambda d: d["layers"][1]["attention"].update(rope_base=0), "layers.1.attention.rope_base",
     "expected a number above 0, got 0.0", "应为大于 0 的数"),
])
def test_a_rope_base_the_engine_cannot_compute_is_refused_in_both_languages(
        change: Any, place: str, english: str, chinese: str) -> None:
    doc = _document()
    change(doc)
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert str(refused.value) == f"{place}: {english}"
    assert problem_words(refused.value, "zh").startswith(f"{place}：{chinese}")


def test_the_kv_cache_and_a_grown_trace_turn_by_the_layers_base() -> None:
    assert_cached_and_grown_as_whole(_document(), ("L2.rope_angles", "L2.Q_rot", "L2.K_rot",
                                                   "L2.scores", "gen2.logits"))


def test_the_stacks_angles_are_explained_when_every_layer_has_its_own_base() -> None:
    """No layer reads the stack's ``rope_angles`` when each turns by its own base (a generated
    document of one such layer met it): the stack's angles are still explained, by its base."""
    doc = _document()
    for layer in doc["layers"]:
        layer["attention"]["rope_base"] = OWN_BASE
    trace = compute(parse_scenario(doc))
    assert all(trace.steps[trace.step_index(f"L{k}.rope")].reads[2] == f"L{k}.rope_angles"
               for k in (1, 2, 3))
    for lang in ("en", "zh"):
        told = explain(trace, "rope_angles", (2, 1), lang)
        assert told.formula == "rope_angles[2,1] = p·θ₁ = 2·10000^(−2/4) = 2·0.01 = 0.02"
