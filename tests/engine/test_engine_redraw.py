"""A new draw from the logits a trace has (issue 24, the temperature slider): equal, bit for bit,
to computing the document with the new settings again."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ScenarioError, Trace, compute, parse_scenario
from engine.format.generation_keys import Generation, Settings
from engine.generation.redraw import redrawn, with_settings
from engine.scenario.edit import with_cell, with_document_value
from tests.engine.generation_documents import cases, scenario

SETTINGS = (Settings(temperature=0.37, seed=5), Settings(temperature=0.0),
            Settings(temperature=2.5, top_k=2, seed=9), Settings(top_p=0.4, seed=3),
            Settings(temperature=1e-300, top_k=3, top_p=0.6, seed=1))


def assert_same_trace(got: Trace | None, expected: Trace) -> None:
    assert got is not None
    assert got.scenario.generation == expected.scenario.generation
    assert got.steps == expected.steps
    assert list(got.arrays) == list(expected.arrays)
    for name, array in expected.arrays.items():
        assert got.arrays[name].shape == array.shape, name
        assert np.array_equal(got.arrays[name], array), name  # bit for bit
    for scope, visible in expected.visibility.items():
        assert np.array_equal(got.visibility[scope], visible)


@pytest.mark.parametrize("name", ["three-layers", "encoder-decoder", "rope", "kv_heads"])
@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_a_redraw_equals_the_full_compute_bit_for_bit(name: str, settings: Settings) -> None:
    document = scenario(name)
    before = compute(document)
    got = redrawn(before, with_settings(document, settings))
    expected = compute(with_document_value(document, "generation", Generation(
        settings=settings).to_document()))
    assert_same_trace(got, expected)
    changed = [k for k in got.arrays if not np.array_equal(got.arrays[k], before.arrays[k])]
    assert changed and all(k.startswith("gen1.") for k in changed)


def test_a_run_keeps_its_chosen_ids_and_draws_its_next_t() -> None:
    doc = cases()["alibi"]
    doc["token_ids"] = [0, 1, 2, 4, 5]
    doc["tokens"] = [*doc["tokens"], "x"]
    doc["generation"] = {"temperature": 1.0, "seed": 2, "chosen": [4, 5]}
    document = parse_scenario(doc)
    settings = Settings(temperature=0.8, top_k=4, seed=7)
    got = redrawn(compute(document), with_settings(document, settings))
    assert got.scenario.generation == Generation(settings=settings, chosen=(4, 5))
    assert "gen3.sample_probs" in got.arrays  # draw t = 3 of the run
    assert_same_trace(got, compute(with_document_value(document, "generation", {
        "temperature": 0.8, "top_k": 4, "seed": 7, "chosen": [4, 5]})))


def test_another_document_is_not_redrawn() -> None:
    document = scenario("rope")
    other = with_settings(with_cell(document, "layers.0.attention.Wq", (0, 0), 0.5), Settings())
    assert redrawn(compute(document), other) is None


def test_the_settings_are_checked_as_a_files_are() -> None:
    document = scenario("rope")
    for bad, place in (({"top_k": 300_000}, "top_k"), ({"seed": 2**63}, "seed")):
        with pytest.raises(ScenarioError) as error:  # settings check themselves when made
            with_settings(document, Settings(**bad))
        assert error.value.place == place
    without_head = parse_scenario({k: v for k, v in cases()["rope"].items() if k != "head"})
    with pytest.raises(ScenarioError) as error:
        with_settings(without_head, Settings())
    assert error.value.place == "generation"


def test_new_settings_keep_the_document_s_arrays_and_their_places() -> None:
    document = scenario("encoder-decoder")
    paths = document.parameter_paths()  # worked out once, and carried to the new document
    changed = with_settings(document, Settings(temperature=0.5))
    fresh = with_document_value(document, "generation", {"temperature": 0.5})
    assert changed.parameter_paths() == paths == fresh.parameter_paths()
    for path in paths:
        assert changed.parameter(path) is document.parameter(path)
        assert np.array_equal(changed.parameter(path), fresh.parameter(path))
    assert changed.parameters.keys() == fresh.parameters.keys()
