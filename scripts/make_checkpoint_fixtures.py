"""Write the tiny Hugging Face checkpoints the importer's tests read: one folder per family under
tests/engine/checkpoints/ with config.json, model.safetensors (seeded random weights) and a
tokenizer.json trained here on one sentence. Run from the repository root:

    .venv/bin/python scripts/make_checkpoint_fixtures.py [FAMILY ...]

(every family, or the ones named). The folders are committed; running the script again writes
the same bytes, except BERT's tokenizer.json, whose WordPiece trainer may number the ``##``
pieces in another order (the committed one is kept: name the families you change). Writing
the bfloat16 fixtures needs ``ml_dtypes`` (``pip install ml-dtypes``; the app itself does
not).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
from safetensors.numpy import save_file
from tokenizers import (
    Tokenizer,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "tests" / "engine" / "checkpoints"
CORPUS = "the cat sat on the mat. the dog ate the cat's hat. 我爱你，你爱我。"
VOCAB = 48
"""Entries each tokenizer learns (the alphabet of the corpus and its commonest merges)."""
STORED = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def byte_level_tokenizer() -> Tokenizer:
    """A GPT-2-style byte-level BPE (spaces become Ġ, offsets keep the typed characters)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=["<|endoftext|>"],
                                  show_progress=False)
    tokenizer.train_from_iterator([CORPUS], trainer)
    return tokenizer


def metaspace_tokenizer() -> Tokenizer:
    """A Llama-style BPE: ▁ marks spaces, and every text starts with <s>."""
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>", fuse_unk=True))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first",
                                                       split=False)
    tokenizer.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.Fuse(),
                                           decoders.Strip(" ", 1, 0)])
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=["<unk>", "<s>", "</s>"],
                                  show_progress=False)
    tokenizer.train_from_iterator([CORPUS], trainer)
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", 1)])
    return tokenizer


def wordpiece_tokenizer() -> Tokenizer:
    """A BERT-style WordPiece: lower case, each Chinese character apart, [CLS] … [SEP]."""
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    trainer = trainers.WordPieceTrainer(vocab_size=VOCAB, special_tokens=special,
                                        show_progress=False)
    tokenizer.train_from_iterator([CORPUS], trainer)
    tokenizer.post_processor = processors.BertProcessing(
        ("[SEP]", tokenizer.token_to_id("[SEP]")), ("[CLS]", tokenizer.token_to_id("[CLS]")))
    return tokenizer


class Weights:
    """Seeded random tensors by name, stored in one dtype."""

    def __init__(self, seed: int, dtype: str) -> None:
        self.rng = np.random.default_rng(seed)
        self.dtype = STORED[dtype]
        self.tensors: dict[str, np.ndarray] = {}

    def random(self, name: str, *shape: int, scale: float = 0.5) -> None:
        values = self.rng.standard_normal(shape) * scale
        self.tensors[name] = values.astype(np.float32).astype(self.dtype)

    def scale(self, name: str, size: int) -> None:
        """A norm's weight: 1 ± 0.2."""
        values = 1 + 0.2 * self.rng.standard_normal(size)
        self.tensors[name] = values.astype(np.float32).astype(self.dtype)


def gpt2(weights: Weights, vocab: int) -> dict[str, Any]:
    d, layers, context = 8, 2, 16
    w = weights
    w.random("transformer.wte.weight", vocab, d)
    w.random("transformer.wpe.weight", context, d, scale=0.2)
    for k in range(layers):
        at = f"transformer.h.{k}."
        w.scale(at + "ln_1.weight", d)
        w.random(at + "ln_1.bias", d, scale=0.1)
        w.random(at + "attn.c_attn.weight", d, 3 * d)
        w.random(at + "attn.c_attn.bias", 3 * d, scale=0.1)
        w.random(at + "attn.c_proj.weight", d, d)
        w.random(at + "attn.c_proj.bias", d, scale=0.1)
        w.scale(at + "ln_2.weight", d)
        w.random(at + "ln_2.bias", d, scale=0.1)
        w.random(at + "mlp.c_fc.weight", d, 4 * d)
        w.random(at + "mlp.c_fc.bias", 4 * d, scale=0.1)
        w.random(at + "mlp.c_proj.weight", 4 * d, d)
        w.random(at + "mlp.c_proj.bias", d, scale=0.1)
    w.scale("transformer.ln_f.weight", d)
    w.random("transformer.ln_f.bias", d, scale=0.1)
    return {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": vocab,
            "n_embd": d, "n_head": 2, "n_layer": layers, "n_positions": context, "n_inner": None,
            "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5,
            "tie_word_embeddings": True}


