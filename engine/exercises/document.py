"""A document's ``exercises``: reading them (refusing, by exercise index and key, what no trace
could answer) and writing them back as they were read. Nothing here computes: the answers are
:mod:`engine.exercises.answers`'."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.format.errors import ScenarioError
from engine.format.reader import (
    describe,
    expect_bool,
    expect_choice,
    expect_int,
    expect_number,
    expect_object,
    expect_text,
    refuse_unknown,
)
from engine.words.refusals import Refusal

KINDS = ("fill", "direction", "unchanged", "ablation")
"""``fill``: predict hidden numbers; ``direction``: does a watched cell rise, fall or stay when
one input cell grows; ``unchanged``: which of several edits leaves a watched array as it was;
``ablation``: does a watched cell rise, fall or stay when heads of an attention are switched
off."""
WAY_KINDS = ("direction", "ablation")
"""The kinds answered by a way a watched cell moves (rise, fall or same)."""
LANGUAGES = ("en", "zh")
MAX_EXERCISES = 100
MAX_ITEMS = 256
"""The most hidden arrays, cells, rows or choices one exercise lists."""
MAX_INDEX = 1 << 20
TITLE_LIMIT = 200
PROMPT_LIMIT = 2000
ANSWER_LIMIT = 100
"""The longest text a student's answer to one blank may hold, as typed."""
DIRECTIONS = ("rise", "fall", "same")

_ANSWERED = ("answers", "checked")
"""Keys only a student's answers copy has (Save answers as…): a teacher's document never."""
_KEYS = {"fill": ("title", "prompt", "kind", "step", "hide", "tolerance", *_ANSWERED),
         "direction": ("title", "prompt", "kind", "step", "edit", "watch", *_ANSWERED),
         "unchanged": ("title", "prompt", "kind", "step", "choices", "watch", *_ANSWERED),
         "ablation": ("title", "prompt", "kind", "step", "ablate", "watch", *_ANSWERED)}
_CELL_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\[([0-9]+(?:,[0-9]+){0,2})\]")
_CHOICE_NAME = re.compile(r"choices\[([0-9]+)\]")
_HIDE_KEYS = ("array", "cells", "rows")
_EDIT_KEYS = ("array", "cell", "by")
_ABLATE_KEYS = ("attention", "heads")

Index = tuple[int, ...]
Typed = str | bool
"""One answer as a student gave it: a blank's text or a direction word, or whether a choice is
ticked."""


@dataclass(frozen=True)
class Words:
    """A text in both languages."""

    en: str
    zh: str

    def text(self, lang: str) -> str:
        """The text in ``lang`` (``"zh"``, else English)."""
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Hide:
    """What a fill exercise hides of one trace array: listed ``cells``, whole ``rows`` (the
    token rows, of every head), or, with neither, all of it."""

    array: str
    cells: tuple[Index, ...] | None = None
    rows: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Edit:
    """One input cell (a document path such as ``attention.Wk``, and its index) grown by ``by``."""

    array: str
    cell: Index
    by: float


@dataclass(frozen=True)
class Ablate:
    """Heads (0-based, each once) of the attention at a module path (``layers.1.attention``)
    switched off: their slice of the concatenated heads zeroed before Wo."""

    attention: str
    heads: tuple[int, ...]


@dataclass(frozen=True)
class Watch:
    """The trace array (and, for a direction, its cell) a question watches."""

    array: str
    cell: Index | None = None


@dataclass(frozen=True)
class Exercise:
    """One exercise of a document, as read. ``hide`` and ``tolerance`` belong to ``fill``;
    ``edit`` to ``direction``; ``choices`` to ``unchanged``; ``ablate`` to ``ablation``;
    ``watch`` to every question."""

    title: Words
    prompt: Words
    kind: str
    step: str
    hide: tuple[Hide, ...] = ()
    tolerance: float | None = None
    edit: Edit | None = None
    watch: Watch | None = None
    choices: tuple[Edit, ...] = ()
    ablate: Ablate | None = None
    answers: tuple[tuple[str, Typed], ...] | None = None
    """A student's answers copy only: each answered place (``Q[1,0]``, ``direction``,
    ``choices[k]``) with what was typed or ticked; None in a teacher's document."""
    checked: bool = False
    """A student's answers copy only: the answers were checked when it was saved."""


