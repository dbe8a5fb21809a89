"""An embedding and a head that a checkpoint ties (``tie_word_embeddings``: the head is the
embedding's transpose, one tensor) stay one when a cell of either is edited, as in the model;
an untied pair does not move together."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine.format.io
import engine.format.sidecar_write
from engine import compute, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.format.document import parse_scenario
from engine.format.errors import ScenarioError
from engine.format.sidecar_write import write_safetensors
from engine.scenario.edit import tied_to, with_cell, with_parameter
from engine.scenario.resize import Sizes, resize
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
    assert document["head"]["unembed"] == "embedding.T"
    table = document["embedding"]
    [[cell, value]] = table.pop("overlay")  # the edit in the head only, as format 2.2 wrote it
    entries, width = np.shape(edited.parameter("embedding"))
    row, column = divmod(int(cell), width)
    document["head"]["unembed"] = {**table, "transpose": True,
                                   "overlay": [[column * entries + row, value]]}
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
    """A real model's self-contained copy always has a sidecar: the embedding is stored once,
    the head written as its transpose, and the copy opens tied, its numbers the document's."""
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)
    edited = with_cell(import_checkpoint(FIXTURES / "gemma2", TEXT), "embedding", (30, 4), 0.5)
    path = tmp_path / "copy.qkv.json"
    save_scenario(edited, path, self_contained=True)
    document = json.loads(path.read_text("utf-8"))
    assert document["head"]["unembed"] == "embedding.T"
    assert document["embedding"]["key"] == "embedding"
    again = load_scenario(path)
    assert tied_to(again, "embedding") == "head.unembed"
    assert np.array_equal(compute(again).arrays["logits"], compute(edited).arrays["logits"])


def test_a_copy_all_in_json_keeps_the_tie(tmp_path: Path) -> None:
    """A small document's self-contained copy has no sidecar: its head is written
    ``"embedding.T"``, and the copy opens tied (an edit of the embedding sets the head)."""
    document = with_cell(import_checkpoint(FIXTURES / "gemma2", TEXT), "embedding", (30, 4), 0.5)
    path = tmp_path / "small.qkv.json"
    save_scenario(document, path, self_contained=True)
    assert not (tmp_path / "small.qkv.json.weights.safetensors").exists()
    written = json.loads(path.read_text("utf-8"))
    assert written["head"]["unembed"] == "embedding.T"
    assert written["embedding"][30][4] == 0.5
    again = load_scenario(path)
    assert tied_to(again, "embedding") == "head.unembed"
    assert np.array_equal(compute(again).arrays["logits"], compute(document).arrays["logits"])
    edited = with_cell(again, "embedding", (7, 2), -3.0)
    assert edited.parameter("head.unembed")[2, 7] == -3.0
    saved_again = tmp_path / "again.qkv.json"
    save_scenario(edited, saved_again)
    assert json.loads(saved_again.read_text("utf-8"))["head"]["unembed"] == "embedding.T"


def test_an_untied_head_is_written_as_its_numbers(tmp_path: Path) -> None:
    """A head given as numbers equal to the embedding's transpose is a tensor of its own:
    written out as numbers again, and an edit of the embedding leaves it."""
    document = import_checkpoint(FIXTURES / "gemma2", TEXT, mapped=False)
    path = tmp_path / "untied.qkv.json"
    save_scenario(document, path)
    written = json.loads(path.read_text("utf-8"))
    written["head"]["unembed"] = np.asarray(document.parameter("head.unembed")).tolist()
    path.write_text(json.dumps(written), "utf-8")
    again = load_scenario(path)
    assert tied_to(again, "embedding") is None
    assert with_cell(again, "embedding", (5, 1), 9.0).parameter("head.unembed")[1, 5] != 9.0
    save_scenario(again, path)
    assert json.loads(path.read_text("utf-8"))["head"]["unembed"] == written["head"]["unembed"]


def test_a_tied_document_resized_stays_tied() -> None:
    """A wider d widens the embedding; the head, its transpose, follows it (not fitted as a
    matrix of its own, which would untie them)."""
    document = import_checkpoint(FIXTURES / "gemma2", TEXT, mapped=False)
    sizes = Sizes.of(document)
    resized = parse_scenario(resize(document, replace(sizes, d=sizes.d + 2)).document)
    table = np.asarray(resized.parameter("embedding"))
    assert table.shape == (48, sizes.d + 2) and not table[:, -2:].any()
    assert tied_to(resized, "embedding") == "head.unembed"
    assert np.array_equal(resized.parameter("head.unembed"), table.T)


