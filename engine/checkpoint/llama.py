"""The Llama layout, shared by Mistral, Qwen2, Qwen3 and Gemma: RMSNorm pre-norm layers, separate
``nn.Linear`` projections (out × in, transposed here), grouped key/value heads, RoPE pairing
column i with i + r/2 (``rotate_half``) over the whole head and a SwiGLU feed-forward (gate, up,
down). Biases as each family's transformers modeling builds them (Qwen2's q/k/v; Llama's with
``attention_bias`` and ``mlp_bias``; Qwen3's and Gemma's with ``attention_bias``; Mistral's
never); Mistral and Qwen2/Qwen3 may slide a window; Qwen3 RMSNorms each head's queries and
keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import (
    Heads,
    Parts,
    Sizes,
    Tensors,
    fused_gate_up,
    fused_projections,
    separate_projections,
    tensors,
    unembedding,
)

PREFIX = "model."
GROUPS = {"mistral": 8, "qwen2": 32, "qwen3": 32, "gemma": 16, "gemma2": 4, "mixtral": 8,
          "qwen3_moe": 4, "qwen2_moe": 16, "gemma3_text": 4}
PHI3_CONTEXT = 4096
"""Phi-3's ``original_max_position_embeddings`` when its config leaves it out."""
"""The key/value heads a family's transformers config defaults to (Llama: the query heads)."""
EPS = {"olmo2": 1e-5}
"""The ``rms_norm_eps`` a family's transformers config defaults to (Llama: 1e-6)."""


def biases(config: Config) -> tuple[bool, bool, bool]:
    """Whether q/k/v, the output projection and the feed-forward have biases in the family."""
    family = config.values["model_type"]
    if family in ("mistral", "mixtral"):
        return False, False, False
    if family == "qwen2":
        return True, False, False
    if family == "qwen2_moe":
        return config.flag("qkv_bias", True), False, False
    attention = config.flag("attention_bias", False)
    return attention, attention, family == "llama" and config.flag("mlp_bias", False)


FeedForwardReader = Callable[[Tensors, str, int, int, str, bool], dict[str, Any]]
"""A layer's ``ffn`` from the tensors: (tensors, the layer's prefix ``layers.K.``, d, the
hidden width, the engine's activation, whether the family gives it biases)."""


def swiglu(tensor: Tensors, module: str, d: int, hidden: int, activation: str,
           bias: bool) -> dict[str, Any]:
    """The gate, up and down projections of ``module`` (``layers.0.mlp``)."""
    ffn: dict[str, Any] = {"activation": activation}
    tensor.linear(ffn, ("Wg", "bg"), f"{module}.gate_proj", hidden, d, bias=bias)
    tensor.linear(ffn, ("W1", "b1"), f"{module}.up_proj", hidden, d, bias=bias)
    tensor.linear(ffn, ("W2", "b2"), f"{module}.down_proj", d, hidden, bias=bias)
    return ffn


def mlp(tensor: Tensors, at: str, d: int, hidden: int, activation: str,
        bias: bool) -> dict[str, Any]:
    """The layer's ``mlp``, a SwiGLU."""
    return swiglu(tensor, f"{at}mlp", d, hidden, activation, bias)


