"""OPT's layout: learned positions whose row for position p is p + 2 (``offset`` 2: the
table has two rows more than the context), LayerNorm layers pre-norm or, when
``do_layer_norm_before`` is false (OPT-350m), post-norm without a final norm, separate
``nn.Linear`` projections with biases (``out_proj`` → Wo), a ReLU feed-forward ``fc1``/``fc2``
and a head tied to the embedding.

Where the embedding is narrower than the layers (``word_embed_proj_dim``), the two projections
are folded into the tables they meet, since version 2 has no module between the rows and the
first layer: the embedding is ``embed_tokens · project_inᵀ`` (V × d) and the head's matrix
``project_outᵀ · embed_tokensᵀ`` (d × V). Only the first 1,024 rows of the position table are
taken (2,050 in OPT-125m): the engine computes at most 512 positions.
"""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Sizes, linear, tensors, unembedding
from engine.format.reader import MAX_POSITIONS, FloatArray

OFFSET = 2
"""OPT's learned positions start at row 2."""
TABLE_ROWS = 2 * MAX_POSITIONS
"""The most rows a learned table of a document holds."""


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    d = config.whole("hidden_size")
    heads = config.whole("num_attention_heads")
    hidden = config.whole("ffn_dim")
    width = config.whole("word_embed_proj_dim", default=d)
    pre = config.flag("do_layer_norm_before", True)
    affine = config.flag("layer_norm_elementwise_affine", True)
    bias = config.flag("enable_bias", True)
    block_keys = {"norm": "layernorm", "eps": 1e-5, "placement": "pre" if pre else "post"}
    activation = config.activation("activation_function", default="relu")
    prefix = "model.decoder." if checkpoint.has("model.decoder.embed_tokens.weight") \
        else "decoder."
    tensor = tensors(checkpoint, prefix)

    def norm(into: dict[str, Any], keys: tuple[str, str], name: str) -> None:
        if affine:  # else γ = 1 and β = 0, the defaults
            tensor.norm(into, keys, name, d)

    words = tensor("embed_tokens.weight", size.vocab, width)
    embedding: FloatArray = words
    if width != d:
        embedding = words @ linear(tensor("project_in.weight", d, width))
    layers = []
    for k in chosen:
        at = f"layers.{k}."
        attention: dict[str, Any] = {"heads": heads, "causal": True, "scale": True}
        for keys, name in ((("Wq", "bq"), "q_proj"), (("Wk", "bk"), "k_proj"),
                           (("Wv", "bv"), "v_proj"), (("Wo", "bo"), "out_proj")):
            tensor.linear(attention, keys, f"{at}self_attn.{name}", d, d, bias=bias)
        ffn: dict[str, Any] = {"activation": activation}
        tensor.linear(ffn, ("W1", "b1"), f"{at}fc1", hidden, d, bias=bias)
        tensor.linear(ffn, ("W2", "b2"), f"{at}fc2", d, hidden, bias=bias)
        block: dict[str, Any] = {**block_keys, "ffn": ffn}
        norm(block, ("gamma1", "beta1"), f"{at}self_attn_layer_norm")
        norm(block, ("gamma2", "beta2"), f"{at}final_layer_norm")
        layers.append({"attention": attention, "block": block})
    unembed = unembedding(checkpoint, config, words, "lm_head.weight", tied=True)
    if width != d:
        unembed = linear(tensor("project_out.weight", width, d)) @ unembed
    final = pre and not config.flag("_remove_final_layer_norm", False)
    head: dict[str, Any] = {"final_norm": final, "unembed": unembed}
    if final:
        norm(head, ("gamma_f", "beta_f"), "final_layer_norm")
    table = tensor("embed_positions.weight", size.context + OFFSET, d)[:TABLE_ROWS]
    positions = {"kind": "learned", "table": table, "offset": OFFSET}
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head)


__all__ = ["parts"]
