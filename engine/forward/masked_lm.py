"""Filling the blanks: the ``[MASK]`` positions of a document whose head is a masked-language
model's (it has a ``transform``), and the entries its probabilities rank first there."""

from __future__ import annotations

import numpy as np

from engine.scenario.scenario import Scenario

MASK_TOKEN = "[MASK]"
"""The token a masked-language model fills (BERT's tokenizer's ``mask_token``)."""
FILL_ENTRIES = 3
"""How many entries a blank's fill names, the most probable first."""


def masked_positions(scenario: Scenario) -> tuple[int, ...]:
    """The positions a masked-language-model head fills: its ``[MASK]`` tokens (none without a
    head transform)."""
    head = scenario.head
    if head is None or head.transform is None:
        return ()
    return tuple(i for i, token in enumerate(scenario.tokens) if token == MASK_TOKEN)


def fills(probs: np.ndarray, position: int) -> tuple[tuple[int, float], ...]:
    """The :data:`FILL_ENTRIES` most probable vocabulary entries at ``position`` and their
    probabilities, the most probable first (ties: the lower id first)."""
    row = probs[position]
    order = np.argsort(-row, kind="stable")[:FILL_ENTRIES]
    return tuple((int(v), float(row[v])) for v in order)


__all__ = ["FILL_ENTRIES", "MASK_TOKEN", "fills", "masked_positions"]
