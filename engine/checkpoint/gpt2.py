"""GPT-2's layout: learned positions, pre-norm LayerNorm layers whose Conv1D weights are stored
in × out (already the book's convention), a fused ``c_attn`` split into thirds, and a head tied
to the token embedding."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Sizes, tensors, unembedding
from engine.format.errors import ScenarioError
from engine.words.refusals import Refusal


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    d = config.whole("n_embd", "hidden_size")
    heads = config.whole("n_head", "num_attention_heads")
    hidden = config.whole("n_inner", default=4 * d)
    if config.flag("scale_attn_by_inverse_layer_idx", False):
        raise ScenarioError(config.at("scale_attn_by_inverse_layer_idx"),
                            Refusal("layer_scaled_scores"))
    block_keys = {"norm": "layernorm", "eps": config.number("layer_norm_epsilon", default=1e-5),
                  "placement": "pre"}
    activation = config.activation("activation_function", default="gelu_new")
    scale = config.flag("scale_attn_weights", True)
    prefix = "transformer." if checkpoint.has("transformer.wte.weight") else ""
    tensor = tensors(checkpoint, prefix)
    embedding = tensor.matrix("wte.weight", size.vocab, d)
    layers = []
    for k in chosen:
        at = f"h.{k}."
        fused = tensor(at + "attn.c_attn.weight", d, 3 * d)
        fused_bias = tensor(at + "attn.c_attn.bias", 3 * d)
        attention: dict[str, Any] = {"heads": heads, "causal": True, "scale": scale}
        for third, (weight, bias) in enumerate((("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv"))):
            attention[weight] = fused[:, third * d:(third + 1) * d]
            attention[bias] = fused_bias[third * d:(third + 1) * d]
        attention["Wo"] = tensor(at + "attn.c_proj.weight", d, d)
        attention["bo"] = tensor(at + "attn.c_proj.bias", d)
        ffn = {"W1": tensor(at + "mlp.c_fc.weight", d, hidden),
               "b1": tensor(at + "mlp.c_fc.bias", hidden), "activation": activation,
               "W2": tensor(at + "mlp.c_proj.weight", hidden, d),
               "b2": tensor(at + "mlp.c_proj.bias", d)}
        block = {**block_keys, "gamma1": tensor(at + "ln_1.weight", d),
                 "beta1": tensor(at + "ln_1.bias", d), "gamma2": tensor(at + "ln_2.weight", d),
                 "beta2": tensor(at + "ln_2.bias", d), "ffn": ffn}
        layers.append({"attention": attention, "block": block})
    unembed = unembedding(checkpoint, config, embedding, "lm_head.weight", tied=True)
    head = {"final_norm": True, "gamma_f": tensor("ln_f.weight", d),
            "beta_f": tensor("ln_f.bias", d), "unembed": unembed}
    positions = {"kind": "learned", "table": tensor("wpe.weight", size.context, d)}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)
