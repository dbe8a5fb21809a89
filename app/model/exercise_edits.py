"""The teacher's side of exercises, with no Qt: making an exercise at a step, hiding cells,
and the edit that stores the document's ``exercises`` (one undo step, like any edit).

Exercises are kept in their document form (the JSON objects of ``exercises``), so an edit is a
new list written into the document and validated by the engine on the way in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.model.edits import Operation
from app.model.exercise_adapter import Cell, Exercise, full_cell
from app.model.operands import array_name, axes_of, parameter_path, shares_step, tokens_of
from app.texts.exercise_words import exercise_word
from engine import Scenario, Step, Trace
from engine.names import short_name

HIDE_CHOICES = ("outputs", "row", "cells", "auto")
"""What a new exercise hides: the step's outputs, the receiver's row of shares, the cells
the teacher clicks, or cells the app chooses at a difficulty."""
CHANGE_BY = 0.5
"""How much a question about change adds to the edited cell."""


def exercises_of(scenario: Scenario) -> list[dict[str, Any]]:
    """The document's exercises, in their document form."""
    found = scenario.to_document().get("exercises", [])
    return [dict(item) for item in found]


@dataclass(frozen=True, eq=False)
class SetExercises(Operation):
    """Replace the document's ``exercises`` with ``exercises`` (none: the key goes); ``change``
    names the edit (``"edit_add"``, ``"edit_remove"``, ``"edit_change"``, ``"edit_cell"``)."""

    exercises: tuple[Exercise, ...]
    change: str
    title: str
    place: tuple[str, str] = ("", "")
    """The array and cell an ``edit_cell`` hides or shows."""

    def apply(self, scenario: Scenario) -> Scenario:
        return scenario.with_document_value(
            "exercises", [dict(e) for e in self.exercises] if self.exercises else None)

    def label(self, lang: str) -> str:
        return exercise_word(lang, self.change, title=self.title, name=self.place[0],
                             cell=self.place[1])

    def traced(self, before: Trace, after: Scenario) -> Trace | None:
        """The numbers are the same: the trace on screen, of the new document."""
        return Trace(after, before.arrays, before.steps, before.visible, before.visibility,
                     before.row_order)


def title_of(exercise: Exercise, lang: str) -> str:
    """An exercise's title in ``lang`` (the other language's when it has none)."""
    title = exercise.get("title", {})
    return str(title.get(lang) or title.get("en") or title.get("zh") or "")


def cell_words(trace: Trace, name: str, cell: Cell, lang: str) -> str:
    """A hidden cell in words, as a screen reader reads it: ``share of 爱 for 我``, or
    ``Q of 我, column 1``."""
    rows, cols = axes_of(trace, name)
    row_labels = tokens_of(trace, rows) if rows else []
    col_labels = tokens_of(trace, cols) if cols else []
    r, c = cell[-2], cell[-1]
    row = row_labels[r] if r < len(row_labels) else str(r)
    heads = trace.arrays[name].shape[0] if len(cell) == 3 else 1
    prefix = exercise_word(lang, "head_cell", head=cell[0] + 1) if heads > 1 else ""
    if short_name(name) == "weights":
        key = col_labels[c] if c < len(col_labels) else str(c)
        return prefix + exercise_word(lang, "share_cell", key=key, query=row)
    return prefix + exercise_word(lang, "array_cell", name=short_name(name), row=row, col=c)


def _shown_outputs(trace: Trace, step: Step) -> list[str]:
    """The arrays a step writes that the frames draw as grids (2-D, or per head)."""
    return [name for name in step.writes
            if name in trace.arrays and trace.arrays[name].ndim in (2, 3)
            and trace.arrays[name].size > 0]


def _both(key: str, **fields: object) -> dict[str, str]:
    return {lang: exercise_word(lang, key, **fields) for lang in ("en", "zh")}


