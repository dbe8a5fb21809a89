"""A document's exercises: read, written back, answered on the trace and on edited variants,
predictions checked; malformed or misfitting exercises refused naming the exercise and key."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.exercises.answers import answer, check, edited
from engine.exercises.fit import check_fit, hidden_masks
from engine.format.writer import to_document
from engine.scenario.edit import with_document_value
from tests.examples import EXAMPLES

SHARE = 1 / (1 + math.exp(-math.sqrt(2)))
"""F11's share of 我 for 爱: scores √2 and 0 (q=[2,0], k=[1,0] and [0,1], divided by √2)."""


def words(text: str) -> dict[str, str]:
    return {"en": text, "zh": f"（{text}）"}


def fill(step: str, *hide: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"title": words("t"), "prompt": words("p"), "kind": "fill", "step": step,
            "hide": list(hide), **extra}


DIRECTION = {"title": words("d"), "prompt": words("p"), "kind": "direction", "step": "weights",
             "edit": {"array": "attention.Wk", "cell": [1, 0], "by": 0.5},
             "watch": {"array": "weights", "cell": [1, 1]}}
UNCHANGED = {"title": words("u"), "prompt": words("p"), "kind": "unchanged", "step": "weights",
             "choices": [{"array": f"attention.{w}", "cell": [0, 0], "by": 1}
                         for w in ("Wq", "Wk", "Wv")],
             "watch": {"array": "weights"}}


