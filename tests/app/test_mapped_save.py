"""A document whose weights stay in their checkpoint, saved from the window and the command
line: by reference by default (the file names the checkpoint's tensors), self-contained when
asked (File → Save self-contained copy…, ``import-hf --self-contained``), which opens with the
checkpoint gone; the reference then refuses to open, naming the checkpoint's file."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from app.window.studio import StudioWindow
from engine import compute, load_scenario
from engine.checkpoint import import_checkpoint
from tests.app.documents_support import patch_save_dialog
from tests.app.driving import Dialogs
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat on the mat"
WQ = "layers.0.attention.Wq"


def copied(tmp_path: Path) -> Path:
    folder = tmp_path / "llama"
    shutil.copytree(FIXTURES / "llama", folder)
    return folder


def test_the_window_saves_by_reference_and_a_self_contained_copy_when_asked(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = copied(tmp_path)
    scenario = import_checkpoint(folder, TEXT)
    window.state.show(scenario, compute(scenario))
    assert window.state.edit_cell(WQ, 1, 2, 0.75)
    expected = compute(window.state.scenario).arrays["logits"]
    saved, copy = tmp_path / "doc.qkv.json", tmp_path / "copy.qkv.json"
    patch_save_dialog(monkeypatch, saved)
    assert window.save_as()
    assert window.state.path == saved and not window.isWindowModified()
    assert '"$checkpoint"' in saved.read_text("utf-8")
    patch_save_dialog(monkeypatch, copy)
    assert window.save_copy()
    assert window.state.path == saved  # a copy: the document stays where it was
    assert '"$checkpoint"' not in copy.read_text("utf-8")
    assert window.open_path(saved)
    np.testing.assert_array_equal(window.state.trace.arrays["logits"], expected)
    shutil.rmtree(folder)
    said: list[str] = []
    window.state.refused.connect(said.append)
    assert not window.state.edit_cell(WQ, 0, 0, 1.0)  # the open document's checkpoint is gone
    assert len(said) == 1 and f"{folder / 'model.safetensors'}: is gone" in said[0]
    assert window.open_path(copy)
    np.testing.assert_array_equal(window.state.trace.arrays["logits"], expected)
    assert dialogs.shown == []
    assert not window.open_path(saved)
    assert len(dialogs.shown) == 1
    assert str(folder / "model.safetensors") in dialogs.shown[0][2]
    assert "is gone" in dialogs.shown[0][2]


def test_edits_are_saved_when_the_checkpoint_went_away_and_open_once_it_is_back(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is lost: Save writes the edits and the checkpoint as the document read it, and
    says the file opens again once the checkpoint is back."""
    folder = copied(tmp_path)
    scenario = import_checkpoint(folder, TEXT)
    window.state.show(scenario, compute(scenario))
    assert window.state.edit_cell(WQ, 1, 2, 0.75)
    expected = compute(window.state.scenario).arrays["logits"]
    (folder / "model.safetensors").rename(tmp_path / "away.safetensors")
    saved = tmp_path / "doc.qkv.json"
    patch_save_dialog(monkeypatch, saved)
    assert window.save_as() and dialogs.shown == []
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Saved {saved}, the edits too; it opens again once its "
                              "checkpoint is back: ")
    assert f"{folder / 'model.safetensors'}: is gone" in message
    assert not window.isWindowModified()
    (tmp_path / "away.safetensors").rename(folder / "model.safetensors")
    assert window.open_path(saved)
    assert window.state.scenario.parameter(WQ)[1, 2] == 0.75
    np.testing.assert_array_equal(window.state.trace.arrays["logits"], expected)


def test_import_hf_writes_by_reference_unless_asked_for_a_self_contained_document(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = copied(tmp_path)
    for flags, name in (((), "ref.qkv.json"), (("--self-contained",), "whole.qkv.json")):
        assert main(["import-hf", str(folder), "--text", TEXT, "--out", str(tmp_path / name),
                     *flags]) == 0
    capsys.readouterr()
    assert '"$checkpoint"' in (tmp_path / "ref.qkv.json").read_text("utf-8")
    assert '"$checkpoint"' not in (tmp_path / "whole.qkv.json").read_text("utf-8")
    assert (tmp_path / "ref.qkv.json").stat().st_size < (tmp_path / "whole.qkv.json").stat().st_size
    assert main(["import-hf", str(folder), "--text", TEXT]) == 0
    assert '"$checkpoint"' in capsys.readouterr().out
    eager = compute(import_checkpoint(folder, TEXT, mapped=False)).arrays["logits"]
    for name in ("ref.qkv.json", "whole.qkv.json"):
        np.testing.assert_array_equal(compute(load_scenario(tmp_path / name)).arrays["logits"],
                                      eager)