def new_fill(trace: Trace, step_index: int, how: str, receiver: int,
             difficulty: int = 2) -> dict[str, Any] | None:
    """A ``fill`` exercise at step ``step_index`` hiding ``how`` (:data:`HIDE_CHOICES`);
    None when the step writes nothing to hide."""
    step = trace.steps[step_index]
    outputs = _shown_outputs(trace, step)
    if not outputs:
        return None
    first = outputs[0]
    hide: list[dict[str, Any]]
    if how == "outputs":
        hide = [{"array": name} for name in outputs]
    elif how == "row":
        weights = array_name(step, "weights")
        name = weights if weights in trace.arrays else first
        row = min(receiver, trace.arrays[name].shape[-2] - 1)
        hide = [{"array": name, "rows": [row]}]
    elif how == "cells":
        hide = [{"array": first, "cells": []}]
    else:
        hide = [{"array": first, "cells": [list(c) for c in chosen_cells(trace, first,
                                                                          difficulty)]}]
    what = short_name(first)
    return {"title": _both("default_title", what=what), "prompt": _both("default_prompt"),
            "kind": "fill", "step": step.id, "hide": hide}


def chosen_cells(trace: Trace, name: str, difficulty: int) -> list[Cell]:
    """``difficulty`` cells of ``name`` (1: one cell … 5: five), spread over its rows from the
    last (the receiver's) up, the same for the same document."""
    values = trace.arrays[name]
    cells = [tuple(int(k) for k in index) for index in np.ndindex(values.shape)
             if np.isfinite(values[index]) and values[index] != 0.0]
    order = np.random.default_rng(len(cells)).permutation(len(cells)).tolist()
    ranked = sorted(order, key=lambda k: -cells[k][-2])  # stable: the last row first
    return [cells[k] for k in ranked[:max(1, difficulty)]]


def with_cell_toggled(exercise: Exercise, trace: Trace, name: str, cell: Cell) \
        -> dict[str, Any]:
    """``exercise`` with ``cell`` of ``name`` hidden, or shown again if it was hidden (by
    itself: a hidden row or array stays)."""
    hide = [dict(h) for h in exercise.get("hide", [])]
    entry = next((h for h in hide if h["array"] == name and "cells" in h), None)
    if entry is None:
        entry = {"array": name, "cells": []}
        hide.append(entry)
    cells = [list(full_cell(trace, name, c)) for c in entry["cells"]]
    listed = list(cell)
    entry["cells"] = [c for c in cells if c != listed] if listed in cells else [*cells, listed]
    return {**exercise, "hide": hide}


def _change(path: str, cell: Sequence[int]) -> dict[str, Any]:
    return {"array": path, "cell": list(cell), "by": CHANGE_BY}


def new_direction(trace: Trace, step_index: int, receiver: int) -> dict[str, Any]:
    """“If Wk[0,1] grows, does the share of key 0 for the receiver rise or fall?”, at the
    step's attention (the chapter's question)."""
    step = shares_step(trace, step_index)
    watch = array_name(step, "weights")
    row = min(receiver, trace.arrays[watch].shape[-2] - 1)
    wk = parameter_path(step, "Wk")
    cell = (0, 1) if trace.scenario.parameter(wk).shape[1] > 1 else (0, 0)
    return {"title": _both("direction_title"), "prompt": _both("default_prompt"),
            "kind": "direction", "step": step.id, "edit": _change(wk, cell),
            "watch": {"array": watch, "cell": [row, 0]}}


def new_unchanged(trace: Trace, step_index: int) -> dict[str, Any]:
    """“Which edit leaves the shares unchanged: Wq, Wk or Wv?” at the step's attention."""
    step = shares_step(trace, step_index)
    return {"title": _both("unchanged_title"), "prompt": _both("default_prompt"),
            "kind": "unchanged", "step": step.id,
            "choices": [_change(parameter_path(step, key), (0, 0)) for key in ("Wq", "Wk", "Wv")],
            "watch": {"array": array_name(step, "weights")}}

