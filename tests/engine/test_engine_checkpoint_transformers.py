"""The importer against transformers itself, with the ``reference`` extra (torch 2.13.0 and
transformers: ``./dev.sh test`` installs it, so CI runs this module; it skips, saying why,
without them).

For each family a tiny random model is built in float64, its weights redrawn large enough that
the heads differ (transformers' own initialisation, σ = 0.02, gives near-uniform shares), saved
with save_pretrained beside a small tokenizer.json, imported, and compared: the token ids with
transformers' tokenizer, every head's shares and every layer's output (forward hooks), the
logits and the probabilities.

Stock transformers computes RMSNorm, the eager softmax and RoPE's angles in float32 even in a
float64 model: unpatched, the agreement is 1e-7 to 1e-5 (the residual stream reaches about 10,
and float32's rounding grows through the layers) and is checked at 1e-5 of each array's largest
magnitude (GPT-2 has none of those casts: 1e-10). With those three
patched to float64 (as the engine computes) it is checked at 1e-10. Run with ``-s`` to print the
largest difference of each array.
"""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import compute
from engine.checkpoint import import_checkpoint
from engine.checkpoint.config import Config
from engine.forward.top_k import top_k
from tests.engine.hf_reference import CAPPED, FAMILIES, FIXTURES, SCALED
from tests.engine.test_engine_checkpoint import layer_output

torch = pytest.importorskip("torch", reason="torch is not installed (pip install torch==2.13.0)")
transformers = pytest.importorskip("transformers", reason="transformers is not installed")
rope_utils = importlib.import_module("transformers.modeling_rope_utils")
ROPE_INIT_FUNCTIONS = rope_utils.ROPE_INIT_FUNCTIONS

