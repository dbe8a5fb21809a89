"""Saving by reference (format 2.2): a document whose weights stay in their checkpoint is saved
naming each tensor (``"$checkpoint"``) with its edited cells beside it, and opens again as the
same mapped weights, computing the edited eager document's trace bit for bit; a checkpoint
moved or changed since the save (size, modification time or header) is refused by name, and
opens from where the user says it is now (a time alone changed: on the user's word)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import engine.format.io
import engine.format.sidecar_write
from engine import ScenarioError, compute, load_scenario, parse_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.format.checkpoint_reference import Relocation
from engine.format.mapped_weight import MappedWeight
from engine.scenario.edit import with_cell
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat on the mat"
EDITS = (("layers.1.attention.Wq", (2, 3), 0.25), ("head.unembed", (4, 30), -1.5),
         ("embedding", None, 2.0))
"""Cells edited before saving (None: a cell of the first token's row)."""


def edited(folder: Path, *, mapped: bool = True):  # type: ignore[no-untyped-def]
    document = import_checkpoint(folder, TEXT, mapped=mapped)
    assert document.token_ids is not None
    for path, cell, value in EDITS:
        document = with_cell(document, path, cell or (document.token_ids[0], 4), value)
    return document


@pytest.fixture(params=["llama"])
def folder(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A copy of a fixture checkpoint (``llama`` unless a test asks for another)."""
    copied = tmp_path / request.param
    shutil.copytree(FIXTURES / request.param, copied)
    return copied


@pytest.mark.parametrize("folder", ["llama", "qwen2"], indirect=True)  # qwen2: a tied head
@pytest.mark.parametrize("sidecar", [False, True])
def test_a_document_saved_by_reference_opens_as_the_same_mapped_weights(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, folder: Path, sidecar: bool) -> None:
    """``sidecar``: the document's other arrays and the overlays go to its sidecar."""
    if sidecar:
        monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
        monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 2)
    ours, theirs = edited(folder), edited(folder, mapped=False)
    path = tmp_path / "doc.qkv.json"
    save_scenario(ours, path)
    text = json.loads(path.read_text("utf-8"))
    assert text["version"] == 2
    weights = folder / "model.safetensors"
    reference = text["layers"][1]["attention"]["Wq"]
    tied = folder.name == "qwen2"
    assert isinstance(ours.parameters["head.unembed"], MappedWeight)
    assert ours.parameters["head.unembed"].view == tied
    if tied:  # one tensor with the embedding, its edits with it
        assert text["head"]["unembed"] == "embedding.T"
    else:
        assert text["head"]["unembed"]["key"] == "lm_head.weight"
    status = weights.stat()
    assert {key: reference[key] for key in ("$checkpoint", "key", "transpose", "size",
                                            "modified")} == {
        "$checkpoint": str(weights), "key": "model.layers.1.self_attn.q_proj.weight",
        "transpose": True, "size": status.st_size, "modified": status.st_mtime_ns}
    header = weights.read_bytes()
    length = int.from_bytes(header[:8], "little")
    import hashlib
    assert reference["header_sha256"] == hashlib.sha256(header[:8 + length]).hexdigest()
    if sidecar:
        assert reference["overlay"]["$file"] == "doc.qkv.json.weights.safetensors"
    else:  # flat index 2·(Wq's width) + 3, and its number
        width = ours.parameter("layers.1.attention.Wq").shape[1]
        assert reference["overlay"] == [[2 * width + 3, 0.25]]
    assert path.stat().st_size < 100_000 if not sidecar else True
    again = load_scenario(path)
    assert again.parameter_paths() == ours.parameter_paths() == theirs.parameter_paths()
    for name, weight in ours.parameters.items():
        read = again.parameters[name]
        assert isinstance(read, MappedWeight) == isinstance(weight, MappedWeight), name
        if isinstance(weight, MappedWeight):
            assert isinstance(read, MappedWeight)
            assert (read.name, read.transposed, read.view) == (weight.name, weight.transposed,
                                                               weight.view), name
        np.testing.assert_array_equal(again.parameter(name), theirs.parameter(name))
    first, second = compute(again), compute(theirs)
    for name, array in second.arrays.items():
        assert np.array_equal(first.arrays[name], array), name


@pytest.mark.parametrize("change", ["touched", "header", "removed"])
def test_a_checkpoint_moved_or_changed_since_the_save_is_refused_by_name(
        tmp_path: Path, folder: Path, change: str) -> None:
    path = tmp_path / "doc.qkv.json"
    save_scenario(edited(folder), path)
    weights = folder / "model.safetensors"
    status = weights.stat()
    if change == "touched":
        os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    elif change == "header":  # the same tensors, the JSON spaced otherwise: size, time kept
        data = weights.read_bytes()
        length = int.from_bytes(data[:8], "little")
        header = data[8:8 + length]
        assert header.count(b"}} ") == 1  # the JSON, then spaces to a multiple of 8
        spaced = header.replace(b"}} ", b"} }")
        assert len(spaced) == length
        weights.write_bytes(data[:8] + spaced + data[8 + length:])
        os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns))
    else:
        weights.rename(folder / "moved.safetensors")
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path)
    assert refused.value.place == str(weights)
    assert refused.value.refusal is not None
    assert refused.value.refusal.key == {
        "removed": "checkpoint_gone", "touched": "checkpoint_modified_since_saved",
        "header": "checkpoint_changed_since_saved"}[change]
    assert "\n" not in str(refused.value)
    assert refused.value.refusal.words("zh") != refused.value.refusal.words("en")


