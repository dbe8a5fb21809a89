"""Attention sinks and the model view's layers: each head's mean share on the first key and a
row renormalised without it, against numpy computed here from the scores."""

from __future__ import annotations

import numpy as np
import pytest

from app.model.examples import resolve_document
from engine import ScenarioError, Trace, compute, load_scenario
from engine.sinks import layer_shares, parse_layers, sink_shares, strongest_sink, without_first


@pytest.fixture(scope="module")
def three_layers() -> Trace:
    return compute(load_scenario(resolve_document("three-layers")))


def _softmax_causal(scores: np.ndarray) -> np.ndarray:
    n = scores.shape[-1]
    masked = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    exps = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)


def test_each_heads_sink_is_the_mean_share_on_the_first_key(three_layers: Trace) -> None:
    layers = layer_shares(three_layers)
    assert [shares.label for shares in layers] == ["L1", "L2", "L3"]
    assert [shares.step for shares in layers] == [three_layers.step_index(f"L{k}.weights")
                                                  for k in (1, 2, 3)]
    for k, shares in enumerate(layers, start=1):
        expected = _softmax_causal(three_layers.arrays[f"L{k}.scores"])[:, :, 0].mean(axis=1)
        np.testing.assert_allclose(sink_shares(shares), expected, rtol=1e-12)
    # printed in the picture to two decimals (see tests/export/test_export_model_view.py)
    assert [f"{v:.2f}" for v in sink_shares(layers[0])] == ["0.66", "0.67"]


def test_the_strongest_sink_renormalises_the_receivers_row_without_key_0(
        three_layers: Trace) -> None:
    sink = strongest_sink(layer_shares(three_layers), receiver=2)
    assert sink is not None and (sink.layer, sink.head) == (2, 1)
    row = _softmax_causal(three_layers.arrays["L3.scores"])[1, 2]
    np.testing.assert_allclose(sink.row, row, rtol=1e-12)
    np.testing.assert_allclose(sink.renormalised, [row[1] / (row[1] + row[2]),
                                                   row[2] / (row[1] + row[2])], rtol=1e-12)
    assert sink.renormalised.sum() == pytest.approx(1.0)
    np.testing.assert_array_equal(without_first(np.array([1.0, 0.0, 0.0])), [0.0, 0.0])


@pytest.mark.parametrize(("text", "expected"), [(None, range(3)), ("2-3", range(1, 3)),
                                                ("2", range(1, 2)), (" 1-1 ", range(0, 1))])
def test_layers_are_counted_from_1(text: str | None, expected: range) -> None:
    assert parse_layers(text, 3) == expected


@pytest.mark.parametrize(("text", "words"), [("0-2", "layers 1 to 3, got 0-2"),
                                             ("3-2", "layers 1 to 3, got 3-2"),
                                             ("2-9", "layers 1 to 3, got 2-9"),
                                             ("two", "expected layers A-B")])
def test_layers_out_of_range_or_malformed_are_refused_at_the_option(text: str,
                                                                    words: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_layers(text, 3)
    assert str(refused.value).startswith("--layers") and words in str(refused.value)