TEXT = "the cat sat on the mat. 我爱你"
SIZES: dict[str, dict[str, Any]] = {
    "gpt2": {"n_embd": 8, "n_head": 2, "n_layer": 2, "n_positions": 32},
    "llama": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
              "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 2,
              "max_position_embeddings": 32, "rope_theta": 500.0},
    "mistral": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
                "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
                "max_position_embeddings": 32, "sliding_window": 3},
    "qwen2": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
              "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": 32,
              "tie_word_embeddings": True},
    "gpt_neox": {"hidden_size": 8, "intermediate_size": 32, "num_hidden_layers": 2,
                 "num_attention_heads": 2, "max_position_embeddings": 32, "rotary_pct": 0.5,
                 "rotary_emb_base": 100},
    "bert": {"hidden_size": 8, "intermediate_size": 16, "num_hidden_layers": 2,
             "num_attention_heads": 2, "max_position_embeddings": 32},
    "gemma": {"hidden_size": 16, "intermediate_size": 12, "num_hidden_layers": 2,
              "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
              "max_position_embeddings": 32},
    "gemma2": {"hidden_size": 16, "intermediate_size": 12, "num_hidden_layers": 2,
               "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
               "query_pre_attn_scalar": 8, "max_position_embeddings": 32, "sliding_window": 3,
               "attn_logit_softcapping": None, "final_logit_softcapping": None},
    "gemma3_text": {"hidden_size": 16, "intermediate_size": 12, "num_hidden_layers": 2,
                    "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
                    "query_pre_attn_scalar": 12, "max_position_embeddings": 32,
                    "sliding_window": 3, "layer_types": ["sliding_attention", "full_attention"]},
    "qwen3": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
              "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 4,
              "max_position_embeddings": 32, "tie_word_embeddings": True},
    "phi": {"hidden_size": 8, "intermediate_size": 16, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 1, "max_position_embeddings": 32,
            "qk_layernorm": True, "partial_rotary_factor": 0.5},
    "opt": {"hidden_size": 8, "ffn_dim": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
            "max_position_embeddings": 32},
    "phi3": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
             "num_attention_heads": 2, "num_key_value_heads": 1, "max_position_embeddings": 32,
             "rope_theta": 500.0, "pad_token_id": None},
    "stablelm": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
                 "num_attention_heads": 2, "num_key_value_heads": 2,
                 "max_position_embeddings": 32, "partial_rotary_factor": 0.5,
                 "use_qkv_bias": True, "rope_theta": 500.0},
    "starcoder2": {"hidden_size": 8, "intermediate_size": 16, "num_hidden_layers": 2,
                   "num_attention_heads": 4, "num_key_value_heads": 2,
                   "max_position_embeddings": 32, "sliding_window": 3, "rope_theta": 100.0},
    "mixtral": {"hidden_size": 8, "intermediate_size": 6, "num_hidden_layers": 2,
                "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
                "max_position_embeddings": 32, "num_local_experts": 4, "num_experts_per_tok": 2},
    "qwen3_moe": {"hidden_size": 8, "intermediate_size": 12, "moe_intermediate_size": 6,
                  "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                  "head_dim": 2, "max_position_embeddings": 32, "num_experts": 4,
                  "num_experts_per_tok": 3, "mlp_only_layers": [0]},
    "olmo2": {"hidden_size": 8, "intermediate_size": 12, "num_hidden_layers": 2,
              "num_attention_heads": 4, "num_key_value_heads": 2,
              "max_position_embeddings": 32, "rope_theta": 500.0, "eos_token_id": 0},
    "qwen2_moe": {"hidden_size": 8, "intermediate_size": 12, "moe_intermediate_size": 6,
                  "shared_expert_intermediate_size": 10, "num_hidden_layers": 2,
                  "num_attention_heads": 2, "num_key_value_heads": 1,
                  "max_position_embeddings": 32, "num_experts": 4, "num_experts_per_tok": 2},
}
TOKENIZERS = {"phi3": "llama", "stablelm": "gpt_neox", "starcoder2": "gpt2", "olmo2": "gpt2"}
"""The fixture whose tokenizer.json a family's random model reads (its own by default)."""
SCALED_HEADS = {"num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8}
"""Heads of 8 columns: four pairs, so that a scaling keeps, smooths and divides frequencies
(base 500: wavelengths 2π/θᵢ of 6.3, 30, 140 and 660)."""
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    **{family: (family, {}) for family in FAMILIES},
    "phi-2": ("phi", {"hidden_size": 16, "qk_layernorm": False, "num_key_value_heads": None,
                      "partial_rotary_factor": 0.25}),
    "opt-350m": ("opt", {"do_layer_norm_before": False, "word_embed_proj_dim": 4}),
    "opt-plain": ("opt", {"enable_bias": False, "layer_norm_elementwise_affine": False}),
    "llama-layer-types": ("llama", {"layer_types": ["sliding_attention", "full_attention"],
                                    "sliding_window": 2}),
    "mistral-layer-types": ("mistral", {"layer_types": ["full_attention", "sliding_attention"]}),
    "qwen2-window": ("qwen2", {"use_sliding_window": True, "sliding_window": 2,
                               "max_window_layers": 1}),
    "llama-biases": ("llama", {"attention_bias": True, "mlp_bias": True}),
    "gpt_neox-no-bias": ("gpt_neox", {"attention_bias": False}),
    "bert-decoder": ("bert", {"is_decoder": True}),
    "llama-rope-scaling": ("llama", {"num_attention_heads": 2, "num_key_value_heads": 1,
                                     "head_dim": 4}),
    "llama-rope-linear": ("llama", {**SCALED_HEADS, "rope_parameters": {
        "rope_type": "linear", "rope_theta": 500.0, "factor": 4.0}}),
    "llama-rope-llama3": ("llama", {**SCALED_HEADS, "rope_parameters": {
        "rope_type": "llama3", "rope_theta": 500.0, "factor": 8.0, "low_freq_factor": 1.0,
        "high_freq_factor": 8.0, "original_max_position_embeddings": 256}}),
    "llama-rope-yarn": ("llama", {**SCALED_HEADS, "rope_parameters": {
        "rope_type": "yarn", "rope_theta": 500.0, "factor": 4.0,
        "original_max_position_embeddings": 64}}),
    "llama-rope-dynamic": ("llama", {**SCALED_HEADS, "max_position_embeddings": 512,
                                     "rope_parameters": {"rope_type": "dynamic",
                                                         "rope_theta": 500.0, "factor": 4.0}}),
    "stablelm-parallel": ("stablelm", {"use_parallel_residual": True, "use_qkv_bias": False,
                                       "num_key_value_heads": 1}),
    "starcoder2-plain": ("starcoder2", {"use_bias": False, "sliding_window": None,
                                        "tie_word_embeddings": False}),
    "phi3-partial-window": ("phi3", {"partial_rotary_factor": 0.5, "sliding_window": 3,
                                     "num_key_value_heads": 2}),
    "phi3-longrope": ("phi3", {"num_attention_heads": 1, "num_key_value_heads": 1,
                               "partial_rotary_factor": 0.5, "max_position_embeddings": 2048,
                               "original_max_position_embeddings": 512, "rope_parameters": {
                                   "rope_type": "longrope", "rope_theta": 500.0,
                                   "short_factor": [1.0, 1.5], "long_factor": [3.0, 5.0]}}),
    "qwen2-rope-yarn-mscale": ("qwen2", {**SCALED_HEADS, "rope_parameters": {
        "rope_type": "yarn", "rope_theta": 500.0, "factor": 3.0, "beta_fast": 4,
        "beta_slow": 0.5, "mscale": 2.0, "mscale_all_dim": 1.0, "truncate": False,
        "original_max_position_embeddings": 64}}),
    "gemma2-layer-types": ("gemma2", {"layer_types": ["full_attention", "sliding_attention"],
                                      "sliding_window": 2}),
    "qwen3_moe-normalised": ("qwen3_moe", {"norm_topk_prob": True, "mlp_only_layers": [],
                                           "num_experts_per_tok": 2}),
    "gemma2-final-cap": ("gemma2", {"final_logit_softcapping": 3.0}),
    "gemma2-caps": ("gemma2", {"attn_logit_softcapping": 5.0, "final_logit_softcapping": 3.0}),
    "qwen2_moe-dense-window": ("qwen2_moe", {"decoder_sparse_step": 2, "norm_topk_prob": True,
                                             "qkv_bias": False, "use_sliding_window": True,
                                             "sliding_window": 2, "max_window_layers": 1}),
    "gemma2-scalar": ("gemma2", {"query_pre_attn_scalar": 2}),
    "gemma3_text-bases": ("gemma3_text", {
        "layer_types": ["full_attention", "sliding_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 500.0},
                            "sliding_attention": {"rope_type": "default", "rope_theta": 5.0}}}),
    "gemma-width-12": ("gemma", {"hidden_size": 12}),
    "gemma2-width-12": ("gemma2", {"hidden_size": 12}),
    "gemma3_text-width-12": ("gemma3_text", {"hidden_size": 12}),
    "gemma3_text-scaled": ("gemma3_text", {
        "layer_types": ["sliding_attention", "full_attention"],
        "rope_parameters": {"full_attention": {"rope_type": "linear", "rope_theta": 500.0,
                                               "factor": 8.0},
                            "sliding_attention": {"rope_type": "default", "rope_theta": 5.0}}}),
    "gemma3_text-legacy-scaling": ("gemma3_text", {
        "layer_types": ["full_attention", "sliding_attention"], "rope_theta": 500.0,
        "rope_local_base_freq": 500.0}),
}
"""Each case: its family and what it changes in the family's sizes: Phi-2's shape (no QK-norm,
no grouped heads, a quarter of each head's 8 columns turned); OPT-350m's (post-norm, no final
norm, an embedding narrower than the layers, projected in and out); OPT without biases or norm
weights. Then config keys as transformers reads them: Llama's ``layer_types`` and
``sliding_window`` (its modeling slides no window), Mistral's ``layer_types`` (unread: every
layer slides), Qwen2's window from ``max_window_layers`` on, Llama's ``attention_bias`` and
``mlp_bias``, GPT-NeoX without ``attention_bias``, BERT with ``is_decoder`` (causal), and a
``rope_scaling`` beside ``rope_parameters`` (``EDITED``; heads of 4 columns, so that the base
changes the angles: with Llama's 2 the one angle is p · θ⁰). Then RoPE's scalings: ``linear``;
``llama3`` over an original context of 256 (pair 0 and 1 kept, 2 smoothed, 3 divided by 8);
``yarn`` over 64 (its ramp 0, ½, 1, 1; cos and sin × 1 + 0.1·ln 4); ``dynamic`` within a
context of 512 (the plain RoPE's angles); and yarn as a Qwen2 with every setting given: its
betas, ``mscale``/``mscale_all_dim`` and no truncation. Gemma 2's other
``layer_types`` (its family case: the first layer slides, as its config defaults; the caps are
null in both); then Gemma 2 with its soft caps set small so that they bite: the logits' at 3
(``gemma2-final-cap``), and the scores' at 5 besides (``gemma2-caps``); and Gemma 2 dividing
its scores by √2 rather than √dₖ = √8 (``gemma2-scalar``: each attention's ``scale_dk``).
Gemma 3's family case turns its sliding layer by 10000 and its full one by 1000000 (the
defaults, saved per layer type in ``rope_parameters``) and divides by √12; ``gemma3_text-bases``
gives the bases (500 full, 5 sliding: every pair turns differently), the full layer first;
``gemma3_text-scaled`` scales the full layer's angles by linear 8 (transformers 5's nested
``rope_parameters``: the document's ``positions.scaling``, the sliding layer ``rope_scaled``
false with its own base 5), and ``gemma3_text-legacy-scaling`` gives Gemma 3 4B's legacy
``rope_scaling`` (``EDITED``) beside one base 500 for both types, so the sliding layer differs
from the full one by the scaling alone (``rope_scaled`` false, no ``rope_base``);
and the three Gemmas 12 wide, whose √d = √12 no float32 holds (their families' cases are 16
wide: √16 = 4 is exact in any precision).
Qwen2-MoE (its family case: both layers sparse, 2 of 4 shares unrenormalised, the gated shared
expert) with its first layer dense (``decoder_sparse_step`` 2), the shares renormalised, no
q/k/v biases, and a window of 2 on its even layers under ``max_window_layers`` 1 (layer 1
only)."""
EDITED: dict[str, dict[str, Any]] = {
    "llama-rope-scaling": {"rope_scaling": {"rope_type": "default"}},
    "gemma3_text-legacy-scaling": {"rope_scaling": {"rope_type": "linear", "factor": 8.0}},
}
"""Keys written into a case's saved config.json afterwards (save_pretrained writes no
``rope_scaling``), the model then read back by from_pretrained: transformers 5 takes a given
``rope_scaling`` in place of ``rope_parameters``, so the base is 10000, not the 500 of
``rope_parameters``; Gemma 3 merges it into its full layers' settings alone."""
FLOAT32_CASTS = ("LlamaRMSNorm", "MistralRMSNorm", "Qwen2RMSNorm", "Qwen3RMSNorm",
                 "GemmaRMSNorm", "Phi3RMSNorm", "Gemma2RMSNorm", "MixtralRMSNorm",
                 "Qwen3MoeRMSNorm", "Olmo2RMSNorm", "Qwen2MoeRMSNorm", "Gemma3RMSNorm")
