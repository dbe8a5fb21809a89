"""The BERT layout: the word, position and type rows summed, then a LayerNorm (``type_table``,
``embedding_norm``; every token of one text has type 0), post-norm LayerNorm layers of separate
``nn.Linear`` projections with biases (causal only when ``is_decoder``, as transformers masks a
decoder), a GELU (erf) feed-forward, and no head: the masked-LM head's transform (dense, GELU,
LayerNorm before the tied decoder) is not a module of version 2, so the trace ends with the last
layer's output, as ``BertModel``'s does."""

from __future__ import annotations

from typing import Any

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Sizes, tensors
from engine.errors import ScenarioError
from engine.reader import describe
from engine.refusals import Refusal


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    size = Sizes.of(config)
    d = config.whole("hidden_size")
    heads = config.whole("num_attention_heads")
    hidden = config.whole("intermediate_size")
    kind = config.values.get("position_embedding_type", "absolute")
    if kind not in (None, "absolute"):
        raise ScenarioError(config.at("position_embedding_type"),
                            Refusal("not_choice", options='"absolute"', got=describe(kind)))
    eps = config.number("layer_norm_eps", default=1e-12)
    causal = config.flag("is_decoder", False)  # transformers masks a decoder's future
    block_keys = {"norm": "layernorm", "eps": eps, "placement": "post"}
    activation = config.activation("hidden_act", default="gelu")
    prefix = "bert." if checkpoint.has("bert.embeddings.word_embeddings.weight") else ""
    tensor = tensors(checkpoint, prefix)

    embedding = tensor("embeddings.word_embeddings.weight", size.vocab, d)
    types = config.whole("type_vocab_size", default=2)
    layers = []
    for k in chosen:
        at = f"encoder.layer.{k}."
        attention: dict[str, Any] = {"heads": heads, "causal": causal, "scale": True}
        for keys, name in ((("Wq", "bq"), "query"), (("Wk", "bk"), "key"),
                           (("Wv", "bv"), "value")):
            tensor.linear(attention, keys, f"{at}attention.self.{name}", d, d, bias=True)
        tensor.linear(attention, ("Wo", "bo"), f"{at}attention.output.dense", d, d, bias=True)
        ffn: dict[str, Any] = {"activation": activation}
        tensor.linear(ffn, ("W1", "b1"), f"{at}intermediate.dense", hidden, d, bias=True)
        tensor.linear(ffn, ("W2", "b2"), f"{at}output.dense", d, hidden, bias=True)
        block: dict[str, Any] = {**block_keys, "ffn": ffn}
        tensor.norm(block, ("gamma1", "beta1"), f"{at}attention.output.LayerNorm", d)
        tensor.norm(block, ("gamma2", "beta2"), f"{at}output.LayerNorm", d)
        layers.append({"attention": attention, "block": block})
    positions = {"kind": "learned",
                 "table": tensor("embeddings.position_embeddings.weight", size.context, d)}
    inputs = {"type_table": tensor("embeddings.token_type_embeddings.weight", types, d),
              "embedding_norm": {"norm": "layernorm", "eps": eps,
                                 "gamma": tensor("embeddings.LayerNorm.weight", d),
                                 "beta": tensor("embeddings.LayerNorm.bias", d)}}
    return Parts(embedding=embedding, positions=positions, layers=layers, head={},
                 inputs=inputs)


__all__ = ["parts"]
