"""Where a document path sits in the model's tree: its part (the inputs, a layer, the encoder,
the head) and the name a user sees for it. Imports no Qt.

The editor shows a layered document one part at a time; the edits name a cell by the scope the
trace gives the same layer (``layers.1.attention.Wq[0,1]`` is ``L2.Wq[0,1]``,
``encoder.layers.0.cross_attention.Wk`` … ``enc.L1.cross.Wk``), so an undo step says which
layer it changed.
"""

from __future__ import annotations

import re

from app.texts.words import say
from engine.names import short_name

INPUTS = "inputs"
ENCODER = "encoder"
HEAD = "head"
DECODER_STACK = "layers"
ENCODER_STACK = "encoder.layers"

_LAYER = re.compile(r"^(?P<stack>(?:encoder\.)?layers)\.(?P<index>\d+)(?:\.(?P<rest>.*))?$")
_OWN_NAMES = {"gamma_f": "γf", "beta_f": "βf"}


def layer_part(stack: str, index: int) -> str:
    """The part key of layer ``index`` (0-based) of ``stack``: ``layers.1``,
    ``encoder.layers.0``."""
    return f"{stack}.{index}"


def split_layer(path: str) -> tuple[str, int, str] | None:
    """``(stack, index, rest)`` of a path inside a layer (``layers.1.block.ffn.W1`` →
    ``("layers", 1, "block.ffn.W1")``); None outside the stacks."""
    match = _LAYER.match(path)
    if match is None:
        return None
    return match["stack"], int(match["index"]), match["rest"] or ""


def part_of(path: str) -> str:
    """The part a parameter path belongs to: ``inputs`` (X, the embedding, the positions), a
    layer (``layers.0``; the version-1 shorthand's ``attention`` and ``block`` are layer 0),
    ``encoder`` (its X and final norm) or ``head``."""
    inside = split_layer(path)
    if inside is not None:
        return layer_part(inside[0], inside[1])
    first = path.split(".", 1)[0]
    if first in ("attention", "block"):
        return layer_part(DECODER_STACK, 0)
    if first in (ENCODER, HEAD):
        return first
    return INPUTS


def scope_of(stack: str, index: int) -> str:
    """The trace's prefix of a layer's arrays: ``L2.``, ``enc.L1.``."""
    return f"{'enc.' if stack == ENCODER_STACK else ''}L{index + 1}."


def layer_name(lang: str, stack: str, index: int) -> str:
    """``layer 2`` or ``encoder layer 1`` (``index`` 0-based), in ``lang``."""
    key = "encoder_layer_name" if stack == ENCODER_STACK else "layer_name"
    return say(f"edit.{key}", lang, n=index + 1)


def place_name(path: str) -> str:
    """The name a user sees for the array at ``path``: ``attention.Wq`` → ``Wq`` (shorthand, as
    in version 1), ``layers.1.attention.Wq`` → ``L2.Wq``, ``layers.0.cross_attention.Wk`` →
    ``L1.cross.Wk``, ``layers.0.block.gamma1`` → ``L1.γ1``, ``head.gamma_f`` → ``γf``,
    ``encoder.X`` → ``enc.X``."""
    inside = split_layer(path)
    if inside is not None:
        stack, index, rest = inside
        scope = scope_of(stack, index)
        if rest.startswith("cross_attention."):
            scope += "cross."
        return scope + short_name(rest)
    module, _, name = path.rpartition(".")
    if module == HEAD:
        return _OWN_NAMES.get(name, name)
    if module == ENCODER:
        return "enc." + _OWN_NAMES.get(name, name)
    return short_name(path)


__all__ = ["DECODER_STACK", "ENCODER", "ENCODER_STACK", "HEAD", "INPUTS", "layer_name",
           "layer_part", "part_of", "place_name", "scope_of", "split_layer"]
