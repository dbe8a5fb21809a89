"""What a family's layout hands the document builder: the model's sizes (read from the config
before any weight) and its parts in the book's right-multiplication convention."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import Weight, widened
from engine.format.reader import FloatArray
from engine.words.refusals import Refusal


@dataclass(frozen=True)
class Sizes:
    """The sizes a config gives: layers, context (positions) and vocabulary entries."""

    layers: int
    context: int
    vocab: int

    @classmethod
    def of(cls, config: Config) -> Sizes:
        """Read under GPT-2's names or everyone else's."""
        return cls(layers=config.whole("n_layer", "num_hidden_layers"),
                   context=config.whole("n_positions", "max_position_embeddings"),
                   vocab=config.whole("vocab_size"))


@dataclass(frozen=True)
class Parts:
    """A model's version-2 objects, arrays as numpy: the embedding table (V × d), the positions,
    the chosen layers and the head (its ``unembed`` d × V; the vocabulary labels come later;
    empty: no head), and the keys between the rows and the first layer a family may add
    (``embedding_scale``, ``type_table``, ``embedding_norm``)."""

    embedding: Weight
    positions: dict[str, Any]
    layers: list[dict[str, Any]]
    head: dict[str, Any]
    embedding_scale: float | None = None
    inputs: dict[str, Any] = field(default_factory=dict)


class Tensors:
    """A checkpoint's tensors under a family's prefix (``model.``): ``tensors(name, *shape)``
    reads one, checked to have ``shape``."""

    def __init__(self, checkpoint: Checkpoint, prefix: str) -> None:
        self.checkpoint = checkpoint
        self.prefix = prefix

    def __call__(self, name: str, *shape: int) -> FloatArray:
        return self.checkpoint.tensor(self.prefix + name, shape)

    def matrix(self, name: str, rows: int, columns: int) -> Weight:
        """The matrix ``name`` (rows × columns) as stored, left in its file when the
        checkpoint is mapped (an embedding: its rows are looked up)."""
        return self.checkpoint.weight(self.prefix + name, (rows, columns))

    def has(self, name: str) -> bool:
        """Whether the checkpoint stores ``name`` under the prefix."""
        return self.checkpoint.has(self.prefix + name)

    def linear(self, into: dict[str, Any], keys: tuple[str, str], name: str, rows: int,
               columns: int, *, bias: bool) -> None:
        """The ``nn.Linear`` ``name`` (rows × columns, out × in) as the book's in × out matrix
        under ``keys[0]``, and, when the family's config gives the layer a ``bias`` (as
        transformers builds it, whatever the checkpoint stores), its bias under ``keys[1]``."""
        into[keys[0]] = self.checkpoint.weight(f"{self.prefix}{name}.weight", (rows, columns),
                                               transposed=True)
        if bias:
            into[keys[1]] = self(f"{name}.bias", rows)

    def norm(self, into: dict[str, Any], keys: tuple[str, str], name: str, d: int) -> None:
        """A LayerNorm's weight and bias (d each) under ``keys`` (γ, β)."""
        into[keys[0]] = self(f"{name}.weight", d)
        into[keys[1]] = self(f"{name}.bias", d)