@pytest.mark.parametrize("how", ["moved", "copied"])
def test_a_checkpoint_moved_or_copied_opens_where_the_user_says(
        tmp_path: Path, folder: Path, how: str) -> None:
    """A checkpoint folder moved (times kept) opens from its new folder; one copied (new
    times) only when the user also says it is the same checkpoint. Either way the document is
    the one saved, edits and all, and reads its weights from the new place."""
    path = tmp_path / "doc.qkv.json"
    ours = edited(folder)
    save_scenario(ours, path)
    elsewhere = tmp_path / "elsewhere"
    if how == "moved":
        folder.rename(elsewhere)
    else:
        shutil.copytree(folder, elsewhere, copy_function=shutil.copyfile)  # new times
        shutil.rmtree(folder)
    with pytest.raises(ScenarioError) as gone:
        load_scenario(path)
    assert gone.value.refusal is not None and gone.value.refusal.key == "checkpoint_gone"
    if how == "copied":
        with pytest.raises(ScenarioError) as modified:
            load_scenario(path, Relocation(folder=elsewhere))
        assert modified.value.place == str(elsewhere / "model.safetensors")
        assert modified.value.refusal is not None
        assert modified.value.refusal.key == "checkpoint_modified_since_saved"
    again = load_scenario(path, Relocation(folder=elsewhere, any_time=how == "copied"))
    files = {weight.file for weight in again.parameters.values()
             if isinstance(weight, MappedWeight)}
    assert files == {elsewhere / "model.safetensors"}
    assert again.parameter("layers.1.attention.Wq")[2, 3] == 0.25
    for name, array in compute(edited(elsewhere, mapped=False)).arrays.items():
        assert np.array_equal(compute(again).arrays[name], array), name
    resaved = tmp_path / "again.qkv.json"
    save_scenario(again, resaved)
    assert load_scenario(resaved).parameter("head.unembed")[4, 30] == -1.5


def test_the_user_s_word_does_not_cover_a_changed_header_or_size(
        tmp_path: Path, folder: Path) -> None:
    """``any_time`` reads a file whose time alone differs; a file of another size or header
    is another checkpoint, refused whatever the user says."""
    path = tmp_path / "doc.qkv.json"
    save_scenario(edited(folder), path)
    weights = folder / "model.safetensors"
    with weights.open("ab") as grown:
        grown.write(b"\0" * 8)
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path, Relocation(any_time=True))
    assert refused.value.refusal is not None
    assert refused.value.refusal.key == "checkpoint_changed_since_saved"


def test_a_self_contained_save_needs_no_checkpoint(tmp_path: Path, folder: Path) -> None:
    ours, theirs = edited(folder), edited(folder, mapped=False)
    path = tmp_path / "whole.qkv.json"
    save_scenario(ours, path, self_contained=True)
    assert "$checkpoint" not in path.read_text("utf-8")
    shutil.rmtree(folder)
    again = load_scenario(path)
    assert not any(isinstance(w, MappedWeight) for w in again.parameters.values())
    np.testing.assert_array_equal(compute(again).arrays["logits"],
                                  compute(theirs).arrays["logits"])


def test_a_reader_without_the_resolver_refuses_a_checkpoint_reference(
        tmp_path: Path, folder: Path) -> None:
    """What a version-2.1 reader does: the reference reaches the document's checks unread."""
    path = tmp_path / "doc.qkv.json"
    save_scenario(import_checkpoint(folder, TEXT), path)
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(json.loads(path.read_text("utf-8")))
    assert refused.value.place.startswith("embedding")
