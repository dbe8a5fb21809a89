"""The teacher's exercise edits, with no window: what a new exercise hides, and that every one
the window can make is read back and fits its trace."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from app.model.examples import example_path
from app.model.exercise_edits import (
    HIDE_CHOICES,
    SetExercises,
    chosen_cells,
    new_ablation,
    new_direction,
    new_fill,
    new_unchanged,
    with_cell_toggled,
)
from engine import Trace, compute, load_scenario
from engine.exercises.answers import answer
from engine.exercises.fit import check_fit, hidden_cells


@pytest.fixture(scope="module")
def f11() -> Trace:
    scenario = load_scenario(example_path("f11"))
    return compute(replace(scenario, exercises=()))


def test_a_row_of_shares_is_hidden_only_where_the_shares_are_made(f11: Trace) -> None:
    weights, projections = f11.step_index("weights"), f11.step_index("projections")
    assert new_fill(f11, weights, "row", receiver=1)["hide"] == [  # type: ignore[index]
        {"array": "weights", "rows": [1]}]
    # At the projections the shares are not made yet: the row is Q's, its first output.
    assert new_fill(f11, projections, "row", receiver=1)["hide"] == [  # type: ignore[index]
        {"array": "Q", "rows": [1]}]


def test_every_new_exercise_is_read_back_and_fits(f11: Trace) -> None:
    made = [new_fill(f11, k, how, receiver=1, difficulty=3)
            for k in range(len(f11.steps)) for how in HIDE_CHOICES]
    assert made[:4] == [None] * 4, "the inputs step writes nothing to hide"
    made += [new_direction(f11, 1, receiver=1), new_unchanged(f11, 4),
             new_ablation(f11, 3, receiver=1)]
    documents = tuple(d for d in made if d is not None)
    assert len(documents) == 4 * (len(f11.steps) - 1) + 3
    scenario = SetExercises(documents, "edit_add", "t").apply(f11.scenario)
    check_fit(replace(f11, scenario=scenario))
    auto = scenario.exercises[4 * 1 + 3]  # the scores step, cells the app chose
    assert auto.step == "scores"
    # scores = [[0, (1.414, masked)], [1.414, 0]]: one non-zero score is drawn as a number.
    assert hidden_cells(f11, auto) == (("scores", (0, 1, 0)),)


def test_the_app_chooses_the_receivers_row_first_and_never_a_zero(f11: Trace) -> None:
    # mixed = [[10, 0], [8.044, 3.911]]: 0 is left out, the last row comes first
    assert sorted(chosen_cells(f11, "mixed", 2)) == [(1, 0), (1, 1)]
    assert sorted(chosen_cells(f11, "mixed", 5)) == [(0, 0), (1, 0), (1, 1)]
    assert chosen_cells(f11, "mixed", 3) == chosen_cells(f11, "mixed", 3), "the same again"


def test_a_clicked_cell_is_hidden_then_shown_again(f11: Trace) -> None:
    start = new_fill(f11, f11.step_index("mix"), "cells", receiver=1)
    assert start is not None
    first = start["hide"][0]["cells"][0]
    hidden = with_cell_toggled(start, "mixed", (0, 0))
    assert hidden["hide"] == [{"array": "mixed", "cells": [first, [0, 0]]}]
    assert with_cell_toggled(hidden, "mixed", (0, 0))["hide"] == start["hide"]
    other = with_cell_toggled(start, "weights", (0, 1, 1))
    assert other["hide"][1] == {"array": "weights", "cells": [[0, 1, 1]]}


def test_without_a_vocabulary_head_switching_the_head_off_watches_its_output(f11: Trace
                                                                           ) -> None:
    made = new_ablation(f11, f11.step_index("weights"), receiver=1)
    assert (made["step"], made["ablate"], made["watch"]) == (
        "mix", {"attention": "attention", "heads": [0]},
        {"array": "attn_out", "cell": [1, 0]})
    scenario = SetExercises((made,), "edit_add", "t").apply(f11.scenario)
    solved = answer(replace(f11, scenario=scenario), scenario.exercises[0])
    share = 1 / (1 + math.exp(-math.sqrt(2)))  # 爱's share of 我 (V of 我 = [10, 0])
    moved = solved.moved[0]
    assert (moved.before, moved.after) == pytest.approx((10 * share, 0.0), abs=1e-12)
    assert solved.direction == "fall"  # F11's one head is all its output
