"""The trace of a longer document grown from the KV cache (issue 24, Generate next in the
window): every array equals the full compute of the longer document to 1e-12, for every
construct the cache supports."""

from __future__ import annotations

import numpy as np
import pytest

from engine import Trace, compute, parse_scenario
from engine.generation.append import extend
from engine.generation.grow import grown
from tests.engine.generation_documents import STEPS, cases, scenario

TOLERANCE = 1e-12
APPENDED = (2, 0, 1)


def assert_equal_traces(got: Trace | None, expected: Trace) -> None:
    assert got is not None
    assert got.steps == expected.steps
    assert list(got.arrays) == list(expected.arrays)
    for name, array in expected.arrays.items():
        assert got.arrays[name].shape == array.shape, name
        np.testing.assert_allclose(got.arrays[name], array, rtol=0, atol=TOLERANCE,
                                   err_msg=name)
    assert list(got.visibility) == list(expected.visibility)
    for scope, visible in expected.visibility.items():
        assert np.array_equal(got.visibility[scope], visible), scope
    assert np.array_equal(got.visible, expected.visible)


@pytest.mark.parametrize("name", list(cases()))
def test_a_grown_trace_equals_the_full_compute(name: str) -> None:
    document = scenario(name)
    trace = compute(document)
    for token in APPENDED[:STEPS]:
        document = extend(document, token)
        longer = grown(trace, document)
        assert_equal_traces(longer, compute(document))
        assert longer is not None and longer.scenario is document
        trace = longer


def test_the_earlier_rows_are_kept_and_their_scores_read_the_new_key() -> None:
    document = scenario("alibi")
    before = compute(document)
    longer = extend(document, 2)
    after = grown(before, longer)
    assert after is not None
    n = document.n
    assert np.array_equal(after.arrays["L1.Q"][:n], before.arrays["L1.Q"])  # reused as is
    assert np.array_equal(after.arrays["L1.weights"][:, :n, n], np.zeros((2, n)))  # masked
    q, k = before.arrays["L1.Q"], after.arrays["L1.K"][n]
    a = document.layers[0].attention
    slopes = document.positions.head_slopes(a.heads)  # type: ignore[union-attr]
    for head in range(a.heads):
        cols = slice(head * a.d_k, (head + 1) * a.d_k)
        expected = q[:, cols] @ k[cols] / np.sqrt(a.d_k) - slopes[head] * (np.arange(n) - n)
        np.testing.assert_allclose(after.arrays["L1.scores"][head, :n, n], expected,
                                   rtol=0, atol=TOLERANCE)


def test_a_stack_that_is_not_causal_is_not_grown() -> None:
    doc = cases()["sinusoidal"]
    for layer in doc["layers"]:
        layer["attention"]["causal"] = False
    document = parse_scenario(doc)
    longer = extend(document, 1)
    assert grown(compute(document), longer) is None