def fused_mlp(tensor: Tensors, at: str, d: int, hidden: int, activation: str,
              bias: bool) -> dict[str, Any]:
    """The layer's ``mlp`` as Phi-3 stores it: ``gate_up_proj`` (the gate's rows, then up's) and
    ``down_proj``."""
    ffn: dict[str, Any] = {"activation": activation}
    fused_gate_up(tensor, ffn, f"{at}mlp.", hidden, d)
    tensor.linear(ffn, ("W2", "b2"), f"{at}mlp.down_proj", d, hidden, bias=bias)
    return ffn


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int], *, tied: bool = False,
          activation: str | None = None, norm_shift: float = 0.0, head_dim: int | None = None,
          qk_norm: bool = False, fused: bool = False, sandwich: bool = False,
          olmo: bool = False, feed_forward: FeedForwardReader = mlp,
          positions: dict[str, Any] | None = None) -> Parts:
    """The chosen layers' parts; ``tied``: the head is the embedding when the config does not
    say; ``activation``: the engine's name when the family fixes it; ``norm_shift`` is added to
    every RMSNorm weight (Gemma multiplies by 1 + weight); ``head_dim``: d_k when the config
    does not say (else d / h); ``qk_norm``: each head's queries and keys are RMSNormed
    (``q_norm``, ``k_norm``, their weights shifted by ``norm_shift`` too) before RoPE (Qwen3,
    Gemma 3); ``fused``: the projections are Phi-3's
    ``qkv_proj`` and ``gate_up_proj``, without biases, RoPE turns the first
    ``partial_rotary_factor`` of each head and its scaling is longrope's; ``sandwich``: the
    attention's and the feed-forward's outputs are RMSNormed before their residuals
    (``post_attention_layernorm``, ``post_feedforward_layernorm``) and
    ``pre_feedforward_layernorm`` is the second norm (Gemma 2); ``olmo``: no pre-norms, the
    outputs RMSNormed before their residuals, and the QK-norm over the whole projection (OLMo 2:
    ``q_norm`` h·d_k wide, ``k_norm`` g·d_k); ``feed_forward`` reads each layer's ``ffn`` when
    it is not fused (Mixtral's experts); ``positions``: the RoPE positions when the family reads
    its settings itself (Gemma 3's per layer type)."""
    size = Sizes.of(config)
    shape = Heads.of(config, head_dim, GROUPS.get(config.values["model_type"]))
    d, d_k = shape.d, shape.d_k
    hidden = config.whole("intermediate_size")
    family = config.values["model_type"]
    block_keys = {"norm": "rmsnorm",
                  "eps": config.number("rms_norm_eps", default=EPS.get(family, 1e-6)),
                  "placement": "pre"}
    activation = activation or config.activation("hidden_act", default="silu")
    windows = config.windows(size.layers)
    attention_bias, output_bias, mlp_bias = biases(config)
    tensor = tensors(checkpoint, PREFIX)
    embedding = tensor.matrix("embed_tokens.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        attention = (fused_projections(tensor, shape, at + "self_attn.") if fused
                     else separate_projections(tensor, shape, at + "self_attn.", "o_proj",
                                               biases=(attention_bias, output_bias)))
        if windows[k] is not None:
            attention["window"] = windows[k]
        if qk_norm or olmo:
            q_width, k_width = (shape.heads * d_k, shape.groups * d_k) if olmo else (d_k, d_k)
            attention.update({"qk_norm": "rmsnorm",
                              "gamma_q": tensor(at + "self_attn.q_norm.weight", q_width)
                              + norm_shift,
                              "gamma_k": tensor(at + "self_attn.k_norm.weight", k_width)
                              + norm_shift})
            if olmo:
                attention["qk_norm_over"] = "all_heads"
        ffn = (fused_mlp if fused else feed_forward)(tensor, at, d, hidden, activation,
                                                     mlp_bias)
        outputs = (("gamma3", "post_attention_layernorm"),
                   ("gamma4", "post_feedforward_layernorm"))
        norms = (("gamma1", "input_layernorm"), ("gamma2", "pre_feedforward_layernorm"),
                 *outputs) if sandwich else outputs if olmo \
            else (("gamma1", "input_layernorm"), ("gamma2", "post_attention_layernorm"))
        block = {**block_keys, **({"pre_norms": False} if olmo else {}),
                 **{key: tensor(f"{at}{name}.weight", d) + norm_shift for key, name in norms},
                 "ffn": ffn}
        layers.append({"attention": attention, "block": block})
    unembed = unembedding(checkpoint, config, embedding, "lm_head.weight", tied=tied)
    head = {"final_norm": True, "gamma_f": tensor("norm.weight", d) + norm_shift,
            "unembed": unembed}
    if positions is None:
        positions = _positions(config, d_k, fused)
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)


def _positions(config: Config, d_k: int, fused: bool) -> dict[str, Any]:
    """RoPE over heads of ``d_k`` columns, from the config's RoPE settings; ``fused``: Phi-3's
    (``partial_rotary_factor``, longrope)."""
    # These families' rotary embedding turns every column of a head: a partial_rotary_factor
    # in their config is not read (but by Phi-3's).
    turned = int(d_k * config.rotary_fraction("partial_rotary_factor", 1.0)) if fused else d_k
    positions = {"kind": "rope", "base": config.rope_base(), "pairing": "half",
                 "rotary_dims": turned}
    scaling = (config.rope_scaling(("longrope",), turned // 2, PHI3_CONTEXT) if fused
               else config.rope_scaling())
    if scaling is not None:
        positions["scaling"] = scaling
    return positions