def f11(*exercises: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc.pop("exercises", None)
    doc["exercises"] = list(exercises)
    return doc


def test_exercises_are_written_back_as_read() -> None:
    doc = f11(fill("projections", {"array": "Q", "rows": [1]}, {"array": "K"}, tolerance=0.01),
              fill("weights", {"array": "weights", "cells": [[1, 0]]}), DIRECTION, UNCHANGED)
    written = to_document(parse_scenario(doc))
    assert written["exercises"] == doc["exercises"]
    assert parse_scenario(written).exercises == parse_scenario(doc).exercises
    assert "exercises" not in to_document(parse_scenario(f11()))


def test_fill_hides_rows_whole_arrays_and_cells_with_their_values() -> None:
    scenario = parse_scenario(f11(fill("projections", {"array": "Q", "rows": [1]},
                                       {"array": "K"})))
    trace = compute(scenario)
    solved = answer(trace, scenario.exercises[0])
    # Q row 爱 = [1,-1]·Wq = [2, 0]; K = X·Wk = [[1,0],[0,1]].
    assert [(c.name, c.value) for c in solved.cells] == [
        ("Q[1,0]", 2.0), ("Q[1,1]", 0.0), ("K[0,0]", 1.0), ("K[0,1]", 0.0), ("K[1,0]", 0.0),
        ("K[1,1]", 1.0)]
    # F11 prints three decimals: half a unit of the last is the default tolerance.
    assert {c.tolerance for c in solved.cells} == {0.0005}


def test_a_whole_share_table_hides_only_the_cells_the_mask_leaves() -> None:
    scenario = parse_scenario(f11(fill("weights", {"array": "weights"})))
    trace = compute(scenario)
    masks = hidden_masks(trace, scenario.exercises[0])
    assert masks["weights"].tolist() == [[[True, False], [True, True]]]
    values = [c.value for c in answer(trace, scenario.exercises[0]).cells]
    assert values == pytest.approx([1.0, SHARE, 1 - SHARE], abs=1e-15)


def test_check_marks_within_tolerance_and_explains_a_wrong_cell() -> None:
    scenario = parse_scenario(f11(fill("weights", {"array": "weights", "rows": [1]},
                                       tolerance=0.001)))
    trace = compute(scenario)
    exercise = scenario.exercises[0]
    verdicts = check(trace, exercise, {("weights", (0, 1, 0)): SHARE + 0.0009,
                                       ("weights", (0, 1, 1)): 1 - SHARE + 0.0011})
    assert [(v.place, v.right) for v in verdicts] == [("weights[0,1,0]", True),
                                                       ("weights[0,1,1]", False)]
    wrong = verdicts[1]
    assert wrong.explanation is not None and wrong.expected == pytest.approx(1 - SHARE)
    assert wrong.explanation.formula.startswith("weights[0,1,1] = exp(s1 − max)")
    assert wrong.first_difference is None  # the scores were given: the slip is in the softmax
    left_out = check(trace, exercise, {})
    assert [v.right for v in left_out] == [False, False] and left_out[0].given is None


def test_the_first_wrong_term_is_named() -> None:
    # The chapter's whole check on one sheet: Q row 爱, then its score against 我, then the mix.
    scenario = parse_scenario(f11(fill("mix", {"array": "Q", "rows": [1]},
                                       {"array": "scores", "cells": [[1, 0]]},
                                       {"array": "mixed", "rows": [1]})))
    trace = compute(scenario)
    exercise = scenario.exercises[0]
    right = {(c.array, c.index): c.value for c in answer(trace, exercise).cells}
    assert list(right) == [("Q", (1, 0)), ("Q", (1, 1)), ("scores", (0, 1, 0)),
                           ("mixed", (1, 0)), ("mixed", (1, 1))]
    slipped = {**right, ("Q", (1, 0)): 3.0, ("scores", (0, 1, 0)): 3 / math.sqrt(2)}
    verdicts = {v.place: v for v in check(trace, exercise, slipped)}
    assert [p for p, v in verdicts.items() if not v.right] == ["Q[1,0]", "scores[0,1,0]"]
    # scores[0,1,0] = (Q[1,0]·K[0,0] + Q[1,1]·K[0,1]) / √2: the first term differs.
    assert verdicts["scores[0,1,0]"].first_difference == "Q[1,0]"
    assert verdicts["Q[1,0]"].first_difference is None  # X and Wq were given
    # Only the second term wrong: it is named.
    second = check(trace, exercise, {**right, ("Q", (1, 1)): 1.0, ("scores", (0, 1, 0)): 0.0})
    assert [v.first_difference for v in second if not v.right] == [None, "Q[1,1]"]


def test_a_wrong_cell_alone_is_its_own_slip() -> None:
    scenario = parse_scenario(f11(fill("mix", {"array": "mixed", "rows": [1]})))
    trace = compute(scenario)
    exercise = scenario.exercises[0]
    right = {(c.array, c.index): c.value for c in answer(trace, exercise).cells}
    verdicts = check(trace, exercise, {**right, ("mixed", (1, 1)): 0.0})
    assert [v.right for v in verdicts] == [True, False]
    assert verdicts[1].first_difference is None
    assert verdicts[1].explanation is not None
    assert verdicts[1].explanation.formula == (
        "mixed[1,1] = weights[0,1,0]·V[0,1] + weights[0,1,1]·V[1,1] = 0.804·0 + 0.196·20 = 3.911")


def test_direction_is_computed_on_the_edited_variant() -> None:
    scenario = parse_scenario(f11(DIRECTION))
    trace = compute(scenario)
    solved = answer(trace, scenario.exercises[0])
    # Wk[1,0] + 0.5: k(我) = [1.5, 0], k(爱) = [-0.5, 1]; q(爱) = [2, 0] scores 3/√2 and -1/√2.
    after = 1 / (1 + math.exp(4 / math.sqrt(2)))
    assert solved.direction == "fall"
    assert solved.moved[0].before == pytest.approx(1 - SHARE, abs=1e-15)
    assert solved.moved[0].after == pytest.approx(after, abs=1e-15)
    assert [v.right for v in check(trace, scenario.exercises[0], "fall")] == [True]
    assert [v.right for v in check(trace, scenario.exercises[0], "rise")] == [False]
    # The one visible key of 我 keeps share 1 whatever Wk does.
    alone = copy.deepcopy(DIRECTION)
    alone["watch"]["cell"] = [0, 0]
    single = parse_scenario(f11(alone))
    assert answer(compute(single), single.exercises[0]).direction == "same"


def test_unchanged_finds_the_edits_that_leave_the_shares() -> None:
    scenario = parse_scenario(f11(UNCHANGED))
    trace = compute(scenario)
    solved = answer(trace, scenario.exercises[0])
    # Wq[0,0] + 1 moves q(爱) to [3, 0]: scores 3/√2 and 0; Wk[0,0] + 1 adds 1 to both keys'
    # first column (x[0] = 1 in both rows), so both scores move alike; Wv is not in the shares.
    assert solved.unchanged == (1, 2)
    assert solved.moved[0].after == pytest.approx(1 / (1 + math.exp(-3 / math.sqrt(2))))
    verdicts = check(trace, scenario.exercises[0], {2})
    assert [(v.place, v.right) for v in verdicts] == [("choices[0]", True),
                                                       ("choices[1]", False),
                                                       ("choices[2]", True)]


def test_an_edited_variant_changes_only_its_cell() -> None:
    scenario = parse_scenario(f11(DIRECTION))
    trace = compute(scenario)
    assert scenario.exercises[0].edit is not None
    variant = edited(trace, scenario.exercises[0].edit)
    assert variant.scenario.parameter("attention.Wk").tolist() == [[0.5, 0.5], [1.0, -0.5]]
    assert np.array_equal(variant.arrays["Q"], trace.arrays["Q"])


def refusal(doc: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        check_fit(compute(parse_scenario(doc)))
    return str(caught.value)


@pytest.mark.parametrize(("exercises", "message"), [
    ("x", 'exercises: expected a list, got "x"'),
    ([{"kind": "guess"}], 'exercises[0].kind: expected one of "fill" | "direction" | '
                          '"unchanged" | "ablation", got "guess"'),
    ([{"kind": "fill"}], "exercises[0].title: missing: every exercise of this kind needs it"),
    ([{**fill("weights", {"array": "weights"}), "title": {"en": "only"}}],
     "exercises[0].title.zh: missing: an exercise's text is given in English (en) and Chinese"
     " (zh)"),
    ([fill("weights")], "exercises[0].hide: expected at least one item"),
    ([fill("weights", {"array": "weights", "cells": [[1, 0]], "rows": [1]})],
     "exercises[0].hide[0].rows: hide either cells or rows of one array, not both"),
    ([fill("weights", {"array": "weights", "cells": [[1, -1]]})],
     "exercises[0].hide[0].cells[0][1]: expected a whole number from 0 to 1048576, got -1"),
    ([fill("weights", {"array": "weights"}, tolerance=-1)],
     "exercises[0].tolerance: expected a tolerance of 0 or more, got -1.0"),
    ([{**DIRECTION, "edit": {"array": "attention.Wk", "cell": [0, 0], "by": 0}}],
     "exercises[0].edit.by: an edit by 0 changes nothing: grow the cell by another number"),
    ([{**DIRECTION, "answer": "fall"}],
     "exercises[0].answer: unknown key (allowed here: title, prompt, kind, step, edit, watch, "
     "answers, checked)"),
])
def test_malformed_exercises_are_refused_on_reading(exercises: object, message: str) -> None:
    doc = f11()
    doc["exercises"] = exercises
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    assert str(caught.value) == message


@pytest.mark.parametrize(("exercise", "message"), [
    (fill("softmax", {"array": "weights"}),
     "exercises[0].step: no step softmax in this document (its steps: inputs, projections, "
     "scores, weights, mix)"),
    (fill("scores", {"array": "mixed"}),
     "exercises[0].hide[0].array: neither step scores nor a step before it makes mixed (they "
     "make: Q, K, V, scores)"),
    (fill("projections", {"array": "Q", "cells": [[2, 0]]}),
     "exercises[0].hide[0].cells[0]: [2,0] is outside the 2×2 array Q"),
    (fill("projections", {"array": "Q", "cells": [[0]]}),
     "exercises[0].hide[0].cells[0]: Q needs 2 indices, got 1"),
    (fill("projections", {"array": "Q", "rows": [2]}),
     "exercises[0].hide[0].rows[0]: row 2 is outside Q, which has 2 rows"),
    ({**DIRECTION, "edit": {"array": "attention.Wz", "cell": [0, 0], "by": 1}},
     "exercises[0].edit.array: no editable array attention.Wz in this document (editable: X, "
     "attention.Wq, attention.Wk, attention.Wv)"),
    ({**UNCHANGED, "choices": [{"array": "X", "cell": [0, 3], "by": 1}]},
     "exercises[0].choices[0].cell: [0,3] is outside the 2×2 array X"),
])
def test_exercises_that_do_not_fit_the_trace_are_refused(exercise: dict[str, Any],
                                                         message: str) -> None:
    assert refusal(f11(fill("weights", {"array": "weights"}), exercise)) == \
        message.replace("exercises[0]", "exercises[1]")


def test_exercises_are_edited_like_any_document_value() -> None:
    scenario = parse_scenario(f11(DIRECTION, UNCHANGED))
    kept = with_document_value(scenario, "exercises", [DIRECTION])
    assert [e.kind for e in kept.exercises] == ["direction"]
    assert with_document_value(scenario, "exercises", None).exercises == ()
    assert [e.kind for e in scenario.exercises] == ["direction", "unchanged"]  # unchanged
    with pytest.raises(ScenarioError, match=r"^exercises\[0\]\.edit\.by: an edit by 0"):
        with_document_value(scenario, "exercises", [{**DIRECTION, "edit": {
            "array": "attention.Wk", "cell": [0, 0], "by": 0}}])