ONE_PLUS = ("GemmaRMSNorm", "Gemma2RMSNorm", "Gemma3RMSNorm")
"""The RMSNorms that scale by 1 + weight."""
ROTARY = ("LlamaRotaryEmbedding", "MistralRotaryEmbedding", "Qwen2RotaryEmbedding",
          "Qwen3RotaryEmbedding", "GPTNeoXRotaryEmbedding", "GemmaRotaryEmbedding",
          "PhiRotaryEmbedding", "Phi3RotaryEmbedding", "StableLmRotaryEmbedding",
          "Starcoder2RotaryEmbedding", "Gemma2RotaryEmbedding", "MixtralRotaryEmbedding",
          "Qwen3MoeRotaryEmbedding", "Olmo2RotaryEmbedding", "Qwen2MoeRotaryEmbedding")
MODELING = ("llama", "mistral", "qwen2", "qwen3", "gpt_neox", "gemma", "phi", "phi3", "stablelm",
            "starcoder2", "gemma2", "mixtral", "qwen3_moe", "olmo2", "qwen2_moe", "gemma3")
"""The families whose modeling modules hold those classes."""


def _rms_norm64(self: Any, hidden_states: Any) -> Any:
    variance = hidden_states.pow(2).mean(-1, keepdim=True)
    return self.weight * (hidden_states / torch.sqrt(variance + self.variance_epsilon))


