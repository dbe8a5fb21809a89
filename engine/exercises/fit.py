"""Whether an exercise fits its document's trace: its step exists and it or a step before it
makes each array it names, every cell lies inside its array, every edited cell inside an
editable array — and the cells it hides, by array, in full index form (one-head ``scores`` and
``weights`` may be named ``[i, j]``, as ``explain`` names them)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.exercises.cells import cell_text, full_index
from engine.exercises.document import Ablate, Edit, Exercise, Index, Watch
from engine.exercises.wording import check_wording
from engine.format.errors import ScenarioError
from engine.forward.trace import Step, Trace
from engine.scenario.modules import Attention
from engine.scenario.op_kinds import KINDS, made_by
from engine.scenario.scenario import Scenario
from engine.scenario.tree import walk
from engine.words.refusals import Refusal

BoolArray = npt.NDArray[np.bool_]

def place_of(trace: Trace, exercise: Exercise) -> str:
    """``exercises[k]`` for the document's own exercise k, else ``exercise``."""
    for k, own in enumerate(trace.scenario.exercises):
        if own is exercise:
            return f"exercises[{k}]"
    return "exercise"


def check_fit(trace: Trace) -> None:
    """Refuse the first exercise of the trace's document that does not fit the trace.

    Raises
    ------
    ScenarioError
        Naming ``exercises[k]`` and the key, for example
        ``exercises[1].hide[0].cells[2]: [2,0] is outside the 2×2 array Q``.
    """
    for k, exercise in enumerate(trace.scenario.exercises):
        place = f"exercises[{k}]"
        check_wording(trace, exercise, place)
        if exercise.kind == "fill":
            hidden_masks(trace, exercise, place)
            answered_cells(trace, exercise, place)
        else:
            watched(trace, exercise, place)
            for at, edit in edits(exercise, place):
                edited_index(trace, edit, at)
            if exercise.ablate is not None:
                ablated_heads(trace, exercise.ablate, f"{place}.ablate")


def _step(trace: Trace, exercise: Exercise, place: str) -> Step:
    for step in trace.steps:
        if step.id == exercise.step:
            return step
    known = ", ".join(step.id for step in trace.steps)
    raise ScenarioError(f"{place}.step", Refusal("exercise_no_step", step=exercise.step,
                                                 steps=known))


def _made(trace: Trace, step: Step) -> dict[str, Step]:
    """The arrays ``step`` and the steps before it make (their writes and the derived arrays
    beside them), each with the step that makes it."""
    made: dict[str, Step] = {}
    for earlier in trace.steps[:trace.step_index(step.id) + 1]:
        made.update((name, earlier) for name in made_by(earlier) if name in trace.arrays)
    return made


def _array(trace: Trace, step: Step, name: str, place: str
           ) -> tuple[npt.NDArray[np.float64], Step]:
    """The array ``name`` and the step that makes it, at or before ``step``."""
    made = _made(trace, step)
    if name not in made:
        raise ScenarioError(place, Refusal("exercise_not_made", array=name, step=step.id,
                                           made=", ".join(made) or "—"))
    return trace.arrays[name], made[name]


def _seen(trace: Trace, step: Step, shape: tuple[int, ...]) -> BoolArray:
    """Which cells of an array ``step`` makes are numbers on its frame (a masked share or
    score is not)."""
    if KINDS[step.op].masked and len(shape) == 3 and step.scope in trace.visibility:
        return np.broadcast_to(trace.visible_for(step.scope), shape)
    return np.ones(shape, dtype=bool)


def hidden_masks(trace: Trace, exercise: Exercise, place: str | None = None
                 ) -> dict[str, BoolArray]:
    """The cells a fill exercise hides, as one boolean mask per array it names (the painter's
    blanks), in the order it names them.

    Raises
    ------
    ScenarioError
        If the exercise does not fit the trace.
    """
    place = place_of(trace, exercise) if place is None else place
    step = _step(trace, exercise, place)
    masks: dict[str, BoolArray] = {}
    for k, hide in enumerate(exercise.hide):
        at = f"{place}.hide[{k}]"
        array, maker = _array(trace, step, hide.array, f"{at}.array")
        shape = tuple(int(n) for n in array.shape)
        mask = masks.setdefault(hide.array, np.zeros(shape, dtype=bool))
        if hide.cells is not None:
            for t, cell in enumerate(hide.cells):
                mask[full_index(cell, shape, hide.array, f"{at}.cells[{t}]")] = True
            continue
        seen = _seen(trace, maker, shape)
        if hide.rows is None:
            mask |= seen
            continue
        rows = shape[1] if len(shape) == 3 else shape[0]
        for t, row in enumerate(hide.rows):
            if row >= rows:
                raise ScenarioError(f"{at}.rows[{t}]", Refusal("exercise_row_outside", row=row,
                                                               array=hide.array, rows=rows))
            if len(shape) == 3:
                mask[:, row] |= seen[:, row]
            else:
                mask[row] |= seen[row]
    return masks


