"""The teacher's side of exercises, with no Qt: making an exercise at a step, hiding cells, and
the edit that stores the document's ``exercises`` (one undo step, like any edit).

An exercise is made and changed in its document form (the JSON object of ``exercises``) and read
back by :func:`engine.exercises.document.parse_exercises`, so every edit is validated as a
document read from a file is; :func:`engine.exercises.fit.check_fit` checks it against the trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from app.model.edits import Operation
from app.model.operands import (
    array_name,
    axes_of,
    parameter_path,
    shares_step,
    tokens_of,
    visible_of,
)
from app.texts.titles import step_title
from app.texts.words import say
from engine import Scenario, Step, Trace
from engine.exercises.answers import SAME, edited
from engine.exercises.document import Edit, Index, exercise_document, parse_exercises
from engine.exercises.fit import check_fit
from engine.scenario.modules import Attention
from engine.scenario.names import short_name
from engine.scenario.op_kinds import KINDS, steps_of

HIDE_CHOICES = ("outputs", "row", "cells", "auto")
"""What a new exercise hides: the step's outputs, the receiver's row of shares, the cells
the teacher clicks (starting with one), or cells the app chooses at a difficulty."""
CHANGE_BY = 0.5
"""How much a question about change adds to the edited cell."""

Document = dict[str, Any]


@dataclass(frozen=True, eq=False)
class SetExercises(Operation):
    """Replace the document's ``exercises`` with ``documents`` (their JSON objects); ``change``
    names the edit (``"edit_add"``, ``"edit_remove"``, ``"edit_change"``, ``"edit_cell"``) and
    ``place`` the array and cell an ``edit_cell`` hides or shows."""

    documents: tuple[Document, ...]
    change: str
    title: str
    place: tuple[str, str] = ("", "")

    def apply(self, scenario: Scenario) -> Scenario:
        return replace(scenario, exercises=parse_exercises(list(self.documents)))

    def label(self, lang: str) -> str:
        return say(f"exercise.{self.change}", lang, title=self.title, name=self.place[0],
                   cell=self.place[1])

    def traced(self, before: Trace, after: Scenario) -> Trace | None:
        """The numbers are the same: the trace on screen, of the new document, once every
        exercise fits it."""
        trace = Trace(after, before.arrays, before.steps, before.visible, before.visibility,
                      before.row_order)
        check_fit(trace)
        return trace


def documents_of(scenario: Scenario) -> list[Document]:
    """The document's exercises as JSON objects, to be changed and stored again."""
    return [exercise_document(exercise) for exercise in scenario.exercises]


FRAME_NAMES = {"weights": "shares", "scores": "scores"}
"""Trace arrays whose grids the frames title in words of their own (``份额``)."""


def array_words(name: str, lang: str) -> str:
    """A trace array as the frames title its grid: ``shares`` (``份额``) for ``weights``,
    else its short name (``Q``)."""
    short = short_name(name)
    return say(f"frame.{FRAME_NAMES[short]}", lang) if short in FRAME_NAMES else short


def cell_words(trace: Trace, name: str, cell: Index, lang: str) -> str:
    """A hidden cell in words, as a screen reader reads it: ``share of 爱 for 我``, or
    ``Q of 我, column 1``."""
    rows, cols = axes_of(trace, name)
    row_labels = tokens_of(trace, rows) if rows else []
    col_labels = tokens_of(trace, cols) if cols else []
    r, c = cell[-2], cell[-1]
    row = row_labels[r] if r < len(row_labels) else str(r)
    heads = trace.arrays[name].shape[0] if len(cell) == 3 else 1
    prefix = say("exercise.head_cell", lang, head=cell[0] + 1) if heads > 1 else ""
    if short_name(name) == "weights":
        key = col_labels[c] if c < len(col_labels) else str(c)
        return prefix + say("exercise.share_cell", lang, key=key, query=row)
    return prefix + say("exercise.array_cell", lang, name=array_words(name, lang), row=row,
                        col=c)


def _shown_outputs(trace: Trace, step: Step) -> list[str]:
    """The arrays a step writes that the frames draw as grids (2-D, or per head)."""
    return [name for name in step.writes
            if name in trace.arrays and trace.arrays[name].ndim in (2, 3)
            and trace.arrays[name].size > 0]


def _both(key: str, step: Step | None = None, scenario: Scenario | None = None
          ) -> dict[str, str]:
    """The word ``key`` in both languages (with the step's title in each, if given)."""
    return {lang: say(f"exercise.{key}", lang, step=step_title(step, scenario, lang)
                      if step is not None and scenario is not None else "")
            for lang in ("en", "zh")}


def new_fill(trace: Trace, step_index: int, how: str, receiver: int,
             difficulty: int = 2) -> Document | None:
    """A ``fill`` exercise at step ``step_index`` hiding ``how`` (:data:`HIDE_CHOICES`);
    None when the step writes nothing to hide."""
    step = trace.steps[step_index]
    outputs = _shown_outputs(trace, step)
    if not outputs:
        return None
    first = outputs[0]
    hide: list[Document]
    if how == "outputs":
        hide = [{"array": name} for name in outputs]
    elif how == "row":
        weights = array_name(step, "weights")
        name = weights if weights in (*step.writes, *step.reads) else first  # made by then
        hide = [{"array": name, "rows": [min(receiver, trace.arrays[name].shape[-2] - 1)]}]
    else:
        count = 1 if how == "cells" else difficulty
        hide = [{"array": first, "cells": [list(c) for c in chosen_cells(trace, first, count)]}]
    return {"title": _both("default_title", step, trace.scenario),
            "prompt": _both("default_prompt"), "kind": "fill", "step": step.id, "hide": hide}


