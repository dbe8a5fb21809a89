"""A big mapped weight drawn whole, made ready off the interface thread: widened, and what its
grid reads of all its numbers worked out (the colour scale's spread, the count of numbers that
round to 0, the heat map's block means).

The vocabulary's unembedding is made ready by whoever computes the trace (the runner, the
worker of File → Open): Llama-3.2-1B's is 2,048 × 128,256 numbers, and widened and read on the
interface thread the logits step froze the window for 9 s. A layer's big weights (its
feed-forward's 2,048 × 8,192 W1, Wg and W2, its 2,048 × 2,048 Wq and Wo) are made ready by a
worker of the window before their step is drawn (:mod:`app.window.step_weights`): widened (and
transposed) on the interface thread, an FFN step froze it for 2.2 s.

The worker keeps what it made here; the interface thread takes it the first time a grid asks
for the weight (:func:`prepared_values`), and hands the results to the stores the grid reads
(:mod:`app.canvas.remember`), which it alone touches. What is kept holds its weight weakly: once
no document holds the weight (another document opened, the window closed), what was made from
it goes (Llama-3.2-1B's kept 2.8 GB after an example was opened over it).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from app.canvas.bars import widest_label
from app.canvas.grid import NUMBER_SIZE
from app.canvas.heat import block_means, block_shape
from app.canvas.rare_cells import remembered_rounding, rounding_to_zero
from app.canvas.remember import remember_means, remember_spread
from app.model.operands import tokens_of
from app.texts.printed import printed_places
from engine import Step, Trace
from engine.format.mapped_weight import MappedWeight, cell, edited_between
from engine.format.numbers import Spread
from engine.format.reader import FloatArray
from engine.forward import lineage
from engine.scenario.op_kinds import steps_of

PREPARED_FROM = 1 << 22
"""Numbers of a mapped weight made ready by a worker (fewer: widened and read by the grid on
the interface thread within about 100 ms)."""
ALONG_FROM = 1 << 16
"""Numbers of a mapped weight made ready by the worker with a big weight of the same step
(:func:`step_weights`): the step waits for the worker anyway, and Llama-3.2-1B's 2,048 × 512
Wk and Wv, widened and read on the interface thread once the worker had made Wq ready, froze
the projections step for 0.2-0.3 s."""
KEPT = 2
"""Unembeddings kept ready: the document's and the one before an edit of it (its trace is on
screen until the edited one's arrives)."""
LABELS_MEASURED_FROM = 1 << 14
"""Vocabulary entries whose widest label the worker measures for the probabilities' chart
(fewer: measured on the interface thread within about 40 ms)."""
DRAWN_WHOLE = frozenset({"projection", "mix", "ffn"})
"""The op kinds whose frames draw every weight they read whole."""
EDITED_CELLS = 1 << 10
"""The most numbers an edited weight may differ by from one made ready for it to be made ready
from that one (:func:`_from_nearest`): cells typed one at a time."""
KEPT_BYTES = 1 << 30
"""The most the other weights kept ready hold, the latest kept: a layer's feed-forward (three
2,048 × 8,192 weights of Llama-3.2-1B, 403 MB) and its attention's, and the next layer's."""


@dataclass(eq=False)
class Prepared:
    """A mapped weight widened, and what its grid reads of all its numbers."""

    weight: weakref.ref[MappedWeight]
    """The weight, held weakly (:func:`_forget_gone` drops the entry once it is gone)."""
    values: FloatArray
    spread: Spread
    places: int
    rounding_to_zero: int
    """How many non-zero numbers print as 0 at ``places`` decimals."""
    means: FloatArray
    """The heat map's block means (:func:`~app.canvas.heat.block_shape`), nothing masked."""
    unembedding: bool
    """Whether it is a logits step's unembedding (kept by count, :data:`KEPT`; the other
    weights by bytes, :data:`KEPT_BYTES`)."""


_PREPARED: list[Prepared] = []
_LOCK = threading.RLock()
"""Reentrant: a weight may die, and :func:`_forget_gone` run, while its thread holds it."""


def _forget_gone(_gone: object = None) -> None:
    """Drop what was made from weights no document holds any more (a weight's death calls it,
    on whichever thread dropped the weight; each change of the kept ones ends with it)."""
    with _LOCK:
        _PREPARED[:] = [held for held in list(_PREPARED) if held.weight() is not None]


def prepare_drawing(trace: Trace) -> None:
    """Make ``trace``'s big mapped unembedding ready to draw, and its vocabulary's widest label
    measured (in the thread that computed it)."""
    places = printed_places(trace)
    for step in steps_of(trace.steps, "logits"):
        weight = trace.scenario.weight(step.reads[1])
        if isinstance(weight, MappedWeight) and weight.size >= PREPARED_FROM:
            prepare_weight(weight, places, unembedding=True)
    vocab = tokens_of(trace, "vocab")
    if len(vocab) >= LABELS_MEASURED_FROM:
        # Every label measured with the font's metrics: Llama 3's 128,256 took 0.2-0.85 s of
        # the probabilities step on the interface thread. Qt's font classes are reentrant and
        # its font cache is each thread's own: the same advances as the interface thread's.
        widest_label(tuple(vocab), NUMBER_SIZE)


def step_weights(trace: Trace, step: Step) -> list[MappedWeight]:
    """The big mapped weights ``step``'s frame draws whole (a feed-forward's W1, Wg and W2, an
    attention's Wq and Wo), made ready by a worker before it is drawn, with the step's other
    mapped weights of :data:`ALONG_FROM` numbers or more (an attention's Wk and Wv beside a
    big Wq); none for other steps (the embedding step draws the table's picked rows alone;
    the logits step's unembedding is made ready with the trace)."""
    if step.op not in DRAWN_WHOLE:
        return []
    scenario = trace.scenario
    found = [weight for read in step.reads if read in scenario.array_places
             if isinstance(weight := scenario.weight(read), MappedWeight)]
    if not any(weight.size >= PREPARED_FROM for weight in found):
        return []
    return [weight for weight in found if weight.size >= min(ALONG_FROM, PREPARED_FROM)]