def parse_exercises(value: object) -> tuple[Exercise, ...]:
    """The document's ``exercises``, refused at ``exercises[k].key`` when malformed.

    Whether a step, an array or a cell exists is a question for the trace:
    :func:`engine.exercises.fit.check_fit`.
    """
    items = _list(value, "exercises", MAX_EXERCISES)
    return tuple(_exercise(item, f"exercises[{k}]") for k, item in enumerate(items))


def _list(value: object, place: str, limit: int, *, empty: bool = True) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise ScenarioError(place, Refusal("exercise_list", got=describe(value)))
    if len(value) > limit:
        raise ScenarioError(place, Refusal("exercise_list_long", count=len(value), limit=limit))
    if not value and not empty:
        raise ScenarioError(place, Refusal("exercise_list_empty"))
    return list(value)


def _exercise(value: object, place: str) -> Exercise:
    obj = expect_object(value, place)
    exercise = _question(obj, place)
    answers = _answers(obj["answers"], exercise, f"{place}.answers") if "answers" in obj \
        else None
    checked = expect_bool(obj["checked"], f"{place}.checked") if "checked" in obj else False
    if answers is None and not checked:
        return exercise
    return replace(exercise, answers=answers, checked=checked)


def _answers(value: object, exercise: Exercise, place: str) -> tuple[tuple[str, Typed], ...]:
    """A student's answers, by place: a fill exercise's cells (``Q[1,0]``: the text typed), a
    direction's ``direction`` (rise, fall or same), an unchanged question's ``choices[k]``
    (ticked or not). Whether a cell is one the exercise hides is a question for the trace."""
    obj = expect_object(value, place)
    if len(obj) > MAX_ITEMS:
        raise ScenarioError(place, Refusal("exercise_list_long", count=len(obj), limit=MAX_ITEMS))
    answers: list[tuple[str, Typed]] = []
    for key, typed in obj.items():
        at = f"{place}.{key}"
        if exercise.kind == "fill":
            if _CELL_NAME.fullmatch(key) is None:
                raise ScenarioError(at, Refusal("exercise_answer_cell", got=describe(key)))
            answers.append((key, expect_text(typed, at, ANSWER_LIMIT)))
        elif exercise.kind in WAY_KINDS:
            if key != "direction":
                raise ScenarioError(at, Refusal("exercise_answer_place", places='"direction"'))
            answers.append((key, expect_choice(typed, at, DIRECTIONS)))
        else:
            match = _CHOICE_NAME.fullmatch(key)
            if match is None or int(match.group(1)) >= len(exercise.choices):
                last = len(exercise.choices) - 1
                raise ScenarioError(at, Refusal("exercise_answer_place",
                                                places=f'"choices[0]" … "choices[{last}]"'))
            answers.append((key, expect_bool(typed, at)))
    return tuple(answers)


