"""The named edits of a stack's layers: add, remove, duplicate, move. Imports no Qt.

Every edit works on the document with a ``layers`` list. A document in the version-1 shorthand
(top-level ``attention`` and ``block``) becomes one explicitly (:func:`layered_document`): its
only layer is ``layers.0``, the head's keys leave the block for ``head``, and the trace's arrays
take the layer prefix (``Q`` becomes ``L1.Q``). Undo brings the shorthand document back, bit
for bit, as every undo does.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.model.edits import Operation
from app.model.parts import DECODER_STACK, layer_name
from app.texts.words import say
from engine import Scenario, ScenarioError, parse_scenario
from engine.format.layers import HEAD_KEYS
from engine.format.writer import as_held, to_document
from engine.words.refusals import Refusal


def layered_document(scenario: Scenario) -> dict[str, Any]:
    """The scenario's document with its layers in a ``layers`` list.

    The version-1 shorthand turns into a one-layer stack with its head in ``head``; the head's
    norm and ε are written out, so that they stay what they are whichever layer ends up last.
    """
    document = to_document(scenario, as_held)  # its arrays as held: a checkpoint's stay mapped
    if "attention" in document:
        layer: dict[str, Any] = {"attention": document.pop("attention")}
        head = document.pop("head", {})
        block = document.pop("block", None)
        if block is not None:
            head = {**{key: block.pop(key) for key in HEAD_KEYS if key in block}, **head}
            layer["block"] = block
        display = document.pop("display", None)
        document["layers"] = [layer]
        if head:
            document["head"] = head
        if display is not None:
            document["display"] = display
    if scenario.head is not None:
        document["head"].update(norm=scenario.head.norm, eps=scenario.head.eps)
    return document


def stack_of(document: dict[str, Any], stack: str) -> list[Any]:
    """The list of layers at ``stack`` (``layers`` or ``encoder.layers``) of ``document``."""
    node: Any = document
    for key in stack.split("."):
        if not isinstance(node, dict) or key not in node:
            raise ScenarioError(stack, Refusal("no_such_stack"))
        node = node[key]
    assert isinstance(node, list)
    return node


def fresh(value: Any, key: str = "") -> Any:
    """A layer shaped like ``value`` (a layer's document, its weights as held) with plain
    starting numbers: every matrix identity-like, every γ 1, every β and bias 0, every key
    visible, each expert of a mixture so; its settings (heads, norm, activation …) are the ones
    of ``value``."""
    if isinstance(value, dict):
        return {k: fresh(v, k) for k, v in value.items()}
    if key == "key_mask":
        return [1] * len(value)
    if key == "ablate_heads":
        return []
    if isinstance(value, list):  # a mixture's experts
        return [fresh(item, key) for item in value]
    shape = getattr(value, "shape", None)  # an array, or a weight left in its checkpoint
    if shape is not None and len(shape) == 2:
        return np.eye(*shape)
    if shape is not None:
        return np.full(shape, 1.0 if key.startswith("gamma") else 0.0)
    return value


@dataclass(frozen=True)
class LayerEdit(Operation):
    """An edit of layer ``index`` (0-based) of ``stack``."""

    index: int
    stack: str = DECODER_STACK

    def apply(self, scenario: Scenario) -> Scenario:
        document = layered_document(scenario)
        layers = stack_of(document, self.stack)
        self.change(layers)
        return parse_scenario(document)

    @abstractmethod
    def change(self, layers: list[Any]) -> None:
        """Change the list of layers in place; raise :class:`ScenarioError` if refused."""

    def refuse_missing(self, layers: list[Any], index: int) -> None:
        if not 0 <= index < len(layers):
            raise ScenarioError(self.stack, Refusal("no_such_layer", layer=index + 1,
                                                    count=len(layers)))

    def words(self, lang: str, key: str) -> str:
        return say(f"edit.{key}", lang, layer=layer_name(lang, self.stack, self.index))


@dataclass(frozen=True)
class AddLayer(LayerEdit):
    """Insert a new layer at ``index``, shaped like its neighbour (:func:`fresh`)."""

    def change(self, layers: list[Any]) -> None:
        if not 0 <= self.index <= len(layers):
            raise ScenarioError(self.stack, Refusal("new_layer_range", last=len(layers) + 1,
                                                    layer=self.index + 1))
        layers.insert(self.index, fresh(layers[max(0, self.index - 1)]))

    def label(self, lang: str) -> str:
        return self.words(lang, "layer_add")


@dataclass(frozen=True)
class RemoveLayer(LayerEdit):
    """Remove layer ``index``; a stack keeps at least one layer."""

    def change(self, layers: list[Any]) -> None:
        self.refuse_missing(layers, self.index)
        if len(layers) == 1:
            raise ScenarioError(self.stack, Refusal("last_layer_kept"))
        del layers[self.index]

    def label(self, lang: str) -> str:
        return self.words(lang, "layer_remove")


@dataclass(frozen=True)
class DuplicateLayer(LayerEdit):
    """Insert a copy of layer ``index`` (every number the same) right after it."""

    def change(self, layers: list[Any]) -> None:
        self.refuse_missing(layers, self.index)
        layers.insert(self.index + 1, layers[self.index])

    def label(self, lang: str) -> str:
        return self.words(lang, "layer_duplicate")


@dataclass(frozen=True)
class MoveLayer(LayerEdit):
    """Move layer ``index`` one place up (``by`` = −1, towards the input) or down (+1)."""

    by: int = 1

    def change(self, layers: list[Any]) -> None:
        self.refuse_missing(layers, self.index)
        target = self.index + self.by
        if not 0 <= target < len(layers):
            raise ScenarioError(self.stack, Refusal("layer_already_first" if self.by < 0
                                                    else "layer_already_last",
                                                    layer=self.index + 1))
        layers[self.index], layers[target] = layers[target], layers[self.index]

    def label(self, lang: str) -> str:
        return self.words(lang, "layer_up" if self.by < 0 else "layer_down")


__all__ = ["AddLayer", "DuplicateLayer", "LayerEdit", "MoveLayer", "RemoveLayer", "fresh",
           "layered_document", "stack_of"]