def llama_like(weights: Weights, vocab: int, *, heads: int, groups: int, d_k: int,
               qkv_bias: bool = False, tied: bool = False, d: int = 8,
               shifted: bool = False, qk_norm: bool = False,
               sandwich: bool = False, experts: int = 0,
               sparse: str = "mixtral", olmo: bool = False) -> tuple[int, int]:
    """The tensors of a two-layer Llama, Mistral, Qwen2, Qwen3 (``qk_norm``), Gemma
    (``shifted``: its norms store γ − 1, near 0), Gemma 2 (``sandwich``: the norms before and
    after the feed-forward too), Gemma 3 (both, with ``qk_norm``) or Mixtral (``experts``: a
    router and that many SwiGLU experts in place of the MLP; ``sparse`` "qwen3_moe": in the
    second layer only, under Qwen3-MoE's names, 6 wide; "qwen2_moe": the same and a gated shared
    expert 10 wide) or OLMo 2 (``olmo``: no input norm, the q and k norms as wide as the
    projections, the feed-forward's output normed); returns (d, hidden)."""
    hidden, w = 12, weights

    def norm(name: str) -> None:
        if shifted:
            w.random(name, d, scale=0.2)
        else:
            w.scale(name, d)

    w.random("model.embed_tokens.weight", vocab, d)
    for k in range(2):
        at = f"model.layers.{k}."
        if not olmo:
            norm(at + "input_layernorm.weight")
        for name, rows in (("q", heads * d_k), ("k", groups * d_k), ("v", groups * d_k)):
            w.random(f"{at}self_attn.{name}_proj.weight", rows, d)
            if qkv_bias:
                w.random(f"{at}self_attn.{name}_proj.bias", rows, scale=0.1)
        w.random(at + "self_attn.o_proj.weight", d, heads * d_k)
        if qk_norm or olmo:
            for name, heads_of in (("q_norm", heads), ("k_norm", groups)):
                if shifted:  # Gemma 3: γ − 1 near 0, as its other norms
                    w.random(f"{at}self_attn.{name}.weight", d_k, scale=0.2)
                else:
                    w.scale(f"{at}self_attn.{name}.weight", heads_of * d_k if olmo else d_k)
        norm(at + "post_attention_layernorm.weight")
        if sandwich:
            norm(at + "pre_feedforward_layernorm.weight")
        if sandwich or olmo:
            norm(at + "post_feedforward_layernorm.weight")
        if experts and sparse in ("qwen3_moe", "qwen2_moe") and k == 1:
            w.random(at + "mlp.gate.weight", experts, d)
            for e in range(experts):
                w.random(f"{at}mlp.experts.{e}.gate_proj.weight", 6, d)
                w.random(f"{at}mlp.experts.{e}.up_proj.weight", 6, d)
                w.random(f"{at}mlp.experts.{e}.down_proj.weight", d, 6)
            if sparse == "qwen2_moe":
                w.random(at + "mlp.shared_expert_gate.weight", 1, d)
                w.random(at + "mlp.shared_expert.gate_proj.weight", 10, d)
                w.random(at + "mlp.shared_expert.up_proj.weight", 10, d)
                w.random(at + "mlp.shared_expert.down_proj.weight", d, 10)
        elif experts and sparse == "mixtral":
            moe = at + "block_sparse_moe."
            w.random(moe + "gate.weight", experts, d)
            for e in range(experts):
                w.random(f"{moe}experts.{e}.w1.weight", hidden, d)
                w.random(f"{moe}experts.{e}.w3.weight", hidden, d)
                w.random(f"{moe}experts.{e}.w2.weight", d, hidden)
        else:
            w.random(at + "mlp.gate_proj.weight", hidden, d)
            w.random(at + "mlp.up_proj.weight", hidden, d)
            w.random(at + "mlp.down_proj.weight", d, hidden)
    norm("model.norm.weight")
    if not tied:
        w.random("lm_head.weight", vocab, d)
    return d, hidden


