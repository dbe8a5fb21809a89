"""A student's answers copy (issue 26): each exercise's ``answers`` (place → what was typed or
ticked) and ``checked``, read, written back as read, refused naming the place; a teacher's
document is written without them."""

from __future__ import annotations

from typing import Any

import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.exercises.fit import answered_cells, check_fit
from engine.format.writer import to_document
from tests.engine.test_engine_exercises import DIRECTION, UNCHANGED, f11, fill


def answered(exercise: dict[str, Any], answers: object, checked: object = True
             ) -> dict[str, Any]:
    return {**exercise, "answers": answers, "checked": checked}


def test_answers_are_written_back_exactly_as_typed() -> None:
    doc = f11(answered(fill("projections", {"array": "Q", "rows": [1]}),
                       {"Q[1,0]": " 2,0 ", "Q[1,1]": "zero?"}),
              answered(fill("weights", {"array": "weights"}), {"weights[0,1,0]": "0.8"}, False),
              answered(DIRECTION, {"direction": "fall"}),
              answered(UNCHANGED, {"choices[0]": False, "choices[2]": True}))
    scenario = parse_scenario(doc)
    assert scenario.exercises[0].answers == (("Q[1,0]", " 2,0 "), ("Q[1,1]", "zero?"))
    assert [e.checked for e in scenario.exercises] == [True, False, True, True]
    assert scenario.exercises[3].answers == (("choices[0]", False), ("choices[2]", True))
    written = to_document(scenario)
    assert written["exercises"] == doc["exercises"]
    assert parse_scenario(written).exercises == scenario.exercises


def test_a_teachers_document_is_written_without_answers() -> None:
    doc = f11(fill("projections", {"array": "Q"}), DIRECTION)
    written = to_document(parse_scenario(doc))
    assert written["exercises"] == doc["exercises"]
    assert not any({"answers", "checked"} & set(e) for e in written["exercises"])


def test_answered_cells_are_keyed_by_full_index() -> None:
    doc = f11(answered(fill("weights", {"array": "weights", "rows": [1]}),
                       {"weights[1,0]": "0.8", "weights[0,1,1]": "0.2"}))
    trace = compute(parse_scenario(doc))
    check_fit(trace)
    assert answered_cells(trace, trace.scenario.exercises[0]) == {
        ("weights", (0, 1, 0)): "0.8", ("weights", (0, 1, 1)): "0.2"}


@pytest.mark.parametrize(("exercise", "message"), [
    (answered(fill("weights", {"array": "weights"}), ["0.8"]),
     "exercises[0].answers: expected an object, got a list of 1"),
    (answered(fill("weights", {"array": "weights"}), {"weights": "0.8"}),
     'exercises[0].answers.weights: expected a blank named as its array and full index, such '
     'as Q[1,0] or weights[0,1,0], got "weights"'),
    (answered(fill("weights", {"array": "weights"}), {"weights[0,1,0]": 0.8}),
     "exercises[0].answers.weights[0,1,0]: expected text, got 0.8"),
    (answered(fill("weights", {"array": "weights"}), {"weights[0,1,0]": "8" * 101}),
     "exercises[0].answers.weights[0,1,0]: text of 101 characters is longer than 100"),
    (answered(DIRECTION, {"direction": "up"}),
     'exercises[0].answers.direction: expected one of "rise" | "fall" | "same", got "up"'),
    (answered(DIRECTION, {"choices[0]": True}),
     'exercises[0].answers.choices[0]: this kind of exercise is answered at "direction" only'),
    (answered(UNCHANGED, {"choices[3]": True}),
     'exercises[0].answers.choices[3]: this kind of exercise is answered at "choices[0]" … '
     '"choices[2]" only'),
    (answered(UNCHANGED, {"choices[0]": "yes"}),
     'exercises[0].answers.choices[0]: expected true or false, got "yes"'),
    (answered(DIRECTION, {"direction": "rise"}, "yes"),
     'exercises[0].checked: expected true or false, got "yes"'),
])
def test_malformed_answers_are_refused_on_reading(exercise: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(f11(exercise))
    assert str(caught.value) == message


@pytest.mark.parametrize(("answers", "message"), [
    ({"Q[0,0]": "0"}, "exercises[0].answers.Q[0,0]: Q[0,0] is not a blank of this exercise "
                      "(its blanks: Q[1,0], Q[1,1])"),
    ({"K[1,0]": "0"}, "exercises[0].answers.K[1,0]: K[1,0] is not a blank of this exercise "
                      "(its blanks: Q[1,0], Q[1,1])"),
    ({"Q[1,0,0]": "0"}, "exercises[0].answers.Q[1,0,0]: Q needs 2 indices, got 3"),
    ({"Q[5,0]": "0"}, "exercises[0].answers.Q[5,0]: [5,0] is outside the 2×2 array Q"),
])
def test_an_answer_outside_the_blanks_is_refused_by_the_trace(answers: dict[str, str],
                                                             message: str) -> None:
    trace = compute(parse_scenario(f11(answered(fill("projections", {"array": "Q",
                                                                      "rows": [1]}), answers))))
    with pytest.raises(ScenarioError) as caught:
        check_fit(trace)
    assert str(caught.value) == message
