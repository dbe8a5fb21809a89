"""The same scenario under another setting: the other norm, placement, mask or scaling.

Each variant is a new scenario that differs from the given one in one option only, with a short
name for each side (``"LayerNorm"`` / ``"RMSNorm"``), so a comparison can say what it compares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import ScenarioError
from engine.names import NORM_NAMES
from engine.scenario import Scenario, parse_scenario

Document = dict[str, Any]

OTHER_NORM = {"layernorm": "rmsnorm", "rmsnorm": "layernorm", "none": "layernorm"}


@dataclass(frozen=True, eq=False)
class Variant:
    """Scenario B made from scenario A by changing one setting, and both settings' names."""

    kind: str
    scenario: Scenario
    label_a: str
    label_b: str


def _block(document: Document, kind: str) -> Document:
    block = document.get("block")
    if not isinstance(block, dict):
        raise ScenarioError("block", f"“{kind}” compares decoder-block settings, and this "
                            "document has no block")
    return block


def _other_norm(document: Document) -> tuple[str, str]:
    block = _block(document, "other norm")
    before = str(block.get("norm", "layernorm"))
    block["norm"] = OTHER_NORM[before]
    return NORM_NAMES[before], NORM_NAMES[block["norm"]]


def _other_placement(document: Document) -> tuple[str, str]:
    block = _block(document, "other placement")
    before = str(block.get("placement", "pre"))
    block["placement"] = "post" if before == "pre" else "pre"
    return f"{before}-norm", f"{block['placement']}-norm"


def _flip(key: str, on: str, off: str) -> Callable[[Document], tuple[str, str]]:
    def flip(document: Document) -> tuple[str, str]:
        attention = document["attention"]
        before = bool(attention.get(key, True))
        attention[key] = not before
        return (on, off) if before else (off, on)
    return flip


VARIANTS: dict[str, Callable[[Document], tuple[str, str]]] = {
    "norm": _other_norm,
    "placement": _other_placement,
    "causal": _flip("causal", "causal mask", "no mask"),
    "scale": _flip("scale", "scaled by √dₖ", "not scaled"),
}
"""Variant kind → a change made in place to a document, returning the two settings' names."""


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
        document is not valid.
    KeyError
        If ``kind`` is unknown.
    """
    change = VARIANTS[kind]
    document = scenario.to_document()
    label_a, label_b = change(document)
    return Variant(kind=kind, scenario=parse_scenario(document), label_a=label_a,
                   label_b=label_b)


__all__ = ["NORM_NAMES", "VARIANTS", "Variant", "variant"]
