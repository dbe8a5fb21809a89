"""What a worksheet and its answer key say, worked out from a document's exercises (no Qt): for
each exercise of each variant its frames and their blanks, the question's lines, the "how to
check" sentence, and the key's lines — every value computed by the engine on that variant.

A sheet gives no answer away: a cell any of its exercises hides is blank in every frame of the
sheet, and an exercise whose frames show another's blanks says whose answers to use there. Only
the key holds the hidden values.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from app.model.ablation_words import ablation_words
from app.model.exercise_edits import array_words, cell_words
from app.model.parts import place_name
from app.texts.example_words import document_words
from app.texts.words import say
from engine import Scenario, Trace, compute, explain, format_number
from engine.arithmetic.printed import printed_places
from engine.exercises.answers import Answer, answer
from engine.exercises.document import WAY_KINDS, Edit, Exercise
from engine.exercises.fit import check_fit, edited_index, hidden_masks, watched
from engine.exercises.hand import asked_rows, hand_variant
from engine.exercises.lesson import lessons
from engine.exercises.wording import prompt_text
from engine.format.mapped_weight import cell as number_at
from engine.format.whole_text import read_whole
from engine.scenario.op_table import op_table

CHECKS = op_table("export.check", {
    "embed": "check_other",
    "positions": "check_other",
    "inputs": "check_other",
    "norm": "check_other",
    "projection": "check_projection",
    "rope": "check_other",
    "scores": "check_scores",
    "weights": "check_weights",
    "mix": "check_mix",
    "residual": "check_other",
    "ffn": "check_other",
    "router": "check_other",
    "experts": "check_other",
    "transform": "check_other",
    "logits": "check_other",
    "softcap": "check_other",
    "probs": "check_other",
    "loss": "check_other",
    "sample": "check_other",
})
"""The "how to check" sentence of a fill exercise, by the op of its step."""


@dataclass(frozen=True)
class Task:
    """One exercise as a sheet shows it and its key answers it.

    ``frames`` are step indices of ``trace``; ``blanks`` the cells to draw empty in them (every
    cell an exercise of the sheet hides); ``prompt`` is worded from ``trace``'s own values (a
    variant's, on a variant's sheet); ``given`` says which other exercises' answers fill the
    blanks it does not ask itself (empty when none); ``frames_of`` is the number of an earlier
    exercise of the sheet with the same frames (the paper prints them once), else None.
    """

    number: int
    exercise: Exercise
    prompt: str
    trace: Trace
    frames: tuple[int, ...]
    blanks: dict[str, npt.NDArray[np.bool_]]
    question: tuple[str, ...]
    check: str
    key: tuple[str, ...]
    given: str = ""
    frames_of: int | None = None


@dataclass(frozen=True)
class Sheet:
    """One worksheet (and its key): the document's title, its variant number (None for the
    document's own numbers) and its tasks."""

    title: str
    variant: int | None
    tasks: tuple[Task, ...]


def choose_exercises(scenario: Scenario, text: str) -> tuple[int, ...]:
    """``all`` or one exercise counted from 1, as 0-based indices; ``ValueError`` with one line
    otherwise."""
    count = len(scenario.exercises)
    if count == 0:
        raise ValueError("the document has no exercises (a document's \"exercises\": see "
                         "docs/format-v2.md)")
    if text == "all":
        return tuple(range(count))
    if not text.isdigit() or not 1 <= read_whole(text, "--exercise") <= count:
        raise ValueError(f"--exercise {text}: expected all or a number from 1 to {count}")
    return (int(text) - 1,)


