"""An embedding and a head that a checkpoint ties (``tie_word_embeddings``: the head is the
embedding's transpose, one tensor) stay one when a cell of either is edited, as in the model;
an untied pair does not move together."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import engine.format.io
import engine.format.sidecar_write
from engine import compute, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.scenario.edit import tied_to, with_cell, with_parameter
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat on the hat."


@pytest.mark.parametrize("mapped", [True, False])
@pytest.mark.parametrize(("path", "index"), [("embedding", (30, 4)), ("head.unembed", (4, 30))])
def test_a_cell_of_a_tied_embedding_or_head_is_set_in_both(mapped: bool, path: str,
                                                           index: tuple[int, int]) -> None:
    document = import_checkpoint(FIXTURES / "gemma2", TEXT, mapped=mapped)
    assert tied_to(document, path) is not None
    before = np.array(document.parameter("embedding"))
    edited = with_cell(document, path, index, 0.5)
    table, head = edited.parameter("embedding"), edited.parameter("head.unembed")
    assert table[30, 4] == head[4, 30] == 0.5
    changed = np.argwhere(np.asarray(table) != before).tolist()
    assert changed == [[30, 4]] and np.array_equal(head, table.T)
    assert tied_to(edited, "embedding") == "head.unembed", "still one tensor for the next edit"
    assert np.array_equal(document.parameter("embedding"), before), "the document before stays"


def test_the_tied_edit_computes_as_the_edited_tensor_would() -> None:
    """The logits read the edited head: the final rows times the edited embedding's
    transpose (Gemma 2's head), worked out here."""
    edited = with_cell(import_checkpoint(FIXTURES / "gemma2", TEXT), "embedding", (30, 4), 0.5)
    trace = compute(edited)
    final = trace.arrays["final_norm"]
    logits = trace.arrays.get("logits_uncapped", trace.arrays["logits"])
    np.testing.assert_allclose(logits, final @ np.asarray(edited.parameter("embedding")).T,
                               rtol=0, atol=1e-12)


def test_a_saved_tied_edit_reopens_tied(tmp_path: Path) -> None:
    edited = with_cell(import_checkpoint(FIXTURES / "gemma2", TEXT), "head.unembed", (4, 30),
                       0.5)
    path = tmp_path / "tied.qkv.json"
    save_scenario(edited, path)
    again = load_scenario(path)
    assert again.parameter("embedding")[30, 4] == again.parameter("head.unembed")[4, 30] == 0.5
    assert tied_to(again, "embedding") == "head.unembed"


def test_an_untied_head_does_not_follow_the_embedding() -> None:
    document = import_checkpoint(FIXTURES / "llama", TEXT)
    assert tied_to(document, "embedding") is None
    edited = with_cell(document, "embedding", (30, 4), 0.5)
    assert np.array_equal(edited.parameter("head.unembed"), document.parameter("head.unembed"))


def test_a_head_and_embedding_whose_edits_differ_are_two_tensors(tmp_path: Path) -> None:
    """A document saved before edits kept the two one tensor may hold an edit of the head only:
    they are two tensors then, and an edit of one leaves the other as it is."""
    edited = with_cell(import_checkpoint(FIXTURES / "gemma2", TEXT), "head.unembed", (4, 30),
                       0.5)
    path = tmp_path / "diverged.qkv.json"
    save_scenario(edited, path)
    document = json.loads(path.read_text("utf-8"))
    del document["embedding"]["overlay"]  # the edit in the head only
    path.write_text(json.dumps(document), "utf-8")
    diverged = load_scenario(path)
    assert diverged.parameter("embedding")[30, 4] != diverged.parameter("head.unembed")[4, 30]
    assert tied_to(diverged, "embedding") is None
    again = with_cell(diverged, "embedding", (30, 4), 0.25)
    assert again.parameter("head.unembed")[4, 30] == 0.5


@pytest.mark.parametrize("path", ["embedding", "head.unembed"])
def test_a_whole_tied_matrix_pasted_sets_both(path: str) -> None:
    document = import_checkpoint(FIXTURES / "gemma2", TEXT)
    pasted = np.arange(np.asarray(document.parameter(path)).size, dtype=np.float64).reshape(
        np.asarray(document.parameter(path)).shape) / 1000
    edited = with_parameter(document, path, pasted)
    table, head = edited.parameter("embedding"), edited.parameter("head.unembed")
    assert np.array_equal(edited.parameter(path), pasted) and np.array_equal(head, table.T)
    assert tied_to(edited, "embedding") == "head.unembed"
    assert tied_to(with_cell(edited, "embedding", (1, 1), 7.0), "embedding") == "head.unembed"


def test_a_self_contained_copy_with_a_sidecar_keeps_the_tie(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real model's self-contained copy always has a sidecar: the head is stored as the
    embedding's transpose, once, and the copy opens tied, its numbers the document's."""
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)
    edited = with_cell(import_checkpoint(FIXTURES / "gemma2", TEXT), "embedding", (30, 4), 0.5)
    path = tmp_path / "copy.qkv.json"
    save_scenario(edited, path, self_contained=True)
    assert json.loads(path.read_text("utf-8"))["head"]["unembed"]["transpose"] is True
    again = load_scenario(path)
    assert tied_to(again, "embedding") == "head.unembed"
    assert np.array_equal(compute(again).arrays["logits"], compute(edited).arrays["logits"])
