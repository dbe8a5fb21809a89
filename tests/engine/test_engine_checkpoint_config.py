"""The config.json keys that change numbers, read as transformers 5 reads them: the RoPE
settings (a given ``rope_scaling`` replaces ``rope_parameters``; each family's own spellings
beside them), the sliding windows of each family, BERT's ``is_decoder``, bias flags; and the
keys refused by name.

The expected numbers are what transformers' own config gives (``AutoConfig.from_pretrained`` on
the same config.json, transformers 5.25); where transformers is installed the test asks it
again."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.texts.problems import problem_words
from engine import ScenarioError
from engine.checkpoint import import_checkpoint
from tests.engine.hf_reference import FIXTURES
from tests.engine.test_engine_checkpoint_refusals import copy, refusal

D_K = {"llama": 2, "gpt_neox": 4, "phi": 4, "mistral": 4}
"""Each fixture's head width."""
ROPE: list[tuple[str, dict[str, Any], float, int]] = [
    # A given rope_scaling replaces rope_parameters whole: its base is gone.
    ("llama", {"rope_parameters": {"rope_type": "default", "rope_theta": 500.0},
               "rope_scaling": {"type": "default"}}, 10000.0, 2),
    ("llama", {"rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 500.0},
               "rope_scaling": {"rope_type": "default"}}, 10000.0, 2),
    ("mistral", {"rope_scaling": {"rope_type": "default"}, "rope_theta": 7.0}, 7.0, 4),
    # An empty one is not given.
    ("llama", {"rope_parameters": {"rope_type": "default", "rope_theta": 500.0},
               "rope_scaling": {}}, 500.0, 2),
    ("llama", {"rope_scaling": {"rope_type": "default", "rope_theta": 42.0}, "rope_theta": 7.0},
     42.0, 2),
    # Llama's family reads rope_theta beside, never rotary_emb_base, and turns the whole head.
    ("llama", {"rope_theta": 777.0, "rotary_emb_base": 333.0, "partial_rotary_factor": 0.5},
     777.0, 2),
    ("mistral", {"rope_parameters": {"rope_theta": 50.0, "partial_rotary_factor": 0.5}}, 50.0, 4),
    # GPT-NeoX reads rotary_emb_base and rotary_pct beside, never rope_theta or
    # partial_rotary_factor.
    ("gpt_neox", {"rope_theta": 777.0, "rotary_emb_base": 333.0, "partial_rotary_factor": 0.25,
                  "rotary_pct": 1.0}, 333.0, 4),
    ("gpt_neox", {"rotary_emb_base": None, "rope_theta": 7.0, "partial_rotary_factor": 1.0},
     10000.0, 2),
    ("gpt_neox", {"rope_parameters": {"rope_theta": 5.0, "partial_rotary_factor": 1.0}}, 5.0, 4),
    # Phi: partial_rotary_factor beside (0.5 without), rope_theta beside.
    ("phi", {"rope_theta": 7.0, "partial_rotary_factor": 0.5,
             "rope_scaling": {"rope_type": "default", "partial_rotary_factor": 1.0}}, 7.0, 4),
    ("phi", {"partial_rotary_factor": None, "rotary_pct": 1.0}, 10000.0, 2),
]


def imported(tmp_path: Path, family: str, **config: Any) -> Any:
    return import_checkpoint(copy(tmp_path, family, **config), "the cat")


@pytest.mark.parametrize(("family", "config", "base", "turned"), ROPE)
def test_the_rope_settings_are_found_where_transformers_finds_them(
        tmp_path: Path, family: str, config: dict[str, Any], base: float, turned: int) -> None:
    positions = imported(tmp_path, family, **config).positions
    assert (positions.base, positions.rotary_dims) == (base, turned)


