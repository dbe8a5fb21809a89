"""New sizes that would widen a checkpoint's weights past this computer's memory are refused
before anything is widened (a resize of d holds every weight it changes as float64: an 8-billion
parameter checkpoint's 64 GB), with the count of numbers they would hold at least."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import engine.files.memory
import engine.scenario.resize
from engine import ScenarioError
from engine.checkpoint import import_checkpoint
from engine.scenario.edit import tied_to
from engine.scenario.resize import Sizes, resize
from engine.scenario.scenario import Scenario
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat on the mat"


def held_at_least(scenario: Scenario) -> int:
    """The numbers a wider d holds at least: every weight as many as it has now (a tied head,
    the embedding's view, once)."""
    tied = tied_to(scenario, "embedding")
    return sum(int(np.prod(array.shape)) for path, array in scenario.parameters.items()
               if path != tied)


@pytest.fixture
def widened_paths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The weights a resize widens, in order (resize's own reader, counted)."""
    seen: list[str] = []
    real = engine.scenario.resize.widened

    def counted(weight: object) -> object:
        seen.append(getattr(weight, "name", "array"))
        return real(weight)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.scenario.resize, "widened", counted)
    return seen


@pytest.mark.parametrize("family", ["llama", "gpt2"])
def test_a_wider_d_past_memory_is_refused_before_a_weight_is_widened(
        monkeypatch: pytest.MonkeyPatch, widened_paths: list[str], family: str) -> None:
    document = import_checkpoint(FIXTURES / family, TEXT)
    count = held_at_least(document)
    monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: 8 * count - 8)
    with pytest.raises(ScenarioError) as refused:
        resize(document, replace(Sizes.of(document), d=document.d + 1))
    assert refused.value.refusal is not None
    assert refused.value.refusal.key == "resize_memory"
    assert refused.value.refusal.values["count"] == count
    assert widened_paths == []
    monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: 8 * count)
    wider = resize(document, replace(Sizes.of(document), d=document.d + 1))
    assert widened_paths and wider.dropped == 0


def test_a_smaller_size_is_never_refused_for_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """A smaller d holds fewer numbers than the document did: it is what lets a big checkpoint
    be cut down to a size that can be read."""
    document = import_checkpoint(FIXTURES / "llama", TEXT)
    assert document.embedding is not None
    monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: 8)
    narrower = resize(document, replace(Sizes.of(document), d=document.d - 2))
    assert np.asarray(narrower.document["embedding"]).shape == (document.embedding.shape[0],
                                                                document.d - 2)
