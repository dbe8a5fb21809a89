"""An exercise's prompt in the numbers of the document it is asked on: ``{largest:weights[7]}``
names the key that query row 7 gives its largest share (of head 1; ``[h, i]`` another head),
``{value:X[9,1]}`` prints a cell of a trace array or a document path as the frames print it.
A worksheet's variant so words its prompt from its own values, never the document's."""

from __future__ import annotations

import re

import numpy as np

from engine.arithmetic.printed import printed_places
from engine.exercises.cells import full_index
from engine.exercises.document import Exercise, Words
from engine.format.errors import ScenarioError
from engine.format.numbers import format_number
from engine.forward.trace import Step, Trace
from engine.scenario.op_kinds import KINDS
from engine.words.refusals import Refusal

PLACEHOLDER = re.compile(
    r"\{(largest|value):([A-Za-z_][A-Za-z0-9_.]*)\[([0-9]+(?:,[0-9]+){0,2})\]\}")


def prompt_text(trace: Trace, exercise: Exercise, lang: str) -> str:
    """The exercise's prompt in ``lang`` with its placeholders filled from ``trace``.

    Raises
    ------
    ScenarioError
        At ``exercises[k].prompt.en`` when a placeholder names no cell of the trace.
    """
    return _filled(trace, exercise.prompt, lang, _place(trace, exercise, lang))


def check_wording(trace: Trace, exercise: Exercise, place: str) -> None:
    """Refuse a placeholder of the prompt (either language) that names no cell of the trace."""
    for lang in ("en", "zh"):
        _filled(trace, exercise.prompt, lang, f"{place}.prompt.{lang}")


def _place(trace: Trace, exercise: Exercise, lang: str) -> str:
    for k, own in enumerate(trace.scenario.exercises):
        if own is exercise:
            return f"exercises[{k}].prompt.{lang}"
    return f"exercise.prompt.{lang}"


def _filled(trace: Trace, prompt: Words, lang: str, place: str) -> str:
    def fill(match: re.Match[str]) -> str:
        kind, name = match.group(1), match.group(2)
        index = tuple(int(k) for k in match.group(3).split(","))
        if kind == "largest":
            return _largest(trace, name, index, place)
        return format_number(_value(trace, name, index, place), printed_places(trace))

    return PLACEHOLDER.sub(fill, prompt.text(lang))


def _attention_step(trace: Trace, name: str) -> Step | None:
    return next((s for s in trace.steps if KINDS[s.op].masked and name in s.writes), None)


def _largest(trace: Trace, name: str, index: tuple[int, ...], place: str) -> str:
    """The key token the row ``index`` (``[i]`` of head 1, or ``[h, i]``) gives its largest
    visible value."""
    step = _attention_step(trace, name)
    if step is None:
        raise ScenarioError(place, Refusal("exercise_wording_largest", array=name))
    values = trace.arrays[name]
    row = full_index((0, *index) if len(index) == 1 else index, values.shape[:2], name, place)
    seen = trace.visible_for(step.scope)[row[1]]
    shown = np.where(seen, values[row], -np.inf)
    return trace.tokens_of(step.keys or step.rows)[int(np.argmax(shown))]


def _value(trace: Trace, name: str, index: tuple[int, ...], place: str) -> float:
    if name in trace.arrays:
        values = trace.arrays[name]
    elif name in trace.scenario.parameter_paths():
        values = trace.scenario.parameter(name)
    else:
        raise ScenarioError(place, Refusal("exercise_wording_array", array=name))
    return float(values[full_index(index, tuple(int(n) for n in values.shape), name, place)])


__all__ = ["PLACEHOLDER", "check_wording", "prompt_text"]
