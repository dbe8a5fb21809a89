"""Writing a scenario back as a document (format version 2).

A document read in the version-1 shorthand is written in the same shape (top-level ``attention``
and ``block``, the head keys in ``block`` when it had them there), so every path stays what it
was; optional keys are written only when they are set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.exercises.document import exercise_document
from engine.format.checkpoint_reference import referenced
from engine.format.layers import TIED_UNEMBED
from engine.format.mapped_weight import MappedWeight, Weight, is_transposed_view, widened
from engine.scenario.modules import (
    Attention,
    Block,
    EmbeddingNorm,
    Encoder,
    FeedForward,
    Head,
    Layer,
    Mixture,
)
from engine.scenario.positions import Positions
from engine.scenario.scenario import Scenario

FORMAT_NAME = "qkv-studio"
FORMAT_VERSION = 2

Write = Callable[[Weight], Any]


def plain(weight: Weight) -> Any:
    """Nested lists with integral values written as ints, so saved files read naturally (−0.0
    stays a float: an int has no sign of zero); a mapped weight widened.

    Vectorised: numpy decides which numbers are integral, then makes the lists in one pass.
    """
    array = widened(weight)
    integral = (array == np.trunc(array)) & (np.abs(array) < 1e15) \
        & ~((array == 0) & np.signbit(array))
    if integral.all():
        return array.astype(np.int64).tolist()
    if not integral.any():
        return array.tolist()
    mixed = array.astype(object)
    mixed[integral] = array[integral].astype(np.int64).tolist()
    return mixed.tolist()


def as_array(weight: Weight) -> Any:
    """The array itself (a mapped weight widened): a document whose arrays go to a sidecar."""
    return widened(weight)


def by_reference(weight: Weight) -> Any:
    """A mapped weight as the reference to its checkpoint tensor (its edited cells an array),
    an array itself: a document saved by reference (format 2.2)."""
    return referenced(weight) if isinstance(weight, MappedWeight) else weight


def as_held(weight: Weight) -> Any:
    """The array or the mapped weight itself: a document for
    :func:`engine.format.document.parse_scenario`, never for a file."""
    return weight


def _put(out: dict[str, Any], write: Write, **values: Weight | None) -> None:
    for name, value in values.items():
        if value is not None:
            out[name] = write(value)


def _attention(a: Attention, write: Write, cross: bool = False) -> dict[str, Any]:
    att: dict[str, Any] = {"heads": a.heads}
    if a.kv_heads is not None:
        att["kv_heads"] = a.kv_heads
    if not cross:
        att["causal"] = a.causal
    att["scale"] = a.scale
    if a.scale_dk is not None:
        att["scale_dk"] = a.scale_dk
    att.update(Wq=write(a.Wq), Wk=write(a.Wk), Wv=write(a.Wv))
    _put(att, write, bq=a.bq, bk=a.bk, bv=a.bv, Wo=a.Wo, bo=a.bo)
    if a.window is not None:
        att["window"] = a.window
    if a.key_mask is not None:
        att["key_mask"] = [int(seen) for seen in a.key_mask]
    if a.qk_norm is not None:
        att["qk_norm"] = a.qk_norm
        if a.qk_norm_over != "head":
            att["qk_norm_over"] = a.qk_norm_over
        _put(att, write, gamma_q=a.gamma_q, gamma_k=a.gamma_k, beta_q=a.beta_q, beta_k=a.beta_k)
    if a.ablate_heads:
        att["ablate_heads"] = list(a.ablate_heads)
    if a.softcap is not None:
        att["softcap"] = a.softcap
    if a.rope_base is not None:
        att["rope_base"] = a.rope_base
    if not a.rope_scaled:
        att["rope_scaled"] = False
    return att


def _ffn(f: FeedForward, write: Write) -> dict[str, Any]:
    ffn: dict[str, Any] = {"W1": write(f.W1)}
    _put(ffn, write, b1=f.b1, Wg=f.Wg, bg=f.bg)
    ffn["activation"] = f.activation
    ffn["W2"] = write(f.W2)
    _put(ffn, write, b2=f.b2)
    return ffn


def _mixture(m: Mixture, write: Write) -> dict[str, Any]:
    mixture: dict[str, Any] = {"router": write(m.router), "top_k": m.top_k,
                               "normalize": m.normalize,
                               "experts": [_ffn(expert, write) for expert in m.experts]}
    if m.shared is not None and m.shared_gate is not None:
        mixture.update(shared_gate=write(m.shared_gate), shared=_ffn(m.shared, write))
    return mixture


def _block(b: Block, write: Write) -> dict[str, Any]:
    blk: dict[str, Any] = {"norm": b.norm, "eps": b.eps, "placement": b.placement}
    if b.residual != "sequential":
        blk["residual"] = b.residual
    if not b.pre_norms:
        blk["pre_norms"] = False
    _put(blk, write, gamma1=b.gamma1, beta1=b.beta1, gamma_c=b.gamma_c, beta_c=b.beta_c,
         gamma2=b.gamma2, beta2=b.beta2)
    _put(blk, write, gamma3=b.gamma3, beta3=b.beta3, gamma4=b.gamma4, beta4=b.beta4)
    blk["ffn"] = _mixture(b.ffn, write) if isinstance(b.ffn, Mixture) else _ffn(b.ffn, write)
    return blk


def _head(h: Head, write: Write, last: Layer | None, table: Weight | None) -> dict[str, Any]:
    """The head's keys; ``norm``/``eps`` only when they differ from the last layer's (``last``
    is None in the shorthand, where they are the block's own); an ``unembed`` that is the
    embedding ``table``'s transposed view written as :data:`TIED_UNEMBED`, so the two stay
    one tensor when the document is read again."""
    head: dict[str, Any] = {}
    if last is not None:
        block = last.block
        if h.norm != (block.norm if block is not None else "layernorm"):
            head["norm"] = h.norm
        if h.eps != (block.eps if block is not None else 1e-5):
            head["eps"] = h.eps
    head.update(final_norm=h.final_norm, gamma_f=write(h.gamma_f), beta_f=write(h.beta_f))
    if h.transform is not None:
        t = h.transform
        head["transform"] = {"W": write(t.W), "b": write(t.b), "activation": t.activation,
                             "gamma": write(t.gamma), "beta": write(t.beta), "eps": t.eps}
    if h.unembed is not None:
        head["unembed"] = TIED_UNEMBED if is_transposed_view(h.unembed, table) else write(h.unembed)
        _put(head, write, bias=h.bias)
        head["vocab"] = list(h.vocab)
        if h.softcap is not None:
            head["softcap"] = h.softcap
    return head


def _layer(layer: Layer, write: Write) -> dict[str, Any]:
    out: dict[str, Any] = {"attention": _attention(layer.attention, write)}
    if layer.cross_attention is not None:
        out["cross_attention"] = _attention(layer.cross_attention, write, cross=True)
    if layer.block is not None:
        out["block"] = _block(layer.block, write)
    return out


def _embedding_norm(e: EmbeddingNorm, write: Write) -> dict[str, Any]:
    return {"norm": e.norm, "eps": e.eps, "gamma": write(e.gamma), "beta": write(e.beta)}


def _positions(positions: Positions, layers: tuple[Layer, ...], write: Write) -> dict[str, Any]:
    """The stack's ``positions``, told its layers' one head count (None when they differ)."""
    heads = {layer.attention.heads for layer in layers}
    return positions.to_document(write, heads.pop() if len(heads) == 1 else None)


def _stack_input(out: dict[str, Any], e: Scenario | Encoder, write: Write) -> None:
    """The keys between the rows and the layers: scale, types, positions, embedding norm."""
    scale = e.embedding_scale
    if scale is not None:
        out["embedding_scale"] = int(scale) if float(scale).is_integer() else scale
    if not isinstance(e, Encoder) and e.type_table is not None and e.token_types is not None:
        out["token_types"] = list(e.token_types)
        out["type_table"] = write(e.type_table)
    if e.positions is not None:
        out["positions"] = _positions(e.positions, e.layers, write)
    if e.embedding_norm is not None:
        out["embedding_norm"] = _embedding_norm(e.embedding_norm, write)


def _encoder(e: Encoder, embedded: bool, write: Write) -> dict[str, Any]:
    enc: dict[str, Any] = {"tokens": list(e.tokens)}
    if e.token_ids is not None and embedded:
        enc["token_ids"] = list(e.token_ids)
    else:
        enc["X"] = write(e.X)
    _stack_input(enc, e, write)
    enc["layers"] = [_layer(layer, write) for layer in e.layers]
    enc.update(final_norm=e.final_norm, gamma_f=write(e.gamma_f), beta_f=write(e.beta_f))
    return enc


def to_document(s: Scenario, write: Write = plain) -> dict[str, Any]:
    """The scenario as a document; ``write`` turns each array into its JSON value."""
    doc: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "title": s.title}
    if s.note:
        doc["note"] = s.note
    doc["tokens"] = list(s.tokens)
    if s.token_ids is not None and s.embedding is not None:
        doc["token_ids"] = list(s.token_ids)
        doc["embedding"] = write(s.embedding)
    else:
        if s.embedding is not None:
            doc["embedding"] = write(s.embedding)
        doc["X"] = write(s.X)
    _stack_input(doc, s, write)
    if s.encoder is not None:
        doc["encoder"] = _encoder(s.encoder, s.embedding is not None, write)
    if s.shorthand:
        layer = s.layers[0]
        doc["attention"] = _attention(layer.attention, write)
        if layer.block is not None:
            doc["block"] = _block(layer.block, write)
        if s.head is not None and s.head_in_block:
            doc["block"].update(_head(s.head, write, None, s.embedding))
        elif s.head is not None:
            doc["head"] = _head(s.head, write, layer, s.embedding)
    else:
        doc["layers"] = [_layer(layer, write) for layer in s.layers]
        if s.head is not None:
            doc["head"] = _head(s.head, write, s.layers[-1], s.embedding)
    if s.targets is not None:
        doc["targets"] = list(s.targets)
    if s.generation is not None:
        doc["generation"] = s.generation.to_document()
    if s.decimals is not None:
        doc["display"] = {"decimals": s.decimals}
    if s.exercises:
        doc["exercises"] = [exercise_document(exercise) for exercise in s.exercises]
    return doc


__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "as_array", "as_held", "plain", "to_document"]
