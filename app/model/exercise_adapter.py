"""A stand-in for :mod:`engine.exercises` (the ``exercises`` branch owns the contract): what the
window asks of an exercise, worked from its document form. Replaced by the engine's module when
that branch is merged. Imports no Qt.

An exercise is the JSON object of the document's ``exercises`` list (docs/format-v2.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.texts.printed import printed_places
from engine import Trace, compute, explain
from engine.numbers import format_number

Cell = tuple[int, ...]
"""A cell's whole index in a trace array: ``(row, col)`` or ``(head, row, col)``."""
Exercise = Mapping[str, Any]
SAME = 1e-12
"""Closer than this, a watched number has not moved."""


@dataclass(frozen=True)
class Answer:
    """What an exercise asks, answered: each hidden cell's value (``fill``), the way the watched
    cell goes (``direction``: ``"rise"``, ``"fall"`` or ``"same"``), or the choices that leave
    the watched array unchanged (``unchanged``)."""

    values: dict[tuple[str, Cell], float]
    direction: str | None = None
    unchanged: frozenset[int] | None = None


@dataclass(frozen=True)
class Verdict:
    """One predicted cell, judged: right when within ``tolerance`` of ``value``; ``explain``
    is the cell's arithmetic and ``differs`` its first term that differs (``""``: none
    known)."""

    array: str
    index: Cell
    predicted: float
    value: float
    right: bool
    explain: str
    differs: str = ""


def full_cell(trace: Trace, name: str, cell: Sequence[int]) -> Cell:
    """``cell`` as a whole index of ``name`` (a per-head array's ``[i, j]`` is head 0's)."""
    ndim = trace.arrays[name].ndim
    index = tuple(int(k) for k in cell)
    return (0, *index) if len(index) == ndim - 1 else index


def hidden_cells(trace: Trace, exercise: Exercise) -> list[tuple[str, Cell]]:
    """The cells a ``fill`` exercise hides, in its order (a row, or a whole array, cell by
    cell)."""
    cells: list[tuple[str, Cell]] = []
    for hide in exercise.get("hide", ()):
        name = hide["array"]
        values = trace.arrays[name]
        if "cells" in hide:
            cells += [(name, full_cell(trace, name, c)) for c in hide["cells"]]
        elif "rows" in hide:
            for row in hide["rows"]:
                prefix = full_cell(trace, name, (int(row), 0))[:-1]
                cells += [(name, (*prefix, c)) for c in range(values.shape[-1])]
        else:
            cells += [(name, tuple(int(k) for k in index)) for index in np.ndindex(values.shape)]
    return list(dict.fromkeys(cells))


def tolerance(trace: Trace, exercise: Exercise) -> float:
    """How far a prediction may be off: the exercise's, else half a unit of the last decimal
    the frame prints."""
    given = exercise.get("tolerance")
    return float(given) if given is not None else 0.5 * 10.0 ** -printed_places(trace)


def _variant_value(trace: Trace, change: Mapping[str, Any], watch: tuple[str, Cell]) \
        -> tuple[float, Any]:
    """The watched cell after adding ``change["by"]`` to one input cell, and the variant's
    whole watched array."""
    path, cell = change["array"], tuple(int(k) for k in change["cell"])
    scenario = trace.scenario
    old = float(scenario.parameter(path)[cell])
    edited = compute(scenario.with_cell(path, cell, old + float(change["by"])))
    array = edited.arrays[watch[0]]
    return float(array[watch[1]]), array


def answer(trace: Trace, exercise: Exercise) -> Answer:
    """The exercise answered by the engine, on ``trace`` (and on edited variants of it)."""
    kind = exercise["kind"]
    if kind == "fill":
        return Answer({cell: float(trace.arrays[cell[0]][cell[1]])
                       for cell in hidden_cells(trace, exercise)})
    watch = exercise["watch"]
    if kind == "direction":
        cell = full_cell(trace, watch["array"], watch["cell"])
        before = float(trace.arrays[watch["array"]][cell])
        after, _array = _variant_value(trace, exercise["edit"], (watch["array"], cell))
        way = "same" if abs(after - before) <= SAME else "rise" if after > before else "fall"
        return Answer({}, direction=way)
    first = (0,) * trace.arrays[watch["array"]].ndim
    kept = frozenset(k for k, choice in enumerate(exercise["choices"])
                     if np.allclose(_variant_value(trace, choice, (watch["array"], first))[1],
                                    trace.arrays[watch["array"]], rtol=0.0, atol=SAME))
    return Answer({}, unchanged=kept)


def check(trace: Trace, exercise: Exercise, predictions: Mapping[tuple[str, Cell], float],
          lang: str = "en") -> list[Verdict]:
    """Each predicted cell of a ``fill`` exercise, right or wrong within its tolerance; a
    wrong one with its arithmetic."""
    values = answer(trace, exercise).values
    within = tolerance(trace, exercise)
    places = printed_places(trace)
    verdicts = []
    for (name, index), predicted in predictions.items():
        value = values[(name, index)]
        right = abs(predicted - value) <= within
        text = "" if right else explain(trace, name, index, lang, places).text()
        verdicts.append(Verdict(name, index, predicted, value, right, text))
    return verdicts


def shown(trace: Trace, value: float) -> str:
    """A value as the frames print it."""
    return format_number(value, printed_places(trace))
