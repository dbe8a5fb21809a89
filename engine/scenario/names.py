"""The names a user sees for the engine's options and arrays, each defined once.

The engine names its steps (``engine/forward/trace.py``) and its variants
(``engine/scenario/variants.py``) with these; the interface shows the same names in its editor,
canvas and messages.
"""

from __future__ import annotations

from engine.scenario.modules import ACTIVATIONS, NORMS
from engine.words import english

NORM_NAMES = {kind: english(f"name.norm.{kind}") for kind in NORMS}
"""Display name of each ``block.norm`` option, in English (its words: :mod:`engine.words`)."""

ACTIVATION_NAMES = {kind: english(f"name.activation.{kind}") for kind in ACTIVATIONS}
"""Display name of each ``ffn.activation``: the function's own name, not the option's code."""

GATED_NAMES = {kind: english(f"name.gated.{kind}") for kind in ACTIVATIONS}
"""Display name of a gated feed-forward (``ffn.Wg``) by its gate's activation, as the
literature names them (SwiGLU: a SiLU gate times the up projection)."""


def activation_name(activation: str, gated: bool) -> str:
    """``silu`` → ``SiLU``; gated, ``SwiGLU``."""
    return (GATED_NAMES if gated else ACTIVATION_NAMES).get(activation, activation)


SHORT_NAMES = {"block.gamma1": "γ1", "block.beta1": "β1", "block.gamma2": "γ2",
               "block.beta2": "β2", "block.gamma3": "γ3", "block.beta3": "β3",
               "block.gamma4": "γ4", "block.beta4": "β4", "block.gamma_f": "γf",
               "block.beta_f": "βf"}
"""Short names that are not simply the last part of the path."""


def short_name(path: str) -> str:
    """The name a user sees for a document path: ``attention.Wq`` → ``Wq``, ``block.gamma1`` →
    ``γ1``, ``block.ffn.W1`` → ``W1``, an expert's ``block.ffn.experts.2.W1`` →
    ``experts.2.W1``, a shared expert's ``block.ffn.shared.W1`` → ``shared.W1``; a trace
    array's name (``scores``) is its own short name."""
    parts = path.split(".")
    if len(parts) > 2 and parts[-3] == "experts":
        return ".".join(parts[-3:])
    if len(parts) > 1 and parts[-2] == "shared":
        return ".".join(parts[-2:])
    return SHORT_NAMES.get(path, parts[-1])