@pytest.mark.parametrize(("family", "config", "base", "turned"), ROPE)
def test_those_settings_are_transformers_own(tmp_path: Path, family: str, config: dict[str, Any],
                                             base: float, turned: int) -> None:
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    folder = copy(tmp_path, family, **config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rope = transformers.AutoConfig.from_pretrained(folder).rope_parameters
    share = rope.get("partial_rotary_factor", 1.0) if family in ("gpt_neox", "phi") else 1.0
    assert (rope["rope_type"], rope["rope_theta"], int(D_K[family] * share)) == \
        ("default", base, turned)


WINDOWS: list[tuple[str, dict[str, Any], list[int | None]]] = [
    # Llama's modeling slides no window, whatever the config says.
    ("llama", {"layer_types": ["sliding_attention", "full_attention"], "sliding_window": 2},
     [None, None]),
    # Mistral's slides every layer by sliding_window; layer_types is not read.
    ("mistral", {"layer_types": ["full_attention", "sliding_attention"]}, [3, 3]),
    ("mistral", {"sliding_window": None}, [None, None]),
    # Qwen2/Qwen3: only with use_sliding_window, from max_window_layers (28 unless given) on…
    ("qwen2", {"use_sliding_window": True, "sliding_window": 2, "max_window_layers": 1},
     [None, 2]),
    ("qwen2", {"use_sliding_window": True, "sliding_window": 2, "max_window_layers": None},
     [None, None]),
    # … or where layer_types says.
    ("qwen3", {"use_sliding_window": True, "sliding_window": 2,
               "layer_types": ["sliding_attention", "full_attention"]}, [2, None]),
    ("qwen3", {"use_sliding_window": False, "sliding_window": 2,
               "layer_types": ["sliding_attention", "sliding_attention"]}, [None, None]),
]


@pytest.mark.parametrize(("family", "config", "windows"), WINDOWS)
def test_each_family_slides_the_windows_its_modeling_slides(
        tmp_path: Path, family: str, config: dict[str, Any], windows: list[int | None]) -> None:
    scenario = imported(tmp_path, family, **config)
    assert [layer.attention.window for layer in scenario.layers] == windows


def test_a_bert_decoder_is_causal(tmp_path: Path) -> None:
    causal = [layer.attention.causal for layer in imported(tmp_path, "bert").layers]
    assert causal == [False, False]
    folder = tmp_path / "decoder"
    folder.mkdir()
    decoder = imported(folder, "bert", is_decoder=True)
    assert [layer.attention.causal for layer in decoder.layers] == [True, True]


def test_biases_follow_the_config_as_transformers_builds_the_layers(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", attention_bias=True)
    assert refusal(folder) == (f"{folder}/*.safetensors: no weights file holds the tensor "
                               "model.layers.0.self_attn.q_proj.bias")
    # biases stored but switched off: transformers builds no bias and drops them; the import
    # refuses them by name, as every tensor the layout does not read (the model was trained
    # with them, so transformers' numbers would not be the model's)
    neox = copy(tmp_path / "llama", "gpt_neox", attention_bias=False)
    assert refusal(neox).startswith(f"{neox}/*.safetensors: the gpt_neox layout reads none of 4 "
                                    "of the tensors (gpt_neox.layers.0.attention.dense.bias, ")


REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("llama", {"rope_parameters": {"rope_type": "default", "rope_theta": 5.0},
               "rope_scaling": {"rope_type": "longrope", "factor": 2.0}},
     'rope_scaling: RoPE scaling "longrope" is not computed yet: QKV Studio computes the '
     "linear, llama3, yarn and dynamic scalings of Llama-shaped families only"),
    ("gpt_neox", {"rope_scaling": {"type": "dynamic", "factor": 2.0}},
     'rope_scaling: RoPE scaling "dynamic" is not computed yet: QKV Studio computes the '
     "linear, llama3, yarn and dynamic scalings of Llama-shaped families only"),
    ("phi", {"rope_parameters": {"rope_type": "yarn", "factor": 2.0}},
     'rope_parameters: RoPE scaling "yarn" is not computed yet: QKV Studio computes the '
     "linear, llama3, yarn and dynamic scalings of Llama-shaped families only"),
    ("phi3", {"rope_scaling": {"type": "su", "short_factor": [1.0], "long_factor": [2.0]}},
     "original_max_position_embeddings: longrope turns by its long factors past 32 positions, "
     "within the 512 QKV Studio computes: not computed yet"),
    ("phi3", {"original_max_position_embeddings": 4096, "rope_scaling": {
        "type": "longrope", "short_factor": [1.0, 2.0], "long_factor": [2.0]}},
     "rope_scaling.short_factor: expected 1 numbers, one per turned pair of columns (r/2 = 1), "
     "got 2"),
    ("phi3", {"rope_scaling": {"type": "llama3", "factor": 2.0}},
     'rope_scaling: RoPE scaling "llama3" is not computed yet: QKV Studio computes the '
     "linear, llama3, yarn and dynamic scalings of Llama-shaped families only"),
    ("stablelm", {"qk_layernorm": True},
     "qk_layernorm: a LayerNorm of its own for each head's queries and keys is not computed "
     "yet: QKV Studio norms every head with one γ and β"),
    ("stablelm", {"rope_parameters": {"rope_type": "linear", "factor": 2.0}},
     'rope_parameters: RoPE scaling "linear" is not computed yet: QKV Studio computes the '
     "linear, llama3, yarn and dynamic scalings of Llama-shaped families only"),
    ("llama", {"rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 8}},
     "rope_scaling.factor: missing"),
    ("llama", {"max_position_embeddings": 2048, "rope_scaling": {"rope_type": "dynamic"}},
     "rope_scaling.factor: missing"),
    ("llama", {"rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
     "max_position_embeddings: dynamic RoPE raises its base past 32 positions, within the 512 "
     "QKV Studio computes: not computed yet"),
    ("llama", {"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1}},
     "rope_scaling.high_freq_factor: missing"),
    ("mistral", {"rope_scaling": {"rope_type": "linear", "factor": "2"}},
     'rope_scaling.factor: expected a number, got "2"'),
    ("llama", {"rope_parameters": {"full_attention": {"rope_type": "default"}}},
     "rope_parameters.full_attention: RoPE settings per layer type are not computed yet: QKV "
     "Studio turns every layer by one base"),
    ("llama", {"rope_theta": None, "rope_parameters": {"rope_theta": None}},
     "rope_parameters.rope_theta: expected a number, got null"),
    ("qwen3", {"layer_types": ["full_attention"]},
     'layer_types: expected a list of 2 entries, each "full_attention" or "sliding_attention", '
     "got a list of 1"),
    ("gemma", {"final_logit_softcapping": 30.0},
     "final_logit_softcapping: capping scores or logits by tanh is Gemma 2's (model_type "
     "gemma2): transformers' Gemma does not read this key, so a Gemma config giving it is "
     "refused"),
    ("gemma", {"attn_logit_softcapping": 50.0},
     "attn_logit_softcapping: capping scores or logits by tanh is Gemma 2's (model_type "
     "gemma2): transformers' Gemma does not read this key, so a Gemma config giving it is "
     "refused"),
    ("gemma", {"model_type": "gemma2", "attn_logit_softcapping": 0.0},
     "attn_logit_softcapping: expected a number above 0, got 0.0"),
    ("gemma", {"model_type": "gemma2", "final_logit_softcapping": "30"},
     'final_logit_softcapping: expected a number, got "30"'),
    ("gemma", {"use_bidirectional_attention": True},
     "use_bidirectional_attention: attention without the causal mask is not computed yet for "
     "this family"),
    ("gpt_neox", {"head_dim": 8},
     "head_dim: the attention's heads are hidden_size / num_attention_heads = 4 columns wide, "
     "and transformers' rotary embedding would turn 8: they do not fit"),
    ("gpt2", {"activation_function": "gelu_fast"},
     'activation_function: expected one of "gelu" | "gelu_new" | "gelu_pytorch_tanh" | "silu" '
     '| "swish" | "relu" | "linear", got "gelu_fast"'),
]


SCALINGS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    # llama3's original context: the config's own key wins over the RoPE settings'
    ({"original_max_position_embeddings": 64, "rope_scaling": {
        "rope_type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4,
        "original_max_position_embeddings": 16}},
     {"type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4,
      "original_max_position_embeddings": 64}),
    # yarn without its settings: the context of max_position_embeddings (32), betas 32 and 1
    # (a 0 too), truncation, attention factor 0.1·ln 2 + 1
    ({"rope_scaling": {"type": "yarn", "factor": 2, "beta_fast": 0}},
     {"type": "yarn", "factor": 2, "original_max_position_embeddings": 32, "beta_fast": 32,
      "beta_slow": 1, "truncate": True, "attention_factor": 0.1 * math.log(2) + 1}),
    # yarn with a null factor: the contexts' ratio; mscale over mscale_all_dim; truncate null
    ({"max_position_embeddings": 32, "rope_scaling": {
        "rope_type": "yarn", "factor": None, "original_max_position_embeddings": 8, "mscale": 2,
        "mscale_all_dim": 1, "truncate": None}},
     {"type": "yarn", "factor": 4, "original_max_position_embeddings": 8, "beta_fast": 32,
      "beta_slow": 1, "truncate": False,
      "attention_factor": (0.2 * math.log(4) + 1) / (0.1 * math.log(4) + 1)}),
]


@pytest.mark.parametrize(("config", "scaling"), SCALINGS)
def test_a_scaling_is_resolved_as_transformers_resolves_it(
        tmp_path: Path, config: dict[str, Any], scaling: dict[str, Any]) -> None:
    positions = imported(tmp_path, "llama", **config).positions
    assert positions.scaling is not None
    written = positions.scaling.to_document()
    assert written.keys() == scaling.keys()
    for key, value in scaling.items():
        assert written[key] == (value if isinstance(value, str | bool) else
                                pytest.approx(value, rel=1e-15)), key
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = transformers.AutoConfig.from_pretrained(tmp_path / "llama")
    theirs.standardize_rope_params()  # as the scaling functions do before they compute
    assert theirs.rope_parameters["original_max_position_embeddings"] == \
        scaling["original_max_position_embeddings"]


def test_a_null_original_context_is_refused(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", rope_scaling={"rope_type": "yarn", "factor": 2})
    config = json.loads((folder / "config.json").read_text("utf-8"))
    config["original_max_position_embeddings"] = None  # given, and null
    (folder / "config.json").write_text(json.dumps(config), "utf-8")
    assert refusal(folder) == (f"{folder}/config.json.original_max_position_embeddings: "
                               "expected a whole number, got null")


@pytest.mark.parametrize(("family", "config", "line"), REFUSED)
def test_a_key_the_engine_does_not_compute_is_refused_by_name(
        tmp_path: Path, family: str, config: dict[str, Any], line: str) -> None:
    folder = copy(tmp_path, family, **config)
    assert refusal(folder) == f"{folder}/config.json.{line}"


def test_the_new_refusals_read_in_chinese(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(copy(tmp_path, "gemma", attn_logit_softcapping=50.0), "the cat")
    assert problem_words(caught.value, "zh").endswith(
        "config.json.attn_logit_softcapping：用 tanh 截断分数或 logits 属于 Gemma 2（model_type "
        "gemma2）：transformers 的 Gemma 不读这个键，因此不接受给出它的 Gemma 配置")


@pytest.mark.parametrize(("given", "scores", "logits"), [
    ({}, 50.0, 30.0),  # absent: transformers' Gemma 2 defaults
    ({"attn_logit_softcapping": 5.0, "final_logit_softcapping": None}, 5.0, None),
    ({"attn_logit_softcapping": None, "final_logit_softcapping": 3.0}, None, 3.0),
])
def test_gemma2s_caps_are_mapped_to_each_attention_and_the_head(
        tmp_path: Path, given: dict[str, Any], scores: float | None, logits: float | None) -> None:
    folder = copy(tmp_path, "gemma2")
    config = json.loads((folder / "config.json").read_text("utf-8"))
    for name in ("attn_logit_softcapping", "final_logit_softcapping"):
        config.pop(name, None)
    (folder / "config.json").write_text(json.dumps({**config, **given}), "utf-8")
    scenario = import_checkpoint(folder, "the cat")
    assert [layer.attention.softcap for layer in scenario.layers] == [scores, scores]
    assert scenario.head is not None and scenario.head.softcap == logits


@pytest.mark.parametrize(("scalar", "scale_dk"), [(6, 6.0), (8, None), (None, 256.0)])
def test_a_gemma2_scores_scale_other_than_its_heads_is_each_attentions_scale_dk(
        tmp_path: Path, scalar: int | None, scale_dk: float | None) -> None:
    """Heads 8 wide: query_pre_attn_scalar 6 divides by √6; 8 is d_k (no key); absent, 256
    (transformers' default)."""
    folder = copy(tmp_path, "gemma2", query_pre_attn_scalar=scalar)
    scenario = import_checkpoint(folder, "the cat")
    assert [layer.attention.scale_dk for layer in scenario.layers] == [scale_dk, scale_dk]
    assert all(layer.attention.d_k == 8 for layer in scenario.layers)


def test_a_gemma2_scores_scale_not_above_0_is_refused_at_its_key(tmp_path: Path) -> None:
    folder = copy(tmp_path, "gemma2", query_pre_attn_scalar=0)
    assert refusal(folder) == (f"{folder}/config.json.query_pre_attn_scalar: expected a "
                               "whole number from 1 to 16777216, got 0")  # an int there


def test_an_integer_of_more_digits_than_python_reads_is_a_refusal(tmp_path: Path) -> None:
    folder = copy(tmp_path, "gpt2")
    config = json.loads((folder / "config.json").read_text("utf-8"))
    text = json.dumps(config)[:-1] + ', "n_ctx": ' + "9" * 5000 + "}"
    (folder / "config.json").write_text(text, "utf-8")
    assert refusal(folder) == f"{folder}/config.json: is not a model's config (a JSON object)"


DEFAULTS: list[tuple[str, str, int, str]] = [
    # Gemma's heads are 256 columns wide when the config does not say (2 heads: 512 rows).
    ("gemma", "head_dim", 256, "model.layers.0.self_attn.q_proj.weight is 16 × 16, and "
                               "config.json makes it 512 × 16"),
    # Mistral's key/value heads are 8 (of 4 columns: 32 rows); Gemma's 16 (of 8: 128).
    ("mistral", "num_key_value_heads", 8, "model.layers.0.self_attn.k_proj.weight is 4 × 8, and "
                                          "config.json makes it 32 × 8"),
    ("gemma", "num_key_value_heads", 16, "model.layers.0.self_attn.k_proj.weight is 8 × 16, and "
                                         "config.json makes it 128 × 16"),
]


@pytest.mark.parametrize(("family", "key", "default", "line"), DEFAULTS)
def test_a_size_left_out_is_the_familys_transformers_default(
        tmp_path: Path, family: str, key: str, default: int, line: str) -> None:
    folder = copy(tmp_path, family, **{key: None})
    assert refusal(folder) == f"{folder}/model.safetensors: the tensor {line}"
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    assert getattr(transformers.AutoConfig.from_pretrained(folder), key) == default


@pytest.mark.parametrize(("config", "activation"), [
    ({"hidden_act": None, "hidden_activation": "silu"}, "gelu_tanh"),  # not read: the default
    ({"hidden_act": "gelu", "hidden_activation": "silu"}, "gelu_tanh"),  # the legacy spelling
    ({"hidden_act": "silu", "hidden_activation": "gelu"}, "silu"),
])
def test_gemma_reads_hidden_act_only(tmp_path: Path, config: dict[str, Any],
                                     activation: str) -> None:
    block = imported(tmp_path, "gemma", **config).layers[0].block
    assert block is not None and block.ffn.activation == activation


def test_the_command_refuses_a_key_in_one_line_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", rope_parameters={"rope_theta": 5.0},
                  rope_scaling={"rope_type": "proportional", "factor": 8.0})
    out_path = tmp_path / "doc.qkv.json"
    status = main(["import-hf", str(folder), "--text", "the cat", "--out", str(out_path)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and not out_path.exists()
    assert err == (f'qkv-studio: {folder}/config.json.rope_scaling: RoPE scaling '
                   '"proportional" is not computed yet: QKV Studio computes the linear, llama3, '
                   "yarn and dynamic scalings of Llama-shaped families only\n")


GEMMA3_REFUSED: list[tuple[dict[str, Any], str, str, str]] = [
    # its attention never passes the scores' cap on: computing it would not be transformers'
    ({"attn_logit_softcapping": 50.0}, "attn_logit_softcapping",
     "transformers' Gemma 3 never passes this cap to its attention, so its scores are not "
     "capped; a config giving it is refused", "transformers 的 Gemma 3 从不把这个截断值交给注意力"),
    # a scaling of the full layers other than linear (Gemma 3 4B's), or of the sliding ones
    ({"rope_scaling": {"rope_type": "yarn", "factor": 8.0}}, "rope_scaling",
     "RoPE scaling \"yarn\" of the full-attention layers is not computed yet: QKV Studio "
     "computes the linear one there", "暂不计算全注意力层的 RoPE 缩放 \"yarn\""),
    ({"rope_parameters": {"full_attention": {"rope_type": "llama3", "factor": 2.0}}},
     "rope_parameters.full_attention", "RoPE scaling \"llama3\" of the full-attention layers",
     "暂不计算全注意力层的 RoPE 缩放 \"llama3\""),
    ({"rope_parameters": {"sliding_attention": {"rope_type": "linear", "factor": 2.0}}},
     "rope_parameters.sliding_attention", "RoPE scaling \"linear\" of the sliding layers is "
     "not computed yet: QKV Studio scales the full-attention layers alone",
     "暂不计算滑动窗口层的 RoPE 缩放 \"linear\""),
    ({"rope_scaling": {"rope_type": "linear"}}, "rope_scaling.factor", "missing", "缺少"),
    ({"rope_scaling": {"rope_type": "linear", "factor": 0}}, "rope_scaling.factor",
     "expected a number above 0, got 0", "应为大于 0 的数"),
    ({"rope_parameters": {"rope_type": "default", "rope_theta": 5.0}},
     "rope_parameters.rope_type",
     "expected RoPE settings per layer type: full_attention and sliding_attention",
     "应为按层类型给出的 RoPE 设置"),
    ({"rope_local_base_freq": -1}, "rope_local_base_freq", "expected a number above 0, got -1.0",
     "应为大于 0 的数"),
    # the multimodal Gemma 3 (text_config and a vision tower) is another family
    ({"model_type": "gemma3"}, "model_type",
     "\"gemma3\" is not a family QKV Studio imports: it imports gpt2,",
     "\"gemma3\" 不是 QKV Studio 能导入的模型家族"),
]


@pytest.mark.parametrize(("given", "key", "english", "chinese"), GEMMA3_REFUSED)
def test_what_gemma3_computes_otherwise_is_refused_at_its_key_in_both_languages(
        tmp_path: Path, given: dict[str, Any], key: str, english: str, chinese: str) -> None:
    folder = copy(tmp_path, "gemma3_text", **given)
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, "the cat")
    place = f"{folder}/config.json.{key}"
    assert str(caught.value).startswith(f"{place}: {english}")
    assert problem_words(caught.value, "zh").startswith(f"{place}：{chinese}")
    assert key != "model_type" or "gemma3_text" in str(caught.value)  # the text-only one


@pytest.mark.parametrize(("given", "full", "sliding"), [
    ({}, 1e6, 1e4),  # the fixture's legacy keys, as the Hub's configs spell them
    ({"rope_theta": None, "rope_local_base_freq": None}, 1e6, 1e4),  # transformers' defaults
    ({"rope_theta": 7.0, "rope_local_base_freq": 7.0}, 7.0, None),  # one base: no layer's own
    ({"rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 500.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 5.0}},
      "rope_scaling": {"rope_type": "default"}}, 500.0, 5.0),
])
def test_gemma3s_full_layers_base_is_the_stacks_and_a_sliding_layers_its_own(
        tmp_path: Path, given: dict[str, Any], full: float, sliding: float | None) -> None:
    """The fixture's first layer slides, its second is full."""
    scenario = import_checkpoint(copy(tmp_path, "gemma3_text", **given), "the cat")
    assert scenario.positions is not None and scenario.positions.base == full
    assert [layer.attention.rope_base for layer in scenario.layers] == [sliding, None]
    assert [layer.attention.window for layer in scenario.layers] == [3, None]
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    theirs = transformers.AutoConfig.from_pretrained(tmp_path / "gemma3_text").rope_parameters
    assert theirs["full_attention"]["rope_theta"] == full
    assert theirs["sliding_attention"]["rope_theta"] == (sliding or full)


@pytest.mark.parametrize(("given", "factor", "sliding"), [
    # Gemma 3 4B's legacy key: transformers merges it into the full layers' settings alone
    ({"rope_scaling": {"rope_type": "linear", "factor": 8.0}}, 8.0, 1e4),
    # transformers 5's nested form, as save_pretrained writes it
    ({"rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 2.0,
                                             "rope_theta": 500.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 500.0}}},
     2.0, None),
    # a legacy "type" does not replace the nested settings' "rope_type": not scaled
    ({"rope_scaling": {"type": "linear", "factor": 8.0},
      "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 500.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 5.0}}},
     None, 5.0),
])
def test_gemma3_scales_its_full_layers_alone_as_transformers_merges_the_settings(
        tmp_path: Path, given: dict[str, Any], factor: float | None,
        sliding: float | None) -> None:
    """The fixture's first layer slides, its second is full: the stack's scaling is the full
    layers', and the sliding layer leaves it out (``rope_scaled`` false)."""
    scenario = import_checkpoint(copy(tmp_path, "gemma3_text", **given), "the cat")
    assert scenario.positions is not None
    scaling = scenario.positions.scaling
    assert (None if scaling is None else (scaling.type, scaling.factor)) == \
        (None if factor is None else ("linear", factor))
    assert [(layer.attention.rope_base, layer.attention.rope_scaled)
            for layer in scenario.layers] == [(sliding, factor is None), (None, True)]
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    theirs = transformers.AutoConfig.from_pretrained(tmp_path / "gemma3_text").rope_parameters
    assert theirs["full_attention"]["rope_type"] == ("default" if factor is None else "linear")
    assert theirs["full_attention"].get("factor") == factor or factor is None
    assert theirs["sliding_attention"]["rope_type"] == "default"


def test_a_chosen_gemma3_layer_keeps_its_own_types_base() -> None:
    folder = FIXTURES / "gemma3_text"
    assert [layer.attention.rope_base
            for layer in import_checkpoint(folder, "the cat", "1").layers] == [10000.0]
    assert [layer.attention.rope_base
            for layer in import_checkpoint(folder, "the cat", "2").layers] == [None]
