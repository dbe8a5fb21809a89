"""The BERT layout: the word, position and type rows summed, then a LayerNorm (``type_table``,
``embedding_norm``; every token of one text has type 0), post-norm LayerNorm layers of separate
``nn.Linear`` projections with biases (causal only when ``is_decoder``, as transformers masks a
decoder), a GELU (erf) feed-forward. A ``BertModel`` folder has no head: the trace ends with the
last layer's output. A ``BertForMaskedLM`` (or ``BertForPreTraining``) folder adds the
masked-language-model head ``cls.predictions``: its transform (dense, the config's activation,
LayerNorm), then the decoder tied to the word embedding plus its own bias."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Sizes, linear, tensors, unembedding
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import Weight
from engine.format.reader import describe
from engine.words.refusals import Refusal


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

    embedding = tensor.matrix("embeddings.word_embeddings.weight", size.vocab, d)
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
    head = (masked_lm_head(checkpoint, config, embedding, activation, eps)
            if checkpoint.has(f"{PREDICTIONS}transform.dense.weight") else {})
    return Parts(embedding=embedding, positions=positions, layers=layers, head=head,
                 inputs=inputs)


PREDICTIONS = "cls.predictions."
"""Where a BertForMaskedLM (or BertForPreTraining) keeps its masked-language-model head."""


def masked_lm_head(checkpoint: Checkpoint, config: Config, embedding: Weight,
                   activation: str, eps: float) -> dict[str, Any]:
    """``cls.predictions``: the transform (dense d × d with bias, ``activation``, LayerNorm of
    ``eps``), the decoder (the word embedding's transpose when tied, as transformers ties it)
    and its vocabulary bias (``cls.predictions.bias``, tied to ``decoder.bias``: a stored
    copy counts as used only when it is the same)."""
    d = int(embedding.shape[1])
    vocab = int(embedding.shape[0])
    at = PREDICTIONS + "transform."
    transform: dict[str, Any] = {"activation": activation, "eps": eps}
    transform["W"] = linear(checkpoint.tensor(f"{at}dense.weight", (d, d)))
    transform["b"] = checkpoint.tensor(f"{at}dense.bias", (d,))
    transform["gamma"] = checkpoint.tensor(f"{at}LayerNorm.weight", (d,))
    transform["beta"] = checkpoint.tensor(f"{at}LayerNorm.bias", (d,))
    names = [name for name in (f"{PREDICTIONS}bias", f"{PREDICTIONS}decoder.bias")
             if checkpoint.has(name)] or [f"{PREDICTIONS}bias"]  # none: refused as missing
    bias = checkpoint.tensor(names[0], (vocab,))
    for other in names[1:]:
        if not np.array_equal(checkpoint.tensor(other, (vocab,)), bias):
            checkpoint.used.discard(other)  # so refused as a tensor no layout used
    unembed = unembedding(checkpoint, config, embedding, f"{PREDICTIONS}decoder.weight",
                          tied=True)
    return {"final_norm": False, "transform": transform, "unembed": unembed, "bias": bias}


__all__ = ["parts"]
