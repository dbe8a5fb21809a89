"""Short step names for the timeline's buttons, in every language. Imports no Qt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.texts.model import check_language
from app.texts.scope import words_key
from app.texts.words import say

if TYPE_CHECKING:
    from engine import Step


def _is_cross(step: Step) -> bool:
    return bool(step.keys) and step.keys != step.rows


def step_label(step: Step, lang: str) -> str:
    """A word or two naming ``step`` on its timeline button (the catalogue's
    ``label.<explain_key>``; English: the step's id without its scope, which the button's group
    names); a cross-attention's steps say so (``cross-attention · scores``), beside the
    self-attention's ``scores``."""
    label = say("label." + words_key(step).replace("cross_attention.", "attention.", 1), lang)
    return say("group.cross_step", lang, step=label) if _is_cross(step) else label


def layer_name(step: Step, lang: str) -> str:
    """``Layer 2`` / ``第 2 层`` (``Encoder · Layer 1``) for a step inside a layer, with
    ``· Cross-attention`` for a cross-attention step; empty outside the layers."""
    if step.layer == 0:
        check_language(lang)
        return ""
    name = say("group.encoder_layer" if step.stack == "encoder" else "group.layer", lang,
               n=step.layer)
    if _is_cross(step):
        name += " · " + say("group.cross", lang)
    return name


def step_groups(steps: Sequence[Step], lang: str) -> list[str]:
    """The group each step belongs to on the timeline: ``Embedding``, ``Encoder · Layer 1``,
    ``Layer 1``, ``Layer 2`` … (``Decoder · Layer 1`` … beside an encoder), ``Head``; all
    empty when no step is inside a layer (a version-1 document keeps one flat row)."""
    check_language(lang)
    if not any(step.layer for step in steps):
        return ["" for _ in steps]
    groups = []
    seen_layer = False
    for step in steps:
        if step.layer:
            seen_layer = seen_layer or step.stack == "decoder"
            groups.append(say(f"group.{_layer_key(steps, step.stack)}", lang, n=step.layer))
        elif step.stack == "encoder":
            groups.append(say("group.encoder", lang))
        else:
            groups.append(say("group.head" if seen_layer else "group.embedding", lang))
    return groups


def _layer_key(steps: Sequence[Step], stack: str) -> str:
    """How a layer of ``stack`` is named: ``layer``, or beside an encoder ``encoder_layer`` /
    ``decoder_layer``."""
    if stack == "encoder":
        return "encoder_layer"
    return "decoder_layer" if any(s.stack == "encoder" for s in steps) else "layer"


def layers_group(steps: Sequence[Step], stack: str, first: int, last: int, lang: str) -> str:
    """``Layers 3–12`` / ``第 3–12 层`` (``Encoder · Layers 3–12``): a run of layers of
    ``stack`` that the map of where you are folds into one box."""
    return say(f"group.{_layer_key(steps, stack)}s", lang, first=first, last=last)
