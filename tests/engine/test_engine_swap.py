"""Swapping two tokens, and comparing the traces with rows paired by token.

Without positions and without a causal mask, attention is blind to order: the swapped trace is
the original with its rows (and the shares' rows and columns) permuted, exactly. The checks build
the permuted arrays by hand here, index by index.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import compute, dumps_scenario, parse_scenario
from engine.arithmetic.differences import compare, in_token_order, source_cell, token_axes
from engine.generation.append import extend
from engine.scenario.swap import swap_order, swap_tokens

RNG = np.random.default_rng(7)


def document(causal: bool, ids: bool = False) -> dict[str, object]:
    d, n = 3, 4
    doc: dict[str, object] = {
        "tokens": ["排除", "A", "保留", "B"],
        "attention": {"heads": 1, "causal": causal,
                      "Wq": RNG.normal(size=(d, 2)).tolist(),
                      "Wk": RNG.normal(size=(d, 2)).tolist(),
                      "Wv": RNG.normal(size=(d, 2)).tolist(),
                      "Wo": RNG.normal(size=(2, d)).tolist()},
        "block": {"norm": "layernorm", "ffn": {"W1": RNG.normal(size=(d, 4)).tolist(),
                                               "W2": RNG.normal(size=(4, d)).tolist()},
                  "unembed": RNG.normal(size=(d, 2)).tolist()},
    }
    if ids:
        doc["token_ids"] = [0, 3, 1, 2]
        doc["embedding"] = RNG.normal(size=(5, d)).tolist()
    else:
        doc["X"] = RNG.normal(size=(n, d)).tolist()
    return doc


def test_swap_moves_labels_and_rows_and_keeps_parameters() -> None:
    s = parse_scenario(document(causal=False))
    t = swap_tokens(s, 1, 3)
    assert t.tokens == ("排除", "B", "保留", "A")
    assert np.array_equal(t.X, s.X[[0, 3, 2, 1]])
    assert t.layers[0] is s.layers[0] and t.head is s.head
    assert swap_tokens(t, 3, 1).tokens == s.tokens


def test_swap_of_token_ids_looks_the_rows_up_again() -> None:
    s = parse_scenario(document(causal=False, ids=True))
    t = swap_tokens(s, 0, 2)
    assert t.token_ids == (1, 3, 0, 2)
    assert t.embedding is not None
    assert np.array_equal(t.X, t.embedding[[1, 3, 0, 2]])


def test_swap_refuses_a_position_outside_the_scenario() -> None:
    s = parse_scenario(document(causal=False))
    with pytest.raises(IndexError, match="a scenario of 4 positions has 0 to 3"):
        swap_tokens(s, 1, 4)


def test_without_positions_or_mask_a_swap_only_permutes_rows_and_shares() -> None:
    s = parse_scenario(document(causal=False))
    a, b = compute(s), compute(swap_tokens(s, 1, 3))
    order = swap_order(4, 1, 3)
    assert order == (0, 3, 2, 1)
    perm = list(order)
    # By hand: B's rows are A's rows permuted; B's shares are A's with rows and columns permuted.
    for name in ("X", "Q", "K", "V", "mixed", "attn_out", "resid2", "logits", "probs"):
        np.testing.assert_allclose(b.arrays[name], a.arrays[name][perm], rtol=0, atol=1e-12)
    np.testing.assert_allclose(b.arrays["weights"], a.arrays["weights"][:, perm][:, :, perm],
                               rtol=0, atol=1e-12)
    # Paired by position, the shares move; paired by token, nothing does.
    assert "weights" in compare(a, b).changed()
    by_token = compare(a, b, order=order)  # equal up to the order of softmax's sums
    assert by_token.changed(1e-12) == []
    assert "weights" in by_token.common and "X" in by_token.common


def test_with_the_causal_mask_a_swap_changes_the_shares_even_without_positions() -> None:
    s = parse_scenario(document(causal=True))
    a, b = compute(s), compute(swap_tokens(s, 1, 3))
    changed = compare(a, b, order=swap_order(4, 1, 3)).changed(1e-9)
    assert "weights" in changed and "probs" in changed
    assert "X" not in changed and "Q" not in changed, "projections are row by row"


def test_token_axes_name_rows_and_the_key_columns_of_the_shares() -> None:
    trace = compute(parse_scenario(document(causal=False)))
    axes = token_axes(trace)
    assert axes["X"] == (0,) and axes["Q"] == (0,) and axes["logits"] == (0,)
    assert axes["scores"] == (1, 2) and axes["weights"] == (1, 2)


def test_pairing_by_token_leaves_arrays_without_a_token_axis_alone() -> None:
    trace = compute(parse_scenario(document(causal=False)))
    result = compare(trace, trace, order=(1, 0, 2, 3))
    assert "attention.Wq" in result.unchanged()
    assert "X" in result.changed()


def test_the_key_mask_follows_its_token() -> None:
    doc = document(causal=False)
    doc["attention"]["key_mask"] = [1, 0, 1, 1]  # type: ignore[index]
    s = parse_scenario(doc)
    t = swap_tokens(s, 1, 3)
    assert t.attention.key_mask == (True, True, True, False)
    a, b = compute(s), compute(t)
    assert b.arrays["weights"][0, :, 3].tolist() == [0.0] * 4, "A, hidden, now sits at 3"
    assert compare(a, b, order=swap_order(4, 1, 3)).changed(1e-12) == []


def test_drawn_by_token_the_swapped_trace_is_the_original_without_positions() -> None:
    s = parse_scenario(document(causal=False))
    a, b = compute(s), compute(swap_tokens(s, 1, 3))
    shown = in_token_order(b, swap_order(4, 1, 3))
    assert shown.scenario.tokens == s.tokens
    np.testing.assert_array_equal(shown.scenario.X, s.X)
    for name in ("X", "Q", "mixed", "probs", "weights", "scores"):
        np.testing.assert_allclose(shown.arrays[name], a.arrays[name], rtol=0, atol=1e-12)
    assert shown.row_order is not None and shown.row_order.source is b
    assert shown.row_order.positions == (0, 3, 2, 1)
    # Row 1 of the drawing is A, at position 3 of B: its cells are B's row 3.
    assert source_cell(shown, "weights", (0, 1, 2)) == (b, (0, 3, 2))
    assert source_cell(shown, "attention.Wq", (1, 0)) == (b, (1, 0))
    assert source_cell(a, "weights", (0, 1, 2)) == (a, (0, 1, 2))


def test_drawn_by_token_the_causal_mask_follows_its_tokens() -> None:
    s = parse_scenario(document(causal=True))
    b = compute(swap_tokens(s, 1, 3))
    shown = in_token_order(b, swap_order(4, 1, 3))
    # B as computed: A at 3 sees all four; B at 1 sees 排除 and itself. By token (rows and
    # columns 排除, A, 保留, B), by hand:
    expected = [[True, False, False, False],
                [True, True, True, True],
                [True, False, True, True],
                [True, False, False, True]]
    assert shown.visible.tolist() == expected
    assert shown.visibility[""].tolist() == expected


def test_a_swap_that_moves_a_generated_token_drops_the_run_so_the_document_reopens() -> None:
    """Swapping a prompt token with a generated one kept ``generation.chosen`` = (0, 1) over
    token ids ending (0, 0): the document saved, and did not open again."""
    doc = document(causal=True, ids=True)
    start = parse_scenario({**doc, "generation": {"temperature": 0}})
    run = extend(extend(start, 0), 1)
    assert run.generation is not None and run.generation.chosen == (0, 1)
    moved = swap_tokens(run, 0, run.n - 1)
    assert moved.generation is None
    assert parse_scenario(json.loads(dumps_scenario(moved))).token_ids == moved.token_ids
    kept = swap_tokens(run, 0, 1)  # two prompt tokens: the run still ends the token ids
    assert kept.generation == run.generation