def _question(obj: Mapping[str, Any], place: str) -> Exercise:
    """The exercise as its teacher wrote it (without a student's answers)."""
    if "kind" not in obj:
        raise ScenarioError(f"{place}.kind", Refusal("exercise_key_missing"))
    kind = expect_choice(obj["kind"], f"{place}.kind", KINDS)
    refuse_unknown(obj, _KEYS[kind], place)
    for key in _KEYS[kind][:4] + (("hide",) if kind == "fill" else ("watch",)):
        if key not in obj:
            raise ScenarioError(f"{place}.{key}", Refusal("exercise_key_missing"))
    title = _words(obj["title"], f"{place}.title", TITLE_LIMIT)
    prompt = _words(obj["prompt"], f"{place}.prompt", PROMPT_LIMIT)
    step = expect_text(obj["step"], f"{place}.step")
    if kind == "fill":
        hides = _list(obj["hide"], f"{place}.hide", MAX_ITEMS, empty=False)
        hide = tuple(_hide(item, f"{place}.hide[{k}]") for k, item in enumerate(hides))
        tolerance = None
        if "tolerance" in obj:
            tolerance = expect_number(obj["tolerance"], f"{place}.tolerance")
            if tolerance < 0:
                raise ScenarioError(f"{place}.tolerance",
                                    Refusal("exercise_tolerance", got=describe(tolerance)))
        return Exercise(title, prompt, kind, step, hide=hide, tolerance=tolerance)
    if kind in WAY_KINDS:
        change = "edit" if kind == "direction" else "ablate"
        if change not in obj:
            raise ScenarioError(f"{place}.{change}", Refusal("exercise_key_missing"))
        watch = _watch(obj["watch"], f"{place}.watch", with_cell=True)
        if kind == "direction":
            return Exercise(title, prompt, kind, step, edit=_edit(obj["edit"], f"{place}.edit"),
                            watch=watch)
        return Exercise(title, prompt, kind, step, ablate=_ablate(obj["ablate"],
                                                                  f"{place}.ablate"),
                        watch=watch)
    if "choices" not in obj:
        raise ScenarioError(f"{place}.choices", Refusal("exercise_key_missing"))
    raw = _list(obj["choices"], f"{place}.choices", MAX_ITEMS, empty=False)
    choices = tuple(_edit(item, f"{place}.choices[{k}]") for k, item in enumerate(raw))
    watch = _watch(obj["watch"], f"{place}.watch", with_cell=False)
    return Exercise(title, prompt, kind, step, choices=choices, watch=watch)


def _words(value: object, place: str, limit: int) -> Words:
    obj = expect_object(value, place)
    refuse_unknown(obj, LANGUAGES, place)
    for lang in LANGUAGES:
        if lang not in obj:
            raise ScenarioError(f"{place}.{lang}", Refusal("exercise_language_missing"))
    en, zh = (expect_text(obj[lang], f"{place}.{lang}", limit) for lang in LANGUAGES)
    for lang, text in (("en", en), ("zh", zh)):
        if not text.strip():
            raise ScenarioError(f"{place}.{lang}", Refusal("exercise_text_empty"))
    return Words(en, zh)


def _index(value: object, place: str) -> Index:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= 3:
        raise ScenarioError(place, Refusal("exercise_index", got=describe(value)))
    return tuple(expect_int(k, f"{place}[{t}]", 0, MAX_INDEX) for t, k in enumerate(value))


def _name(obj: Mapping[str, Any], place: str) -> str:
    if "array" not in obj:
        raise ScenarioError(f"{place}.array", Refusal("exercise_key_missing"))
    name = expect_text(obj["array"], f"{place}.array")
    if not name:
        raise ScenarioError(f"{place}.array", Refusal("exercise_text_empty"))
    return name


def _hide(value: object, place: str) -> Hide:
    obj = expect_object(value, place)
    refuse_unknown(obj, _HIDE_KEYS, place)
    array = _name(obj, place)
    if "cells" in obj and "rows" in obj:
        raise ScenarioError(f"{place}.rows", Refusal("exercise_cells_and_rows"))
    if "cells" in obj:
        cells = _list(obj["cells"], f"{place}.cells", MAX_ITEMS, empty=False)
        return Hide(array, cells=tuple(_index(c, f"{place}.cells[{k}]")
                                       for k, c in enumerate(cells)))
    if "rows" in obj:
        rows = _list(obj["rows"], f"{place}.rows", MAX_ITEMS, empty=False)
        return Hide(array, rows=tuple(expect_int(r, f"{place}.rows[{k}]", 0, MAX_INDEX)
                                      for k, r in enumerate(rows)))
    return Hide(array)


def _edit(value: object, place: str) -> Edit:
    obj = expect_object(value, place)
    refuse_unknown(obj, _EDIT_KEYS, place)
    array = _name(obj, place)
    for key in ("cell", "by"):
        if key not in obj:
            raise ScenarioError(f"{place}.{key}", Refusal("exercise_key_missing"))
    by = expect_number(obj["by"], f"{place}.by")
    if by == 0:
        raise ScenarioError(f"{place}.by", Refusal("exercise_edit_zero"))
    return Edit(array, _index(obj["cell"], f"{place}.cell"), by)


