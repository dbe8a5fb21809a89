"""The KV cache: a generated token computed from the cached keys and values equals recomputing
the whole extended document (issue 24), for every construct of tests/engine/generation_documents.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.generation.append import extend
from engine.generation.kv_cache import cache_of, next_position
from tests.engine.generation_documents import STEPS, built, cases, learned_table, scenario

TOLERANCE = 1e-12
APPENDED = (2, 0, 1)
"""The ids appended, one per step (every document's vocabulary has at least three)."""


@pytest.mark.parametrize("name", list(cases()))
def test_the_cached_row_equals_the_full_recompute(name: str) -> None:
    document = scenario(name)
    cache = cache_of(compute(document))
    for token in APPENDED[:STEPS]:
        row = next_position(cache, token)
        document = extend(document, token)
        full = compute(document)
        assert row.cache.n == document.n
        np.testing.assert_allclose(row.logits, full.arrays["logits"][-1], rtol=0,
                                   atol=TOLERANCE)
        np.testing.assert_allclose(row.probs, full.arrays["probs"][-1], rtol=0, atol=TOLERANCE)
        scopes = [step.scope for step in full.steps
                  if step.op == "weights" and step.stack == "decoder"]
        assert scopes and all(f"{scope}weights" in row.arrays for scope in scopes)
        for scope in scopes:
            shares = full.arrays[f"{scope}weights"][:, -1:, :]
            np.testing.assert_allclose(row.arrays[f"{scope}weights"], shares, rtol=0,
                                       atol=TOLERANCE)
            np.testing.assert_allclose(row.arrays[f"{scope}attn_out"],
                                       full.arrays[f"{scope}attn_out"][-1:], rtol=0,
                                       atol=TOLERANCE)
        cache = row.cache


def test_the_cache_holds_the_grouped_heads_and_the_memory_once() -> None:
    grouped = scenario("kv_heads")
    cache = cache_of(compute(grouped))
    a = grouped.layers[0].attention
    assert a.groups == 1 and a.heads == 2
    assert cache.keys["L1."].shape == (grouped.n, a.groups * a.d_k)
    row = next_position(cache, 1)
    assert row.cache.keys["L1."].shape == (grouped.n + 1, a.groups * a.d_k)
    # the earlier rows are reused as they were, not recomputed
    assert np.array_equal(row.cache.keys["L1."][:-1], cache.keys["L1."])

    seq2seq = scenario("encoder-decoder")
    memory = compute(seq2seq).arrays["enc.memory"]
    cache = cache_of(compute(seq2seq))
    cross = seq2seq.layers[0].cross_attention
    assert cross is not None
    expected_keys = memory @ cross.Wk + (cross.bk if cross.bk is not None else 0.0)
    np.testing.assert_allclose(cache.keys["L1.cross."], expected_keys, atol=1e-15)
    grown = next_position(next_position(cache, 0).cache, 1).cache
    assert grown.keys["L1.cross."] is cache.keys["L1.cross."]


def test_windowed_shares_forget_the_keys_that_left_the_window() -> None:
    windowed = scenario("window")
    row = next_position(cache_of(compute(windowed)), 0)
    shares = row.arrays["L1.weights"][:, 0, :]
    p = windowed.n  # the new position; the window is 2: keys p − 1 and p
    assert np.all(shares[:, : p - 1] == 0.0)
    np.testing.assert_allclose(shares.sum(axis=-1), 1.0, atol=1e-15)


def test_a_learned_table_refuses_past_its_end() -> None:
    document = parse_scenario(built(2, positions=learned_table(5)))
    assert document.n == 4
    cache = cache_of(compute(document))
    longer = extend(document, 0)
    with pytest.raises(ScenarioError) as refused:
        extend(longer, 0)
    assert refused.value.place == "positions.table"
    assert "5 rows" in refused.value.problem and "row 5" in refused.value.problem
    second = next_position(cache, 0).cache
    with pytest.raises(ScenarioError, match=r"^positions\.table: "):
        next_position(second, 0)


def test_a_stack_that_is_not_causal_has_no_cache() -> None:
    doc = built(20, attention_keys={"causal": False})
    with pytest.raises(ScenarioError) as refused:
        cache_of(compute(parse_scenario(doc)))
    assert refused.value.place == "layers.0.attention.causal"
