"""Stable softmax: huge scores give no warning and the right shares; masked shares are exactly 0."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from engine import compute, parse_scenario
from engine.forward.numerics import softmax


def shares(row: list[float]) -> list[float]:
    """Softmax by hand, shifted by the maximum."""
    top = max(row)
    exps = [math.exp(v - top) for v in row]
    return [e / sum(exps) for e in exps]


def one_feature_document(xs: list[float], causal: bool) -> dict[str, object]:
    """d = 1, Wq = Wk = Wv = [[1]], no scaling: score[i][j] = x_i·x_j."""
    return {"X": [[x] for x in xs], "attention": {"causal": causal, "scale": False,
                                                   "Wq": [[1]], "Wk": [[1]], "Wv": [[1]]}}


@pytest.mark.parametrize("causal", [False, True])
def test_scores_of_a_million_give_no_warning_and_the_right_shares(causal: bool) -> None:
    xs = [1000.0, 1000.001, -999.9995]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trace = compute(parse_scenario(one_feature_document(xs, causal)))
    scores = trace.arrays["scores"][0]
    weights = trace.arrays["weights"][0]
    assert abs(float(scores[1, 1])) > 1e6  # the naive exp(1e6) would overflow
    for i in range(3):
        row = [xs[i] * xs[j] for j in range(3)]
        assert np.allclose(scores[i], row, rtol=1e-15, atol=0)
        visible = list(range(i + 1)) if causal else list(range(3))
        expected = shares([row[j] for j in visible])
        assert np.allclose(weights[i, visible], expected, rtol=1e-9, atol=1e-300)
        assert all(weights[i, j] == 0.0 for j in range(3) if j not in visible)
    # Row 0: scores 1e6 and 1e6 + 1 (and a hugely negative one) share as 1/(1+e) and e/(1+e).
    if not causal:
        assert math.isclose(float(weights[0, 1]), math.e / (1 + math.e), rel_tol=1e-6)


def test_the_softmax_itself_is_stable_at_both_ends() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = softmax(np.array([[1e6, 1e6 + 1.0], [-1e6, -1e6 - 1.0], [1e300, -1e300]]))
    assert np.allclose(big[0], [1 / (1 + math.e), math.e / (1 + math.e)], rtol=1e-9)
    assert np.allclose(big[1], [math.e / (1 + math.e), 1 / (1 + math.e)], rtol=1e-9)
    assert big[2].tolist() == [1.0, 0.0]


def test_hidden_entries_take_no_part_in_the_maximum() -> None:
    scores = np.array([[0.0, 1e6], [2.0, 1.0]])
    visible = np.array([[True, False], [True, True]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w = softmax(scores, visible)
    assert w[0].tolist() == [1.0, 0.0]  # the hidden 1e6 would otherwise zero the visible share
    assert np.allclose(w[1], shares([2.0, 1.0]), rtol=1e-15)


def test_a_huge_hidden_score_never_leaks_into_a_trace() -> None:
    xs = [1.0, 2000.0]  # score[0][1] = 2000 is hidden from position 0 by the mask
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w = compute(parse_scenario(one_feature_document(xs, causal=True))).arrays["weights"][0]
    assert w[0].tolist() == [1.0, 0.0]
    assert np.allclose(w[1], shares([2000.0, 4_000_000.0]), rtol=0, atol=1e-300)
    assert w[1, 1] == 1.0
