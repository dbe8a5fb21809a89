"""The reference itself (reference_v2.py) against numbers worked out by hand and against the
properties the constructs are known for — so that agreeing with it means something."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from tests.engine.reference_v2 import (
    activation,
    alibi,
    alibi_slopes,
    forward,
    norm,
    rope_angles,
    rotate,
    sinusoidal,
    trace_arrays,
)
from tests.engine.v2_documents import CASES, document, encoder_decoder


def test_sinusoidal_rows_by_hand() -> None:
    table = sinusoidal(3, 4, 10000.0)  # base^(2·1/4) = 100
    assert table[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    np.testing.assert_allclose(table[2], [math.sin(2), math.cos(2), math.sin(0.02),
                                          math.cos(0.02)], rtol=0, atol=1e-15)
    odd = sinusoidal(2, 3, 100.0)  # d = 3: the last column is a sine at 100^(2/3)
    assert odd[1, 2] == pytest.approx(math.sin(1 / 100 ** (2 / 3)), abs=1e-15)


def test_rope_angles_and_both_pairings_by_hand() -> None:
    angles = rope_angles(2, 4, 100.0)  # θ = 1, 100^(−1/2) = 0.1
    np.testing.assert_allclose(angles, [[0, 0], [1, 0.1]], rtol=0, atol=1e-15)
    rows = np.array([[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0]])
    c1, s1, c2, s2 = math.cos(1), math.sin(1), math.cos(0.1), math.sin(0.1)
    half = rotate(rows[:, :4], 1, angles, "half")  # pairs (0, 2) and (1, 3)
    assert half[0].tolist() == [1, 2, 3, 4]
    np.testing.assert_allclose(half[1], [c1 - 3 * s1, 2 * c2 - 4 * s2, s1 + 3 * c1,
                                         2 * s2 + 4 * c2], rtol=0, atol=1e-15)
    inter = rotate(rows[:, :4], 1, angles, "interleaved")  # pairs (0, 1) and (2, 3)
    np.testing.assert_allclose(inter[1], [c1 - 2 * s1, s1 + 2 * c1, 3 * c2 - 4 * s2,
                                          3 * s2 + 4 * c2], rtol=0, atol=1e-15)
    partial = rotate(rows[:, :4], 1, rope_angles(2, 2, 100.0), "half")  # r = 2 of d_k = 4
    np.testing.assert_allclose(partial[1], [c1 - 2 * s1, s1 + 2 * c1, 3, 4], rtol=0,
                               atol=1e-15)


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_rope_scores_depend_on_the_distance_only(pairing: str) -> None:
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((1, 6)), rng.standard_normal((1, 6))
    angles = rope_angles(8, 6, 10000.0)

    def score(p: int, r: int) -> float:
        qp = rotate(np.repeat(q, 8, 0), 1, angles, pairing)[p]
        kr = rotate(np.repeat(k, 8, 0), 1, angles, pairing)[r]
        return float(qp @ kr)

    assert score(5, 2) == pytest.approx(score(3, 0), abs=1e-13)
    assert score(7, 7) == pytest.approx(float(q[0] @ k[0]), abs=1e-13)
    assert score(5, 2) != pytest.approx(score(5, 3), abs=1e-3)


def test_alibi_by_hand() -> None:
    assert alibi_slopes(8) == [2.0**-k for k in range(1, 9)]
    assert alibi_slopes(2) == [2.0**-4, 2.0**-8]
    causal = alibi([0.5], 3, causal=True)[0]
    assert causal.tolist() == [[0, 0.5, 1], [-0.5, 0, 0.5], [-1, -0.5, 0]]
    assert alibi([0.5], 3, causal=False)[0].tolist() == [[0, -0.5, -1], [-0.5, 0, -0.5],
                                                         [-1, -0.5, 0]]


def test_norms_and_activations_by_hand() -> None:
    x = np.array([[1.0, 3.0]])
    assert norm(x, "layernorm", np.ones(2), np.zeros(2), 0.0)[0].tolist() == [[-1.0, 1.0]]
    np.testing.assert_allclose(norm(x, "layernorm", np.ones(2), np.zeros(2), 0.0)[1],
                               [[2.0, 1.0, 1.0]])
    y, stats = norm(x, "rmsnorm", np.ones(2), np.full(2, 9.0), 0.0)  # no β
    np.testing.assert_allclose(y, [[1 / math.sqrt(5), 3 / math.sqrt(5)]], rtol=1e-15)
    np.testing.assert_allclose(stats, [[5.0, math.sqrt(5)]], rtol=1e-15)
    assert norm(x, "none", np.ones(2), None, 0.0)[1].shape == (1, 0)
    one = np.array([1.0, -1.0])
    np.testing.assert_allclose(activation(one, "gelu"), [0.8413447460685429,
                                                         -0.15865525393145707], rtol=1e-15)
    np.testing.assert_allclose(activation(one, "silu"), [0.7310585786300049,
                                                         -0.2689414213699951], rtol=1e-15)
    np.testing.assert_allclose(activation(one, "gelu_tanh"), [0.8411919906082768,
                                                              -0.15880800939172324],
                               rtol=1e-15)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_share_row_sums_to_1_and_hidden_keys_get_0(case: str) -> None:
    every = forward(CASES[case]())
    for name, weights in every.items():
        if name.split(".")[-1] == "weights":  # an attention's (not the router's)
            scope = name[: -len("weights")]
            visible = every["visible:" + scope]
            np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-15)
            assert np.all(weights[:, ~visible] == 0.0), name
            assert np.all(weights[:, visible] > 0.0), name


def test_the_encoder_sees_every_source_token_and_the_decoder_reads_all_of_memory() -> None:
    every = forward(encoder_decoder(70))
    assert every["enc.L1.weights"].shape == (2, 3, 3)
    assert every["visible:enc.L2."].all()
    assert every["L1.cross.weights"].shape == (2, 2, 3)
    assert every["visible:L1.cross."].all()
    assert every["visible:L1."].tolist() == [[True, False], [True, True]]
    assert np.array_equal(every["L1.cross.K"], every["enc.memory"] @ np.array(
        encoder_decoder(70)["layers"][0]["cross_attention"]["Wk"]) + np.array(
        encoder_decoder(70)["layers"][0]["cross_attention"]["bk"]))


def test_grouped_query_heads_share_their_kv_head() -> None:
    """Heads 0, 1 read kv head 0 and heads 2, 3 kv head 1: equal queries give equal shares."""
    doc = document(5, attention_keys={"heads": 4, "kv_heads": 2})
    wq = np.array(doc["layers"][0]["attention"]["Wq"])
    wq[:, 2:4] = wq[:, 0:2]
    wq[:, 6:8] = wq[:, 4:6]
    doc["layers"][0]["attention"]["Wq"] = wq.tolist()
    bq = doc["layers"][0]["attention"]["bq"]
    doc["layers"][0]["attention"]["bq"] = bq[0:2] * 2 + bq[4:6] * 2
    w = forward(doc)["L1.weights"]
    assert np.array_equal(w[0], w[1]) and np.array_equal(w[2], w[3])
    assert not np.allclose(w[1], w[2])


def _swapped(doc: dict[str, object], a: int, b: int) -> dict[str, object]:
    out = copy.deepcopy(doc)
    rows = out["X"]
    assert isinstance(rows, list)
    rows[a], rows[b] = rows[b], rows[a]
    return out


@pytest.mark.parametrize(("positions", "permutes"), [
    ({"kind": "none"}, True), ({"kind": "sinusoidal"}, False), ({"kind": "rope"}, False),
    ({"kind": "alibi"}, False)])
def test_swapping_two_tokens_only_permutes_rows_without_positions(
        positions: dict[str, object], permutes: bool) -> None:
    """The chapter's point, non-causal: without positions attention cannot tell order."""
    doc = document(8, positions=positions, attention_keys={"causal": False})
    plain, swapped = trace_arrays(forward(doc)), trace_arrays(forward(_swapped(doc, 0, 2)))
    order = [2, 1, 0, 3]
    same = np.allclose(swapped["probs"], plain["probs"][order], rtol=0, atol=1e-12)
    assert same == permutes
    if permutes:
        np.testing.assert_allclose(swapped["L1.weights"],
                                   plain["L1.weights"][:, order][:, :, order], atol=1e-12)


def test_window_and_key_mask_visibility_by_hand() -> None:
    window = forward(CASES["window_2"]())["visible:L1."]
    assert window.astype(int).tolist() == [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0],
                                           [0, 0, 1, 1, 0], [0, 0, 0, 1, 1]]
    both = forward(CASES["window_key_mask_non_causal"]())["visible:L1."]  # i − j < 2, key 3 out
    assert both.astype(int).tolist() == [[1, 1, 1, 0, 1], [1, 1, 1, 0, 1], [0, 1, 1, 0, 1],
                                         [0, 0, 1, 0, 1], [0, 0, 0, 0, 1]]
