"""A vocabulary head that ends with a step after its logits, for tests: the three-layers
generation document with Gemma 2's soft cap ``head.softcap`` = :data:`CAP` (its ``softcap`` step
writes ``logits`` = c·tanh(``logits_uncapped`` / c))."""

from __future__ import annotations

from typing import Any

from engine import parse_scenario
from engine.scenario.scenario import Scenario
from tests.engine.generation_documents import cases

CAP = 0.5
"""Small next to the logits of tests/engine/generation_documents' three-layers document (up to
±1.6), so the cap changes them by up to 1.1."""


def capped_document(**more: Any) -> dict[str, Any]:
    """The three-layers document, its head capped at :data:`CAP` (``more``: other keys)."""
    doc = cases()["three-layers"]
    return {**doc, "head": {**doc["head"], "softcap": CAP}, **more}


def capped_scenario(**more: Any) -> Scenario:
    return parse_scenario(capped_document(**more))
