"""A big document rewritten (a layer edit) is checked again without reading anything twice:
a vocabulary's labels all at once, refused as one by one would (the same refusal at the same
entry), and each stored tensor scanned for NaN and ∞ once."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ScenarioError, parse_scenario
from engine.checkpoint import import_checkpoint
from engine.format import mapped_weight
from engine.format.mapped_weight import MappedWeight
from engine.format.reader import expect_labels
from engine.format.writer import as_held, to_document
from engine.scenario.edit import tied_to
from tests.engine.hf_reference import FIXTURES

LABELS = [f"w{k}" for k in range(1000)]


@pytest.mark.parametrize(("bad", "refusal"), [
    ("a\x01b", "unprintable"), ("x" * 41, "text_too_long"), ("\ud800", "lone_surrogate"),
    (7, "not_text")])
def test_one_bad_label_among_many_is_refused_at_its_entry(bad: object, refusal: str) -> None:
    labels: list[object] = [*LABELS]
    labels[500] = bad
    with pytest.raises(ScenarioError) as caught:
        expect_labels(labels, "vocab", 1000)
    assert caught.value.place == "vocab[500]"
    assert caught.value.refusal is not None and caught.value.refusal.key == refusal


def test_labels_with_line_breaks_and_tabs_are_taken_whole() -> None:
    labels = [*LABELS[:-3], "\n", "a\tb", str(np.str_("猫"))]
    assert expect_labels(labels, "vocab", 1000) == tuple(labels)


def test_a_document_made_again_from_its_checkpoint_reads_no_tensor_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each stored tensor is scanned for NaN and ∞ once per way it is read: a rewritten
    document (here: parsed again from its weights as held, as a layer edit does) and a tied
    head made the embedding's transpose again scan nothing."""
    scans: list[str] = []
    scanned = MappedWeight._scanned

    def counted(weight: MappedWeight) -> tuple[int, int] | None:
        scans.append(weight.name)
        return scanned(weight)

    monkeypatch.setattr(MappedWeight, "_scanned", counted)
    monkeypatch.setattr(mapped_weight, "_SCANNED", {})  # what earlier tests scanned is not kept
    folder = FIXTURES / "gemma2"
    document = import_checkpoint(folder, "the cat sat")
    first = len(scans)
    assert first > 0
    again = parse_scenario(to_document(document, as_held))
    assert len(scans) == first and tied_to(again, "embedding") == "head.unembed"
