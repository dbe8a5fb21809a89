"""What each op kind is, asked by kind and never by name: one row of facts per :data:`Op`.

A consumer that needs to know whether a step belongs to the vocabulary head, is masked by the keys'
visibility, draws the next token … reads the step's row of :data:`KINDS` (a table under the totality
test of :mod:`engine.scenario.op_table`) instead of comparing ``step.op`` to names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.forward.step import Op, Step
from engine.scenario.op_table import op_table


def _nothing(step: Step) -> tuple[str, ...]:
    return ()


def _row_statistics(step: Step) -> tuple[str, ...]:
    return tuple(f"{name}_stats" for name in step.writes)


def _pre_activation(step: Step) -> tuple[str, ...]:
    return (f"{step.scope}ffn_pre",)


@dataclass(frozen=True, kw_only=True)
class OpKind:
    """The facts of one op kind. Every row states every column."""

    head: bool
    """A step of the vocabulary head's side (its words quote the head, not a layer)."""
    head_output: bool
    """It writes the vocabulary's scores the head ends with (the logits; a capped head's capped
    logits): the probabilities, the loss and the draw read the last such step's array."""
    draws: bool
    """It draws the next token: a trace that ends with it can generate on."""
    masked: bool
    """Its arrays are h × queries × keys: a hidden key's cells are no numbers (the frame shows
    them masked; an exercise never hides them)."""
    derived: Callable[[Step], tuple[str, ...]]
    """The arrays it makes beside its writes, which no step writes (a norm's row statistics)."""


_PLAIN = OpKind(head=False, head_output=False, draws=False, masked=False, derived=_nothing)
_NORM = OpKind(head=False, head_output=False, draws=False, masked=False,
               derived=_row_statistics)
_KEYS = OpKind(head=False, head_output=False, draws=False, masked=True, derived=_nothing)
_FFN = OpKind(head=False, head_output=False, draws=False, masked=False, derived=_pre_activation)
_LOGITS = OpKind(head=True, head_output=True, draws=False, masked=False, derived=_nothing)
_HEAD = OpKind(head=True, head_output=False, draws=False, masked=False, derived=_nothing)
_DRAW = OpKind(head=True, head_output=False, draws=True, masked=False, derived=_nothing)

KINDS = op_table("engine.kinds", {
    "embed": _PLAIN,
    "positions": _PLAIN,
    "inputs": _PLAIN,
    "norm": _NORM,
    "projection": _PLAIN,
    "rope": _PLAIN,
    "scores": _KEYS,
    "weights": _KEYS,
    "mix": _PLAIN,
    "residual": _PLAIN,
    "ffn": _FFN,
    "router": _PLAIN,
    "experts": _PLAIN,
    "transform": _PLAIN,
    "logits": _LOGITS,
    "softcap": _LOGITS,
    "probs": _HEAD,
    "loss": _HEAD,
    "sample": _DRAW,
})
"""Each op kind's facts."""


def steps_of(steps: Iterable[Step], op: Op) -> list[Step]:
    """The steps of kind ``op``, in order."""
    return [step for step in steps if step.op == op]


def head_output(steps: Sequence[Step]) -> str:
    """The array the vocabulary head ends with: what its last step of a
    :attr:`~OpKind.head_output` kind writes (today the logits). Asked only of a head's steps."""
    return next(step for step in reversed(steps) if KINDS[step.op].head_output).writes[0]


def made_by(step: Step) -> list[str]:
    """The arrays a step makes: its writes, and the derived arrays that are in no step's
    writes (a norm's ``_stats``, the feed-forward's ``ffn_pre``)."""
    return [*step.writes, *KINDS[step.op].derived(step)]


__all__ = ["KINDS", "OpKind", "head_output", "made_by", "steps_of"]
