"""The block's elementwise and row-wise operations against independent computations: the
activations (stdlib's normal distribution for GELU, the logistic function for SiLU), the norms
and the per-row statistics the canvas prints beside them."""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist

import numpy as np
import pytest

from engine.forward.numerics import activate, layer_norm, norm, rms_norm, row_statistics, softmax

Z = [-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]


def gelu(z: float) -> float:
    """z · Φ(z), with Φ from the standard library's normal distribution."""
    return z * NormalDist().cdf(z)


def silu(z: float) -> float:
    return z / (1.0 + math.exp(-z))


@pytest.mark.parametrize(("kind", "reference"), [
    ("gelu", gelu), ("silu", silu), ("relu", lambda z: max(z, 0.0)), ("identity", lambda z: z)])
def test_activations_agree_with_their_definitions(kind: str, reference: object) -> None:
    z = np.array([Z, [v / 4 for v in Z]])
    got = activate(kind, z)
    assert callable(reference)
    expected = [[reference(v) for v in row] for row in z.tolist()]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def test_the_chapters_activation_values() -> None:
    """GELU(1) = Φ(1) = 0.841345, GELU(−1) = −0.158655; SiLU(1) = σ(1) = 0.731059."""
    row = np.array([[1.0, -1.0]])
    np.testing.assert_allclose(activate("gelu", row), [[0.8413447460685429, -0.15865525393145707]],
                               rtol=1e-12)
    np.testing.assert_allclose(activate("silu", row), [[0.7310585786300049, -0.2689414213699951]],
                               rtol=1e-12)


def test_silu_of_huge_values_neither_overflows_nor_warns() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = activate("silu", np.array([[800.0, -800.0, -40.0]]))
    assert out[0, 0] == 800.0
    assert out[0, 1] == 0.0
    assert out[0, 2] == pytest.approx(silu(-40.0), rel=1e-12)


def test_identity_and_no_norm_return_copies() -> None:
    z = np.array([[1.0, -2.0]])
    for out in (activate("identity", z), norm("none", z, np.ones(2), np.zeros(2), 1e-5)):
        np.testing.assert_array_equal(out, z)
        assert out is not z
        out[0, 0] = 9.0
        assert z[0, 0] == 1.0


ROWS = np.array([[1.0, 3.0, 8.0], [-2.0, 0.0, 0.5]])
GAMMA = np.array([1.0, 2.0, -1.0])
BETA = np.array([0.5, 0.0, 1.0])
EPS = 0.01


def test_layer_norm_row_by_row() -> None:
    expected = []
    for row in ROWS.tolist():
        mean = sum(row) / len(row)
        var = sum((v - mean) ** 2 for v in row) / len(row)
        expected.append([(v - mean) / math.sqrt(var + EPS) * g + b
                         for v, g, b in zip(row, GAMMA, BETA, strict=True)])
    np.testing.assert_allclose(layer_norm(ROWS, GAMMA, BETA, EPS), expected, rtol=1e-13)
    np.testing.assert_allclose(norm("layernorm", ROWS, GAMMA, BETA, EPS), expected, rtol=1e-13)


def test_rms_norm_row_by_row_ignores_beta() -> None:
    expected = []
    for row in ROWS.tolist():
        rms = math.sqrt(sum(v * v for v in row) / len(row) + EPS)
        expected.append([v / rms * g for v, g in zip(row, GAMMA, strict=True)])
    np.testing.assert_allclose(rms_norm(ROWS, GAMMA, EPS), expected, rtol=1e-13)
    np.testing.assert_allclose(norm("rmsnorm", ROWS, GAMMA, BETA, EPS), expected, rtol=1e-13)


def test_row_statistics_are_what_each_norm_divides_by() -> None:
    layer = row_statistics("layernorm", ROWS, EPS)
    rms = row_statistics("rmsnorm", ROWS, EPS)
    for k, row in enumerate(ROWS.tolist()):
        mean = sum(row) / 3
        var = sum((v - mean) ** 2 for v in row) / 3
        mean_square = sum(v * v for v in row) / 3
        np.testing.assert_allclose(layer[k], [mean, var, math.sqrt(var + EPS)], rtol=1e-13)
        np.testing.assert_allclose(rms[k], [mean_square, math.sqrt(mean_square + EPS)],
                                   rtol=1e-13)
    none = row_statistics("none", ROWS, EPS)
    assert none.shape == (2, 0) and none.dtype == np.float64


def test_softmax_normalises_the_last_axis_of_a_stack_of_heads() -> None:
    """Two heads of 2×3 scores, no mask: each row of each head sums to 1 on its own."""
    scores = np.array([[[0.0, 1.0, 2.0], [5.0, 5.0, 5.0]],
                       [[-1.0, 0.0, 3.0], [2.0, -2.0, 0.0]]])
    expected = [[[math.exp(v - max(row)) / sum(math.exp(w - max(row)) for w in row)
                  for v in row] for row in head] for head in scores.tolist()]
    np.testing.assert_allclose(softmax(scores), expected, rtol=1e-13)
