"""Reading a document for the window: valid *and* computable, or one ScenarioError (no Qt)."""

from __future__ import annotations

import os

from engine import Scenario, compute, load_scenario


def load_checked(path: str | os.PathLike[str]) -> Scenario:
    """Read, migrate and validate a document, then check that its trace can be computed.

    A document can be well formed and still overflow (``X`` holding ``1e308``); the window
    must refuse it before it touches the open document.

    Raises
    ------
    ScenarioError
        The first problem, naming the file, the place in the document, or ``computation``.
    """
    scenario = load_scenario(path)
    compute(scenario)
    return scenario
