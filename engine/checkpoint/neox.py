"""GPT-NeoX's layout: LayerNorm pre-norm layers with a parallel residual (x + attention(norm₁ x)
+ feed-forward(norm₂ x)) unless ``use_parallel_residual`` is false, a fused ``query_key_value``
stored per head as [q, k, v] (split here), RoPE on the first ``rotary_pct`` of each head's
columns, and an untied ``embed_out`` head."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Heads, Parts, Sizes, linear, tensors, unembedding

PREFIX = "gpt_neox."


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    shape = Heads.split(config)
    d, heads, d_k = shape.d, shape.heads, shape.d_k
    hidden = config.whole("intermediate_size")
    parallel = config.flag("use_parallel_residual", True)
    bias = config.flag("attention_bias", True)
    block_keys = {"norm": "layernorm", "eps": config.number("layer_norm_eps", default=1e-5),
                  "placement": "pre", "residual": "parallel" if parallel else "sequential"}
    activation = config.activation("hidden_act", default="gelu")
    tensor = tensors(checkpoint, PREFIX)
    embedding = tensor.matrix("embed_in.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        # Rows of the fused weight: head 0's q, k, v (d_k rows each), then head 1's, …
        fused = tensor(at + "attention.query_key_value.weight", 3 * d, d).reshape(heads, 3, d_k, d)
        attention: dict[str, Any] = {"heads": heads, "causal": True, "scale": True}
        for part, name in enumerate(("Wq", "Wk", "Wv")):
            attention[name] = linear(fused[:, part].reshape(d, d))
        if bias:
            fused_bias = tensor(at + "attention.query_key_value.bias", 3 * d).reshape(heads, 3,
                                                                                      d_k)
            for part, name in enumerate(("bq", "bk", "bv")):
                attention[name] = fused_bias[:, part].reshape(d)
        tensor.linear(attention, ("Wo", "bo"), at + "attention.dense", d, d, bias=bias)
        ffn = {"W1": linear(tensor(at + "mlp.dense_h_to_4h.weight", hidden, d)),
               "b1": tensor(at + "mlp.dense_h_to_4h.bias", hidden), "activation": activation,
               "W2": linear(tensor(at + "mlp.dense_4h_to_h.weight", d, hidden)),
               "b2": tensor(at + "mlp.dense_4h_to_h.bias", d)}
        block = {**block_keys,
                 "gamma1": tensor(at + "input_layernorm.weight", d),
                 "beta1": tensor(at + "input_layernorm.bias", d),
                 "gamma2": tensor(at + "post_attention_layernorm.weight", d),
                 "beta2": tensor(at + "post_attention_layernorm.bias", d), "ffn": ffn}
        layers.append({"attention": attention, "block": block})
    unembed = unembedding(checkpoint, config, embedding, "embed_out.weight", tied=False)
    head = {"final_norm": True, "gamma_f": tensor("final_layer_norm.weight", d),
            "beta_f": tensor("final_layer_norm.bias", d), "unembed": unembed}
    # GPT-NeoX reads rotary_emb_base and rotary_pct beside the RoPE settings, not rope_theta
    # or partial_rotary_factor.
    config.rope_scaling(computed=())  # turned over part of each head: not computed
    positions = {"kind": "rope", "base": config.rope_base("rotary_emb_base"), "pairing": "half",
                 "rotary_dims": int(d_k * config.rotary_fraction("rotary_pct", 0.25))}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)