def plan_sheets(scenario: Scenario, chosen: Sequence[int], lang: str, variants: int = 0,
                seed: int = 0) -> tuple[Sheet, ...]:
    """The sheets: the document's own numbers, or ``variants`` hand-friendly variants.

    Raises
    ------
    ScenarioError
        If an exercise does not fit the trace, or no variant can be drawn.
    """
    trace = compute(scenario)
    check_fit(trace)
    own = tuple(_task(trace, k + 1, scenario.exercises[k], lang) for k in chosen)
    scopes = {trace.steps[step].scope for task in own
              for step in (*task.frames, trace.step_index(task.exercise.step))}
    exercises = [task.exercise for task in own]
    rows = asked_rows(trace, exercises, scopes)
    taught = lessons(trace, exercises)
    documents = [(None, scenario)] if variants == 0 else \
        [(k, hand_variant(scenario, seed, k, rows, taught)) for k in range(1, variants + 1)]
    sheets = []
    for number, document in documents:
        if document is scenario:
            tasks = own
        else:
            variant = compute(document)
            tasks = tuple(_task(variant, k + 1, document.exercises[k], lang) for k in chosen)
        title = document_words(scenario.title, scenario.note, lang)[0]
        sheets.append(Sheet(title, number, _shared(tasks, lang)))
    return tuple(sheets)


def _shared(tasks: Sequence[Task], lang: str) -> tuple[Task, ...]:
    """The tasks of one sheet with every exercise's blanks blank in every frame, each saying
    whose answers its other blanks are, and the frames an earlier task printed named, not
    repeated."""
    blanks: dict[str, npt.NDArray[np.bool_]] = {}
    for task in tasks:
        for name, mask in task.blanks.items():
            blanks[name] = blanks[name] | mask if name in blanks else mask.copy()
    shared: list[Task] = []
    for task in tasks:
        earlier = next((t.number for t in shared if t.frames == task.frames), None)
        shared.append(replace(task, blanks=blanks, given=_given(task, tasks, lang),
                              frames_of=earlier))
    return tuple(shared)


def _given(task: Task, tasks: Sequence[Task], lang: str) -> str:
    """Which other exercises' answers fill the blanks of ``task``'s frames it does not ask."""
    shown = {name for step in task.frames for name in
             (*task.trace.steps[step].reads, *task.trace.steps[step].writes)}
    arrays: list[str] = []
    numbers: list[int] = []
    for other in tasks:
        for name, mask in other.blanks.items():
            own = task.blanks.get(name)
            if other is task or name not in shown or \
                    not np.any(mask if own is None else mask & ~own):
                continue
            if name not in arrays:
                arrays.append(name)
            if other.number not in numbers:
                numbers.append(other.number)
    if not arrays:
        return ""
    return say("worksheet.given" if len(numbers) == 1 else "worksheet.given_many", lang,
               arrays=_listed([_array_name(name, lang) for name in arrays], lang),
               exercises=_listed([str(n) for n in sorted(numbers)], lang))


def _listed(items: Sequence[str], lang: str) -> str:
    """``Q, K and V`` (``Q、K 和 V``)."""
    if len(items) == 1:
        return items[0]
    return say("worksheet.and", lang, first=say("worksheet.comma", lang).join(items[:-1]),
               last=items[-1])


def _array_name(name: str, lang: str) -> str:
    """A trace array as its grid is titled, with its layer (``L2 shares``)."""
    scope, _, _short = name.rpartition(".")
    words = array_words(name, lang)
    return f"{scope} {words}" if scope else words


def _cell(trace: Trace, array: str, index: Sequence[int], lang: str) -> str:
    """A cell as a reader of the sheet names it: a trace array's as exercise mode reads it
    (``share of 我 for 爱``), a parameter's as the grid is titled with its row and column
    (``Wk[1,0]``; ``Wk 第 2 行第 1 列``)."""
    full = tuple(int(k) for k in index)
    if array in trace.arrays:
        scope = array.rpartition(".")[0]
        words = cell_words(trace, array, full, lang)
        return f"{scope} {words}" if scope else words
    return say("worksheet.parameter_cell" if len(full) > 1 else "worksheet.parameter_item", lang,
               name=place_name(array), cell=",".join(str(k) for k in full),
               row=full[-2] + 1 if len(full) > 1 else full[0] + 1,
               col=full[-1] + 1)


