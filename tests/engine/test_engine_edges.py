"""Numbers at the edges (issue 13, items 12–13): constant rows and extreme but finite scores."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import ScenarioError, compute, explain, parse_scenario
from engine.forward.numerics import layer_norm, softmax
from tests.examples import EXAMPLES


def norms_document(x: list[list[float]], eps: float) -> dict[str, object]:
    document = json.loads((EXAMPLES / "norms.qkv.json").read_text(encoding="utf-8"))
    d = len(x[0])
    identity = np.eye(d).tolist()
    document["X"] = x
    document["attention"].update(Wq=identity, Wk=identity, Wv=identity)
    document["block"].update(eps=eps, gamma1=[1] * d, beta1=[0] * d, gamma2=[1] * d,
                             beta2=[0] * d, gamma_f=[1] * d, beta_f=[0] * d)
    document["block"]["ffn"].update(W1=identity, W2=identity)
    return document


def test_every_constant_row_is_exactly_constant_for_layer_norm() -> None:
    # 99 values 0.1 … 9.9 in rows of width 2 … 8: 693 constant rows. With ε = 0 each one is a
    # division by zero; with ε > 0 each normalises to exactly β (here 0.5), never to ±1.
    hits = 0
    for d in range(2, 9):
        for k in range(1, 100):
            row = np.full((1, d), k / 10)
            with np.errstate(invalid="raise", divide="raise"), pytest.raises(FloatingPointError):
                layer_norm(row, np.ones(d), np.zeros(d), 0.0)
            out = layer_norm(row, np.full(d, 2.0), np.full(d, 0.5), 1e-5)
            assert np.array_equal(out, np.full((1, d), 0.5))
            hits += 1
    assert hits == 693


def test_a_constant_row_with_eps_zero_is_refused_not_minus_one() -> None:
    scenario = parse_scenario(norms_document([[0.1, 0.1, 0.1]], 0.0))
    with pytest.raises(ScenarioError, match=r"^norm1\[0,0\]: .*ε = 0 with a constant row"):
        compute(scenario)
    # The same row with ε > 0 normalises to zeros, and explain states the exact mean.
    trace = compute(parse_scenario(norms_document([[0.1, 0.1, 0.1]], 1e-5)))
    assert np.array_equal(trace.arrays["norm1"], np.zeros((1, 3)))
    text = explain(trace, "norm1", (0, 0)).text()
    assert "(0.1 − 0.1) / √(0 + 0.00001)" in text and "= 0" in text


def test_opposite_extreme_scores_give_exactly_one_and_zero() -> None:
    scores = np.array([[1e308, -1e308], [-1e308, 1e308], [3.0, 3.0]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        shares = softmax(scores)
        hidden = softmax(scores, np.array([[True, True], [True, True], [True, False]]))
    assert shares.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    assert hidden.tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]


def test_d_resizes_a_stack_whose_middle_layer_has_no_block() -> None:
    """Every layer of a stack hands on rows of width d, with a block or without: resizing d
    fits the block-less layer's Wo too (it was kept at the old width, and every d refused)."""
    from engine import parse_scenario
    from engine.scenario.resize import Sizes, resize
    from tests.engine.v2_documents import document

    doc = document(31, n=3, d=4, layers=3)
    del doc["layers"][1]["block"]
    scenario = parse_scenario(doc)
    a = scenario.attention
    smaller = parse_scenario(resize(scenario, Sizes(n=3, d=2, d_k=a.d_k, d_v=a.d_v,
                                                    heads=a.heads)).document)
    assert [layer.attention.Wo.shape for layer in smaller.layers] == [(4, 2)] * 3
    assert smaller.X.shape == (3, 2)