@dataclass(frozen=True)
class Heads:
    """The attention's sizes in a Llama-style config: width d, h query heads, g key/value heads
    (``num_key_value_heads``, h when absent) of d_k columns each."""

    d: int
    heads: int
    groups: int
    d_k: int

    @classmethod
    def of(cls, config: Config, head_dim: int | None = None, groups: int | None = None) -> Heads:
        """``head_dim``: d_k when the config gives none (else d / h); ``groups``: the key/value
        heads when the config gives none (else h), each as the family's transformers config
        defaults them."""
        d = config.whole("hidden_size")
        heads = config.whole("num_attention_heads")
        return cls(d=d, heads=heads,
                   groups=config.whole("num_key_value_heads", default=groups or heads),
                   d_k=config.whole("head_dim", default=head_dim or d // heads))

    @classmethod
    def split(cls, config: Config, grouped: bool = False) -> Heads:
        """The sizes of a family whose attention splits d into h heads of d/h columns whatever
        ``head_dim`` says (GPT-NeoX, StableLM: their rotary embedding alone reads it, so
        another value is refused); ``grouped``: the family reads ``num_key_value_heads``."""
        d = config.whole("hidden_size")
        heads = config.whole("num_attention_heads")
        d_k = d // heads
        if config.whole("head_dim", default=d_k) != d_k:
            raise ScenarioError(config.at("head_dim"),
                                Refusal("head_dim_split", d_k=d_k, got=config.whole("head_dim")))
        groups = config.whole("num_key_value_heads", default=heads) if grouped else heads
        return cls(d=d, heads=heads, groups=groups, d_k=d_k)


def separate_projections(tensor: Tensors, size: Heads, at: str, output: str, *,
                         biases: tuple[bool, bool]) -> dict[str, Any]:
    """A causal, scaled attention from ``{at}q_proj``, ``k_proj``, ``v_proj`` and the output
    projection ``{at}{output}`` (``nn.Linear``s; ``biases``: whether q, k, v have biases and
    whether the output has one), with ``kv_heads`` when the key/value heads are grouped."""
    attention: dict[str, Any] = {"heads": size.heads, "causal": True, "scale": True}
    if size.groups != size.heads:
        attention["kv_heads"] = size.groups
    for keys, name, rows in ((("Wq", "bq"), "q_proj", size.heads * size.d_k),
                             (("Wk", "bk"), "k_proj", size.groups * size.d_k),
                             (("Wv", "bv"), "v_proj", size.groups * size.d_k)):
        tensor.linear(attention, keys, at + name, rows, size.d, bias=biases[0])
    tensor.linear(attention, ("Wo", "bo"), at + output, size.d, size.heads * size.d_k,
                  bias=biases[1])
    return attention


def fused_projections(tensor: Tensors, size: Heads, at: str) -> dict[str, Any]:
    """A causal, scaled attention from one fused ``{at}qkv_proj`` (Phi-3: the h·d_k rows of the
    queries, then g·d_k of the keys, then g·d_k of the values, as transformers slices its output)
    and ``{at}o_proj``, without biases."""
    attention: dict[str, Any] = {"heads": size.heads, "causal": True, "scale": True}
    if size.groups != size.heads:
        attention["kv_heads"] = size.groups
    q, kv = size.heads * size.d_k, size.groups * size.d_k
    fused = tensor(at + "qkv_proj.weight", q + 2 * kv, size.d)
    attention.update(Wq=linear(fused[:q]), Wk=linear(fused[q:q + kv]), Wv=linear(fused[q + kv:]))
    tensor.linear(attention, ("Wo", "bo"), at + "o_proj", size.d, size.heads * size.d_k,
                  bias=False)
    return attention


def fused_gate_up(tensor: Tensors, into: dict[str, Any], at: str, hidden: int, d: int) -> None:
    """A gated feed-forward's Wg and W1 from one fused ``{at}gate_up_proj`` (Phi-3: the gate's
    rows first, then the up projection's: transformers' ``chunk(2)`` gives the gate first, and
    multiplies the up half by act(gate))."""
    fused = tensor(at + "gate_up_proj.weight", 2 * hidden, d)
    into.update(Wg=linear(fused[:hidden]), W1=linear(fused[hidden:]))


def tensors(checkpoint: Checkpoint, prefix: str) -> Tensors:
    """The reader of the tensors whose names start with ``prefix`` (``model.``)."""
    return Tensors(checkpoint, prefix)


def unembedding(checkpoint: Checkpoint, config: Config, embedding: Weight, name: str, *,
                tied: bool) -> Weight:
    """The head's d × V matrix: the embedding's transpose when the config ties them
    (``tie_word_embeddings``, ``tied`` when absent), else the tensor ``name`` transposed. A tied
    head stored anyway under ``name`` counts as used only when it equals the embedding."""
    if config.flag("tie_word_embeddings", tied):
        if checkpoint.has(name):  # a stored copy of the tied head: used if it is the same
            stored = checkpoint.tensor(name, embedding.shape)
            if not np.array_equal(stored, widened(embedding)):
                checkpoint.used.discard(name)  # so refused as a tensor no layout used
        return embedding.T
    rows, columns = embedding.shape
    return checkpoint.weight(name, (rows, columns), transposed=True)


def linear(weight: FloatArray) -> FloatArray:
    """An ``nn.Linear`` weight (out × in, computing x·Wᵀ) as the book's right-multiplied
    in × out matrix."""
    transposed = weight.T.copy()
    transposed.flags.writeable = False  # the document takes it as it is, without a copy
    return transposed


__all__ = ["Heads", "Parts", "Sizes", "Tensors", "linear", "separate_projections", "tensors",
           "unembedding"]
