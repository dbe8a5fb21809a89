"""Answering and checking an exercise on its trace: the hidden cells' values, the direction a
watched cell moves, the edits that leave a watched array unchanged — every answer computed from
the trace or from an edited variant of its document, never stored.

A student's predictions are arguments here, never part of a document.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from engine.arithmetic.cells import Explanation, explain
from engine.arithmetic.printed import printed_places
from engine.exercises.document import DIRECTIONS, WAY_KINDS, Ablate, Edit, Exercise, Index
from engine.exercises.fit import ablated_heads, edited_index, edits, hidden_cells, place_of, watched
from engine.forward.trace import Trace, compute
from engine.scenario.edit import with_cell, with_document_value

SAME = 1e-12
"""A watched number is unchanged (a direction "same") when it moves by at most this, relative
to its size when that is above 1: what float64 arithmetic in another order can move it by."""

Cell = tuple[str, Index]
Predictions = Mapping[Cell, float] | str | Collection[int]
"""A fill exercise's predicted value per hidden cell (keyed as :attr:`Answer.cells` names
them); a direction question's ``"rise"``, ``"fall"`` or ``"same"``; an unchanged question's
chosen choice numbers (0-based)."""

_REFERENCE = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\[([0-9·,]+)\]")


@dataclass(frozen=True)
class Hidden:
    """One hidden cell: its array, full index, value and the tolerance a prediction has."""

    array: str
    index: Index
    value: float
    tolerance: float

    @property
    def name(self) -> str:
        """``Q[1,0]``."""
        return f"{self.array}[{','.join(str(k) for k in self.index)}]"


@dataclass(frozen=True)
class Moved:
    """A watched number before and after an edit (a direction's cell, or the largest change of
    an unchanged question's array for one choice), and its full index ``at``."""

    before: float
    after: float
    change: float
    at: Index


@dataclass(frozen=True)
class Answer:
    """What an exercise asks, answered: ``cells`` (fill); ``direction`` and ``moved[0]``
    (direction, ablation); ``unchanged`` (the choice numbers that leave the watched array
    unchanged) and ``moved`` per choice (unchanged)."""

    kind: str
    cells: tuple[Hidden, ...] = ()
    direction: str | None = None
    unchanged: tuple[int, ...] = ()
    moved: tuple[Moved, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """One prediction checked: ``place`` is the cell (``Q[1,0]``), ``direction`` or
    ``choices[k]``. A wrong cell carries its arithmetic (``explanation``) and the first term of
    it the student also predicted wrongly (``first_difference``, a cell such as ``Q[1,0]``;
    None when every term it names was given or predicted right, so the slip is in this cell's
    own arithmetic)."""

    place: str
    right: bool
    expected: float | str | bool
    given: float | str | bool | None
    explanation: Explanation | None = None
    first_difference: str | None = None


def tolerance(trace: Trace, exercise: Exercise) -> float:
    """The exercise's tolerance, else half a unit of the last decimal the frames print."""
    if exercise.tolerance is not None:
        return exercise.tolerance
    return 0.5 * 10.0 ** -printed_places(trace)


def edited(trace: Trace, edit: Edit, place: str = "edit") -> Trace:
    """The trace of the document with one input cell grown by ``edit.by``."""
    index = edited_index(trace, edit, place)
    scenario = trace.scenario
    value = float(scenario.parameter(edit.array)[index]) + edit.by
    return compute(with_cell(scenario, edit.array, index, value))


def ablated(trace: Trace, ablate: Ablate, place: str = "ablate") -> Trace:
    """The trace of the document with ``ablate``'s heads switched off too (its attention's
    ``ablate_heads`` merged with them)."""
    heads = sorted(ablated_heads(trace, ablate, place))
    return compute(with_document_value(trace.scenario, f"{ablate.attention}.ablate_heads",
                                       heads))


def _changed(trace: Trace, exercise: Exercise, place: str) -> Trace:
    """The trace a way question's change gives: its edit made, or its heads switched off."""
    if exercise.edit is not None:
        return edited(trace, exercise.edit, f"{place}.edit")
    assert exercise.ablate is not None
    return ablated(trace, exercise.ablate, f"{place}.ablate")


def _unchanged(before: np.ndarray, after: np.ndarray) -> bool:
    scale = max(1.0, float(np.max(np.abs(before), initial=0.0)))
    return float(np.max(np.abs(after - before), initial=0.0)) <= SAME * scale


def answer(trace: Trace, exercise: Exercise) -> Answer:
    """The exercise answered on ``trace`` (and, for a question, on its edited variants).

    Raises
    ------
    ScenarioError
        If the exercise does not fit the trace, naming the exercise and the key.
    """
    place = place_of(trace, exercise)
    if exercise.kind == "fill":
        tol = tolerance(trace, exercise)
        return Answer("fill", cells=tuple(
            Hidden(name, index, float(trace.arrays[name][index]), tol)
            for name, index in hidden_cells(trace, exercise)))
    watch = watched(trace, exercise, place)
    if exercise.kind in WAY_KINDS:
        assert watch.cell is not None
        before = float(trace.arrays[watch.array][watch.cell])
        after = float(_changed(trace, exercise, place).arrays[watch.array][watch.cell])
        change = after - before
        same = abs(change) <= SAME * max(1.0, abs(before))
        direction = "same" if same else "rise" if change > 0 else "fall"
        return Answer(exercise.kind, direction=direction,
                      moved=(Moved(before, after, change, watch.cell),))
    old = trace.arrays[watch.array]
    moved: list[Moved] = []
    unchanged: list[int] = []
    for k, (at, choice) in enumerate(edits(exercise, place)):
        new = edited(trace, choice, at).arrays[watch.array]
        flat = int(np.argmax(np.abs(new - old)))
        where = tuple(int(k) for k in np.unravel_index(flat, old.shape))
        moved.append(Moved(float(old[where]), float(new[where]),
                           float(new[where] - old[where]), where))
        if _unchanged(old, new):
            unchanged.append(k)
    return Answer("unchanged", unchanged=tuple(unchanged), moved=tuple(moved))


def check(trace: Trace, exercise: Exercise, predictions: Predictions,
          lang: str = "en") -> list[Verdict]:
    """Each prediction marked right or wrong: a fill exercise's cells within the tolerance (a
    cell left out is wrong), a direction, or each choice of an unchanged question (right when the
    student chose it exactly when it leaves the array unchanged). A wrong cell's explanation is
    worded in ``lang``.

    Raises
    ------
    ScenarioError
        If the exercise does not fit the trace.
    TypeError
        If ``predictions`` are not of the exercise's kind.
    """
    solved = answer(trace, exercise)
    if exercise.kind == "fill":
        if not isinstance(predictions, Mapping):
            raise TypeError("a fill exercise is checked against values by cell")
        return _check_cells(trace, solved.cells, predictions, lang)
    if exercise.kind in WAY_KINDS:
        if not isinstance(predictions, str):
            raise TypeError("a rise-or-fall question is checked against rise, fall or same")
        assert solved.direction is not None
        return [Verdict("direction", predictions == solved.direction, solved.direction,
                        predictions)]
    if isinstance(predictions, str | Mapping):
        raise TypeError("an unchanged question is checked against the chosen choice numbers")
    chosen = set(predictions)
    return [Verdict(f"choices[{k}]", (k in chosen) == (k in solved.unchanged),
                    k in solved.unchanged, k in chosen) for k in range(len(solved.moved))]


def _check_cells(trace: Trace, cells: tuple[Hidden, ...], predictions: Mapping[Cell, float],
                 lang: str) -> list[Verdict]:
    wrong = {cell.name for cell in cells
             if not _within(cell, predictions.get((cell.array, cell.index)))}
    verdicts = []
    places = printed_places(trace)
    for cell in cells:
        given = predictions.get((cell.array, cell.index))
        if cell.name not in wrong:
            verdicts.append(Verdict(cell.name, True, cell.value, given))
            continue
        why = explain(trace, cell.array, cell.index, lang, places)
        verdicts.append(Verdict(cell.name, False, cell.value, given, why,
                                _first_difference(why, cell.name, wrong)))
    return verdicts


def _within(cell: Hidden, given: float | None) -> bool:
    # A shown value rounded half up lands exactly half a unit away: allow the last bit of it.
    return given is not None and abs(given - cell.value) <= cell.tolerance * (1 + 1e-9)


def _first_difference(why: Explanation, own: str, wrong: set[str]) -> str | None:
    """The first cell the arithmetic names (``·`` naming a whole row) that was predicted wrong."""
    for match in _REFERENCE.finditer(why.text()):
        name, parts = match.group(1), match.group(2).split(",")
        for other in sorted(wrong - {own}):
            array, _, rest = other.partition("[")
            index = rest.rstrip("]").split(",")
            if array == name and len(index) == len(parts) and all(
                    p == "·" or p == k for p, k in zip(parts, index, strict=True)):
                return other
    return None


__all__ = ["DIRECTIONS", "SAME", "Answer", "Hidden", "Moved", "Predictions", "Verdict", "ablated",
           "answer", "check", "edited", "tolerance"]
