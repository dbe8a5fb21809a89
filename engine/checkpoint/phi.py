"""Phi's layout: one LayerNorm per layer read by both halves of a parallel residual
(x + attention(norm x) + feed-forward(norm x): the block's two norms are that one norm),
separate ``nn.Linear`` projections with biases and ``dense`` as the output projection, a GELU
(tanh form) feed-forward ``fc1``/``fc2``, RoPE on the first ``partial_rotary_factor`` of each
head's columns (0.5 by default), LayerNorm QK-norm with a shift when ``qk_layernorm``, and a
head ``lm_head`` with a bias after ``final_layernorm``."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Heads, Parts, Sizes, separate_projections, tensors, unembedding

PREFIX = "model."


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    shape = Heads.of(config)
    d, d_k = shape.d, shape.d_k
    hidden = config.whole("intermediate_size")
    eps = config.number("layer_norm_eps", default=1e-5)
    qk_norm = config.flag("qk_layernorm", False)
    activation = config.activation("hidden_act", default="gelu_new")
    tensor = tensors(checkpoint, PREFIX)
    embedding = tensor.matrix("embed_tokens.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        attention = separate_projections(tensor, shape, at + "self_attn.", "dense",
                                         biases=(True, True))
        if qk_norm:
            attention["qk_norm"] = "layernorm"
            tensor.norm(attention, ("gamma_q", "beta_q"), f"{at}self_attn.q_layernorm", d_k)
            tensor.norm(attention, ("gamma_k", "beta_k"), f"{at}self_attn.k_layernorm", d_k)
        ffn: dict[str, Any] = {"activation": activation}
        tensor.linear(ffn, ("W1", "b1"), f"{at}mlp.fc1", hidden, d, bias=True)
        tensor.linear(ffn, ("W2", "b2"), f"{at}mlp.fc2", d, hidden, bias=True)
        block: dict[str, Any] = {"norm": "layernorm", "eps": eps, "placement": "pre",
                                 "residual": "parallel", "ffn": ffn}
        tensor.norm(block, ("gamma1", "beta1"), f"{at}input_layernorm", d)
        block.update(gamma2=block["gamma1"], beta2=block["beta1"])
        layers.append({"attention": attention, "block": block})
    head: dict[str, Any] = {
        "final_norm": True,
        "unembed": unembedding(checkpoint, config, embedding, "lm_head.weight", tied=False)}
    tensor.norm(head, ("gamma_f", "beta_f"), "final_layernorm", d)
    head["bias"] = checkpoint.tensor("lm_head.bias", (size.vocab,))
    config.rope_scaling(computed=())  # turned over part of each head: not computed
    positions = {"kind": "rope", "base": config.rope_base(), "pairing": "half",
                 "rotary_dims": int(d_k * config.rotary_fraction("partial_rotary_factor", 0.5))}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)


__all__ = ["parts"]
