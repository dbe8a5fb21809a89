"""Every layer × head's shares at once, and the attention sink each head makes of the first key.

A head is a *sink* on the first key when most rows put most of their share there: the softmax
must give away a whole share, and a head with nothing to look at parks it on position 0. Its
sink figure is the mean, over the query rows, of the share on key 0. Removing position 0 gives
each row's remaining shares renormalised to sum to 1 again (``w[j] / (1 − w[0])``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import ScenarioError
from engine.reader import FloatArray
from engine.refusals import Refusal
from engine.trace import BoolArray, Trace


@dataclass(frozen=True)
class LayerShares:
    """One attention's softmax shares: ``weights`` is heads × queries × keys, ``visible`` which
    key each query sees; ``step`` is the index of its shares step, ``label`` its layer as the
    model view prints it (``L2``, ``enc.L1``, ``L1.cross``)."""

    step: int
    label: str
    weights: FloatArray
    visible: BoolArray

    @property
    def heads(self) -> int:
        return int(self.weights.shape[0])


def layer_shares(trace: Trace) -> tuple[LayerShares, ...]:
    """The shares of every attention of ``trace``, in step order (one per shares step)."""
    found = []
    for index, step in enumerate(trace.steps):
        if step.op != "weights":
            continue
        weights = np.asarray(trace.arrays[step.writes[0]], dtype=np.float64)
        if weights.ndim == 2:
            weights = weights[np.newaxis]
        found.append(LayerShares(index, step.scope.rstrip(".") or "L1", weights,
                                 trace.visible_for(step.scope)))
    return tuple(found)


def parse_layers(text: str | None, count: int) -> range:
    """The layers ``--layers A-B`` (or ``N``) names, counted from 1, as a range of 0-based rows
    of :func:`layer_shares`; all of them when ``text`` is ``None``.

    Raises
    ------
    ScenarioError
        At ``--layers``: not ``A-B`` or ``N``, or outside 1 … ``count``, or ``A`` after ``B``.
    """
    if text is None:
        return range(count)
    first, _dash, last = text.strip().partition("-")
    last = last if _dash else first
    if not (first.strip().isdigit() and last.strip().isdigit()):
        raise ScenarioError("--layers", Refusal("layers_form", got=text))
    low, high = int(first), int(last)
    if not 1 <= low <= high <= count:
        raise ScenarioError("--layers", Refusal("layers_range", count=count, got=text))
    return range(low - 1, high)


def sink_shares(shares: LayerShares) -> FloatArray:
    """Each head's mean share on the first key, over the query rows that see it."""
    sees = shares.visible[:, 0]
    if not sees.any():
        return np.zeros(shares.heads)
    first: FloatArray = shares.weights[:, sees, 0].mean(axis=1)
    return first


def without_first(row: FloatArray) -> FloatArray:
    """A row of shares with key 0 removed and the rest renormalised to sum to 1 (all zeros when
    key 0 held the whole share)."""
    rest = np.asarray(row[1:], dtype=np.float64)
    total = float(rest.sum())
    return rest / total if total > 0.0 else np.zeros_like(rest)


@dataclass(frozen=True)
class Sink:
    """The strongest sink of a document: its layer row and head, its mean share on key 0, and
    the receiver's row of that head before and after position 0 is removed."""

    layer: int
    head: int
    mean: float
    row: FloatArray
    renormalised: FloatArray


def strongest_sink(layers: tuple[LayerShares, ...], receiver: int) -> Sink | None:
    """The head with the largest mean share on the first key (the first such head on a tie),
    with ``receiver``'s row; ``None`` for a document of one position (no key to remove to)."""
    if not layers or layers[0].weights.shape[2] < 2:
        return None
    means = [sink_shares(shares) for shares in layers]
    layer = max(range(len(layers)), key=lambda k: float(means[k].max()))
    head = int(np.argmax(means[layer]))
    row = layers[layer].weights[head, receiver]
    return Sink(layer, head, float(means[layer][head]), row, without_first(row))


__all__ = ["LayerShares", "Sink", "layer_shares", "parse_layers", "sink_shares",
           "strongest_sink", "without_first"]
