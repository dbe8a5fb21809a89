"""Where a computation first left the finite numbers: the step, its array and the cell."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.format.reader import FloatArray
from engine.forward.tape import Stopped, Tape


def first_nonfinite_cell(array: FloatArray) -> tuple[int, ...] | None:
    """The first cell (in row order) of ``array`` that is ±∞ or NaN; None if every one is
    finite."""
    bad = np.argwhere(~np.isfinite(array))
    return tuple(int(k) for k in bad[0]) if len(bad) else None


def failed_place(record: Callable[[Tape], object], done: int) -> str:
    """The place of a step that overflowed or divided by zero, for a refusal.

    ``done`` steps were finished before it; ``record`` records the same computation again onto
    the tape it is given, here with floating-point errors let through and stopped once the
    failed step is on the tape, so the failed step's arrays can be searched and no later step
    runs on its non-finite numbers (a draw from NaN logits fails in its own way). When the
    failed step cannot even be recorded so, the place is ``computation``.
    The place is the step's first array with a non-finite cell (``L2.scores[0,1,2]``, or
    ``L2.ffn (ffn_hidden[0,3])`` when the array is not named as the step), or the step alone
    when only an inner sum overflowed (``L2.norm1``).
    """
    tape = Tape(stop=done + 1)
    try:
        with np.errstate(all="ignore"):
            record(tape)
    except Stopped:
        pass
    except Exception:  # the failed step itself, fed non-finite numbers
        pass  # the refusal is the overflow already caught; only its place is less precise
    if done >= len(tape.steps):
        return "computation"
    step = tape.steps[done]
    for name in step.writes:
        cell = first_nonfinite_cell(tape.arrays[name])
        if cell is None:
            continue
        where = f"{name.removeprefix(step.scope)}[{','.join(map(str, cell))}]"
        return f"{step.scope}{where}" if name == step.id else f"{step.id} ({where})"
    return step.id