def _task(trace: Trace, number: int, exercise: Exercise, lang: str) -> Task:
    places = printed_places(trace)
    solved = answer(trace, exercise)
    prompt = prompt_text(trace, exercise, lang)
    step = trace.step_index(exercise.step)
    if exercise.kind == "fill":
        blanks = hidden_masks(trace, exercise)
        makers = {k for k, s in enumerate(trace.steps) for name in blanks if name in s.writes
                  or name.removesuffix("_stats") in s.writes}
        frames = tuple(sorted(makers)) or (step,)
        op = trace.steps[step].op if len(frames) == 1 else trace.steps[frames[-1]].op
        sentence = say("worksheet." + CHECKS[op], lang)
        return Task(number, exercise, prompt, trace, frames, blanks, (), sentence,
                    _fill_key(trace, solved, lang, places))
    return Task(number, exercise, prompt, trace, (step,), {},
                _question(trace, exercise, lang, places),
                say(f"worksheet.check_{'ablation' if exercise.ablate else 'question'}", lang),
                _question_key(trace, exercise, solved, lang, places))


def _edit_words(trace: Trace, edit: Edit, places: int, lang: str) -> tuple[str, str]:
    index = edited_index(trace, edit, "edit")
    return _cell(trace, edit.array, index, lang), format_number(edit.by, places)


def _question(trace: Trace, exercise: Exercise, lang: str, places: int) -> tuple[str, ...]:
    watch = watched(trace, exercise)
    if exercise.kind in WAY_KINDS:
        assert watch.cell is not None
        tick = say("worksheet.tick", lang)
        return (_change_words(trace, exercise, lang, places),
                say("worksheet.watch", lang, cell=_cell(trace, watch.array, watch.cell, lang)),
                "    ".join(f"{tick} {say('worksheet.' + word, lang)}"
                           for word in ("rise", "fall", "same")))
    lines = [say("worksheet.watch_array", lang, array=_array_name(watch.array, lang))]
    for letter, choice in zip(string.ascii_uppercase, exercise.choices, strict=False):
        cell, by = _edit_words(trace, choice, places, lang)
        tick = say("worksheet.tick", lang)
        choice_words = say("worksheet.choice", lang, letter=letter, cell=cell, by=by)
        lines.append(f"{tick} {choice_words}")
    return tuple(lines)


def _change_words(trace: Trace, exercise: Exercise, lang: str, places: int) -> str:
    """A way question's change: the edit (from and to), or the heads switched off."""
    if exercise.ablate is not None:
        return say("worksheet.ablate", lang, heads=ablation_words(exercise.ablate, lang))
    assert exercise.edit is not None
    cell, by = _edit_words(trace, exercise.edit, places, lang)
    before = number_at(trace.scenario.weight(exercise.edit.array),
                       edited_index(trace, exercise.edit, "edit"))
    return say("worksheet.edit", lang, cell=cell, by=by, before=format_number(before, places),
               after=format_number(before + exercise.edit.by, places))


def _fill_key(trace: Trace, solved: Answer, lang: str, places: int) -> tuple[str, ...]:
    lines = [explain(trace, cell.array, cell.index, lang, places).formula
             for cell in solved.cells]
    if solved.cells:
        lines.append(say("worksheet.tolerance", lang,
                         tolerance=format_number(solved.cells[0].tolerance, places + 1)))
    return tuple(lines)


def _question_key(trace: Trace, exercise: Exercise, solved: Answer, lang: str,
                  places: int) -> tuple[str, ...]:
    watch = watched(trace, exercise)
    if exercise.kind in WAY_KINDS:
        assert watch.cell is not None and solved.direction is not None
        moved = solved.moved[0]
        return (say("worksheet.direction_answer", lang,
                    cell=_cell(trace, watch.array, watch.cell, lang),
                    direction=say(f"worksheet.{solved.direction}", lang),
                    before=format_number(moved.before, places),
                    after=format_number(moved.after, places)),)
    lines = []
    for k, (letter, choice) in enumerate(zip(string.ascii_uppercase, exercise.choices,
                                             strict=False)):
        cell, by = _edit_words(trace, choice, places, lang)
        if k in solved.unchanged:
            lines.append(say("worksheet.unchanged_yes", lang, letter=letter, cell=cell, by=by))
            continue
        moved = solved.moved[k]
        lines.append(say("worksheet.unchanged_no", lang, letter=letter, cell=cell, by=by,
                         where=_cell(trace, watch.array, moved.at, lang),
                         before=format_number(moved.before, places),
                         after=format_number(moved.after, places)))
    return tuple(lines)


__all__ = ["Sheet", "Task", "choose_exercises", "plan_sheets"]