def _gemma_rms_norm64(self: Any, hidden_states: Any) -> Any:
    """Gemma's RMSNorm (its scale is 1 + weight) without its cast to float32."""
    variance = hidden_states.pow(2).mean(-1, keepdim=True)
    return (1.0 + self.weight) * (hidden_states / torch.sqrt(variance + self.eps))


class _Float64Torch:
    """torch with its float32 read as float64: transformers' own RoPE scalings
    (``modeling_rope_utils``) computed in float64."""

    float = torch.float64
    float32 = torch.float64

    def __getattr__(self, name: str) -> Any:
        return getattr(torch, name)


def _rotary64(self: Any, x: Any, position_ids: Any) -> Any:
    dim = 2 * self.inv_freq.shape[0]
    base = self.config.rope_parameters["rope_theta"]
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    if self.rope_type == "longrope":  # its exponent is cast by Tensor.float(), out of reach
        short = torch.tensor(self.config.rope_parameters["short_factor"], dtype=torch.float64)
        inv_freq = 1.0 / (short * base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    elif self.rope_type != "default":
        inv_freq, _ = ROPE_INIT_FUNCTIONS[self.rope_type](self.config, x.device)
    freqs = position_ids[..., None].to(torch.float64) * inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    return ((emb.cos() * self.attention_scaling).to(x.dtype),
            (emb.sin() * self.attention_scaling).to(x.dtype))


def _gemma3_rotary64(self: Any, x: Any, position_ids: Any, layer_type: str) -> Any:
    """Gemma 3's rotary embedding of one layer type, its angles in float64 (a scaled type's
    by transformers' own scaling, whose torch computes in float64 here)."""
    dim = 2 * getattr(self, f"{layer_type}_inv_freq").shape[0]
    base = self.config.rope_parameters[layer_type]["rope_theta"]
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    if self.rope_type[layer_type] != "default":
        inv_freq, _ = ROPE_INIT_FUNCTIONS[self.rope_type[layer_type]](self.config, x.device,
                                                                      layer_type=layer_type)
    emb = torch.cat([position_ids[..., None].to(torch.float64) * inv_freq] * 2, dim=-1)
    factor = getattr(self, f"{layer_type}_attention_scaling")
    return (emb.cos() * factor).to(x.dtype), (emb.sin() * factor).to(x.dtype)


def _router64(self: Any, hidden_states: Any) -> Any:
    """``MixtralTopKRouter.forward`` with its softmax in the model's float64 (stock: in float32,
    ``router_logits.float()``)."""
    hidden_states = hidden_states.reshape(-1, self.hidden_dim)
    router_logits = torch.nn.functional.linear(hidden_states, self.weight)
    router_probs = torch.softmax(router_logits, dim=-1)
    top_value, indices = torch.topk(router_probs, self.top_k, dim=-1)
    return router_logits, top_value / top_value.sum(dim=-1, keepdim=True), indices


def exact_float64(monkeypatch: pytest.MonkeyPatch) -> None:
    """transformers' float32 casts computed in float64 instead (Mixtral's router too)."""
    softmax: Callable[..., Any] = torch.nn.functional.softmax

    def softmax64(input: Any, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
        return softmax(input, dim=dim, dtype=None if input.dtype == torch.float64 else dtype)

    monkeypatch.setattr(torch.nn.functional, "softmax", softmax64)
    monkeypatch.setattr(rope_utils, "torch", _Float64Torch())
    for family in MODELING:
        modeling = importlib.import_module(f"transformers.models.{family}.modeling_{family}")
        for name in FLOAT32_CASTS + ROTARY:
            if hasattr(modeling, name):
                patched = (_gemma_rms_norm64 if name in ONE_PLUS else _rms_norm64
                           if name in FLOAT32_CASTS else _rotary64)
                monkeypatch.setattr(getattr(modeling, name), "forward", patched)
    gemma3 = importlib.import_module("transformers.models.gemma3.modeling_gemma3")
    monkeypatch.setattr(gemma3.Gemma3RotaryEmbedding, "forward", _gemma3_rotary64)
    mixtral = importlib.import_module("transformers.models.mixtral.modeling_mixtral")
    monkeypatch.setattr(mixtral.MixtralTopKRouter, "forward", _router64)


def build(family: str, folder: Path, seed: int, **changes: Any) -> Any:
    """A random float64 model of ``family`` (its sizes changed by ``changes``) saved in
    ``folder`` with a fixture's tokenizer."""
    shutil.copy(FIXTURES / TOKENIZERS.get(family, family) / "tokenizer.json",
                folder / "tokenizer.json")
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))
    vocab = len(tokenizer) + (3 if family == "qwen2" else 0)  # Qwen2 pads its embedding
    config = transformers.AutoConfig.for_model(family, vocab_size=vocab,
                                               **{**SIZES[family], **changes})
    torch.manual_seed(seed)
    auto = transformers.AutoModel if family == "bert" else transformers.AutoModelForCausalLM
    # The experts as MixtralExperts.forward writes them (transformers 5's default groups them
    # in torch._grouped_mm, which computes no float64).
    experts = ({"experts_implementation": "eager"}
               if family in ("mixtral", "qwen3_moe", "qwen2_moe") else {})
    model = auto.from_config(config, attn_implementation="eager", dtype=torch.float64,
                             **experts).eval()
    redraw(model)
    model.save_pretrained(folder)
    return model, tokenizer