def test_a_sidecar_saved_before_embedding_t_still_opens_tied(tmp_path: Path) -> None:
    """Copies saved before ``"embedding.T"`` reference the embedding's stored tensor with
    ``"transpose": true``: they open tied too."""
    document = import_checkpoint(FIXTURES / "gemma2", TEXT, mapped=False)
    path = tmp_path / "old.qkv.json"
    save_scenario(document, path)
    written = json.loads(path.read_text("utf-8"))
    sidecar = tmp_path / "old.qkv.json.weights.safetensors"
    write_safetensors(sidecar, {"embedding": np.asarray(document.parameter("embedding"))},
                         "old.qkv.json")
    reference = {"$file": sidecar.name, "key": "embedding"}
    written["embedding"] = reference
    written["head"]["unembed"] = {**reference, "transpose": True}
    path.write_text(json.dumps(written), "utf-8")
    again = load_scenario(path)
    assert tied_to(again, "embedding") == "head.unembed"
    assert np.array_equal(again.parameter("head.unembed"), document.parameter("head.unembed"))


@pytest.mark.parametrize(("change", "place", "words"), [
    (lambda d: d["head"].update(unembed="embedding"), "head.unembed",
     'expected a matrix, or "embedding.T" for the embedding\'s transpose (a tied head), got '
     '"embedding"'),
    (lambda d: (d.pop("embedding"), d.pop("token_ids"), d.pop("embedding_scale"),
                d.update(X=[[0.0] * 16] * len(d["tokens"]))), "head.unembed",
     '"embedding.T" reads the embedding, and this document has none'),
])
def test_a_wrong_tied_head_is_refused_at_its_place(change: Any, place: str, words: str,
                                                   tmp_path: Path) -> None:
    document = import_checkpoint(FIXTURES / "gemma2", TEXT, mapped=False)
    path = tmp_path / "tied.qkv.json"
    save_scenario(document, path)
    written = json.loads(path.read_text("utf-8"))
    change(written)
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(written)
    assert refused.value.place == place
    assert str(refused.value) == f"{place}: {words}"


@pytest.mark.parametrize("change", [{"d": 18}, {"n": 9}, {"n": 4}, {"d_k": 5}])
@pytest.mark.parametrize("mapped", [True, False])
def test_a_resized_tied_document_stays_tied_whether_read_in_place_or_copied(
        mapped: bool, change: dict[str, int]) -> None:
    """A resize rewrites the document: the head is written as the embedding's transpose
    whether the two are left in the checkpoint (the default import) or held as arrays, so an
    edit of the embedding after it still moves the head; the logits are the same either way,
    and those of the edited embedding's transpose."""
    document = import_checkpoint(FIXTURES / "gpt2", TEXT, mapped=mapped)
    assert tied_to(document, "embedding") == "head.unembed"
    resized = resize(document, replace(Sizes.of(document), **change))
    assert resized.document["head"]["unembed"] == "embedding.T"
    again = parse_scenario(resized.document)
    assert tied_to(again, "embedding") == "head.unembed"
    edited = with_cell(again, "embedding", (31, 0), 5.0)
    assert edited.parameter("head.unembed")[0, 31] == 5.0
    trace = compute(edited)
    np.testing.assert_allclose(
        trace.arrays["logits"],
        trace.arrays["final_norm"] @ np.asarray(edited.parameter("embedding")).T,
        rtol=0, atol=1e-12)


def test_an_edited_embedding_left_in_its_checkpoint_is_saved_tied(tmp_path: Path) -> None:
    """A document that reads its tied embedding from the checkpoint, edited, is saved with the
    head as the embedding's transpose and the edit once, and reopens one tensor, edit and all."""
    edited = with_cell(import_checkpoint(FIXTURES / "gpt2", TEXT), "embedding", (31, 0), 5.0)
    path = tmp_path / "tied.qkv.json"
    save_scenario(edited, path)
    document = json.loads(path.read_text("utf-8"))
    width = np.shape(edited.parameter("embedding"))[1]
    assert document["head"]["unembed"] == "embedding.T"
    assert document["embedding"]["overlay"] == [[31 * width, 5.0]]
    again = load_scenario(path)
    assert again.parameter("head.unembed")[0, 31] == again.parameter("embedding")[31, 0] == 5.0
    assert tied_to(again, "embedding") == "head.unembed"
    moved = with_cell(again, "embedding", (2, 1), -1.5)
    assert moved.parameter("head.unembed")[1, 2] == -1.5
    np.testing.assert_array_equal(compute(again).arrays["logits"],
                                  compute(edited).arrays["logits"])
