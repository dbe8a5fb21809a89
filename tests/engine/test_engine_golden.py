"""The chapter's worked examples, F11 and G01, reproduced number by number.

Golden numbers are the ones printed in the chapter (6 decimals for G01) or are recomputed here with
``math`` from the example's inputs, never taken from the engine itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Trace
from tests.examples import trace_of


def printed(text: str) -> list[float]:
    """Numbers as the chapter prints them, with its true minus sign."""
    return [float(part.replace("−", "-")) for part in text.strip("[]").split(",")]


def assert_printed(values: np.ndarray, chapter: str) -> None:
    """``values`` round to the chapter's printed 6 decimals."""
    expected = printed(chapter)
    got = [float(v) for v in np.ravel(values)]
    assert len(got) == len(expected)
    for value, number in zip(got, expected, strict=True):
        assert f"{value:.6f}" == f"{number:.6f}", (got, chapter)
        assert abs(value - number) <= 5e-7 + 1e-15


# -- G01: the chapter's table, row by row -----------------------------------------------------

@pytest.fixture(scope="module")
def g01() -> Trace:
    return trace_of("g01")


def test_g01_step_1_input_norm(g01: Trace) -> None:
    assert_printed(g01.arrays["norm1"], "[0.999980,−0.999980,−0.999995,0.999995]")


def test_g01_step_2_q_k_v_equal_the_normed_input(g01: Trace) -> None:
    for name in ("Q", "K", "V"):
        assert np.array_equal(g01.arrays[name], g01.arrays["norm1"]), name
    assert_printed(g01.arrays["Q"][1], "[−0.999995,0.999995]")


def test_g01_step_3_causal_attention(g01: Trace) -> None:
    weights = g01.arrays["weights"]
    assert weights.shape == (1, 2, 2)
    assert weights[0, 0, 0] == 1.0 and weights[0, 0, 1] == 0.0
    assert_printed(weights[0, 1], "[0.055810,0.944190]")
    assert_printed(g01.arrays["mixed"][1], "[−0.888377,0.888377]")
    assert_printed(g01.arrays["attn_out"][1], "[−0.888377,0.888377]")


def test_g01_step_4_first_residual(g01: Trace) -> None:
    assert_printed(g01.arrays["resid1"][1], "[−0.888377,2.888377]")


def test_g01_step_5_norm_ffn_and_second_residual(g01: Trace) -> None:
    assert_printed(g01.arrays["norm2"][1], "[−0.999999,0.999999]")
    assert_printed(g01.arrays["ffn_out"][1], "[0,0.499999]")
    assert_printed(g01.arrays["resid2"][1], "[−0.888377,3.388376]")


def test_g01_step_6_logits_and_probabilities(g01: Trace) -> None:
    assert_printed(g01.arrays["logits"][1], "[−0.999999,0.999999,1.499998]")
    assert_printed(g01.arrays["probs"][1], "[0.048611,0.359188,0.592201]")


def test_g01_row_two_recomputed_with_math() -> None:
    """The whole second row again, from X = [[1,0],[0,2]], with plain ``math``."""
    eps = 1e-5

    def layer_norm(row: list[float]) -> list[float]:
        mean = sum(row) / len(row)
        var = sum((x - mean) ** 2 for x in row) / len(row)
        return [(x - mean) / math.sqrt(var + eps) for x in row]

    x = [[1.0, 0.0], [0.0, 2.0]]
    normed = [layer_norm(r) for r in x]
    s = [sum(a * b for a, b in zip(normed[1], normed[k], strict=True)) / math.sqrt(2)
         for k in range(2)]
    top = max(s)
    e = [math.exp(v - top) for v in s]
    shares = [v / sum(e) for v in e]
    attn = [sum(shares[k] * normed[k][c] for k in range(2)) for c in range(2)]
    resid1 = [x[1][c] + attn[c] for c in range(2)]
    ffn = [0.5 * max(v, 0.0) for v in layer_norm(resid1)]
    resid2 = [resid1[c] + ffn[c] for c in range(2)]
    final = layer_norm(resid2)
    unembed = [[1.0, 0.0, -1.0], [0.0, 1.0, 0.5]]
    logits = [sum(final[r] * unembed[r][v] for r in range(2)) for v in range(3)]
    top = max(logits)
    e = [math.exp(v - top) for v in logits]
    probs = [v / sum(e) for v in e]

    g = trace_of("g01").arrays
    assert np.allclose(g["weights"][0, 1], shares, rtol=0, atol=1e-14)
    assert np.allclose(g["resid1"][1], resid1, rtol=0, atol=1e-14)
    assert np.allclose(g["resid2"][1], resid2, rtol=0, atol=1e-14)
    assert np.allclose(g["logits"][1], logits, rtol=0, atol=1e-14)
    assert np.allclose(g["probs"][1], probs, rtol=0, atol=1e-14)


