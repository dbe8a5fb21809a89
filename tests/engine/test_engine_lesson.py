"""What F11's questions teach (engine.exercises.lesson), and numbers that would not teach it:
an input whose first column is zero makes Wq[0,0] leave the shares unchanged."""

from __future__ import annotations

import numpy as np

from engine import compute, load_scenario
from engine.exercises.lesson import lesson_lost, lessons
from engine.scenario.edit import with_parameter
from tests.examples import EXAMPLES


def test_f11s_lessons_and_a_draw_that_loses_one() -> None:
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    trace = compute(scenario)
    taught = lessons(trace, scenario.exercises)
    # Exercise 5: only choice C (Wv) leaves the shares; 6: 我's share stays; 7: 爱's moves.
    assert [(lesson.place, lesson.unchanged, lesson.stays) for lesson in taught] == [
        ("exercises[4]", (2,), False), ("exercises[5]", (), True), ("exercises[6]", (), False)]
    assert lesson_lost(trace, taught) is None
    # X = [[0, 1], [0, −1]]: X·Wq ignores Wq's row 0, so Wq[0,0] + 1 leaves every share, a
    # lesson the document does not teach.
    blind = with_parameter(scenario, "X", np.array([[0.0, 1.0], [0.0, -1.0]]))
    lost = lesson_lost(compute(blind), taught)
    assert lost is not None and lost.place == "exercises[4]"
    # The other two keep theirs: 我 still sees only itself, and Wk[1,0] meets X's column 1
    # (±1), so 爱's key moves and its share with it.
    assert lesson_lost(compute(blind), taught[1:]) is None
