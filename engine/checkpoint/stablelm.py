"""StableLM's layout: LayerNorm (with shifts) pre-norm layers, sequential, or parallel with
``use_parallel_residual`` (x + attention(norm x) + feed-forward(norm x), both halves reading
``input_layernorm``); separate q/k/v projections, with biases when ``use_qkv_bias``, and
``o_proj`` without; a SwiGLU feed-forward without biases; RoPE on the first
``partial_rotary_factor`` (0.25) of each head; an untied ``lm_head`` after the LayerNorm
``norm``. Its ``qk_layernorm`` (a LayerNorm of its own for each head) is refused."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Heads, Parts, Sizes, separate_projections, tensors, unembedding
from engine.format.errors import ScenarioError
from engine.words.refusals import Refusal

PREFIX = "model."


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    shape = Heads.split(config, grouped=True)
    d, d_k = shape.d, shape.d_k
    if config.flag("qk_layernorm", False):
        raise ScenarioError(config.at("qk_layernorm"), Refusal("qk_norm_per_head"))
    hidden = config.whole("intermediate_size")
    parallel = config.flag("use_parallel_residual", False)
    qkv_bias = config.flag("use_qkv_bias", False)
    block_keys = {"norm": "layernorm", "eps": config.number("layer_norm_eps", default=1e-5),
                  "placement": "pre", "residual": "parallel" if parallel else "sequential"}
    activation = config.activation("hidden_act", default="silu")
    tensor = tensors(checkpoint, PREFIX)
    embedding = tensor.matrix("embed_tokens.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        attention = separate_projections(tensor, shape, at + "self_attn.", "o_proj",
                                         biases=(qkv_bias, False))
        ffn: dict[str, Any] = {"activation": activation}
        tensor.linear(ffn, ("Wg", "bg"), f"{at}mlp.gate_proj", hidden, d, bias=False)
        tensor.linear(ffn, ("W1", "b1"), f"{at}mlp.up_proj", hidden, d, bias=False)
        tensor.linear(ffn, ("W2", "b2"), f"{at}mlp.down_proj", d, hidden, bias=False)
        block: dict[str, Any] = {**block_keys, "ffn": ffn}
        tensor.norm(block, ("gamma1", "beta1"), f"{at}input_layernorm", d)
        if parallel:
            block.update(gamma2=block["gamma1"], beta2=block["beta1"])
        else:
            tensor.norm(block, ("gamma2", "beta2"), f"{at}post_attention_layernorm", d)
        layers.append({"attention": attention, "block": block})
    head: dict[str, Any] = {
        "final_norm": True,
        "unembed": unembedding(checkpoint, config, embedding, "lm_head.weight", tied=False)}
    tensor.norm(head, ("gamma_f", "beta_f"), "norm", d)
    config.rope_scaling(computed=())  # turned over part of each head: not computed
    positions = {"kind": "rope", "base": config.rope_base(), "pairing": "half",
                 "rotary_dims": int(d_k * config.rotary_fraction("partial_rotary_factor", 0.25))}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)


__all__ = ["parts"]