def llama(weights: Weights, vocab: int) -> dict[str, Any]:
    d, hidden = llama_like(weights, vocab, heads=4, groups=2, d_k=2)
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 2,
            "max_position_embeddings": 32, "rms_norm_eps": 1e-6, "hidden_act": "silu",
            "rope_theta": 10000.0, "rope_scaling": None, "attention_bias": False,
            "tie_word_embeddings": False, "bos_token_id": 1, "eos_token_id": 2}


def mistral(weights: Weights, vocab: int) -> dict[str, Any]:
    d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=4)
    return {"model_type": "mistral", "architectures": ["MistralForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
            "head_dim": 4, "max_position_embeddings": 32, "rms_norm_eps": 1e-5,
            "hidden_act": "silu", "sliding_window": 3,
            "rope_parameters": {"rope_type": "default", "rope_theta": 500.0},
            "tie_word_embeddings": False, "bos_token_id": 1, "eos_token_id": 2}


def mixtral(weights: Weights, vocab: int) -> dict[str, Any]:
    """Mistral's shape with 4 experts, 2 chosen per token."""
    d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=4, experts=4)
    return {"model_type": "mixtral", "architectures": ["MixtralForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
            "head_dim": 4, "max_position_embeddings": 32, "rms_norm_eps": 1e-5,
            "hidden_act": "silu", "sliding_window": None, "num_local_experts": 4,
            "num_experts_per_tok": 2,
            "rope_parameters": {"rope_type": "default", "rope_theta": 500.0},
            "tie_word_embeddings": False, "bos_token_id": 1, "eos_token_id": 2}


def qwen3_moe(weights: Weights, vocab: int) -> dict[str, Any]:
    """Qwen3's attention; layer 1 dense (``mlp_only_layers``), layer 2 a mixture of 4 experts
    6 wide, 3 chosen, their shares not renormalised (``norm_topk_prob`` false)."""
    d, hidden = llama_like(weights, vocab, heads=4, groups=2, d_k=2, qk_norm=True, experts=4,
                           sparse="qwen3_moe")
    return {"model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "moe_intermediate_size": 6, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "max_position_embeddings": 32, "rms_norm_eps": 1e-6,
            "hidden_act": "silu", "num_experts": 4, "num_experts_per_tok": 3,
            "norm_topk_prob": False, "mlp_only_layers": [0], "decoder_sparse_step": 1,
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
            "tie_word_embeddings": False, "bos_token_id": 1, "eos_token_id": 2}


def qwen2_moe(weights: Weights, vocab: int) -> dict[str, Any]:
    """Qwen2's attention (q/k/v biases); layer 1 dense (``mlp_only_layers``), layer 2 a mixture
    of 4 experts 6 wide, 2 chosen, their shares not renormalised, and a shared expert 10 wide
    behind its sigmoid gate."""
    d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=4, qkv_bias=True, experts=4,
                           sparse="qwen2_moe")
    return {"model_type": "qwen2_moe", "architectures": ["Qwen2MoeForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "moe_intermediate_size": 6, "shared_expert_intermediate_size": 10,
            "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
            "max_position_embeddings": 32, "rms_norm_eps": 1e-6, "hidden_act": "silu",
            "num_experts": 4, "num_experts_per_tok": 2, "norm_topk_prob": False,
            "mlp_only_layers": [0], "decoder_sparse_step": 1, "qkv_bias": True,
            "use_sliding_window": False, "sliding_window": 32, "max_window_layers": 2,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0},
            "tie_word_embeddings": False, "bos_token_id": 1, "eos_token_id": 2}


