"""How each op kind's frame is shown beside its picture: one row of facts per op kind.

The painter and the window ask a step's row of :data:`SHOWN` (a table under the totality test
of :mod:`engine.scenario.op_table`) instead of comparing ``step.op`` to names.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.scenario.op_table import op_table


@dataclass(frozen=True, kw_only=True)
class Shown:
    """How one op kind's frame is shown. Every row states every column."""

    repeats_arrows: bool
    """Its arrows repeat the step before's (the mix draws the shares step's arrows again): an
    export of its frame by itself may leave them out."""
    own_options: bool
    """Its options, and the shapes of its arrays, change its own picture alone: a change of them
    (a temperature dragged, more or fewer ids kept) measures that step again, not every step."""
    draw_controls: bool
    """The window shows the draw's controls (temperature, top-k, top-p, the next token) with it:
    the probabilities and the draw from them."""


_PLAIN = Shown(repeats_arrows=False, own_options=False, draw_controls=False)

SHOWN = op_table("canvas.shown", {
    "embed": _PLAIN,
    "positions": _PLAIN,
    "inputs": _PLAIN,
    "norm": _PLAIN,
    "projection": _PLAIN,
    "rope": _PLAIN,
    "scores": _PLAIN,
    "weights": _PLAIN,
    "mix": Shown(repeats_arrows=True, own_options=False, draw_controls=False),
    "residual": _PLAIN,
    "ffn": _PLAIN,
    "router": _PLAIN,
    "experts": _PLAIN,
    "transform": _PLAIN,
    "logits": _PLAIN,
    "softcap": _PLAIN,
    "probs": Shown(repeats_arrows=False, own_options=False, draw_controls=True),
    "loss": _PLAIN,
    "sample": Shown(repeats_arrows=False, own_options=True, draw_controls=True),
})
"""Each op kind's way of being shown."""


__all__ = ["SHOWN", "Shown"]
