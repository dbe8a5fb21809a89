"""The committed Qwen2-MoE fixture as the importer reads it — layer 1 dense, layer 2 a mixture of
4 experts with 2 chosen, not renormalised, and the shared expert behind its gate — and what it
refuses, by place. (Its numbers against transformers in float64 are in
test_engine_checkpoint_transformers.py; against an independent numpy forward in
test_engine_checkpoint.py.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from app.texts.problems import problem_words
from engine import ScenarioError, compute
from engine.checkpoint import import_checkpoint
from engine.scenario.modules import FeedForward, Mixture
from tests.engine.hf_reference import FIXTURES, stored
from tests.engine.test_engine_checkpoint_refusals import copy, refusal

FOLDER = FIXTURES / "qwen2_moe"


def test_the_sparse_layer_holds_the_shared_expert_and_its_gate_as_stored() -> None:
    scenario = import_checkpoint(FOLDER, "the cat")
    tensors = stored(FOLDER / "model.safetensors")
    dense, sparse = (layer.block.ffn for layer in scenario.layers)  # type: ignore[union-attr]
    assert isinstance(dense, FeedForward) and isinstance(sparse, Mixture)
    assert (sparse.top_k, sparse.normalize, len(sparse.experts)) == (2, False, 4)
    assert sparse.shared_gate is not None and sparse.shared is not None
    at = "model.layers.1.mlp."
    for array, name in ((sparse.shared_gate, "shared_expert_gate"),
                        (sparse.shared.Wg, "shared_expert.gate_proj"),
                        (sparse.shared.W1, "shared_expert.up_proj"),
                        (sparse.shared.W2, "shared_expert.down_proj")):
        np.testing.assert_array_equal(array, tensors[f"{at}{name}.weight"].T)
    assert sparse.shared.activation == "silu" and sparse.shared.b1 is None
    attention = scenario.layers[0].attention
    np.testing.assert_array_equal(attention.bq, tensors["model.layers.0.self_attn.q_proj.bias"])
    assert attention.bo is None


def test_a_shared_expert_of_another_width_is_refused(tmp_path: Path) -> None:
    folder = copy(tmp_path, "qwen2_moe", shared_expert_intermediate_size=12)
    assert refusal(folder) == (f"{folder}/model.safetensors: the tensor "
                               "model.layers.1.mlp.shared_expert.gate_proj.weight is 10 × 8, and "
                               "config.json makes it 12 × 8")


def test_no_experts_make_the_sparse_layer_dense_and_its_dense_tensors_are_asked_for(
        tmp_path: Path) -> None:
    """``num_experts`` 0: transformers builds a plain MLP in every layer, which this checkpoint
    does not hold."""
    folder = copy(tmp_path, "qwen2_moe", num_experts=0)
    assert refusal(folder) == (f"{folder}/*.safetensors: no weights file holds the tensor "
                               "model.layers.1.mlp.gate_proj.weight")


def test_a_sliding_layer_without_use_sliding_window_is_refused_in_both_languages(
        tmp_path: Path) -> None:
    folder = copy(tmp_path, "qwen2_moe", layer_types=["sliding_attention", "full_attention"])
    assert refusal(folder) == (
        f"{folder}/config.json.layer_types: marks a layer sliding_attention while "
        "use_sliding_window is false: transformers then slides a window of 0 keys, which hides "
        "every key")
    try:
        import_checkpoint(folder, "the cat")
    except ScenarioError as refused:
        assert problem_words(refused, "zh").endswith(
            "把某层标为 sliding_attention，而 use_sliding_window 为 false：transformers 此时的"
            "窗口只有 0 个键，会遮住所有的键")


def test_without_norm_topk_prob_the_chosen_shares_are_not_renormalised(tmp_path: Path) -> None:
    """transformers' Qwen2-MoE default (``norm_topk_prob`` false): a token's weights are its two
    chosen shares as they are, summing to less than 1."""
    scenario = import_checkpoint(copy(tmp_path, "qwen2_moe", norm_topk_prob=None), "the cat")
    sparse = scenario.layers[1].block.ffn  # type: ignore[union-attr]
    assert isinstance(sparse, Mixture) and not sparse.normalize
    weights = compute(scenario).arrays["L2.router_weights"]
    assert (weights.sum(axis=1) < 1 - 1e-3).all()


def test_without_qkv_bias_the_queries_keys_and_values_have_their_biases(tmp_path: Path) -> None:
    """Qwen1.5-MoE's config.json predates ``qkv_bias``: transformers builds the biases (its
    default true), so the importer reads them."""
    scenario = import_checkpoint(copy(tmp_path, "qwen2_moe", qkv_bias=None), "the cat")
    tensors = stored(FOLDER / "model.safetensors")
    for k, layer in enumerate(scenario.layers):
        np.testing.assert_array_equal(layer.attention.bv,
                                      tensors[f"model.layers.{k}.self_attn.v_proj.bias"])
