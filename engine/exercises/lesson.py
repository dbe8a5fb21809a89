"""What a document's questions teach, and whether a variant's numbers still teach it.

A question's lesson is its answer on the document's own numbers, as far as the answer is the
point: an *unchanged* question teaches which of its edits leave the watched array as it was
(F11: only Wv), a *direction* question whether the watched number moves at all (a single visible
key: it stays; a key that moves: it does), not which way, and an *ablation* question which way
the watched number goes without the head (what the head did for it: the way is the point). A
variant teaches the same when, on its numbers, exactly the same choices leave the array
unchanged, the same directions stay, every ablation moves its number the same way, and every
number that moves moves by at least one unit of the last decimal the frames print — a change a
student working by hand cannot see is no lesson. Every answer is computed
(:func:`engine.exercises.answers.answer`), never stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.arithmetic.printed import printed_places
from engine.exercises.answers import Answer, answer
from engine.exercises.document import Exercise
from engine.exercises.fit import place_of
from engine.forward.trace import Trace


@dataclass(frozen=True)
class Lesson:
    """One question's lesson: where it is (``exercises[4]``), the choices that leave its array
    unchanged (an unchanged question), whether its number stays (a direction) or the way it
    goes (an ablation: ``way``)."""

    place: str
    exercise: Exercise
    unchanged: tuple[int, ...] = ()
    stays: bool = False
    way: str | None = None


def lessons(trace: Trace, exercises: Sequence[Exercise]) -> tuple[Lesson, ...]:
    """The lessons of the questions among ``exercises``, answered on ``trace`` (the document's
    own numbers); a fill exercise teaches by its blanks and has none."""
    found = []
    for exercise in exercises:
        if exercise.kind == "fill":
            continue
        solved = answer(trace, exercise)
        found.append(Lesson(place_of(trace, exercise), exercise, solved.unchanged,
                            solved.direction == "same",
                            solved.direction if exercise.kind == "ablation" else None))
    return tuple(found)


def _visible(solved: Answer, unit: float) -> bool:
    """Whether every number the answer says moves moves by at least ``unit``."""
    if solved.direction is not None:
        return solved.direction == "same" or abs(solved.moved[0].change) >= unit
    return all(abs(moved.change) >= unit
               for k, moved in enumerate(solved.moved) if k not in solved.unchanged)


def lesson_lost(trace: Trace, taught: Sequence[Lesson]) -> Lesson | None:
    """The first lesson ``trace`` (a variant's) does not teach, or None when it teaches all."""
    unit = 10.0 ** -printed_places(trace)
    for lesson in taught:
        solved = answer(trace, lesson.exercise)
        if solved.kind == "unchanged":
            same = solved.unchanged == lesson.unchanged
        elif lesson.way is not None:
            same = solved.direction == lesson.way
        else:
            same = (solved.direction == "same") == lesson.stays
        if not (same and _visible(solved, unit)):
            return lesson
    return None


__all__ = ["Lesson", "lesson_lost", "lessons"]
