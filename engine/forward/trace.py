"""A trace: the ordered steps of one computation and every array it names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.format.errors import ScenarioError
from engine.format.generation_keys import Generation
from engine.format.mapped_weight import widening_room
from engine.format.reader import FloatArray
from engine.forward import embedding_steps
from engine.forward import plan as forward
from engine.forward import tape as ops
from engine.forward.numeric_place import failed_place
from engine.forward.step import Op, Step
from engine.forward.tape import Place, Tape
from engine.generation.append import can_generate
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class RowOrder:
    """Where the rows of a trace shown by token come from: row k of every token axis is position
    ``positions[k]`` of ``source`` (:func:`engine.arithmetic.differences.in_token_order`)."""

    source: Trace
    positions: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Trace:
    """The result of :func:`compute`: the scenario, its arrays by name and its steps in order.

    ``visible`` is the first layer's self-attention visibility (n × n); ``visibility`` holds
    every attention's by scope (``""``, ``"L2."``, ``"L1.cross."``, ``"enc.L1."``).
    ``row_order`` is set on a trace whose token rows are another's, rearranged to be compared
    row by row; None for a computed one.
    """

    scenario: Scenario
    arrays: dict[str, FloatArray]
    steps: tuple[Step, ...]
    visible: BoolArray
    visibility: dict[str, BoolArray] = field(default_factory=dict)
    row_order: RowOrder | None = None

    def step_index(self, step_id: str) -> int:
        """Position of the step with ``step_id``; ``ValueError`` if there is none."""
        for k, step in enumerate(self.steps):
            if step.id == step_id:
                return k
        raise ValueError(f"no step {step_id!r} in this trace")

    def visible_for(self, scope: str) -> BoolArray:
        """Which keys each query of the attention at ``scope`` sees (n × n_keys): the causal
        mask, the window and the key mask together.

        Raises
        ------
        KeyError
            If no attention has that scope.
        """
        if scope in self.visibility:
            return self.visibility[scope]
        raise KeyError(f"{scope}: no attention with this scope in the trace")

    def tokens_of(self, name: str) -> tuple[str, ...]:
        """The labels of a token list: ``"tokens"``, ``"enc.tokens"`` or ``"vocab"`` (empty
        without an encoder or a vocabulary head).

        Raises
        ------
        KeyError
            If ``name`` is not one of these lists.
        """
        s = self.scenario
        if name == "tokens":
            return s.tokens
        if name == "enc.tokens":
            return s.encoder.tokens if s.encoder is not None else ()
        if name == "vocab":
            return s.head.vocab if s.head is not None else ()
        raise KeyError(f"{name}: no such token list")

    def to_json(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        """The trace as the JSON object that ``qkv-studio compute`` prints; ``names``: only
        these arrays (``--arrays``), default every one."""
        s = self.scenario
        out: dict[str, Any] = {"title": s.title, "tokens": list(s.tokens)}
        if s.encoder is not None:
            out["enc.tokens"] = list(s.encoder.tokens)
        if s.head is not None and s.head.unembed is not None:
            out["vocab"] = list(s.head.vocab)
        if s.targets is not None:
            out["targets"] = list(s.targets)
        chosen = self.arrays if names is None else {name: self.arrays[name] for name in names}
        out["arrays"] = {name: array.tolist() for name, array in chosen.items()}
        out["steps"] = [step.to_json() for step in self.steps]
        return out


def head_place(scenario: Scenario) -> Place:
    """Where the final norm and the vocabulary head run: ``head``, or ``block`` in version 1's
    shorthand."""
    return Place().at("block" if scenario.head_in_block else "head")


def record(scenario: Scenario, tape: Tape | None = None) -> Tape:
    """The tape of the scenario's forward pass: encoder, inputs, layers, head, then the loss
    against the ``targets`` or, for a document that can generate, the draw of its next token
    (written onto ``tape`` when given)."""
    tape = Tape() if tape is None else tape
    if scenario.encoder is not None:
        forward.encoder(tape, scenario.encoder)
    top = Place()
    embedding_steps.lay_in(tape, top, embedding_steps.of_stack(scenario))
    out = forward.stack(tape, top, "", scenario.layers, "X", shorthand=scenario.shorthand)
    if scenario.head is not None:
        at = head_place(scenario)
        forward.head(tape, at, scenario.head, out)
        if scenario.targets is not None:
            ops.loss(tape, at, scenario.targets)
        elif can_generate(scenario):
            run = scenario.generation or Generation()
            ops.draw(tape, at, run.settings, len(run.chosen) + 1)
    return tape


def compute(scenario: Scenario) -> Trace:
    """Run the forward pass and lay out its steps.

    Raises
    ------
    ScenarioError
        If the numbers overflow float64 or a norm divides by zero, naming the step, array and
        cell where it first happened.
    """
    tape = Tape()
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"), widening_room():
            record(scenario, tape)
    except FloatingPointError as error:
        place = failed_place(lambda again: record(scenario, again), len(tape.steps))
        raise ScenarioError(place, Refusal("overflow", error=str(error))) from None
    first = "" if scenario.shorthand else "L1."
    return Trace(scenario=scenario, arrays=tape.arrays, steps=tuple(tape.steps),
                 visible=tape.visibility[first], visibility=tape.visibility)


__all__ = ["Op", "RowOrder", "Step", "Trace", "compute", "head_place", "record"]