def redraw(model: Any) -> None:
    """Weights large enough that heads and probabilities differ: norm scales 1 + 0.2·N(0, 1),
    biases 0.1·N(0, 1), matrices 0.5·N(0, 1) (from torch's current seed)."""
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if parameter.dim() == 1 and name.endswith("weight"):  # a norm's scale
                parameter.copy_(1 + 0.2 * torch.randn_like(parameter))
            else:
                parameter.copy_((0.1 if parameter.dim() == 1 else 0.5)
                                * torch.randn_like(parameter))


def run(model: Any, ids: list[int], types: list[int] | None = None) -> dict[str, Any]:
    """transformers' numbers: shares and output of each layer (hooks), logits, probabilities
    (``types``: BERT's token_type_ids)."""
    stack = next(module for module in model.modules()
                 if isinstance(module, torch.nn.ModuleList))
    outputs: list[np.ndarray] = []

    def keep(_module: Any, _inputs: Any, output: Any) -> None:
        first = output[0] if isinstance(output, tuple) else output
        outputs.append(first[0].detach().numpy())

    hooks = [layer.register_forward_hook(keep) for layer in stack]
    try:
        with torch.no_grad():
            given = {} if types is None else {"token_type_ids": torch.tensor([types])}
            result = model(torch.tensor([ids]), output_attentions=True, **given)
    finally:
        for hook in hooks:
            hook.remove()
    found = {"shares": [a[0].numpy() for a in result.attentions], "outputs": outputs}
    if hasattr(result, "logits"):  # BertModel has no head
        logits = result.logits[0]
        found.update(logits=logits.numpy(), probs=torch.softmax(logits, dim=-1).numpy())
    return found


