"""The same scenario under another setting: the other norm, placement, mask or scaling.

Each variant is a new scenario that differs from the given one in one option only, with a short
name for each side (``"LayerNorm"`` / ``"RMSNorm"``), so a comparison can say what it compares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.format.document import parse_scenario
from engine.format.errors import ScenarioError
from engine.format.writer import to_document
from engine.scenario.names import NORM_NAMES
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal

Document = dict[str, Any]

OTHER_NORM = {"layernorm": "rmsnorm", "rmsnorm": "layernorm", "none": "layernorm"}


@dataclass(frozen=True, eq=False)
class Variant:
    """Scenario B made from scenario A by changing one setting, and both settings' names."""

    kind: str
    scenario: Scenario
    label_a: str
    label_b: str


Change = Callable[[list[Document], list[Document]], tuple[str, str]]
"""A change made in place to a document's blocks and self-attentions (their objects in the
document), returning the two settings' names."""


def _first(blocks: list[Document], kind: str) -> Document:
    if not blocks:
        raise ScenarioError("block", Refusal("no_block_to_compare", kind=kind))
    return blocks[0]


def _other_norm(blocks: list[Document], _attentions: list[Document]) -> tuple[str, str]:
    before = str(_first(blocks, "other norm").get("norm", "layernorm"))
    for block in blocks:
        block["norm"] = OTHER_NORM[before]
    return NORM_NAMES[before], NORM_NAMES[OTHER_NORM[before]]


def _other_placement(blocks: list[Document], _attentions: list[Document]) -> tuple[str, str]:
    before = str(_first(blocks, "other placement").get("placement", "pre"))
    after = "post" if before == "pre" else "pre"
    for block in blocks:
        block["placement"] = after
        block.pop("residual", None)  # a parallel residual is pre-norm only
    return f"{before}-norm", f"{after}-norm"


def _flip(key: str, on: str, off: str) -> Change:
    def flip(_blocks: list[Document], attentions: list[Document]) -> tuple[str, str]:
        before = bool(attentions[0].get(key, True))
        for attention in attentions:
            attention[key] = not before
            if key == "scale" and before:  # unscaled: nothing under a root (Gemma 2's scale_dk)
                attention.pop("scale_dk", None)
        return (on, off) if before else (off, on)
    return flip


VARIANTS: dict[str, Change] = {
    "norm": _other_norm,
    "placement": _other_placement,
    "causal": _flip("causal", "causal mask", "no mask"),
    "scale": _flip("scale", "scaled by √dₖ", "not scaled"),
}
"""Variant kind → its change, made to every layer of the document's main stack."""


def variant(scenario: Scenario, kind: str) -> Variant:
    """Scenario ``scenario`` with one setting changed.

    Parameters
    ----------
    kind
        ``"norm"`` (LayerNorm ↔ RMSNorm, none → LayerNorm), ``"placement"`` (pre ↔ post),
        ``"causal"`` or ``"scale"`` (flipped).

    Raises
    ------
    ScenarioError
        If the setting does not apply (a block setting without a block), or the changed
        document is not valid. In a stack every layer's setting changes (to the first layer's
        other setting).
    KeyError
        If ``kind`` is unknown.
    """
    change = VARIANTS[kind]
    document = to_document(scenario)
    blocks, attentions = _main_stack(scenario, document)
    label_a, label_b = change(blocks, attentions)
    return Variant(kind=kind, scenario=parse_scenario(document), label_a=label_a,
                   label_b=label_b)


def _main_stack(scenario: Scenario, document: Document) -> tuple[list[Document],
                                                                 list[Document]]:
    """The document objects of the main stack's blocks and self-attentions, layer by layer."""
    if scenario.shorthand:
        block = document.get("block")
        return ([block] if isinstance(block, dict) else []), [document["attention"]]
    layers = document["layers"]
    return ([layer["block"] for layer in layers if "block" in layer],
            [layer["attention"] for layer in layers])


__all__ = ["NORM_NAMES", "VARIANTS", "Variant", "variant"]
