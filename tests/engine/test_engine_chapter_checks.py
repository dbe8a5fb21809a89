"""The chapter's own checks: Wv never moves the shares, the norm micro-example, one visible key."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Scenario, compute, explain, load_scenario
from engine.scenario.edit import with_document_value, with_parameter
from tests.examples import EXAMPLES

NAMES = ("f11", "g01", "multihead", "norms", "single-key", "tokenizer")


def scenario(name: str) -> Scenario:
    return load_scenario(EXAMPLES / f"{name}.qkv.json")


@pytest.mark.parametrize("name", NAMES)
def test_changing_wv_never_changes_the_shares(name: str) -> None:
    base = scenario(name)
    before = compute(base).arrays
    rng = np.random.default_rng(11)
    for _ in range(5):
        Wv = rng.normal(scale=3.0, size=base.attention.Wv.shape)
        changed = compute(with_parameter(base, "attention.Wv", Wv))
        if base.block is None or base.block.placement == "pre":
            # The shares come from Q and K only: bit for bit the same.
            assert np.array_equal(changed.arrays["weights"], before["weights"])
            assert np.array_equal(changed.arrays["scores"], before["scores"])
        assert not np.array_equal(changed.arrays["V"], before["V"])


def test_wv_only_changes_what_is_mixed_in_f11() -> None:
    base = scenario("f11")
    changed = compute(with_parameter(base, "attention.Wv", [[1, 0], [0, 1]]))
    w = changed.arrays["weights"][0]
    assert np.array_equal(w, compute(base).arrays["weights"][0])
    # mixed row 爱 = w·V with V = X now.
    assert np.allclose(changed.arrays["mixed"][1], w[1, 0] * np.array([1, 1]) +
                       w[1, 1] * np.array([1, -1]), rtol=1e-15, atol=0)


def test_layernorm_of_1_3_is_minus_one_one() -> None:
    s = scenario("norms")
    assert s.block is not None and s.block.eps == 0.0 and s.block.norm == "layernorm"
    norm1 = compute(s).arrays["norm1"]
    assert norm1.tolist() == [[-1.0, 1.0]]  # mean 2, variance 1, ε = 0: exact


def test_rmsnorm_of_1_3_is_one_and_three_over_root_five() -> None:
    s = with_document_value(scenario("norms"), "block.norm", "rmsnorm")
    norm1 = compute(s).arrays["norm1"][0]
    assert math.isclose(float(norm1[0]), 1 / math.sqrt(5), rel_tol=1e-15)
    assert math.isclose(float(norm1[1]), 3 / math.sqrt(5), rel_tol=1e-15)


@pytest.mark.parametrize("eps", [1e-3, 1e-6, 1e-9, 1e-12])
def test_norms_approach_the_micro_example_as_eps_goes_to_zero(eps: float) -> None:
    s = with_document_value(scenario("norms"), "block.eps", eps)
    layer = compute(s).arrays["norm1"][0]
    rms = compute(with_document_value(s, "block.norm", "rmsnorm")).arrays["norm1"][0]
    # Independent closed forms: LayerNorm divides [−1, 1] by √(1 + ε); RMSNorm [1, 3] by √(5 + ε).
    assert np.allclose(layer, [-1 / math.sqrt(1 + eps), 1 / math.sqrt(1 + eps)], rtol=1e-14)
    assert np.allclose(rms, [1 / math.sqrt(5 + eps), 3 / math.sqrt(5 + eps)], rtol=1e-14)
    assert np.allclose(layer, [-1, 1], atol=eps)
    assert np.allclose(rms, [1 / math.sqrt(5), 3 / math.sqrt(5)], atol=eps)


def test_norm_none_passes_the_row_through() -> None:
    s = with_document_value(scenario("norms"), "block.norm", "none")
    assert compute(s).arrays["norm1"].tolist() == [[1.0, 3.0]]


def test_rmsnorm_ignores_beta_and_layernorm_uses_it() -> None:
    s = with_document_value(scenario("norms"), "block.beta1", [10, 20])
    assert compute(s).arrays["norm1"].tolist() == [[9.0, 21.0]]
    rms = compute(with_document_value(s, "block.norm", "rmsnorm")).arrays["norm1"][0]
    assert np.allclose(rms, [1 / math.sqrt(5), 3 / math.sqrt(5)], rtol=1e-15)


def test_pre_and_post_norm_generally_differ() -> None:
    pre = scenario("g01")
    post = with_document_value(pre, "block.placement", "post")
    assert not np.allclose(compute(pre).arrays["resid2"], compute(post).arrays["resid2"])


@pytest.mark.parametrize("seed", range(8))
def test_one_visible_key_always_gets_share_exactly_one(seed: int) -> None:
    base = scenario("single-key")
    rng = np.random.default_rng(seed)
    s = with_parameter(base, "attention.Wq", rng.normal(scale=10.0, size=(2, 2)))
    s = with_parameter(s, "attention.Wk", rng.normal(scale=10.0, size=(2, 2)))
    trace = compute(s)
    w = trace.arrays["weights"][0]
    assert w[0, 0] == 1.0
    assert w[0, 1] == 0.0 and w[0, 2] == 0.0
    assert np.array_equal(trace.arrays["mixed"][0], trace.arrays["V"][0])
    assert "only one key is visible" in explain(trace, "weights", (0, 0)).text()


def test_one_position_without_mask_also_gets_share_one() -> None:
    s = with_document_value(scenario("norms"), "attention.causal", False)
    assert compute(s).arrays["weights"].tolist() == [[[1.0]]]


def test_two_heads_of_two_concatenate_to_four_then_wo_gives_six() -> None:
    trace = compute(scenario("multihead"))
    a = trace.arrays
    assert a["Q"].shape == (3, 4) and a["scores"].shape == (2, 3, 3)
    assert a["mixed"].shape == (3, 4) and a["attn_out"].shape == (3, 6)
    # Head 2 reads only columns 2..3 of Q and K.
    q, k = a["Q"][:, 2:], a["K"][:, 2:]
    assert np.allclose(a["scores"][1], q @ k.T / math.sqrt(2), rtol=1e-15, atol=1e-15)
    mix = np.concatenate([a["weights"][0] @ a["V"][:, :2], a["weights"][1] @ a["V"][:, 2:]], 1)
    assert np.allclose(a["mixed"], mix, rtol=1e-15, atol=1e-15)


def test_token_ids_pick_rows_of_the_embedding() -> None:
    s = scenario("tokenizer")
    assert s.token_ids == (7, 12, 3)
    assert s.embedding is not None
    trace = compute(s)
    for row, tid in enumerate((7, 12, 3)):
        assert np.array_equal(trace.arrays["X"][row], s.embedding[tid])
    assert [step.id for step in trace.steps][:2] == ["embed", "inputs"]