def qwen2(weights: Weights, vocab: int) -> dict[str, Any]:
    padded = vocab + 3  # Qwen2 pads its embedding past the tokenizer's entries
    d, hidden = llama_like(weights, padded, heads=2, groups=2, d_k=4, qkv_bias=True, tied=True)
    return {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "vocab_size": padded,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": 32,
            "rms_norm_eps": 1e-6, "hidden_act": "silu", "use_sliding_window": False,
            "sliding_window": None, "max_window_layers": 2,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0},
            "tie_word_embeddings": True}


def qwen3(weights: Weights, vocab: int) -> dict[str, Any]:
    d, hidden = llama_like(weights, vocab, heads=4, groups=2, d_k=4, qk_norm=True, tied=True)
    return {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 4,
            "max_position_embeddings": 32, "rms_norm_eps": 1e-6, "hidden_act": "silu",
            "attention_bias": False, "use_sliding_window": False, "sliding_window": None,
            "max_window_layers": 2, "layer_types": ["full_attention"] * 2,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1000.0},
            "tie_word_embeddings": True}


def olmo2(weights: Weights, vocab: int) -> dict[str, Any]:
    """OLMo 2: 4 query heads and 2 key/value heads of 2 columns, the QK-norm over each whole
    projection (8 and 4 weights), ``rms_norm_eps`` left to its default (1e-5)."""
    d, hidden = llama_like(weights, vocab, heads=4, groups=2, d_k=2, olmo=True)
    return {"model_type": "olmo2", "architectures": ["Olmo2ForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "max_position_embeddings": 32,
            "hidden_act": "silu", "attention_bias": False,
            "rope_parameters": {"rope_type": "default", "rope_theta": 500.0},
            "tie_word_embeddings": False, "pad_token_id": None, "bos_token_id": None,
            "eos_token_id": 0}


def gemma(weights: Weights, vocab: int) -> dict[str, Any]:
    d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=8, tied=True, d=16,
                           shifted=True)  # d = 16: √d = 4 in every dtype
    return {"model_type": "gemma", "architectures": ["GemmaForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
            "max_position_embeddings": 32, "rms_norm_eps": 1e-6,
            "hidden_act": "gelu_pytorch_tanh", "rope_theta": 10000.0, "attention_bias": False,
            "bos_token_id": 1, "eos_token_id": 2}


def gemma2(weights: Weights, vocab: int) -> dict[str, Any]:
    """Gemma 2 without its caps: a window of 3 on the first layer."""
    d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=8, tied=True, d=16,
                           shifted=True, sandwich=True)
    return {"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
            "query_pre_attn_scalar": 8, "max_position_embeddings": 32, "rms_norm_eps": 1e-6,
            "hidden_activation": "gelu_pytorch_tanh", "rope_theta": 10000.0,
            "attention_bias": False, "sliding_window": 3,
            "layer_types": ["sliding_attention", "full_attention"],
            "attn_logit_softcapping": None, "final_logit_softcapping": None,
            "bos_token_id": 1, "eos_token_id": 2}


def gemma2_capped(weights: Weights, vocab: int) -> dict[str, Any]:
    """Gemma 2 with its caps set small, so that they bite on these tiny weights: the scores at
    5, the logits at 3."""
    return {**gemma2(weights, vocab), "attn_logit_softcapping": 5.0,
            "final_logit_softcapping": 3.0}


def gemma3_text(weights: Weights, vocab: int) -> dict[str, Any]:
    """Gemma 3 (text) as its Hub configs spell it (``rope_theta`` 1000000 for the full layer,
    ``rope_local_base_freq`` 10000 for the sliding one): heads 8 wide (four pairs, so the two
    bases turn differently), each head's q and k RMSNormed, the scores ÷ √12
    (``query_pre_attn_scalar``, not d_k), a window of 3 on the first layer."""
    d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=8, tied=True, d=16,
                           shifted=True, sandwich=True, qk_norm=True)
    return {"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
            "head_dim": 8, "query_pre_attn_scalar": 12, "max_position_embeddings": 32,
            "rms_norm_eps": 1e-6, "hidden_activation": "gelu_pytorch_tanh",
            "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0, "rope_scaling": None,
            "attention_bias": False, "sliding_window": 3,
            "layer_types": ["sliding_attention", "full_attention"],
            "attn_logit_softcapping": None, "final_logit_softcapping": None,
            "bos_token_id": 1, "eos_token_id": 2}