def is_prepared(weight: MappedWeight) -> bool:
    """Whether ``weight`` is made ready (a grid of it then widens and reads nothing)."""
    with _LOCK:
        return any(held.weight() is weight for held in _PREPARED)


def prepare_weight(weight: MappedWeight, places: int, unembedding: bool = False,
                   keeping: Sequence[MappedWeight] = ()) -> None:
    """Make ``weight`` ready to draw at ``places`` decimals (in a worker): widened, its spread,
    rounding-to-0 count and block means worked out, kept with the latest made and with
    ``keeping`` (the other weights of the step it is made ready for, whatever they hold)."""
    with _LOCK:
        if any(held.weight() is weight and held.places == places for held in _PREPARED):
            return
    made = _from_nearest(weight, places)
    if made is not None:
        made.unembedding = unembedding  # kept as asked, whatever it was made from
    else:
        values = weight.widened()
        made = Prepared(weakref.ref(weight, _forget_gone), values, Spread.of(values), places,
                        rounding_to_zero(values, places),
                        block_means(values, None, block_shape(*values.shape)), unembedding)
    with _LOCK:
        held = [*(held for held in list(_PREPARED) if held.weight() is not weight), made]
        _PREPARED[:] = _kept(held, (*keeping, weight))
        _forget_gone()


def _kept(held: list[Prepared], keeping: Sequence[MappedWeight]) -> list[Prepared]:
    """Of ``held`` (oldest first), the latest :data:`KEPT` unembeddings, the other weights of
    ``keeping`` whatever they hold, and the latest others within what is left of
    :data:`KEPT_BYTES`. A step's weights are kept together: Llama-3.1-8B's feed-forward holds
    1.4 GB, and dropping one of its weights to make room for the next had the step wait for
    them for ever."""
    unembeddings = [made for made in held if made.unembedding][-KEPT:]
    weights = [made for made in held if not made.unembedding]
    pinned = [made for made in weights if any(made.weight() is kept for kept in keeping)]
    room = KEPT_BYTES - sum(made.values.nbytes for made in pinned)
    others: list[Prepared] = []
    for made in reversed([made for made in weights if all(made is not p for p in pinned)]):
        room -= made.values.nbytes
        if room < 0:
            break
        others.append(made)
    return [made for made in held
            if any(made is kept for kept in [*unembeddings, *pinned, *others])]


def _from_nearest(weight: MappedWeight, places: int) -> Prepared | None:
    """``weight`` made ready from a weight made ready that it was edited from (the same tensor
    with at most :data:`EDITED_CELLS` numbers set since: the nearest, whose grid's images are
    then brought up to date from those cells too); None when none was. An edit of a cell of
    Llama-3.2-1B's Wq widened its 4 million numbers again and read them all for its grid; now
    they are copied, and the rest brought up to date from the cells set (by the worker: the
    copy alone froze the window 50-190 ms on the interface thread)."""
    with _LOCK:
        held = [(made, source) for made in list(_PREPARED)
                if made.places == places and (source := made.weight()) is not None]
    nearest = min(((cells.size, k, made, cells) for k, (made, source) in enumerate(held)
                   if (cells := edited_between(source, weight)) is not None),
                  default=None)  # the fewest cells apart: the last edit's, typing on
    if nearest is None or nearest[0] > EDITED_CELLS:
        return None
    return _edited(nearest[2], weight, nearest[3])


def _edited(made: Prepared, weight: MappedWeight, cells: npt.NDArray[np.int64]) -> Prepared:
    """``made`` brought up to date for ``weight``, whose numbers at the flat indices ``cells``
    differ from those of the weight ``made`` was made from: each result as if worked out from
    all of ``weight``'s numbers."""
    at = np.unravel_index(cells, weight.shape)
    before = made.values[at]
    after = np.array([cell(weight, (int(row), int(column)))
                      for row, column in zip(*at, strict=True)])
    values = made.values.copy(order="K")
    values[at] = after
    values.flags.writeable = False
    if values.strides == made.values.strides:  # the grid's images brought up to date too
        lineage.record(values, made.values, cells)
    down, across = block_shape(*values.shape)
    means = made.means.copy()
    for band in np.unique(at[0] // down).tolist():
        means[band] = block_means(values[band * down:(band + 1) * down], None,
                                  (down, across))[0]
    rounding = made.rounding_to_zero - rounding_to_zero(before, made.places) \
        + rounding_to_zero(after, made.places)
    return Prepared(weakref.ref(weight, _forget_gone), values,
                    made.spread.after(before, after) or Spread.of(values), made.places,
                    rounding, means, made.unembedding)


def prepared_values(weight: MappedWeight) -> FloatArray | None:
    """The weight widened by the worker, its grid's results stored where the grid looks each
    time it is asked for (interface thread): the stores keep what they hold, and what they let
    go (the heat maps' means, 16 kept) comes back from here instead of being worked out again
    (a Llama-3.2-1B layer's projections stepped back to: 85 ms, Wq's means alone 57 ms). None
    when the worker did not make it ready."""
    with _LOCK:
        found = next((held for held in _PREPARED if held.weight() is weight), None)
    if found is None:
        return None
    values = found.values
    remember_spread(values, found.spread)
    remembered_rounding(values, found.places, found.rounding_to_zero)
    remember_means(values, block_shape(*values.shape), found.means)
    return values