def _ablate(value: object, place: str) -> Ablate:
    """The heads switched off; whether the path is an attention and each head one of its heads
    is a question for the trace."""
    obj = expect_object(value, place)
    refuse_unknown(obj, _ABLATE_KEYS, place)
    for key in _ABLATE_KEYS:
        if key not in obj:
            raise ScenarioError(f"{place}.{key}", Refusal("exercise_key_missing"))
    attention = expect_text(obj["attention"], f"{place}.attention")
    if not attention:
        raise ScenarioError(f"{place}.attention", Refusal("exercise_text_empty"))
    raw = _list(obj["heads"], f"{place}.heads", MAX_ITEMS, empty=False)
    heads: list[int] = []
    for k, item in enumerate(raw):
        head = expect_int(item, f"{place}.heads[{k}]", 0, MAX_INDEX)
        if head in heads:
            raise ScenarioError(f"{place}.heads[{k}]", Refusal("ablate_heads_twice", head=head))
        heads.append(head)
    return Ablate(attention, tuple(heads))


def _watch(value: object, place: str, *, with_cell: bool) -> Watch:
    obj = expect_object(value, place)
    refuse_unknown(obj, ("array", "cell") if with_cell else ("array",), place)
    array = _name(obj, place)
    if not with_cell:
        return Watch(array)
    if "cell" not in obj:
        raise ScenarioError(f"{place}.cell", Refusal("exercise_key_missing"))
    return Watch(array, _index(obj["cell"], f"{place}.cell"))


def _number(value: float) -> float | int:
    return int(value) if value.is_integer() and abs(value) < 1e15 else value


def _edit_document(edit: Edit) -> dict[str, Any]:
    return {"array": edit.array, "cell": list(edit.cell), "by": _number(edit.by)}


def exercise_document(exercise: Exercise) -> dict[str, Any]:
    """One exercise as its JSON object (only the keys its kind has; ``tolerance`` when set;
    ``answers`` and ``checked`` in a student's answers copy only)."""
    doc = _question_document(exercise)
    if exercise.answers is not None or exercise.checked:
        doc["answers"] = dict(exercise.answers or ())
        doc["checked"] = exercise.checked
    return doc


def _question_document(exercise: Exercise) -> dict[str, Any]:
    doc: dict[str, Any] = {"title": {"en": exercise.title.en, "zh": exercise.title.zh},
                           "prompt": {"en": exercise.prompt.en, "zh": exercise.prompt.zh},
                           "kind": exercise.kind, "step": exercise.step}
    if exercise.kind == "fill":
        hides = []
        for hide in exercise.hide:
            item: dict[str, Any] = {"array": hide.array}
            if hide.cells is not None:
                item["cells"] = [list(cell) for cell in hide.cells]
            if hide.rows is not None:
                item["rows"] = list(hide.rows)
            hides.append(item)
        doc["hide"] = hides
        if exercise.tolerance is not None:
            doc["tolerance"] = _number(exercise.tolerance)
        return doc
    if exercise.edit is not None:
        doc["edit"] = _edit_document(exercise.edit)
    if exercise.choices:
        doc["choices"] = [_edit_document(choice) for choice in exercise.choices]
    if exercise.ablate is not None:
        doc["ablate"] = {"attention": exercise.ablate.attention,
                         "heads": list(exercise.ablate.heads)}
    assert exercise.watch is not None
    watch: dict[str, Any] = {"array": exercise.watch.array}
    if exercise.watch.cell is not None:
        watch["cell"] = list(exercise.watch.cell)
    doc["watch"] = watch
    return doc


__all__ = ["ANSWER_LIMIT", "DIRECTIONS", "KINDS", "WAY_KINDS", "Ablate", "Edit", "Exercise",
           "Hide", "Index", "Typed", "Watch", "Words", "exercise_document", "parse_exercises"]