def bert(weights: Weights, vocab: int) -> dict[str, Any]:
    d, hidden, w = 8, 16, weights
    w.random("embeddings.word_embeddings.weight", vocab, d)
    w.random("embeddings.position_embeddings.weight", 32, d, scale=0.2)
    w.random("embeddings.token_type_embeddings.weight", 2, d, scale=0.2)
    w.scale("embeddings.LayerNorm.weight", d)
    w.random("embeddings.LayerNorm.bias", d, scale=0.1)
    for k in range(2):
        at = f"encoder.layer.{k}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense"):
            w.random(f"{at}{name}.weight", d, d)
            w.random(f"{at}{name}.bias", d, scale=0.1)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            w.scale(f"{at}{norm}.weight", d)
            w.random(f"{at}{norm}.bias", d, scale=0.1)
        w.random(at + "intermediate.dense.weight", hidden, d)
        w.random(at + "intermediate.dense.bias", hidden, scale=0.1)
        w.random(at + "output.dense.weight", d, hidden)
        w.random(at + "output.dense.bias", d, scale=0.1)
    return {"model_type": "bert", "architectures": ["BertModel"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 2, "max_position_embeddings": 32, "type_vocab_size": 2,
            "hidden_act": "gelu", "layer_norm_eps": 1e-12,
            "position_embedding_type": "absolute", "pad_token_id": 0}


def gpt_neox(weights: Weights, vocab: int) -> dict[str, Any]:
    d, hidden, heads, w = 8, 32, 2, weights
    w.random("gpt_neox.embed_in.weight", vocab, d)
    for k in range(2):
        at = f"gpt_neox.layers.{k}."
        for norm in ("input_layernorm", "post_attention_layernorm"):
            w.scale(f"{at}{norm}.weight", d)
            w.random(f"{at}{norm}.bias", d, scale=0.1)
        w.random(at + "attention.query_key_value.weight", 3 * d, d)
        w.random(at + "attention.query_key_value.bias", 3 * d, scale=0.1)
        w.random(at + "attention.dense.weight", d, d)
        w.random(at + "attention.dense.bias", d, scale=0.1)
        w.random(at + "mlp.dense_h_to_4h.weight", hidden, d)
        w.random(at + "mlp.dense_h_to_4h.bias", hidden, scale=0.1)
        w.random(at + "mlp.dense_4h_to_h.weight", d, hidden)
        w.random(at + "mlp.dense_4h_to_h.bias", d, scale=0.1)
    w.scale("gpt_neox.final_layer_norm.weight", d)
    w.random("gpt_neox.final_layer_norm.bias", d, scale=0.1)
    w.random("embed_out.weight", vocab, d)
    return {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "num_hidden_layers": 2, "num_attention_heads": heads, "max_position_embeddings": 32,
            "rotary_pct": 0.5, "rotary_emb_base": 100, "layer_norm_eps": 1e-5,
            "hidden_act": "gelu", "use_parallel_residual": True, "tie_word_embeddings": False}


def phi3(weights: Weights, vocab: int) -> dict[str, Any]:
    """Phi-3: fused ``qkv_proj`` (2 query heads, 1 key/value head of 4 columns) and
    ``gate_up_proj``, half of each head turned, a window of 3 in every layer."""
    d, hidden, heads, groups, d_k, w = 8, 12, 2, 1, 4, weights
    w.random("model.embed_tokens.weight", vocab, d)
    for k in range(2):
        at = f"model.layers.{k}."
        w.scale(at + "input_layernorm.weight", d)
        w.random(at + "self_attn.qkv_proj.weight", (heads + 2 * groups) * d_k, d)
        w.random(at + "self_attn.o_proj.weight", d, heads * d_k)
        w.scale(at + "post_attention_layernorm.weight", d)
        w.random(at + "mlp.gate_up_proj.weight", 2 * hidden, d)
        w.random(at + "mlp.down_proj.weight", d, hidden)
    w.scale("model.norm.weight", d)
    w.random("lm_head.weight", vocab, d)
    return {"model_type": "phi3", "architectures": ["Phi3ForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": heads, "num_key_value_heads": groups,
            "max_position_embeddings": 32, "original_max_position_embeddings": 32,
            "rms_norm_eps": 1e-5, "hidden_act": "silu", "partial_rotary_factor": 0.5,
            "rope_theta": 500.0, "rope_scaling": None, "sliding_window": 3,
            "tie_word_embeddings": False, "pad_token_id": None, "bos_token_id": 1,
            "eos_token_id": 2}


def stablelm(weights: Weights, vocab: int) -> dict[str, Any]:
    """StableLM 2's shape: LayerNorms with shifts, q/k/v biases, a SwiGLU feed-forward, half
    of each head turned, grouped heads, sequential residuals."""
    d, hidden, heads, groups, d_k, w = 8, 12, 2, 1, 4, weights
    w.random("model.embed_tokens.weight", vocab, d)
    for k in range(2):
        at = f"model.layers.{k}."
        layer_norm(w, at + "input_layernorm", d)
        for name, rows in (("q", heads * d_k), ("k", groups * d_k), ("v", groups * d_k)):
            linear(w, f"{at}self_attn.{name}_proj", rows, d)
        w.random(at + "self_attn.o_proj.weight", d, d)
        layer_norm(w, at + "post_attention_layernorm", d)
        w.random(at + "mlp.gate_proj.weight", hidden, d)
        w.random(at + "mlp.up_proj.weight", hidden, d)
        w.random(at + "mlp.down_proj.weight", d, hidden)
    layer_norm(w, "model.norm", d)
    w.random("lm_head.weight", vocab, d)
    return {"model_type": "stablelm", "architectures": ["StableLmForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "num_hidden_layers": 2, "num_attention_heads": heads, "num_key_value_heads": groups,
            "max_position_embeddings": 32, "layer_norm_eps": 1e-5, "hidden_act": "silu",
            "partial_rotary_factor": 0.5, "rope_theta": 10000.0, "use_qkv_bias": True,
            "qk_layernorm": False, "use_parallel_residual": False,
            "tie_word_embeddings": False, "bos_token_id": 0, "eos_token_id": 0}


def starcoder2(weights: Weights, vocab: int) -> dict[str, Any]:
    """Starcoder2: LayerNorms with shifts, every projection with a bias, 4 query heads on 2
    key/value heads, a window of 3 in every layer, a tied head."""
    d, hidden, heads, groups, d_k, w = 8, 16, 4, 2, 2, weights
    w.random("model.embed_tokens.weight", vocab, d)
    for k in range(2):
        at = f"model.layers.{k}."
        layer_norm(w, at + "input_layernorm", d)
        for name, rows in (("q", heads * d_k), ("k", groups * d_k), ("v", groups * d_k)):
            linear(w, f"{at}self_attn.{name}_proj", rows, d)
        linear(w, at + "self_attn.o_proj", d, heads * d_k)
        layer_norm(w, at + "post_attention_layernorm", d)
        linear(w, at + "mlp.c_fc", hidden, d)
        linear(w, at + "mlp.c_proj", d, hidden)
    layer_norm(w, "model.norm", d)
    return {"model_type": "starcoder2", "architectures": ["Starcoder2ForCausalLM"],
            "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
            "num_hidden_layers": 2, "num_attention_heads": heads, "num_key_value_heads": groups,
            "max_position_embeddings": 32, "norm_epsilon": 1e-5,
            "hidden_act": "gelu_pytorch_tanh", "rope_theta": 100.0, "sliding_window": 3,
            "use_bias": True, "tie_word_embeddings": True, "bos_token_id": 0, "eos_token_id": 0}


def phi3_longrope(weights: Weights, vocab: int) -> dict[str, Any]:
    """Phi-3 with longrope over an original context of 512 (the short factors the engine's
    512 positions always use), its heads turned whole: two pairs, factors 1 and 1.5."""
    return {**phi3(weights, vocab), "partial_rotary_factor": 1.0,
            "max_position_embeddings": 2048, "original_max_position_embeddings": 512,
            "rope_parameters": {"rope_type": "longrope", "rope_theta": 500.0,
                                "short_factor": [1.0, 1.5], "long_factor": [3.0, 5.0]}}


def scaled_llama(rope: dict[str, Any]) -> Callable[[Weights, int], dict[str, Any]]:
    """A Llama of two heads of 8 columns (four pairs, base 500: wavelengths 6.3, 30, 140, 660)
    whose RoPE is scaled by ``rope``."""
    def build(weights: Weights, vocab: int) -> dict[str, Any]:
        d, hidden = llama_like(weights, vocab, heads=2, groups=1, d_k=8)
        return {"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                "vocab_size": vocab, "hidden_size": d, "intermediate_size": hidden,
                "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
                "head_dim": 8, "max_position_embeddings": 32, "rms_norm_eps": 1e-6,
                "hidden_act": "silu", "rope_parameters": {"rope_theta": 500.0, **rope},
                "attention_bias": False, "tie_word_embeddings": False, "bos_token_id": 1,
                "eos_token_id": 2}
    return build


def layer_norm(weights: Weights, name: str, d: int) -> None:
    weights.scale(name + ".weight", d)
    weights.random(name + ".bias", d, scale=0.1)


def linear(weights: Weights, name: str, rows: int, columns: int) -> None:
    """An ``nn.Linear`` with a bias: rows × columns (out × in)."""
    weights.random(name + ".weight", rows, columns)
    weights.random(name + ".bias", rows, scale=0.1)


def phi(weights: Weights, vocab: int) -> dict[str, Any]:
    """Phi with QK-norm (``qk_layernorm``) and a quarter of each head turned."""
    d, hidden, d_k, w = 8, 16, 4, weights
    w.random("model.embed_tokens.weight", vocab, d)
    for k in range(2):
        at = f"model.layers.{k}."
        layer_norm(w, at + "input_layernorm", d)
        for name in ("q_proj", "k_proj", "v_proj", "dense"):
            linear(w, f"{at}self_attn.{name}", d, d)
        layer_norm(w, at + "self_attn.q_layernorm", d_k)
        layer_norm(w, at + "self_attn.k_layernorm", d_k)
        linear(w, at + "mlp.fc1", hidden, d)
        linear(w, at + "mlp.fc2", d, hidden)
    layer_norm(w, "model.final_layernorm", d)
    linear(w, "lm_head", vocab, d)
    return {"model_type": "phi", "architectures": ["PhiForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "intermediate_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": 32,
            "layer_norm_eps": 1e-5, "hidden_act": "gelu_new", "qk_layernorm": True,
            "partial_rotary_factor": 0.5, "rope_theta": 10000.0, "tie_word_embeddings": False}


def opt(weights: Weights, vocab: int) -> dict[str, Any]:
    """OPT-350m's shape: post-norm, no final norm, an embedding of 4 columns projected in to
    d = 8 and out again."""
    d, hidden, width, context, w = 8, 16, 4, 32, weights
    w.random("model.decoder.embed_tokens.weight", vocab, width)
    w.random("model.decoder.embed_positions.weight", context + 2, d, scale=0.2)
    w.random("model.decoder.project_in.weight", d, width)
    w.random("model.decoder.project_out.weight", width, d)
    for k in range(2):
        at = f"model.decoder.layers.{k}."
        for name in ("q_proj", "k_proj", "v_proj", "out_proj"):
            linear(w, f"{at}self_attn.{name}", d, d)
        layer_norm(w, at + "self_attn_layer_norm", d)
        linear(w, at + "fc1", hidden, d)
        linear(w, at + "fc2", d, hidden)
        layer_norm(w, at + "final_layer_norm", d)
    return {"model_type": "opt", "architectures": ["OPTForCausalLM"], "vocab_size": vocab,
            "hidden_size": d, "ffn_dim": hidden, "word_embed_proj_dim": width,
            "num_hidden_layers": 2, "num_attention_heads": 2,
            "max_position_embeddings": context, "do_layer_norm_before": False,
            "activation_function": "relu", "enable_bias": True, "tie_word_embeddings": True}


FAMILIES: dict[str, tuple[Callable[[Weights, int], dict[str, Any]], str, bool]] = {
    "gpt2": (gpt2, "float32", True),
    "llama": (llama, "float32", False),
    "mistral": (mistral, "float32", False),
    "qwen2": (qwen2, "bfloat16", True),
    "gpt_neox": (gpt_neox, "float16", True),
    "gemma": (gemma, "float32", False),
    "gemma2": (gemma2, "bfloat16", False),
    "gemma2-capped": (gemma2_capped, "bfloat16", False),
    "bert": (bert, "float32", False),
    "qwen3": (qwen3, "bfloat16", True),
    "phi": (phi, "float16", True),
    "opt": (opt, "float32", True),
    "phi3": (phi3, "float32", False),
    "stablelm": (stablelm, "float32", True),
    "starcoder2": (starcoder2, "float32", True),
    "phi3-longrope": (phi3_longrope, "float32", False),
    "llama-rope-linear": (scaled_llama({"rope_type": "linear", "factor": 4.0}), "float32",
                          False),
    "llama-rope-llama3": (scaled_llama({"rope_type": "llama3", "factor": 8.0,
                                        "low_freq_factor": 1.0, "high_freq_factor": 8.0,
                                        "original_max_position_embeddings": 256}),
                          "float32", False),
    "llama-rope-yarn": (scaled_llama({"rope_type": "yarn", "factor": 4.0,
                                      "original_max_position_embeddings": 64}), "float32",
                        False),
    "mixtral": (mixtral, "float32", False),
    "qwen3_moe": (qwen3_moe, "bfloat16", True),
    "olmo2": (olmo2, "bfloat16", True),
    "qwen2_moe": (qwen2_moe, "bfloat16", True),
    "gemma3_text": (gemma3_text, "bfloat16", False),
}
"""Each family: its tensors and config, the dtype they are stored in, its tokenizer's kind;
then Llama with each RoPE scaling (``llama-rope-…``)."""
SEEDS = {"gpt2": 2501, "gpt_neox": 2502, "llama": 2503, "mistral": 2504, "qwen2": 2505,
         "gemma": 2506, "bert": 2507, "qwen3": 2508, "phi": 2509, "opt": 2510, "phi3": 2511,
         "llama-rope-linear": 2512, "llama-rope-llama3": 2513,
         "llama-rope-yarn": 2514, "stablelm": 2515, "starcoder2": 2516, "phi3-longrope": 2518,
         "gemma2": 2519, "mixtral": 2520, "qwen3_moe": 2521, "gemma2-capped": 2522,
         "qwen2_moe": 2530, "olmo2": 2541, "gemma3_text": 2542}
"""Each family's seed (fixed, so that a new family leaves the others' bytes as they were)."""


def write(family: str) -> None:
    build, dtype, byte_level = FAMILIES[family]
    tokenizer = (wordpiece_tokenizer() if family == "bert" else byte_level_tokenizer()
                 if byte_level else metaspace_tokenizer())
    weights = Weights(SEEDS[family], dtype)
    config = {**build(weights, tokenizer.get_vocab_size()), "torch_dtype": dtype}
    folder = FOLDER / family
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    save_file(dict(sorted(weights.tensors.items())), str(folder / "model.safetensors"))
    (folder / "tokenizer.json").write_text(tokenizer.to_str(pretty=True) + "\n",
                                           encoding="utf-8")


def main() -> None:
    for family in sys.argv[1:] or FAMILIES:
        write(family)
        print(f"wrote {(FOLDER / family).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