def gaps(case: str, folder: Path) -> tuple[dict[str, float], dict[str, np.ndarray], Any]:
    """Case ``case`` built in ``folder`` (seeded by the case), imported and computed by both:
    the largest |Δ| of each array (the shares ``L1.weights``, ``L2.weights``, each layer's
    output, ``logits``, ``probs``), transformers' arrays, and the engine's trace."""
    family, changes = VARIANTS[case]
    model, tokenizer = build(family, folder, list(VARIANTS).index(case) + 40, **changes)
    if case in EDITED:
        config = json.loads((folder / "config.json").read_text("utf-8"))
        (folder / "config.json").write_text(json.dumps({**config, **EDITED[case]}), "utf-8")
        auto = transformers.AutoModel if family == "bert" else transformers.AutoModelForCausalLM
        model = auto.from_pretrained(folder, attn_implementation="eager",
                                     dtype=torch.float64).eval()
    scenario = import_checkpoint(folder, TEXT)
    assert scenario.token_ids is not None
    assert tokenizer(TEXT)["input_ids"] == list(scenario.token_ids)
    return compared(scenario, model)


def compared(scenario: Any, model: Any) -> tuple[dict[str, float], dict[str, np.ndarray], Any]:
    """The imported ``scenario`` computed by the engine and ``model`` by transformers: the
    largest |Δ| of each array, transformers' arrays, and the engine's trace."""
    ids = list(scenario.token_ids)
    trace, theirs = compute(scenario), run(model, ids)
    pairs = {name: theirs[name] for name in ("logits", "probs") if name in theirs}
    for k in range(2):
        pairs[f"L{k + 1}.weights"] = theirs["shares"][k]
        pairs[layer_output(scenario, k)] = theirs["outputs"][k]
    found = {name: float(np.abs(trace.arrays[name] - value).max())
             for name, value in pairs.items()}
    return found, pairs, trace


