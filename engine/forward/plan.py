"""The forward pass of a scenario as a tape: encoder, layers and head, one op at a time.

:func:`record` walks the scenario's tree and calls the op functions of :mod:`engine.forward.tape` in
order; the version-1 shorthand gives the version-1 names (``scores``, ``norm1``), a stack gives
``L1.scores`` …, an encoder ``enc.L1.scores`` and ``enc.memory``, cross-attention
``L1.cross.weights``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from engine.forward import embedding_steps, mixture_steps, position_steps
from engine.forward import tape as ops
from engine.forward.tape import Place, Tape, pre_activation
from engine.scenario.modules import Attention, Block, Encoder, Head, Layer, Mixture
from engine.scenario.names import NORM_NAMES
from engine.words import english

MEMORY = "enc.memory"


class Attend(Protocol):
    """How a layer runs one of its attentions: :func:`attend`, or a KV cache's one new row
    (``keys_source``: the memory, for cross-attention)."""

    def __call__(self, tape: Tape, place: Place, a: Attention, source: str,
                 keys_source: str | None = None, /) -> None: ...


def attend(tape: Tape, place: Place, a: Attention, source: str,
           keys_source: str | None = None) -> None:
    """Projections, QK-norm, scores, mask + softmax and the mix, at ``place``."""
    ops.projections(tape, place, a, source, keys_source)
    q, k = f"{place.scope}Q", f"{place.scope}K"
    if a.qk_norm is not None:
        ops.qk_norm(tape, place, a)
        q, k = f"{place.scope}Q_normed", f"{place.scope}K_normed"
    q, k = position_steps.turn(tape, place, a, q, k)
    ops.scores(tape, place, a, q, k, *position_steps.score_bias(tape, place, a, q))
    ops.weights(tape, place, a)
    ops.mix(tape, place, a)


def _norm(tape: Tape, place: Place, block: Block | Head | Encoder, which: str, name: str,
          source: str, explain_key: str) -> None:
    """A norm with the parameters ``gamma{which}``/``beta{which}`` of ``place.module``, titled
    by its ``explain_key``."""
    gamma, beta = f"gamma{which}", f"beta{which}"
    ops.normalise(tape, place, name, name, source, (place.param(gamma), getattr(block, gamma)),
                  (place.param(beta), getattr(block, beta)), block.norm, block.eps,
                  english(f"title.{explain_key}", norm=NORM_NAMES[block.norm]), explain_key)


OUTPUT_NORMS = {"3": "attn_out", "4": "ffn_out"}
"""The sub-layer outputs a block with ``gamma3``/``gamma4`` norms."""


def _output_norm(tape: Tape, place: Place, block: Block, which: str) -> str:
    """The attention's (``which`` 3) or feed-forward's (4) output as the residual adds it:
    normed first when the block has ``gamma{which}`` (Gemma 2's sandwich)."""
    source = OUTPUT_NORMS[which]
    if getattr(block, f"gamma{which}") is None:
        return f"{place.scope}{source}"
    _norm(tape, place, block, which, f"norm{which}", f"{place.scope}{source}",
          f"block.norm{which}")
    return f"{place.scope}norm{which}"


def _cross(tape: Tape, place: Place, prefix: str, layer: Layer, block: Block,
           stream: str, attend: Attend) -> str:
    """The cross-attention sub-block (pre: norm, attend, residual; post: attend, residual,
    norm); returns the stream it hands on."""
    a = layer.cross_attention
    assert a is not None
    cross = replace(place, scope=f"{place.scope}cross.", keys="enc.tokens",
                    label=f"{place.label} cross-attention")
    at_block = cross.at(f"{prefix}block")
    at_attention = cross.at(f"{prefix}cross_attention", "enc.tokens")
    s = cross.scope
    if block.placement == "pre":
        _norm(tape, at_block, block, "_c", "norm", stream, "block.cross_norm")
        attend(tape, at_attention, a, f"{s}norm", MEMORY)
        ops.residual(tape, at_block, "resid", (stream, f"{s}attn_out"), "block.cross_resid")
        return f"{s}resid"
    attend(tape, at_attention, a, stream, MEMORY)
    ops.residual(tape, at_block, "resid", (stream, f"{s}attn_out"), "block.cross_resid")
    _norm(tape, at_block, block, "_c", "norm", f"{s}resid", "block.cross_norm_post")
    return f"{s}norm"


def _parallel(tape: Tape, at_block: Place, block: Block, x: str) -> None:
    """The rest of a parallel block once attention has read norm1: the feed-forward reads its
    own norm of the same input ``x``, and one residual adds both outputs to ``x`` at once,
    x + attn(norm₁ x) + ffn(norm₂ x) (GPT-NeoX; Phi's two norms are one, γ2 = γ1)."""
    s = at_block.scope
    _norm(tape, at_block, block, "2", "norm2", x, "block.norm2_parallel")
    _feed_forward(tape, at_block, block, f"{s}norm2")
    ops.residual(tape, at_block, "resid2", (x, f"{s}attn_out", f"{s}ffn_out"),
                 "block.resid_parallel")


def _feed_forward(tape: Tape, place: Place, block: Block, source: str) -> None:
    """The block's feed-forward, or its mixture of experts, writing ``ffn_out``."""
    if isinstance(block.ffn, Mixture):
        mixture_steps.mixture(tape, place, block.ffn, source)
    else:
        ops.feed_forward(tape, place, block.ffn, source)


def output_of(scope: str, layer: Layer) -> str:
    """The name of the stream a layer at ``scope`` (``"L2."``) hands on: its attention's output
    without a block, the second residual (pre-norm, sequential or parallel), or the norm after
    it (post-norm)."""
    if layer.block is None:
        return f"{scope}attn_out"
    return f"{scope}resid2" if layer.block.placement == "pre" else f"{scope}norm2"


def layer(tape: Tape, place: Place, prefix: str, layer: Layer, x: str,
          attend: Attend = attend) -> str:
    """One layer reading the stream ``x``, its modules at document paths ``prefix +
    "attention"`` …; returns the name of its output."""
    s = place.scope
    a, block = layer.attention, layer.block
    at_attention = place.at(f"{prefix}attention", place.rows)
    at_block = place.at(f"{prefix}block")
    if block is None:
        attend(tape, at_attention, a, x)
        return output_of(s, layer)
    if block.placement == "pre":
        if block.pre_norms:
            _norm(tape, at_block, block, "1", "norm1", x, "block.norm1")
        attend(tape, at_attention, a, f"{s}norm1" if block.pre_norms else x)
        if block.residual == "parallel":
            _parallel(tape, at_block, block, x)
            return output_of(s, layer)
        ops.residual(tape, at_block, "resid1", (x, _output_norm(tape, at_block, block, "3")),
                     "block.resid1")
        stream = f"{s}resid1"
        if layer.cross_attention is not None:
            stream = _cross(tape, place, prefix, layer, block, stream, attend)
        if block.pre_norms:
            _norm(tape, at_block, block, "2", "norm2", stream, "block.norm2")
        _feed_forward(tape, at_block, block, f"{s}norm2" if block.pre_norms else stream)
        ops.residual(tape, at_block, "resid2", (stream, _output_norm(tape, at_block, block, "4")),
                     "block.resid2")
        return output_of(s, layer)
    attend(tape, at_attention, a, x)
    ops.residual(tape, at_block, "resid1", (x, f"{s}attn_out"), "block.resid1")
    _norm(tape, at_block, block, "1", "norm1", f"{s}resid1", "block.norm1_post")
    stream = f"{s}norm1"
    if layer.cross_attention is not None:
        stream = _cross(tape, place, prefix, layer, block, stream, attend)
    _feed_forward(tape, at_block, block, stream)
    ops.residual(tape, at_block, "resid2", (stream, f"{s}ffn_out"), "block.resid2_post")
    _norm(tape, at_block, block, "2", "norm2", f"{s}resid2", "block.norm2_post")
    return output_of(s, layer)


def stack(tape: Tape, base: Place, prefix: str, layers: tuple[Layer, ...], x: str,
          shorthand: bool = False, attend: Attend = attend) -> str:
    """Every layer in order (the first reads ``x``); returns the last output's name.

    Layer ℓ's arrays take the scope ``base.scope + "Lℓ."`` and its modules sit at
    ``prefix + "layers.{ℓ-1}."``; a shorthand layer keeps the bare version-1 names and paths.
    """
    if layers[0].block is None:
        first = base.at("attention" if shorthand else f"{prefix}layers.0.attention")
        ops.inputs(tape, first, layers[0].attention, x)
    for k, item in enumerate(layers):
        if shorthand:
            place, at = base, ""
        else:
            label = f"{base.label} layer {k + 1}".strip().capitalize()
            place = replace(base, scope=f"{base.scope}L{k + 1}.", layer=k + 1, label=label)
            at = f"{prefix}layers.{k}."
        x = layer(tape, place, at, item, x, attend)
    return x


def encoder(tape: Tape, enc: Encoder) -> None:
    """The encoder's rows, its stack and final norm; writes its output as ``enc.memory``."""
    base = Place(scope="enc.", label="Encoder")
    embedding_steps.lay_in(tape, base, embedding_steps.of_stack(enc))
    out = stack(tape, base, "encoder.", enc.layers, "enc.X")
    if enc.final_norm:
        _norm(tape, base.at("encoder"), enc, "_f", "final_norm", out, "encoder.final_norm")
        out = "enc.final_norm"
    tape.arrays[MEMORY] = tape[out]
    last = tape.steps[-1]
    if MEMORY not in last.writes:  # a replayed step has it already (engine.forward.retrace)
        tape.steps[-1] = replace(last, writes=(*last.writes, MEMORY))


def head(tape: Tape, place: Place, h: Head, source: str) -> None:
    """The final norm (when enabled), a masked-language-model transform (when given), the logits
    (then their soft cap, when given) and the probabilities."""
    if h.final_norm:
        _norm(tape, place, h, "_f", "final_norm", source, "block.final_norm")
        source = "final_norm"
    if h.transform is not None:
        ops.transform(tape, place.at(place.param("transform")), source, h.transform)
        source = "transform"
    if h.unembed is not None:
        if h.softcap is None:
            ops.logits(tape, place, source, h.unembed, h.bias)
        else:
            ops.logits(tape, place, source, h.unembed, h.bias, written="logits_uncapped")
            ops.softcap(tape, place, h.softcap)
        ops.probs(tape, place)


__all__ = ["MEMORY", "Attend", "attend", "encoder", "head", "layer", "output_of", "pre_activation",
           "stack"]
