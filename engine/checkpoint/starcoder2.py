"""Starcoder2's layout: LayerNorm (with shifts) pre-norm layers, separate q/k/v/o projections
and a plain feed-forward ``c_fc``/``c_proj`` (``gelu_pytorch_tanh``), all with biases unless
``use_bias`` is false; grouped heads (2 key/value heads by default); RoPE over the whole head;
``sliding_window`` in every layer; the head tied to the embedding unless
``tie_word_embeddings`` is false. A RoPE scaling is refused."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Heads, Parts, Sizes, separate_projections, tensors, unembedding

PREFIX = "model."
GROUPS = 2
"""The key/value heads transformers' Starcoder2 config defaults to."""


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    shape = Heads.of(config, groups=GROUPS)
    d, d_k = shape.d, shape.d_k
    hidden = config.whole("intermediate_size")
    bias = config.flag("use_bias", True)
    eps = config.number("norm_epsilon", default=1e-5)
    activation = config.activation("hidden_act", default="gelu_pytorch_tanh")
    windows = config.windows(size.layers)
    tensor = tensors(checkpoint, PREFIX)
    embedding = tensor.matrix("embed_tokens.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        attention = separate_projections(tensor, shape, at + "self_attn.", "o_proj",
                                         biases=(bias, bias))
        if windows[k] is not None:
            attention["window"] = windows[k]
        ffn: dict[str, Any] = {"activation": activation}
        tensor.linear(ffn, ("W1", "b1"), f"{at}mlp.c_fc", hidden, d, bias=bias)
        tensor.linear(ffn, ("W2", "b2"), f"{at}mlp.c_proj", d, hidden, bias=bias)
        block: dict[str, Any] = {"norm": "layernorm", "eps": eps, "placement": "pre", "ffn": ffn}
        tensor.norm(block, ("gamma1", "beta1"), f"{at}input_layernorm", d)
        tensor.norm(block, ("gamma2", "beta2"), f"{at}post_attention_layernorm", d)
        layers.append({"attention": attention, "block": block})
    head: dict[str, Any] = {
        "final_norm": True,
        "unembed": unembedding(checkpoint, config, embedding, "lm_head.weight", tied=True)}
    tensor.norm(head, ("gamma_f", "beta_f"), "norm", d)
    config.rope_scaling(computed=())  # not checked against transformers yet: refused
    positions = {"kind": "rope", "base": config.rope_base(), "pairing": "half",
                 "rotary_dims": d_k}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)


__all__ = ["parts"]
