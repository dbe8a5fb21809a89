"""The vocabulary's unembedding drawn whole, made ready by whoever computes the trace (the runner,
the worker of File → Open), off the interface thread: widened, and what its grid reads of all its
numbers worked out (the colour scale's spread, the count of numbers that round to 0, the heat map's
block means). Llama-3.2-1B's is 2,048 × 128,256 numbers: widened and read on the interface
thread, the logits step froze the window for 9 s.

The worker keeps what it made here; the interface thread takes it the first time a grid asks
for the weight (:func:`prepared_values`), and hands the results to the stores the grid reads
(:mod:`app.canvas.remember`), which it alone touches.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from app.canvas.heat import block_means, block_shape
from app.canvas.rare_cells import remembered_rounding, rounding_to_zero
from app.canvas.remember import remember_means, remember_spread
from app.texts.printed import printed_places
from engine import Trace
from engine.format.mapped_weight import MappedWeight
from engine.format.numbers import Spread
from engine.format.reader import FloatArray
from engine.scenario.op_kinds import steps_of

PREPARED_FROM = 1 << 22
"""Numbers of an unembedding made ready by the worker (fewer: widened and read by the grid on
the interface thread within about 100 ms)."""
KEPT = 2
"""Unembeddings kept ready: the document's and the one before an edit of it (its trace is on
screen until the edited one's arrives)."""


@dataclass(eq=False)
class Prepared:
    """A mapped weight widened, and what its grid reads of all its numbers."""

    weight: MappedWeight
    values: FloatArray
    spread: Spread
    places: int
    rounding_to_zero: int
    """How many non-zero numbers print as 0 at ``places`` decimals."""
    means: FloatArray
    """The heat map's block means (:func:`~app.canvas.heat.block_shape`), nothing masked."""
    handed: bool = field(default=False)
    """Whether the interface thread has stored the results where the grid looks."""


_PREPARED: list[Prepared] = []
_LOCK = threading.Lock()


def prepare_drawing(trace: Trace) -> None:
    """Make ``trace``'s big mapped unembedding ready to draw (in the thread that computed it)."""
    places = printed_places(trace)
    for step in steps_of(trace.steps, "logits"):
        weight = trace.scenario.weight(step.reads[1])
        if not isinstance(weight, MappedWeight) or weight.size < PREPARED_FROM:
            continue
        with _LOCK:
            if any(held.weight is weight and held.places == places for held in _PREPARED):
                continue
        values = weight.widened()
        made = Prepared(weight, values, Spread.of(values), places,
                        rounding_to_zero(values, places),
                        block_means(values, None, block_shape(*values.shape)))
        with _LOCK:
            _PREPARED[:] = [*(held for held in _PREPARED if held.weight is not weight),
                            made][-KEPT:]


def prepared_values(weight: MappedWeight) -> FloatArray | None:
    """The weight widened by the worker, its grid's results stored the first time it is asked
    for (interface thread); None when the worker did not make it ready."""
    with _LOCK:
        found = next((held for held in _PREPARED if held.weight is weight), None)
    if found is None:
        return None
    if not found.handed:
        values = found.values
        remember_spread(values, found.spread)
        remembered_rounding(values, found.places, found.rounding_to_zero)
        remember_means(values, block_shape(*values.shape), found.means)
        found.handed = True
    return found.values