def assert_caps_bite(trace: Any) -> None:
    """Each soft cap of a trace changes its numbers a lot (a cap that never bites checks
    nothing)."""
    for capped in ("logits", "L1.scores", "L2.scores"):
        if f"{capped}_uncapped" in trace.arrays:
            assert np.abs(trace.arrays[f"{capped}_uncapped"] - trace.arrays[capped]).max() > 1.0


@pytest.mark.parametrize("patched", [True, False], ids=["float64", "stock"])
@pytest.mark.parametrize("case", VARIANTS)
def test_the_imported_checkpoint_computes_what_transformers_computes(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: str, patched: bool) -> None:
    if patched:
        exact_float64(monkeypatch)
    found, pairs, trace = gaps(case, tmp_path)
    print(f"\n{case} ({'float64' if patched else 'stock'}): "
          + ", ".join(f"{name} {gap:.1e}" for name, gap in found.items()))
    for name, value in pairs.items():
        # float32 rounds relative to a number's size: stock is held to 1e-5 of the array's
        # largest magnitude, float64 to 1e-10.
        scale = max(1.0, float(np.abs(value).max()))
        tolerance = 1e-10 if patched or case == "gpt2" else 1e-5 * scale
        assert found[name] <= tolerance, (name, found[name])
    assert_caps_bite(trace)
    # The model is not trivial: its last token's next-token probabilities are far from uniform
    # (BERT, without a head: its last layer's shares are).
    if "probs" in trace.arrays:
        assert trace.arrays["probs"][-1].max() > 3 / trace.arrays["probs"].shape[1]
    else:
        assert np.ptp(trace.arrays["L2.weights"][:, -1, :], axis=0).max() > 0.05


def test_a_text_pair_gives_berts_token_types_and_numbers_as_transformers_does(
        tmp_path: Path) -> None:
    model, tokenizer = build("bert", tmp_path, 60)
    pair = "the dog ate 你爱我"
    scenario = import_checkpoint(tmp_path, TEXT, pair=pair)
    encoded = tokenizer(TEXT, pair, return_token_type_ids=True)
    ids, types = list(scenario.token_ids or ()), list(scenario.token_types or ())
    assert ids == encoded["input_ids"] and types == encoded["token_type_ids"]
    assert types.count(1) == len(tokenizer(pair)["input_ids"]) - 1  # B and its [SEP]
    trace, theirs = compute(scenario), run(model, ids, types)
    untyped = run(model, ids)
    for k in range(2):
        name = f"L{k + 1}.norm2"
        np.testing.assert_allclose(trace.arrays[f"L{k + 1}.weights"], theirs["shares"][k],
                                   rtol=0, atol=1e-10)
        np.testing.assert_allclose(trace.arrays[name], theirs["outputs"][k], rtol=0, atol=1e-10)
        # Without the types transformers computes other rows: they are not a formality.
        assert np.abs(untyped["outputs"][k] - trace.arrays[name]).max() > 0.01


