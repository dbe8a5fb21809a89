"""Comparing two traces (engine.arithmetic.differences) and making the variants to compare
(engine.scenario.variants).

Golden numbers come from the chapter's micro-example — LayerNorm([1, 3]) = [−1, 1],
RMSNorm([1, 3]) = [1/√5, 3/√5] — or are recomputed here with ``math``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ScenarioError, compute, load_scenario, parse_scenario
from engine.arithmetic.differences import compare, matching_step, named_arrays
from engine.checkpoint import import_checkpoint
from engine.format.mapped_weight import MappedWeight
from engine.format.writer import to_document
from engine.forward.numerics import row_statistics
from engine.scenario.edit import with_cell, with_parameter
from engine.scenario.variants import variant
from tests.engine.hf_reference import FIXTURES
from tests.examples import EXAMPLES, trace_of


def test_layernorm_against_rmsnorm_on_the_chapters_one_three_row() -> None:
    a = trace_of("norms")
    other = variant(a.scenario, "norm")
    assert (other.label_a, other.label_b) == ("LayerNorm", "RMSNorm")
    b = compute(other.scenario)
    result = compare(a, b)
    norm1 = result.common["norm1"]
    np.testing.assert_allclose(norm1.a, [[-1.0, 1.0]], atol=0)
    np.testing.assert_allclose(norm1.b, [[1 / math.sqrt(5), 3 / math.sqrt(5)]], rtol=1e-15)
    np.testing.assert_allclose(norm1.difference, [[1 / math.sqrt(5) + 1, 3 / math.sqrt(5) - 1]],
                               rtol=1e-15)
    assert norm1.max_abs == pytest.approx(1 + 1 / math.sqrt(5), rel=1e-15)
    assert f"{norm1.b[0, 0]:.6f}, {norm1.b[0, 1]:.6f}" == "0.447214, 1.341641"
    changed = result.changed()
    assert changed[:2] == ["norm1", "Q"]
    assert "X" in result.unchanged() and "weights" in result.unchanged(), \
        "one position: its only share is 1 under either norm"
    assert "block.gamma1" in result.unchanged(), "parameters are compared too"
    assert result.only_a == result.only_b == ()
    # LayerNorm divides by three row statistics (μ, σ², √(σ²+ε)), RMSNorm by two.
    assert result.reshaped == {"norm1_stats": ((1, 3), (1, 2)), "norm2_stats": ((1, 3), (1, 2))}


def test_a_step_comparison_sorts_what_the_step_reads_and_writes() -> None:
    a = trace_of("norms")
    b = compute(variant(a.scenario, "norm").scenario)
    step = a.steps[a.step_index("norm1")]
    of_step = compare(a, b).of_step([step])
    assert of_step.changed == ("norm1",)
    assert of_step.unchanged == ("X", "block.gamma1", "block.beta1")


def test_editing_the_head_changes_only_logits_and_probs_among_trace_arrays() -> None:
    a = trace_of("g01")
    unembed = a.scenario.parameter("block.unembed").copy()
    unembed[0, 0] = 3.0
    b = compute(with_parameter(a.scenario, "block.unembed", unembed))
    result = compare(a, b)
    assert result.changed() == ["logits", "probs", "block.unembed"]
    assert result.common["block.unembed"].max_abs == 2.0
    # logits[0, 0] = final_norm[0] · unembed[:, 0]; only the first feature's weight moved by 2.
    final = a.arrays["final_norm"]
    assert result.common["logits"].difference[:, 0] == pytest.approx(2.0 * final[:, 0])


def test_arrays_on_one_side_and_reshaped_arrays_are_listed_apart() -> None:
    g01 = trace_of("g01")
    f11 = trace_of("f11")
    result = compare(f11, g01)
    assert "norm1" in result.only_b and "probs" in result.only_b
    assert result.only_a == ()
    assert "scores" in result.common, "both have 1 × 2 × 2 scores"
    three = trace_of("single-key")
    shapes = compare(f11, three).reshaped
    assert shapes["X"] == ((2, 2), (3, 2))
    assert "X" not in compare(f11, three).common


def test_named_arrays_can_leave_the_parameters_out() -> None:
    trace = trace_of("f11")
    assert "attention.Wq" in named_arrays(trace)
    assert set(named_arrays(trace, parameters=False)) == set(trace.arrays)


def test_pre_and_post_steps_are_matched_by_id() -> None:
    pre = trace_of("g01")
    post = compute(variant(pre.scenario, "placement").scenario)
    for k, step in enumerate(pre.steps):
        assert post.steps[matching_step(pre, post, k)].id == step.id
    f11 = trace_of("f11")
    assert matching_step(pre, f11, pre.step_index("probs")) == len(f11.steps) - 1


@pytest.mark.parametrize(("kind", "labels"), [
    ("placement", ("pre-norm", "post-norm")),
    ("causal", ("causal mask", "no mask")),
    ("scale", ("scaled by √dₖ", "not scaled")),
])
def test_each_variant_changes_one_setting(kind: str, labels: tuple[str, str]) -> None:
    scenario = load_scenario(EXAMPLES / "g01.qkv.json")
    made = variant(scenario, kind)
    assert (made.label_a, made.label_b) == labels
    before, after = to_document(scenario), to_document(made.scenario)
    changed = [(section, key) for section in ("attention", "block")
               for key in before[section] if before[section][key] != after[section][key]]
    assert len(changed) == 1
    twice = variant(made.scenario, kind)
    assert to_document(twice.scenario) == before, "flipping twice gives the document back"


def test_turning_the_scaling_off_drops_a_scale_dk_with_it() -> None:
    document = to_document(load_scenario(EXAMPLES / "g01.qkv.json"))
    document["attention"]["scale_dk"] = 144
    made = variant(parse_scenario(document), "scale")
    assert made.scenario.layers[0].attention.scale is False
    assert made.scenario.layers[0].attention.scale_dk is None


def test_turning_causal_off_lets_the_first_position_read_the_second() -> None:
    a = trace_of("g01")
    b = compute(variant(a.scenario, "causal").scenario)
    weights = compare(a, b).common["weights"]
    assert weights.a[0, 0, 1] == 0.0
    # Without the mask, row p1 = norm1[0] = [0.99998, −0.99998] reads p2 = [−0.999995, 0.999995].
    q = a.arrays["norm1"]
    s = q @ q.T / math.sqrt(2)
    expected = math.exp(s[0, 1]) / (math.exp(s[0, 0]) + math.exp(s[0, 1]))
    assert weights.b[0, 0, 1] == pytest.approx(expected, rel=1e-12)


def test_a_block_setting_without_a_block_is_refused_by_name() -> None:
    f11 = load_scenario(EXAMPLES / "f11.qkv.json")
    with pytest.raises(ScenarioError) as caught:
        variant(f11, "norm")
    assert caught.value.place == "block"
    assert "no block" in str(caught.value)


def test_row_statistics_print_mean_variance_and_divisor() -> None:
    x = np.array([[1.0, 3.0], [0.0, 2.0]])
    layer = row_statistics("layernorm", x, 1e-5)
    np.testing.assert_allclose(layer[:, 0], [2.0, 1.0])
    np.testing.assert_allclose(layer[:, 1], [1.0, 1.0])
    np.testing.assert_allclose(layer[:, 2], [math.sqrt(1.00001)] * 2, rtol=1e-15)
    rms = row_statistics("rmsnorm", x, 0.0)
    np.testing.assert_allclose(rms, [[5.0, math.sqrt(5)], [2.0, math.sqrt(2)]], rtol=1e-15)
    assert row_statistics("none", x, 0.0).shape == (2, 0)


def test_weights_left_in_their_checkpoint_are_compared_without_widening_the_same_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Compare mode on a mapped document (issue 37, item 4): a weight A and B hold alike (one
    tensor, the same edits) differs by 0 with nothing widened; one B edited is widened and
    differs at its edited cell alone, by the number set minus the stored one."""
    a = import_checkpoint(FIXTURES / "llama", "the cat sat on the mat")
    b = with_cell(a, "layers.0.attention.Wq", (1, 2), 0.75)
    c = with_cell(a, "layers.0.attention.Wq", (1, 2), 0.75)  # alike, another object
    stored = np.asarray(a.weight("layers.0.attention.Wq"), dtype=np.float64)
    trace_a, trace_b, trace_c = compute(a), compute(b), compute(c)
    widened_ones: list[str] = []
    real = MappedWeight.widened

    def noted(weight: MappedWeight, room: np.ndarray | None = None) -> np.ndarray:
        widened_ones.append(weight.name)
        return real(weight, room)

    monkeypatch.setattr(MappedWeight, "widened", noted)
    same = compare(trace_b, trace_c)
    assert widened_ones == []
    unembed = same.common["head.unembed"]
    assert unembed.max_abs == 0.0 and not unembed.difference.any()
    assert unembed.difference.shape == (8, 48) and "head.unembed" not in same.changed(0.0)
    assert same.common["layers.0.attention.Wq"].max_abs == 0.0
    edited = compare(trace_a, trace_b).common["layers.0.attention.Wq"]
    assert widened_ones == ["model.layers.0.self_attn.q_proj.weight"] * 2
    want = np.zeros_like(stored)
    want[1, 2] = 0.75 - stored[1, 2]
    np.testing.assert_array_equal(edited.difference, want)
    assert edited.max_abs == abs(0.75 - stored[1, 2]) > 0