def test_g01_first_position_reads_only_itself(g01: Trace) -> None:
    a = g01.arrays
    assert np.array_equal(a["attn_out"][0], a["V"][0])
    assert np.array_equal(a["resid1"][0], a["X"][0] + a["V"][0])
    assert math.isclose(float(a["probs"][0].sum()), 1.0, abs_tol=1e-15)


# -- F11: two positions, causal, scaled --------------------------------------------------------

@pytest.fixture(scope="module")
def f11() -> Trace:
    return trace_of("f11")


def test_f11_projections(f11: Trace) -> None:
    a = f11.arrays
    # 我 = [1, 1] and 爱 = [1, −1] times Wq = [[1, 1], [−1, 1]], by hand.
    assert a["Q"].tolist() == [[1 * 1 + 1 * -1, 1 * 1 + 1 * 1], [1 * 1 + -1 * -1, 1 * 1 + -1 * 1]]
    assert a["Q"].tolist() == [[0.0, 2.0], [2.0, 0.0]]
    # The chapter: x₁ = [1, −1] times Wk gives k₁ = [0, 1]; times Wv gives v₁ = [0, 20].
    assert a["K"].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert a["K"][1].tolist() == [0.0, 1.0]
    assert a["V"].tolist() == [[10.0, 0.0], [0.0, 20.0]]
    assert a["V"][1].tolist() == [0.0, 20.0]


def test_f11_scores_are_divided_by_root_two(f11: Trace) -> None:
    scores = f11.arrays["scores"]
    assert scores.shape == (1, 2, 2)
    dots = [[0 * 1 + 2 * 0, 0 * 0 + 2 * 1], [2 * 1 + 0 * 0, 2 * 0 + 0 * 1]]
    for i in range(2):
        for j in range(2):
            assert math.isclose(float(scores[0, i, j]), dots[i][j] / math.sqrt(2),
                                rel_tol=1e-15, abs_tol=0.0)
    assert math.isclose(float(scores[0, 1, 0]), math.sqrt(2), rel_tol=1e-15)


def test_f11_shares(f11: Trace) -> None:
    w = f11.arrays["weights"][0]
    # 爱 reads 我 with score √2 and itself with score 0.
    share = math.exp(math.sqrt(2)) / (math.exp(math.sqrt(2)) + math.exp(0))
    assert math.isclose(float(w[1, 0]), share, rel_tol=1e-14)
    assert math.isclose(float(w[1, 1]), 1 - share, rel_tol=1e-13)
    assert f"{w[1, 0]:.3f}" == "0.804" and f"{w[1, 1]:.3f}" == "0.196"
    assert w[0, 0] == 1.0  # exactly: the first position sees only itself
    assert w[0, 1] == 0.0  # exactly: 爱 is masked for 我
    assert float(w[1].sum()) == pytest.approx(1.0, abs=1e-15)


def test_f11_mix(f11: Trace) -> None:
    share = math.exp(math.sqrt(2)) / (math.exp(math.sqrt(2)) + 1.0)
    mixed = f11.arrays["mixed"]
    assert mixed[0].tolist() == [10.0, 0.0]
    assert np.allclose(mixed[1], [share * 10.0, (1 - share) * 20.0], rtol=1e-14, atol=0)
    assert np.array_equal(f11.arrays["attn_out"], mixed)


def test_f11_has_exactly_the_attention_arrays(f11: Trace) -> None:
    assert list(f11.arrays) == ["X", "Q", "K", "V", "scores", "weights", "mixed", "attn_out"]
    assert [s.id for s in f11.steps] == ["inputs", "projections", "scores", "weights", "mix"]
    assert f11.visible.tolist() == [[True, False], [True, True]]