def test_equal_router_shares_are_chosen_as_torch_topk_chooses_them() -> None:
    rng = np.random.default_rng(7)
    for experts, ks in ((4, (1, 2, 3)), (8, (2, 4)), (60, (4,)), (128, (1, 2, 8))):
        rows = rng.integers(0, 3, (12, experts)).astype(np.float64)  # many ties
        for k in ks:
            theirs = torch.topk(torch.tensor(rows), k, dim=-1).indices.numpy()
            np.testing.assert_array_equal(top_k(rows, k), theirs, err_msg=f"E={experts} k={k}")



def test_gemma2_slides_the_layers_its_config_slides_by_default() -> None:
    theirs = transformers.Gemma2Config(num_hidden_layers=5, sliding_window=3).layer_types
    ours = Config({"model_type": "gemma2", "sliding_window": 3}, "config.json").windows(5)
    assert ours == [3 if kind == "sliding_attention" else None for kind in theirs]
    assert ours == [3, None, 3, None, 3]


def test_qwen2_moe_slides_the_layers_its_config_slides_by_default() -> None:
    theirs = transformers.Qwen2MoeConfig(num_hidden_layers=6, use_sliding_window=True,
                                         sliding_window=3, max_window_layers=4).layer_types
    ours = Config({"model_type": "qwen2_moe", "use_sliding_window": True, "sliding_window": 3,
                   "max_window_layers": 4}, "config.json").windows(6)
    assert ours == [3 if kind == "sliding_attention" else None for kind in theirs]
    assert ours == [3, None, 3, None, None, None]


@pytest.mark.parametrize("pattern", [None, 3])
def test_gemma3_slides_the_layers_its_config_slides_by_default(pattern: int | None) -> None:
    """All but every sixth layer (``sliding_window_pattern``, 6 when absent)."""
    given = {} if pattern is None else {"sliding_window_pattern": pattern}
    theirs = transformers.Gemma3TextConfig(num_hidden_layers=13, sliding_window=3,
                                           **given).layer_types
    ours = Config({"model_type": "gemma3_text", "sliding_window": 3, **given},
                  "config.json").windows(13)
    assert ours == [3 if kind == "sliding_attention" else None for kind in theirs]
    assert ours.count(None) == (2 if pattern is None else 4)


@pytest.mark.parametrize("name", ("phi3", "stablelm", "starcoder2", "gemma2", "olmo2", "qwen2_moe",
                                  "gemma3_text",
                                  *SCALED, *CAPPED))
def test_the_committed_fixture_computes_what_transformers_computes(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The committed fixtures of Phi-3, StableLM, Starcoder2, Gemma 2 (caps null, and capped),
    OLMo 2, Qwen2-MoE, Gemma 3 and of each RoPE scaling, read by from_pretrained in float64
    (its float32 casts patched): every array ≤ 1e-10."""
    exact_float64(monkeypatch)
    experts = {"experts_implementation": "eager"} if name == "qwen2_moe" else {}
    model = transformers.AutoModelForCausalLM.from_pretrained(
        FIXTURES / name, attn_implementation="eager", dtype=torch.float64, **experts).eval()
    found, _, trace = compared(import_checkpoint(FIXTURES / name, TEXT), model)
    print(f"\n{name}: " + ", ".join(f"{array} {gap:.1e}" for array, gap in found.items()))
    assert max(found.values()) <= 1e-10, found
    assert trace.arrays["probs"][-1].max() > 3 / trace.arrays["probs"].shape[1]
    assert_caps_bite(trace)

