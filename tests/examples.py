"""The built-in examples as the tests read them: their folder and their traces."""

from __future__ import annotations

from pathlib import Path

from engine import Trace, compute, load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


def trace_of(name: str) -> Trace:
    """The trace of the built-in example ``name`` (``"g01"``), computed afresh."""
    return compute(load_scenario(EXAMPLES / f"{name}.qkv.json"))
