"""A GPT-2 small layer is a document, and a one-cell edit of it touches only the edited matrix
(issue 15; docs/limits.md)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import engine.format.document
from engine import ScenarioError, compute, parse_scenario
from engine.format.io import needs_sidecar
from engine.format.reader import MAX_HEADS
from engine.format.sidecar_write import JSON_NUMBERS
from engine.scenario.edit import with_cell, with_document_value, with_parameter
from engine.scenario.modules import Attention
from engine.scenario.scenario import Scenario, number_count
from engine.scenario.tree import walk
from tests.examples import EXAMPLES

N, D, FFN, HEADS = 8, 768, 3072, 12
"""GPT-2 small: d = 768, 12 heads of width 64, a feed-forward 3072 wide (eight tokens)."""


def gpt2_small(heads: int = HEADS) -> dict[str, Any]:
    """One GPT-2 small decoder layer with every bias, seeded random weights (numpy arrays: the
    document reader takes them as they are, which keeps building it quick)."""
    rng = np.random.default_rng(15)

    def table(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.02, shape)

    return {"title": "GPT-2 small, one layer", "tokens": [f"t{k}" for k in range(N)],
            "X": table(N, D),
            "attention": {"heads": heads, "causal": True, "scale": True,
                          **{name: table(D, D) for name in ("Wq", "Wk", "Wv", "Wo")},
                          **{name: table(D) for name in ("bq", "bk", "bv", "bo")}},
            "block": {"norm": "layernorm", "ffn": {"W1": table(D, FFN), "b1": table(FFN),
                                                   "activation": "gelu", "W2": table(FFN, D),
                                                   "b2": table(D)}}}


# X; Wq, Wk, Wv, Wo and their biases; W1, b1, W2, b2; the norms' gamma1, beta1, gamma2, beta2
# and (the version-1 block holds them) the final norm's gamma_f, beta_f.
NUMBERS = N * D + 4 * D * D + 4 * D + 2 * D * FFN + FFN + D + 6 * D


@pytest.fixture(scope="module")
def layer() -> Scenario:
    return parse_scenario(gpt2_small())


def test_a_gpt2_small_layer_is_accepted_and_computes(layer: Scenario) -> None:
    assert (layer.n, layer.d, layer.attention.heads, layer.attention.d_k) == (N, D, HEADS, 64)
    assert layer.attention.Wq.shape == (D, D)
    assert layer.block is not None and layer.block.ffn.W1.shape == (D, FFN)
    assert number_count(layer) == NUMBERS == 7_095_552
    assert HEADS <= MAX_HEADS
    trace = compute(layer)
    # The queries of the first head, from the normed rows, computed here with numpy.
    x = layer.X
    normed = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
    q = normed @ layer.attention.Wq + layer.attention.bq
    np.testing.assert_allclose(trace.arrays["Q"], q, rtol=1e-10, atol=1e-12)


def test_sixty_five_heads_are_refused_naming_the_place() -> None:
    document = gpt2_small()
    document["attention"]["heads"] = MAX_HEADS + 1
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    assert str(caught.value) == ("attention.heads: expected a whole number from 1 to 64, "
                                 "got 65")


def test_a_layer_with_an_embedding_table_is_past_json_and_keeps_a_sidecar() -> None:
    document = gpt2_small()
    del document["X"]
    document["embedding"] = np.zeros((4096, D))
    document["token_ids"] = list(range(N))
    count = NUMBERS - N * D + 4096 * D  # X is looked up, not stored
    assert count > JSON_NUMBERS
    scenario = parse_scenario(document)
    assert number_count(scenario) == count and needs_sidecar(scenario)


def test_a_cell_edit_copies_only_its_matrix_and_reads_nothing_again(
        layer: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_document: object) -> None:
        raise AssertionError("the document was read again")

    monkeypatch.setattr(engine.format.document, "parse_document", refuse)
    old = layer.block.ffn.W1 if layer.block is not None else None
    edited = with_cell(layer, "block.ffn.W1", (3, 5), 0.5)
    assert old is not None and float(old[3, 5]) != 0.5
    new = edited.parameter("block.ffn.W1")
    assert float(new[3, 5]) == 0.5 and not new.flags.writeable
    changed = new != old
    assert changed.sum() == 1 and changed[3, 5]
    for path in layer.parameter_paths():
        if path != "block.ffn.W1":
            assert edited.parameter(path) is layer.parameter(path), path


def test_a_number_that_is_not_finite_is_refused_naming_the_cell(layer: Scenario) -> None:
    with pytest.raises(ScenarioError) as caught:
        with_cell(layer, "block.ffn.W1", (3, 5), float("inf"))
    assert str(caught.value) == ("block.ffn.W1[3][5]: inf is not allowed: every number must be "
                                 "finite")


def test_an_option_edit_keeps_every_array(layer: Scenario) -> None:
    edited = with_document_value(layer, "attention.causal", False)
    assert not edited.attention.causal
    for path in layer.parameter_paths():
        assert edited.parameter(path) is layer.parameter(path), path


def test_a_cell_of_the_embedding_looks_the_rows_up_again() -> None:
    document = json.loads((EXAMPLES / "tokenizer.qkv.json").read_text(encoding="utf-8"))
    scenario = parse_scenario(document)
    assert scenario.token_ids is not None and scenario.embedding is not None
    token = scenario.token_ids[1]
    edited = with_cell(scenario, "embedding", (token, 0), 7.25)
    assert edited.embedding is not None and float(edited.embedding[token, 0]) == 7.25
    expected = np.array(scenario.embedding)
    expected[token, 0] = 7.25
    np.testing.assert_array_equal(edited.X, expected[list(scenario.token_ids)])


@pytest.mark.parametrize("name", ["tokenizer", "encoder-decoder", "three-layers", "f11"])
def test_an_edit_hands_on_the_places_a_fresh_walk_finds(name: str) -> None:
    scenario = parse_scenario(json.loads((EXAMPLES / f"{name}.qkv.json").read_text("utf-8")))
    for path in scenario.parameter_paths():
        array = scenario.parameter(path)
        for edited in (with_cell(scenario, path, (0,) * array.ndim, 0.25),
                       with_parameter(scenario, path, array + 1.0)):
            assert edited.array_places == Scenario.array_places.func(edited), path


@pytest.mark.parametrize("name", ["tokenizer", "encoder-decoder", "three-layers", "f11"])
def test_an_edit_hands_on_its_modules_places_and_finds_the_new_modules(name: str) -> None:
    scenario = parse_scenario(json.loads((EXAMPLES / f"{name}.qkv.json").read_text("utf-8")))
    places, attentions = scenario.module_places, scenario.attention_places
    for path, (_locator, field) in scenario.array_places.items():
        array = scenario.parameter(path)
        edited = with_cell(scenario, path, (0,) * array.ndim, 0.25)
        assert edited.module_places is places and edited.attention_places is attentions, path
        assert places == Scenario.module_places.func(edited), path
        assert attentions == Scenario.attention_places.func(edited), path
        module = ".".join(path.split(".")[:-1])
        if module in places:  # the edited array's own module, found in the new tree
            assert float(np.asarray(getattr(edited.module(module), field)).flat[0]) == 0.25
        assert edited.attentions == tuple(
            node for _, node in walk(edited) if isinstance(node, Attention)), path
