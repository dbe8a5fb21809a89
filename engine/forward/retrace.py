"""A trace worked again from the first step an edited array feeds, not from the start.

A cell edit changes one parameter; every step before the first one that reads it computes the
same numbers as before. :func:`retraced` takes those steps and their arrays as they are from the
trace of the document before the edit (:attr:`engine.forward.tape.Tape.replay`) and runs the same op
functions from there on, so the result equals :func:`engine.forward.trace.compute` of the edited
document bit for bit. With ``through`` it stops after that step: a partial trace whose later
steps still hold the earlier trace's numbers (the step on screen first, the rest in a worker,
continued with ``start=through + 1``).
"""

from __future__ import annotations

import numpy as np

from engine.format.mapped_weight import widening_room
from engine.forward.tape import Stopped, Tape
from engine.forward.trace import Trace, record
from engine.scenario.scenario import Scenario

LAYER_ROOTS = ("layers", "attention", "block", "head", "encoder.layers")
"""Where a parameter read by name sits: a layer's, or the head's (the version-1 shorthand's
``attention`` and ``block``). The stack's input (``X``, ``embedding``, ``positions.…``,
``type_table``, ``embedding_norm.…``) is read by the input steps under other names."""


def first_reader(trace: Trace, path: str) -> int:
    """Index of the first step of ``trace`` that reads the parameter at document path ``path``
    (everything before it stays as it is when that parameter changes); 0 for an array of the
    stack's input, and when no step names it."""
    if not path.startswith(tuple(f"{root}." for root in LAYER_ROOTS)):
        return 0
    return next((k for k, step in enumerate(trace.steps) if path in step.reads), 0)


def retraced(before: Trace, after: Scenario, start: int,
             through: int | None = None) -> Trace | None:
    """The trace of ``after`` with the steps before ``start`` and their arrays taken from
    ``before`` (the trace of a document that differs from ``after`` only in arrays that those
    steps do not read), computed through step ``through`` (default: the last). None when it
    cannot be worked this way (another structure, a trace in another row order, a number that
    overflows): compute ``after`` instead, which says why."""
    if before.row_order is not None or start > len(before.steps) or (
            through is not None and through < start):
        return None
    tape = Tape(arrays=dict(before.arrays), visibility=dict(before.visibility),
                replay=before.steps[:start], stop=None if through is None else through + 1)
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"), widening_room():
            record(after, tape)
    except FloatingPointError:
        return None
    except Stopped:
        pass
    steps = (*tape.steps, *before.steps[len(tape.steps):])
    if [(step.id, step.writes) for step in steps] != \
            [(step.id, step.writes) for step in before.steps]:
        return None
    first = "" if after.shorthand else "L1."
    return Trace(scenario=after, arrays=tape.arrays, steps=steps,
                 visible=tape.visibility[first], visibility=tape.visibility)


__all__ = ["first_reader", "retraced"]
