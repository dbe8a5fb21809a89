"""Opening a Hugging Face checkpoint (issue 25, item 2): each committed tiny fixture imports as a
version-2 document whose arrays are the stored tensors in the book's convention, and whose
trace is the checkpoint's own computation, worked independently in tests/engine/hf_reference.py
(no torch)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from engine import ScenarioError, compute
from engine.checkpoint import choose_layers, import_checkpoint
from engine.checkpoint.config import FAMILIES as IMPORTED
from engine.checkpoint.document import FAMILY_LAYOUTS, TYPED
from engine.checkpoint.opt import TABLE_ROWS
from engine.format.mapped_weight import widened
from engine.scenario.scenario import Scenario
from tests.engine.hf_reference import (
    CAPPED,
    FAMILIES,
    FIXTURES,
    SCALED,
    config_of,
    hf_forward,
    stored,
)

TEXT = "the cat sat on the mat. 我爱你"


def imported(family: str, text: str = TEXT, layers: str | None = None) -> Scenario:
    return import_checkpoint(FIXTURES / family, text, layers)


def tensors(family: str) -> dict[str, np.ndarray]:
    return stored(FIXTURES / family / "model.safetensors")


def layer_output(scenario: Scenario, k: int) -> str:
    """The trace's name of layer k's output: its second residual, or its norm when post-norm."""
    block = scenario.layers[k].block
    return f"L{k + 1}.norm2" if block is not None and block.placement == "post" \
        else f"L{k + 1}.resid2"


def test_every_family_the_config_accepts_has_a_layout_and_a_fixture() -> None:
    assert set(IMPORTED) == set(FAMILY_LAYOUTS) == set(FAMILIES)
    assert sorted(path.name for path in FIXTURES.iterdir()) == sorted(FAMILIES + SCALED + CAPPED)
    # The families that read a text pair are those whose layout adds token types.
    assert [family for family in FAMILIES if imported(family).type_table is not None] == list(
        TYPED)


@pytest.mark.parametrize("family", FAMILIES + SCALED + CAPPED)
def test_the_trace_is_the_checkpoints_own_computation(family: str) -> None:
    scenario = imported(family)
    assert scenario.token_ids is not None
    trace = compute(scenario)
    theirs = hf_forward(FIXTURES / family, list(scenario.token_ids))
    assert len(scenario.layers) == len(theirs["outputs"]) == 2
    for k, (shares, output) in enumerate(zip(theirs["shares"], theirs["outputs"], strict=True)):
        np.testing.assert_allclose(trace.arrays[f"L{k + 1}.weights"], shares, rtol=0,
                                   atol=1e-12)
        np.testing.assert_allclose(trace.arrays[layer_output(scenario, k)], output, rtol=0,
                                   atol=1e-12)
    for name in ("logits", "probs"):
        assert (name in trace.arrays) == (name in theirs), name  # BERT imports without a head
        if name in theirs:
            np.testing.assert_allclose(trace.arrays[name], theirs[name], rtol=0, atol=1e-12)
    # The shares are not trivial: every head spreads its attention differently.
    assert np.ptp(trace.arrays["L2.weights"][:, -1, :], axis=0).max() > 0.05


def test_gpt2s_conv1d_weights_stay_in_by_out_and_c_attn_splits_into_thirds() -> None:
    scenario, t = imported("gpt2"), tensors("gpt2")
    attention, block = scenario.layers[1].attention, scenario.layers[1].block
    fused, bias = t["transformer.h.1.attn.c_attn.weight"], t["transformer.h.1.attn.c_attn.bias"]
    np.testing.assert_array_equal(attention.Wq, fused[:, 0:8])
    np.testing.assert_array_equal(attention.Wk, fused[:, 8:16])
    np.testing.assert_array_equal(attention.Wv, fused[:, 16:24])
    assert attention.bv is not None and attention.Wo is not None and block is not None
    np.testing.assert_array_equal(attention.bv, bias[16:24])
    np.testing.assert_array_equal(attention.Wo, t["transformer.h.1.attn.c_proj.weight"])
    np.testing.assert_array_equal(block.ffn.W1, t["transformer.h.1.mlp.c_fc.weight"])
    np.testing.assert_array_equal(block.beta2, t["transformer.h.1.ln_2.bias"])
    assert (block.norm, block.placement, block.ffn.activation) == ("layernorm", "pre",
                                                                   "gelu_tanh")
    # Learned positions: the whole table of the model's context; the head tied to wte.
    assert scenario.positions.kind == "learned" and scenario.positions.table is not None
    np.testing.assert_array_equal(scenario.positions.table, t["transformer.wpe.weight"])
    assert scenario.head is not None and scenario.head.unembed is not None
    np.testing.assert_array_equal(scenario.head.unembed, t["transformer.wte.weight"].T)


def test_llamas_linear_weights_are_transposed_and_its_key_heads_grouped() -> None:
    scenario, t = imported("llama"), tensors("llama")
    attention, block = scenario.layers[0].attention, scenario.layers[0].block
    assert (attention.heads, attention.kv_heads, attention.d_k) == (4, 2, 2)
    np.testing.assert_array_equal(attention.Wq, t["model.layers.0.self_attn.q_proj.weight"].T)
    np.testing.assert_array_equal(attention.Wk, t["model.layers.0.self_attn.k_proj.weight"].T)
    assert attention.Wk.shape == (8, 4) and attention.bq is None
    assert block is not None and block.ffn.Wg is not None
    np.testing.assert_array_equal(block.ffn.Wg, t["model.layers.0.mlp.gate_proj.weight"].T)
    np.testing.assert_array_equal(block.ffn.W1, t["model.layers.0.mlp.up_proj.weight"].T)
    np.testing.assert_array_equal(block.ffn.W2, t["model.layers.0.mlp.down_proj.weight"].T)
    np.testing.assert_array_equal(block.gamma2,
                                  t["model.layers.0.post_attention_layernorm.weight"])
    assert (block.norm, block.eps, block.ffn.activation) == ("rmsnorm", 1e-6, "silu")
    assert scenario.head is not None and scenario.head.unembed is not None
    np.testing.assert_array_equal(scenario.head.unembed, t["lm_head.weight"].T)
    positions = scenario.positions
    assert (positions.kind, positions.base, positions.rotary_dims, positions.pairing) == (
        "rope", 10000.0, 2, "half")


def test_gpt_neox_splits_its_fused_projection_per_head_and_turns_part_of_each_head() -> None:
    scenario, t = imported("gpt_neox"), tensors("gpt_neox")
    attention, block = scenario.layers[0].attention, scenario.layers[0].block
    fused = t["gpt_neox.layers.0.attention.query_key_value.weight"]  # 24 × 8: per head q, k, v
    bias = t["gpt_neox.layers.0.attention.query_key_value.bias"]
    # Head 0 is rows 0–3 (q), 4–7 (k), 8–11 (v); head 1 rows 12–15, 16–19, 20–23.
    np.testing.assert_array_equal(attention.Wq, np.concatenate([fused[0:4], fused[12:16]]).T)
    np.testing.assert_array_equal(attention.Wk, np.concatenate([fused[4:8], fused[16:20]]).T)
    np.testing.assert_array_equal(attention.Wv, np.concatenate([fused[8:12], fused[20:24]]).T)
    assert attention.bk is not None
    np.testing.assert_array_equal(attention.bk, np.concatenate([bias[4:8], bias[16:20]]))
    assert block is not None and block.residual == "parallel"
    # Old spellings: rotary_pct 0.5 of d_k = 4, rotary_emb_base 100; stored in float16.
    assert (scenario.positions.rotary_dims, scenario.positions.base) == (2, 100.0)
    assert config_of(FIXTURES / "gpt_neox")["torch_dtype"] == "float16"
    assert scenario.head is not None and scenario.head.unembed is not None
    np.testing.assert_array_equal(scenario.head.unembed, t["embed_out.weight"].T)


def test_qwen2s_bfloat16_weights_widen_exactly_and_its_tied_head_is_the_embedding() -> None:
    scenario, t = imported("qwen2"), tensors("qwen2")
    attention = scenario.layers[0].attention
    q_proj = t["model.layers.0.self_attn.q_proj.weight"]
    # stored() widens bfloat16 as the upper half of a float32: the same numbers, to the bit.
    np.testing.assert_array_equal(attention.Wq, q_proj.T)
    assert np.all(widened(attention.Wq).astype(np.float32).view(np.uint32) & 0xFFFF == 0)
    assert attention.bq is not None and attention.Wo is not None and attention.bo is None
    np.testing.assert_array_equal(attention.bq, t["model.layers.0.self_attn.q_proj.bias"])
    assert scenario.embedding is not None and scenario.embedding.shape == (51, 8)
    assert scenario.head is not None and scenario.head.unembed is not None
    np.testing.assert_array_equal(scenario.head.unembed, t["model.embed_tokens.weight"].T)
    # The embedding is padded past the tokenizer's 48 entries: those rows are labelled by id.
    assert scenario.head.vocab[-4:] == ("<0xBC><0x8C>", "#48", "#49", "#50")  # ¼Į: 0xBC 0x8C
    assert scenario.positions.base == 1e6 and attention.window is None


def test_gemma_scales_its_rows_by_root_d_and_norms_by_one_plus_weight() -> None:
    scenario, t = imported("gemma"), tensors("gemma")
    assert scenario.embedding_scale == 4.0  # √16
    trace = compute(scenario)
    rows = t["model.embed_tokens.weight"][list(scenario.token_ids or ())]
    np.testing.assert_array_equal(trace.arrays["X"], rows * 4.0)
    block = scenario.layers[1].block
    assert block is not None and block.norm == "rmsnorm" and block.ffn.activation == "gelu_tanh"
    np.testing.assert_array_equal(block.gamma1, t["model.layers.1.input_layernorm.weight"] + 1)
    assert scenario.head is not None and scenario.head.unembed is not None
    np.testing.assert_array_equal(scenario.head.gamma_f, t["model.norm.weight"] + 1)
    np.testing.assert_array_equal(scenario.head.unembed, t["model.embed_tokens.weight"].T)
    assert trace.steps[0].title == "Token ids look up rows of the embedding table, times 4"


def test_bert_sums_word_position_and_type_rows_then_norms_them_and_has_no_head() -> None:
    scenario, t = imported("bert"), tensors("bert")
    e = "embeddings."
    ids = list(scenario.token_ids or ())
    assert scenario.tokens[0] == "[CLS]" and scenario.tokens[-1] == "[SEP]"
    assert scenario.token_types == (0,) * len(ids) and scenario.head is None
    np.testing.assert_array_equal(scenario.type_table, t[e + "token_type_embeddings.weight"])
    norm = scenario.embedding_norm
    assert norm is not None and norm.norm == "layernorm" and norm.eps == 1e-12
    np.testing.assert_array_equal(norm.beta, t[e + "LayerNorm.bias"])
    trace = compute(scenario)
    summed = (t[e + "word_embeddings.weight"][ids] + t[e + "position_embeddings.weight"][
        :len(ids)] + t[e + "token_type_embeddings.weight"][0])
    np.testing.assert_allclose(trace.arrays["embed_sum"], summed, rtol=0, atol=1e-15)
    assert [step.id for step in trace.steps[:3]] == ["embed", "positions", "embedding_norm"]
    layer = scenario.layers[0]
    assert not layer.attention.causal and layer.block is not None
    assert layer.block.placement == "post" and layer.block.ffn.activation == "gelu"
    np.testing.assert_array_equal(layer.attention.Wq,
                                  t["encoder.layer.0.attention.self.query.weight"].T)
    assert trace.steps[-1].id == "L2.norm2"


def test_a_text_pair_is_berts_segment_b_with_token_type_1() -> None:
    scenario = import_checkpoint(FIXTURES / "bert", "the cat", pair="我爱你")
    assert list(scenario.tokens) == ["[CLS]", "the", "cat", "[SEP]", "我", "爱", "你", "[SEP]"]
    assert scenario.token_types == (0, 0, 0, 0, 1, 1, 1, 1)
    ids = list(scenario.token_ids or ())
    trace, t = compute(scenario), tensors("bert")
    np.testing.assert_array_equal(trace.arrays["type_rows"][4:],
                                  np.tile(t["embeddings.token_type_embeddings.weight"][1], (4, 1)))
    theirs = hf_forward(FIXTURES / "bert", ids, list(scenario.token_types or ()))
    for k in range(2):
        np.testing.assert_allclose(trace.arrays[f"L{k + 1}.norm2"], theirs["outputs"][k],
                                   rtol=0, atol=1e-12)
    # With every type 0 the same ids give other rows, segment A's too (attention reads both
    # ways): the types are not a formality.
    untyped = hf_forward(FIXTURES / "bert", ids)["outputs"][1]
    assert np.abs(untyped[1] - trace.arrays["L2.norm2"][1]).max() > 0.01


def test_a_text_pair_is_refused_for_a_model_without_token_types() -> None:
    # Before anything is tokenised or read: a pair past GPT-2's 16 positions is refused as a
    # pair, not as too long.
    for pair in ("sat", "the cat sat on the mat " * 4):
        with pytest.raises(ScenarioError) as caught:
            import_checkpoint(FIXTURES / "gpt2", "the cat", pair=pair)
        assert str(caught.value) == ("text_pair: a second text is read as segment B by a model "
                                     "with token types (BERT); gpt2 has none: put it in the "
                                     "text")


def test_bfloat16_widens_as_ml_dtypes_widens_it() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed")
    from safetensors import safe_open

    name = "model.layers.1.mlp.down_proj.weight"
    with safe_open(str(FIXTURES / "qwen2" / "model.safetensors"), framework="np") as weights:
        theirs = weights.get_tensor(name)
    assert theirs.dtype == ml_dtypes.bfloat16
    block = imported("qwen2").layers[1].block
    assert block is not None
    np.testing.assert_array_equal(block.ffn.W2, theirs.astype(np.float64).T)


def test_mistral_slides_its_window_in_every_layer() -> None:
    scenario = imported("mistral")
    assert [layer.attention.window for layer in scenario.layers] == [3, 3]
    assert scenario.positions.base == 500.0  # rope_parameters.rope_theta
    assert scenario.layers[0].attention.kv_heads == 1
    visible = compute(scenario).visible_for("L1.")
    assert visible[5].tolist() == [False, False, False, True, True, True, False, False]


def test_token_labels_are_the_texts_own_characters() -> None:
    gpt2 = imported("gpt2", "the cat 我爱你")
    # The byte-level tokenizer spells " cat" as "Ġcat"; the label keeps the typed space.
    assert list(gpt2.tokens) == ["the", " cat", " ", "我", "爱", "你"]
    assert gpt2.token_ids is not None and list(gpt2.token_ids) == [31, 38, 22, 39, 40, 35]
    assert [gpt2.head.vocab[k] for k in gpt2.token_ids] == [  # type: ignore[union-attr]
        "the", " cat", " ", "我", "爱", "你"]
    llama = imported("llama", "the cat")
    # The tokenizer's own BOS, then the text, its first word with the space sentencepiece
    # puts before it (▁the cat), as the vocabulary entry reads.
    assert list(llama.tokens) == ["<s>", " the cat"]


def test_chosen_layers_are_imported_alone_and_named_in_the_title(tmp_path: Path) -> None:
    assert choose_layers(None, 3) == [0, 1, 2]
    assert choose_layers("1,3", 3) == [0, 2]
    assert choose_layers(" 2 - 3 ", 3) == [1, 2]
    second = imported("llama", "the cat", "2")
    whole = imported("llama", "the cat")
    assert len(second.layers) == 1 and second.title == "llama · llama · L2 / 2"
    assert whole.title == "llama · llama"
    np.testing.assert_array_equal(second.layers[0].attention.Wq, whole.layers[1].attention.Wq)


def test_phis_one_norm_feeds_both_halves_and_its_queries_and_keys_are_layernormed() -> None:
    scenario, t = imported("phi"), tensors("phi")
    at = "model.layers.1."
    attention, block = scenario.layers[1].attention, scenario.layers[1].block
    assert block is not None and block.residual == "parallel" and block.placement == "pre"
    for gamma, beta in ((block.gamma1, block.beta1), (block.gamma2, block.beta2)):
        np.testing.assert_array_equal(gamma, t[at + "input_layernorm.weight"])
        np.testing.assert_array_equal(beta, t[at + "input_layernorm.bias"])
    assert attention.Wo is not None and attention.bo is not None
    np.testing.assert_array_equal(attention.Wo, t[at + "self_attn.dense.weight"].T)
    np.testing.assert_array_equal(attention.bo, t[at + "self_attn.dense.bias"])
    np.testing.assert_array_equal(block.ffn.W1, t[at + "mlp.fc1.weight"].T)
    assert block.ffn.activation == "gelu_tanh" and block.ffn.Wg is None
    assert attention.qk_norm == "layernorm" and attention.beta_k is not None
    np.testing.assert_array_equal(attention.beta_k, t[at + "self_attn.k_layernorm.bias"])
    # Half of each head's 4 columns turn; the head has lm_head's bias, untied.
    assert (scenario.positions.kind, scenario.positions.rotary_dims) == ("rope", 2)
    head = scenario.head
    assert head is not None and head.bias is not None and head.unembed is not None
    np.testing.assert_array_equal(head.bias, t["lm_head.bias"])
    np.testing.assert_array_equal(head.unembed, t["lm_head.weight"].T)
    np.testing.assert_array_equal(head.beta_f, t["model.final_layernorm.bias"])


def test_qwen3_rms_norms_each_heads_queries_and_keys_before_rope() -> None:
    scenario, t = imported("qwen3"), tensors("qwen3")
    attention = scenario.layers[0].attention
    assert (attention.heads, attention.kv_heads, attention.d_k) == (4, 2, 4)
    assert attention.qk_norm == "rmsnorm" and attention.beta_q is None
    np.testing.assert_array_equal(attention.gamma_q, t["model.layers.0.self_attn.q_norm.weight"])
    np.testing.assert_array_equal(attention.gamma_k, t["model.layers.0.self_attn.k_norm.weight"])
    assert attention.Wq.shape == (8, 16) and attention.qk_eps == 1e-6
    trace = compute(scenario)
    assert [step.id for step in trace.steps[1:5]] == ["L1.norm1", "L1.projections",
                                                      "L1.qk_norm", "L1.rope"]


def test_qwen3s_head_dim_is_128_when_the_config_leaves_it_out(tmp_path: Path) -> None:
    folder = tmp_path / "qwen3"
    shutil.copytree(FIXTURES / "qwen3", folder)
    values = json.loads((folder / "config.json").read_text("utf-8"))
    del values["head_dim"]
    (folder / "config.json").write_text(json.dumps(values), "utf-8")
    with pytest.raises(ScenarioError, match=r"q_proj.weight is 16 × 8, and config.json makes "
                                            r"it 512 × 8"):
        import_checkpoint(folder, TEXT)


def test_opt_reads_positions_from_row_2_and_folds_its_projections_in_post_norm() -> None:
    scenario, t = imported("opt"), tensors("opt")
    p = "model.decoder."
    words = t[p + "embed_tokens.weight"]  # 4 columns, projected in to d = 8
    assert scenario.embedding is not None
    np.testing.assert_array_equal(scenario.embedding, words @ t[p + "project_in.weight"].T)
    positions = scenario.positions
    assert positions.kind == "learned" and positions.offset == 2
    np.testing.assert_array_equal(positions.table, t[p + "embed_positions.weight"])
    trace = compute(scenario)
    n = len(scenario.tokens)
    np.testing.assert_array_equal(trace.arrays["positions"],
                                  t[p + "embed_positions.weight"][2:n + 2])
    block = scenario.layers[0].block
    assert block is not None and block.placement == "post" and block.ffn.activation == "relu"
    np.testing.assert_array_equal(block.gamma1, t[p + "layers.0.self_attn_layer_norm.weight"])
    np.testing.assert_array_equal(block.beta2, t[p + "layers.0.final_layer_norm.bias"])
    head = scenario.head
    assert head is not None and not head.final_norm and head.unembed is not None
    np.testing.assert_array_equal(head.unembed, t[p + "project_out.weight"].T @ words.T)
    assert "final_norm" not in trace.arrays


def test_opts_long_position_table_is_cut_to_what_a_document_holds(tmp_path: Path) -> None:
    folder = tmp_path / "opt"
    shutil.copytree(FIXTURES / "opt", folder)
    weights = load_file(str(folder / "model.safetensors"))
    long = np.random.default_rng(5).standard_normal((2050, 8)).astype(np.float32)
    weights["model.decoder.embed_positions.weight"] = long
    save_file(weights, str(folder / "model.safetensors"))
    values = json.loads((folder / "config.json").read_text("utf-8"))
    (folder / "config.json").write_text(json.dumps({**values, "max_position_embeddings": 2048}),
                                        "utf-8")
    scenario = import_checkpoint(folder, TEXT)
    assert TABLE_ROWS == 1024 and scenario.positions.table is not None
    np.testing.assert_array_equal(scenario.positions.table, long[:1024])
