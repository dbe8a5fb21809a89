"""The built-in exercises (issue 26): the chapter's checks on F11 and its counter-examples, each
answered by the engine and compared with an independent computation of the same attention."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Scenario, compute, load_scenario
from engine.exercises.answers import answer
from engine.exercises.fit import check_fit
from tests.examples import EXAMPLES

WITH_EXERCISES = ("f11", "single-key", "pronoun", "three-layers")


def scenario(name: str) -> Scenario:
    return load_scenario(EXAMPLES / f"{name}.qkv.json")


def attention(X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, Wv: np.ndarray
              ) -> dict[str, np.ndarray]:
    """One causal, scaled head written out: the reference the engine's answers must match."""
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / math.sqrt(Q.shape[1])
    n = len(X)
    weights = np.zeros((n, n))
    for i in range(n):
        row = np.exp(scores[i, :i + 1] - scores[i, :i + 1].max())
        weights[i, :i + 1] = row / row.sum()
    return {"Q": Q, "K": K, "V": V, "scores": scores, "weights": weights,
            "mixed": weights @ V}


def reference(s: Scenario, edit: tuple[str, tuple[int, int], float] | None = None
              ) -> dict[str, np.ndarray]:
    arrays = {"X": s.X.copy(), "Wq": s.attention.Wq.copy(), "Wk": s.attention.Wk.copy(),
              "Wv": s.attention.Wv.copy()}
    if edit is not None:
        arrays[edit[0].removeprefix("attention.")][edit[1]] += edit[2]
    return attention(arrays["X"], arrays["Wq"], arrays["Wk"], arrays["Wv"])


@pytest.mark.parametrize("name", WITH_EXERCISES)
def test_every_built_in_exercise_fits_and_is_bilingual(name: str) -> None:
    s = scenario(name)
    trace = compute(s)
    check_fit(trace)
    assert s.exercises
    for exercise in s.exercises:
        assert exercise.title.en and exercise.title.zh and exercise.prompt.en
        assert exercise.prompt.zh != exercise.prompt.en
        answer(trace, exercise)


def test_f11_fill_answers_are_the_reference_numbers() -> None:
    s = scenario("f11")
    trace = compute(s)
    ref = reference(s)
    share = 1 / (1 + math.exp(-math.sqrt(2)))
    got = [{(c.array, c.index[-2:]): c.value for c in answer(trace, e).cells}
           for e in s.exercises[:4]]
    assert len(got[0]) == 12  # six projection rows of two numbers
    for (array, (i, j)), value in got[0].items():
        assert value == pytest.approx(ref[array][i, j], abs=1e-12)
    assert ref["Q"].tolist() == [[0, 2], [2, 0]] and ref["V"].tolist() == [[10, 0], [0, 20]]
    assert got[1] == pytest.approx({("scores", (1, 0)): math.sqrt(2), ("scores", (1, 1)): 0.0})
    assert got[2] == pytest.approx({("weights", (0, 0)): 1.0, ("weights", (1, 0)): share,
                                    ("weights", (1, 1)): 1 - share})
    assert got[3] == pytest.approx({("mixed", (0, 0)): 10.0, ("mixed", (0, 1)): 0.0,
                                    ("mixed", (1, 0)): 10 * share,
                                    ("mixed", (1, 1)): 20 * (1 - share)})


def test_f11_questions() -> None:
    s = scenario("f11")
    trace = compute(s)
    unchanged, single, moved = (answer(trace, e) for e in s.exercises[4:7])
    assert unchanged.unchanged == (2,)  # only the edit of Wv leaves the shares
    assert single.direction == "same" and single.moved[0].after == 1.0
    after = reference(s, ("attention.Wk", (1, 0), 0.5))["weights"][1, 1]
    assert moved.direction == "fall"
    assert moved.moved[0].after == pytest.approx(after, abs=1e-12)
    assert after < reference(s)["weights"][1, 1]


def test_one_visible_key_gets_share_one_whatever_its_score() -> None:
    s = scenario("single-key")
    trace = compute(s)
    fill, alone, shared = s.exercises
    values = {c.array: c.value for c in answer(trace, fill).cells}
    ref = reference(s)
    assert values == pytest.approx({"scores": ref["scores"][0, 0], "weights": 1.0})
    assert ref["scores"][0, 0] == pytest.approx(26 / math.sqrt(2))  # q=[6,-4], k=[5,1]
    assert answer(trace, alone).direction == "same"
    edited = reference(s, ("attention.Wq", (0, 0), 3.0))
    assert edited["weights"][0, 0] == 1.0
    expected = "rise" if edited["weights"][1, 0] > ref["weights"][1, 0] else "fall"
    assert answer(trace, shared).direction == expected


def test_the_largest_share_is_not_the_cause() -> None:
    s = scenario("pronoun")
    trace = compute(s)
    fill, tired = s.exercises
    ref = reference(s)
    assert int(np.argmax(ref["weights"][7])) == 1  # “it” gives “animal” the largest share
    values = [c.value for c in answer(trace, fill).cells]
    assert values == pytest.approx(ref["mixed"][7].tolist(), abs=1e-12)
    # The output's second number comes from “street” alone, not from the largest share.
    assert values[1] == pytest.approx(ref["weights"][7, 5])
    # The word that settles the meaning cannot move what “it” reads: it comes later.
    assert answer(trace, tired).direction == "same"


def test_wv_does_not_change_the_shares_of_its_own_layer() -> None:
    s = scenario("three-layers")
    trace = compute(s)
    own, next_layer = (answer(trace, e) for e in s.exercises[:2])
    assert own.unchanged == (2,)  # layer 1's Wv, not its Wq or Wk
    assert next_layer.unchanged == (1,)  # layer 2's own Wv; layer 1's Wv reaches layer 2
    assert next_layer.moved[0].change != 0
