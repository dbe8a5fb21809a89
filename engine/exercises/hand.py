"""Variants of a document with numbers a student can work by hand, for worksheets.

The rule: the input rows ``X`` (when typed, not looked up) take whole numbers from −2 to 2, every
attention's ``Wq`` and ``Wk`` halves from −1 to 1, its ``Wv`` whole numbers from −2 to 2; the
other parameters stay as they are. So every projection is a sum of halves and every score a
half-integer over √dₖ. A draw is kept only when the softmax still discriminates: in every row of
every attention with two or more visible keys, the visible scores spread by at least
:data:`LEAST_SPREAD` (no even split) and at most :data:`MOST_SPREAD` (no share within a few
percent of 1), and the variant differs from the document (a worksheet asks this of the
attentions its exercises show). Variant k of seed s always draws the
same numbers (``numpy.random.default_rng((s, k))``); every answer is then computed on it.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from engine.errors import ScenarioError
from engine.refusals import Refusal
from engine.scenario import Scenario
from engine.trace import Trace, compute

WHOLE = np.arange(-2.0, 3.0)
HALVES = np.arange(-2.0, 3.0) / 2
LEAST_SPREAD = 0.5
MOST_SPREAD = 3.0
"""Two keys 3 apart share e³ : 1, about 0.95 : 0.05."""
TRIES = 2000
"""Draws tried for one variant before it is refused."""


def _choices(path: str) -> np.ndarray | None:
    """The numbers a document path draws from (None: it is kept)."""
    if path == "X":
        return WHOLE
    module, _, name = path.rpartition(".")
    if module.rpartition(".")[2] not in ("attention", "cross_attention"):
        return None
    return {"Wq": HALVES, "Wk": HALVES, "Wv": WHOLE}.get(name)


def discriminates(trace: Trace, scopes: Collection[str] | None = None) -> bool:
    """Whether every attention row with two or more visible keys spreads its scores within
    [:data:`LEAST_SPREAD`, :data:`MOST_SPREAD`] (of the attentions at ``scopes``, or all)."""
    for step in trace.steps:
        if step.op != "weights" or (scopes is not None and step.scope not in scopes):
            continue
        scores = trace.arrays[f"{step.scope}scores"]
        seen = np.broadcast_to(trace.visible_for(step.scope), scores.shape)
        for head, row in zip(*np.nonzero(seen.sum(axis=2) >= 2), strict=True):
            visible = scores[head, row][seen[head, row]]
            spread = float(visible.max() - visible.min())
            if not LEAST_SPREAD <= spread <= MOST_SPREAD:
                return False
    return True


def hand_variant(scenario: Scenario, seed: int, number: int,
                 scopes: Collection[str] | None = None) -> Scenario:
    """Variant ``number`` (from 1) of ``scenario`` with hand-friendly numbers (the module's
    rule), its exercises kept; ``scopes`` limits the rule on the shares to the attentions a
    sheet shows (``""``, ``"L2."`` …; all by default): each more attention that must
    discriminate takes many more draws.

    Raises
    ------
    ScenarioError
        At ``variants`` when no draw of :data:`TRIES` keeps the softmax discriminating.
    """
    drawn = [(path, choices) for path in scenario.parameter_paths()
             if (choices := _choices(path)) is not None]  # every document has an attention
    rng = np.random.default_rng((seed, number))
    for _ in range(TRIES):
        variant = scenario
        for path, choices in drawn:
            shape = scenario.parameter(path).shape
            variant = variant.with_parameter(path, rng.choice(choices, size=shape))
        if all(np.array_equal(variant.parameter(path), scenario.parameter(path))
               for path, _ in drawn):
            continue
        try:
            trace = compute(variant)
        except ScenarioError:
            continue
        if discriminates(trace, scopes):
            return variant
    raise ScenarioError("variants", Refusal("variants_not_found", number=number, tries=TRIES,
                                            low=LEAST_SPREAD, high=MOST_SPREAD))


__all__ = ["HALVES", "LEAST_SPREAD", "MOST_SPREAD", "WHOLE", "discriminates", "hand_variant"]