def hidden_cells(trace: Trace, exercise: Exercise) -> tuple[tuple[str, Index], ...]:
    """Every cell a fill exercise hides, array by array in the order named, each in row-major
    order, in full index form."""
    return tuple((name, tuple(int(k) for k in index))
                 for name, mask in hidden_masks(trace, exercise).items()
                 for index in np.argwhere(mask))


def answered_cells(trace: Trace, exercise: Exercise, place: str | None = None
                   ) -> dict[tuple[str, Index], str]:
    """A fill exercise's answers (a student's copy) by hidden cell in full index form: the text
    typed into each blank.

    Raises
    ------
    ScenarioError
        At ``exercises[k].answers.Q[9,9]`` when an answer is not one of the exercise's blanks.
    """
    place = place_of(trace, exercise) if place is None else place
    masks = hidden_masks(trace, exercise, place)
    typed: dict[tuple[str, Index], str] = {}
    for key, text in exercise.answers or ():
        at = f"{place}.answers.{key}"
        name, _, rest = key.partition("[")
        index = tuple(int(k) for k in rest.rstrip("]").split(","))
        mask = masks.get(name)
        if mask is not None:
            index = full_index(index, tuple(int(n) for n in mask.shape), name, at)
        if mask is None or not mask[index]:
            names = [_cell_name(array, tuple(int(k) for k in cell))
                     for array, hidden in masks.items() for cell in np.argwhere(hidden)]
            blanks = ", ".join(names if len(names) <= 24 else [*names[:20], "…"])
            raise ScenarioError(at, Refusal("exercise_answer_unknown", cell=key, blanks=blanks))
        typed[(name, index)] = str(text)
    return typed


def _cell_name(array: str, index: Index) -> str:
    return f"{array}{cell_text(index)}"


def watched(trace: Trace, exercise: Exercise, place: str | None = None) -> Watch:
    """The question's watched array (made by its step) and, for a direction, its full index."""
    place = place_of(trace, exercise) if place is None else place
    watch = exercise.watch
    assert watch is not None
    step = _step(trace, exercise, place)
    array, _maker = _array(trace, step, watch.array, f"{place}.watch.array")
    if watch.cell is None:
        return watch
    shape = tuple(int(n) for n in array.shape)
    return Watch(watch.array, full_index(watch.cell, shape, watch.array, f"{place}.watch.cell"))


def edits(exercise: Exercise, place: str) -> list[tuple[str, Edit]]:
    """The question's edits with their places: the one ``edit``, or each of the ``choices``."""
    if exercise.edit is not None:
        return [(f"{place}.edit", exercise.edit)]
    return [(f"{place}.choices[{k}]", choice) for k, choice in enumerate(exercise.choices)]


def edited_index(trace: Trace, edit: Edit, place: str) -> Index:
    """The edited cell's index, checked against the editable array at ``edit.array``."""
    scenario = trace.scenario
    paths = scenario.parameter_paths()
    if edit.array not in paths:
        shown = ", ".join(paths if len(paths) <= 24 else [*paths[:20], "…"])
        raise ScenarioError(f"{place}.array", Refusal("exercise_not_editable", array=edit.array,
                                                      paths=shown))
    shape = tuple(int(n) for n in scenario.parameter(edit.array).shape)
    return full_index(edit.cell, shape, edit.array, f"{place}.cell")


def attention_paths(scenario: Scenario) -> list[str]:
    """Every attention's module path (``attention``, ``layers.1.cross_attention`` …), in
    document order."""
    return [scenario.document_path(locator) for locator, node in walk(scenario)
            if isinstance(node, Attention)]


def ablated_heads(trace: Trace, ablate: Ablate, place: str) -> tuple[int, ...]:
    """Every head the attention at ``ablate.attention`` switches off with the question's own:
    those its document already ablates, then the question's, checked against its heads.

    Raises
    ------
    ScenarioError
        At ``place.attention`` when it names no attention; at ``place.heads[k]`` when a head is
        not one of its heads, or one the document already ablates.
    """
    paths = attention_paths(trace.scenario)
    if ablate.attention not in paths:
        raise ScenarioError(f"{place}.attention", Refusal(
            "exercise_not_attention", attention=ablate.attention, paths=", ".join(paths)))
    attention = trace.scenario.module(ablate.attention)
    assert isinstance(attention, Attention)
    for k, head in enumerate(ablate.heads):
        at = f"{place}.heads[{k}]"
        if head >= attention.heads:
            raise ScenarioError(at, Refusal("exercise_head_outside", head=head,
                                            attention=ablate.attention, high=attention.heads - 1))
        if head in attention.ablate_heads:
            raise ScenarioError(at, Refusal("exercise_head_ablated", head=head,
                                            attention=ablate.attention))
    return (*attention.ablate_heads, *ablate.heads)


__all__ = ["ablated_heads", "answered_cells", "attention_paths", "check_fit", "edited_index",
           "edits", "hidden_cells", "hidden_masks", "place_of", "watched"]