def chosen_cells(trace: Trace, name: str, difficulty: int) -> list[Index]:
    """``difficulty`` cells of ``name`` (1: one cell … 5: five), the last row's (the
    receiver's) first, the same for the same document; never a masked or zero one (``name``
    is an output of a step: the app chooses among the numbers a frame draws)."""
    values = trace.arrays[name]
    maker = next(step for step in trace.steps if name in step.writes)
    seen = np.broadcast_to(visible_of(trace, maker), values.shape) \
        if KINDS[maker.op].masked else np.ones(values.shape, dtype=bool)
    cells = [tuple(int(k) for k in index) for index in np.ndindex(values.shape)
             if seen[index] and np.isfinite(values[index]) and values[index] != 0.0]
    order = np.random.default_rng(len(cells)).permutation(len(cells)).tolist()
    ranked = sorted(order, key=lambda k: -cells[k][-2])  # stable: the last row first
    return [cells[k] for k in ranked[:max(1, difficulty)]]


def with_cell_toggled(exercise: Document, name: str, cell: Index) -> Document:
    """``exercise`` with ``cell`` of ``name`` hidden by itself, or shown again if it was listed
    (a list left empty goes; a hidden row or array stays hidden)."""
    hide = [dict(h) for h in exercise["hide"]]
    listed = list(cell)
    entry = next((h for h in hide if h["array"] == name and listed in h.get("cells", [])), None)
    if entry is not None:
        entry["cells"] = [c for c in entry["cells"] if c != listed]
        hide = [h for h in hide if h.get("cells", True)]
    else:
        entry = next((h for h in hide if h["array"] == name and "cells" in h), None)
        if entry is None:
            hide.append({"array": name, "cells": [listed]})
        else:
            entry["cells"] = [*entry["cells"], listed]
    return {**exercise, "hide": hide}


def _change(path: str, cell: Sequence[int]) -> Document:
    return {"array": path, "cell": list(cell), "by": CHANGE_BY}


def new_direction(trace: Trace, step_index: int, receiver: int) -> Document:
    """“If Wk[0,1] grows, does the share of the first key for the receiver rise or fall?”, at
    the step's attention (the chapter's question)."""
    step = shares_step(trace, step_index)
    watch = array_name(step, "weights")
    row = min(receiver, trace.arrays[watch].shape[-2] - 1)
    wk = parameter_path(step, "Wk")
    cell = (0, 1) if trace.scenario.weight(wk).shape[1] > 1 else (0, 0)
    return {"title": _both("direction_title"), "prompt": _both("default_prompt"),
            "kind": "direction", "step": step.id, "edit": _change(wk, cell),
            "watch": {"array": watch, "cell": [0, row, 0]}}


def new_ablation(trace: Trace, step_index: int, receiver: int) -> Document:
    """“Switch the first head of this attention off: does the last position's likeliest next
    token get likelier?” (the receiver's first output number of the attention, in a document
    with no next-token head). The first head the document does not already ablate."""
    step = shares_step(trace, step_index)
    attention = trace.scenario.module(step.module)
    assert isinstance(attention, Attention)
    head = next((h for h in range(attention.heads) if h not in attention.ablate_heads), 0)
    probs = steps_of(trace.steps, "probs")
    if probs:
        watch_step, name = probs[-1], probs[-1].writes[0]
        last = trace.arrays[name][-1]
        cell = [len(trace.arrays[name]) - 1, int(np.argmax(last))]
    else:
        watch_step = next(s for s in steps_of(trace.steps, "mix") if s.scope == step.scope)
        name = watch_step.writes[-1]
        cell = [min(receiver, trace.arrays[name].shape[0] - 1), 0]
    return {"title": _both("ablation_title"), "prompt": _both("default_prompt"),
            "kind": "ablation", "step": watch_step.id,
            "ablate": {"attention": step.module, "heads": [head]},
            "watch": {"array": name, "cell": cell}}


def new_unchanged(trace: Trace, step_index: int) -> Document:
    """“Which edit leaves the shares unchanged: Wq, Wk or Wv?” at the step's attention: Wq's
    and Wk's first cell whose edit moves the shares (computed; their first cell, if none
    does), Wv's first cell."""
    step = shares_step(trace, step_index)
    watch = array_name(step, "weights")
    choices = [_moving_change(trace, parameter_path(step, key), watch) for key in ("Wq", "Wk")]
    return {"title": _both("unchanged_title"), "prompt": _both("default_prompt"),
            "kind": "unchanged", "step": step.id,
            "choices": [*choices, _change(parameter_path(step, "Wv"), (0, 0))],
            "watch": {"array": watch}}


def _moving_change(trace: Trace, path: str, watch: str) -> Document:
    """The edit of the first cell of ``path`` that moves the array ``watch``."""
    before = trace.arrays[watch]
    for index in np.ndindex(trace.scenario.weight(path).shape):
        cell = tuple(int(k) for k in index)
        after = edited(trace, Edit(path, cell, CHANGE_BY)).arrays[watch]
        if not np.allclose(after, before, rtol=0.0, atol=SAME):
            return _change(path, cell)
    return _change(path, (0, 0))

