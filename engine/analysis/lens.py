"""The logit lens: what the model would predict if it stopped after each layer.

The stream entering the first layer (after the embedding and the positions) and the stream leaving
each layer are each read through the document's own final norm and vocabulary head
(:func:`engine.forward.plan.head`, the very code of the forward pass), then softmax; the last
layer's reading is the document's probabilities, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.mapped_weight import widening_room
from engine.format.reader import FloatArray
from engine.forward import plan as forward
from engine.forward.tape import Tape
from engine.forward.trace import Trace, head_place
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal

STREAM_IN = "X"
"""The stream the first layer reads: the rows after the embedding and the positions."""


@dataclass(frozen=True)
class Reading:
    """One layer's reading: ``layer`` 0 is the stream entering layer 1, ``layer`` ℓ the stream
    leaving layer ℓ (``stream``, its array); ``logits`` and ``probs`` are n × vocabulary."""

    layer: int
    stream: str
    logits: FloatArray
    probs: FloatArray


def streams(scenario: Scenario) -> tuple[str, ...]:
    """The array names of the stream between the layers: entering the first, then leaving each."""
    scopes = ([""] if scenario.shorthand
              else [f"L{k + 1}." for k in range(len(scenario.layers))])
    return (STREAM_IN, *(forward.output_of(scope, layer)
                         for scope, layer in zip(scopes, scenario.layers, strict=True)))


def read_layers(trace: Trace) -> tuple[Reading, ...]:
    """Every layer's reading through the head, from the stream entering layer 1 to the last.

    Raises
    ------
    ScenarioError
        At ``head`` when the document has no vocabulary head.
    """
    scenario = trace.scenario
    head = scenario.head
    if head is None or head.unembed is None:
        raise ScenarioError("head", Refusal("lens_needs_head"))
    place = head_place(scenario)
    readings = []
    for layer, stream in enumerate(streams(scenario)):
        tape = Tape(arrays={stream: trace.arrays[stream]})
        with np.errstate(over="raise", invalid="raise", divide="raise"), widening_room():
            forward.head(tape, place, head, stream)
        readings.append(Reading(layer, stream, tape["logits"], tape["probs"]))
    return tuple(readings)


def top_tokens(probs: FloatArray, k: int) -> list[tuple[int, float]]:
    """The ``k`` most probable ids of one row with their probabilities, the most probable first
    (ties: the lower id first)."""
    order = np.argsort(-probs, kind="stable")[:k]
    return [(int(i), float(probs[i])) for i in order]


__all__ = ["STREAM_IN", "Reading", "read_layers", "streams", "top_tokens"]
