"""The Llama layout, shared by Mistral, Qwen2, Qwen3 and Gemma: RMSNorm pre-norm layers, separate
``nn.Linear`` projections (out × in, transposed here), grouped key/value heads, RoPE pairing
column i with i + r/2 (``rotate_half``) and a SwiGLU feed-forward (gate, up, down). Biases are
taken where the checkpoint has them (Qwen2's q/k/v; Llama's with ``attention_bias``); Mistral
and Qwen2 may slide a window; Qwen3 RMSNorms each head's queries and keys."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Heads, Parts, Sizes, separate_projections, tensors, unembedding

PREFIX = "model."


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int], *, tied: bool = False,
          activation: str | None = None, norm_shift: float = 0.0, head_dim: int | None = None,
          qk_norm: bool = False) -> Parts:
    """The chosen layers' parts; ``tied``: the head is the embedding when the config does not
    say; ``activation``: the engine's name when the family fixes it; ``norm_shift`` is added to
    every RMSNorm weight (Gemma multiplies by 1 + weight); ``head_dim``: d_k when the config
    does not say (else d / h); ``qk_norm``: each head's queries and keys are RMSNormed
    (``q_norm``, ``k_norm``) before RoPE (Qwen3)."""
    size = Sizes.of(config)
    shape = Heads.of(config, head_dim)
    d, d_k = shape.d, shape.d_k
    hidden = config.whole("intermediate_size")
    block_keys = {"norm": "rmsnorm", "eps": config.number("rms_norm_eps", default=1e-6),
                  "placement": "pre"}
    activation = activation or config.activation("hidden_act", default="silu")
    windows = config.windows(size.layers, every_layer=config.values["model_type"] == "mistral")
    tensor = tensors(checkpoint, PREFIX)
    embedding = tensor("embed_tokens.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        attention = separate_projections(tensor, shape, at + "self_attn.", "o_proj")
        if windows[k] is not None:
            attention["window"] = windows[k]
        if qk_norm:
            attention.update({"qk_norm": "rmsnorm",
                              "gamma_q": tensor(at + "self_attn.q_norm.weight", d_k),
                              "gamma_k": tensor(at + "self_attn.k_norm.weight", d_k)})
        ffn: dict[str, Any] = {"activation": activation}
        tensor.linear(ffn, ("Wg", "bg"), f"{at}mlp.gate_proj", hidden, d)
        tensor.linear(ffn, ("W1", "b1"), f"{at}mlp.up_proj", hidden, d)
        tensor.linear(ffn, ("W2", "b2"), f"{at}mlp.down_proj", d, hidden)
        block = {**block_keys, "gamma1": tensor(at + "input_layernorm.weight", d) + norm_shift,
                 "gamma2": tensor(at + "post_attention_layernorm.weight", d) + norm_shift,
                 "ffn": ffn}
        layers.append({"attention": attention, "block": block})
    unembed = unembedding(checkpoint, config, embedding, "lm_head.weight", tied=tied)
    head = {"final_norm": True, "gamma_f": tensor("norm.weight", d) + norm_shift,
            "unembed": unembed}
    positions = {"kind": "rope", "base": config.rope_base(), "pairing": "half",
                 "rotary_dims": int(d_k * config.rotary_fraction(1.0))}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)
