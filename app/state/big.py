"""Which documents are big: computed, saved and copied off the interface thread (no Qt)."""

from __future__ import annotations

from app.model.outline import parameter_cells
from engine import Scenario

BIG_CELLS = 1 << 16
"""Numbers (scores plus parameters) above which a scenario is computed, saved and copied in a
worker. Below it, computing takes a few milliseconds and writing the text up to about 50 ms
on an idle machine (see docs/limits.md)."""


def work_of(scenario: Scenario) -> int:
    """How many numbers computing or writing ``scenario`` touches: every attention's scores
    (counted as n × n, n the longer token list) plus its arrays."""
    n = max(scenario.n, scenario.encoder.n if scenario.encoder is not None else 0)
    heads = sum(a.heads for a in scenario.attentions)
    return heads * n * n + parameter_cells(scenario)


def is_big(scenario: Scenario) -> bool:
    """Whether ``scenario`` is computed, saved and copied off the interface thread."""
    return work_of(scenario) > BIG_CELLS
