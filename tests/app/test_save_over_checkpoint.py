"""No save writes over the checkpoint a document reads its weights from: its config, tokenizer,
weights or their index, by Save as… in the window, by the command line's ``--out``, or by
:func:`engine.save_scenario`; a document saved beside them is fine."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

import engine.format.io
import engine.format.sidecar_write
from app.cli import main
from app.export.dialog import ExportDialog
from engine import compute, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.files.outputs import OutputRefusedError
from engine.scenario.edit import with_cell
from tests.app.documents_support import patch_save_dialog
from tests.app.driving import Dialogs, close_window, show_window, when_shown
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat on the mat"
FILES = ("config.json", "tokenizer.json", "model.safetensors", "model.safetensors.index.json",
         "vocab.json", "merges.txt", "tokenizer.model", "chat_template.jinja", "Config.json")
"""A checkpoint's files, by their names whether the folder has them or not (a byte-level BPE's
vocabulary and merges, a sentencepiece model; ``Config.json`` is the config on a disk that
ignores case)."""


def refused(folder: Path) -> str:
    return (f"that is a file of the checkpoint this document reads its weights from ({folder}); "
            "writing there would replace it: choose another name")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copy = tmp_path / "mixtral"
    shutil.copytree(FIXTURES / "mixtral", copy)
    return copy


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("self_contained", [False, True])
def test_saving_over_a_checkpoint_file_is_refused_and_writes_nothing(
        folder: Path, name: str, self_contained: bool) -> None:
    document = with_cell(import_checkpoint(folder, TEXT), "layers.0.attention.Wq", (1, 1), 0.5)
    before = contents(folder)
    with pytest.raises(OutputRefusedError) as caught:
        save_scenario(document, folder / name, self_contained=self_contained)
    assert str(caught.value) == f"cannot write {folder / name}: {refused(folder.resolve())}"
    assert contents(folder) == before
    assert np.array_equal(compute(import_checkpoint(folder, TEXT)).arrays["logits"],
                          compute(import_checkpoint(FIXTURES / "mixtral", TEXT)).arrays["logits"])


def test_a_link_to_the_mapped_weights_is_refused_too(folder: Path, tmp_path: Path) -> None:
    link = tmp_path / "elsewhere.qkv.json"
    link.symlink_to(folder / "model.safetensors")
    with pytest.raises(OutputRefusedError):
        save_scenario(import_checkpoint(folder, TEXT), link)
    assert link.is_symlink() and (folder / "model.safetensors").read_bytes() == \
        (FIXTURES / "mixtral" / "model.safetensors").read_bytes()


def test_a_document_saved_beside_the_checkpoint_files_is_written(folder: Path) -> None:
    document = with_cell(import_checkpoint(folder, TEXT), "layers.0.attention.Wq", (1, 1), 0.5)
    save_scenario(document, folder / "lesson.qkv.json")
    again = load_scenario(folder / "lesson.qkv.json")
    assert np.array_equal(compute(again).arrays["logits"], compute(document).arrays["logits"])


def test_the_command_line_refuses_an_out_over_the_checkpoint(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``generate`` reads a saved document (whose weights stay in the checkpoint): an ``--out``
    naming the checkpoint's config is refused in one line, exit 2."""
    saved = tmp_path / "lesson.qkv.json"
    save_scenario(import_checkpoint(folder, TEXT), saved)
    before = contents(folder)
    code = main(["generate", str(saved), "--steps", "1", "--out", str(folder / "config.json")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert refused(folder.resolve()) in err
    assert contents(folder) == before


def test_save_as_over_the_checkpoint_config_says_why_and_keeps_both(
        qtbot: QtBot, folder: Path, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    window = show_window(qtbot, import_checkpoint(folder, TEXT))
    try:
        assert window.state.edit_cell("layers.0.attention.Wq", 1, 1, 0.5)
        before = contents(folder)
        patch_save_dialog(monkeypatch, folder / "config.json")
        assert not window.save_as()
        [(kind, _title, text)] = dialogs.shown
        assert kind == "critical"
        assert f"Could not save to {folder / 'config.json'}: {refused(folder.resolve())}." in text
        assert contents(folder) == before
        assert window.isWindowModified() and window.state.path is None
    finally:
        close_window(window)


def test_the_command_line_export_refuses_an_out_over_the_checkpoint(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An export reads the checkpoint's weights, not its config: the config is refused as a
    file of that checkpoint all the same."""
    saved = tmp_path / "lesson.qkv.json"
    save_scenario(import_checkpoint(folder, TEXT), saved)
    before = contents(folder)
    code = main(["export", str(saved), "--out", str(folder / "config.json"), "--format", "png"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and refused(folder.resolve()) in err, err
    assert contents(folder) == before


def test_the_export_dialog_refuses_a_checkpoint_file(
        qtbot: QtBot, folder: Path, dialogs: Dialogs) -> None:
    window = show_window(qtbot, import_checkpoint(folder, TEXT))
    try:
        before = contents(folder)
        errors: list[str | None] = []

        def drive(dialog: ExportDialog) -> None:
            dialog.format_box.setCurrentIndex(dialog.format_box.findData("pdf"))
            dialog.current_radio.setChecked(True)
            dialog.destination_edit.setText(str(folder / "tokenizer.json"))
            errors.append(None if dialog.export() else dialog.last_error)
            dialog.reject()

        when_shown(ExportDialog, drive)
        window.export_action.trigger()
        assert errors == [f"cannot write {folder / 'tokenizer.json'}: "
                          f"{refused(folder.resolve())}"]
        assert contents(folder) == before
    finally:
        close_window(window)


def test_a_document_with_a_sidecar_is_saved_in_the_checkpoint_folder(
        qtbot: QtBot, folder: Path, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sidecar's name ends in .safetensors like a checkpoint's weights: it is the
    document's own, and the save goes through (a self-contained copy of a real model always
    has one)."""
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)
    window = show_window(qtbot, import_checkpoint(folder, TEXT))
    try:
        lesson = folder / "lesson.qkv.json"
        patch_save_dialog(monkeypatch, lesson)
        assert window.save_copy() and dialogs.shown == []
        assert lesson.with_name("lesson.qkv.json.weights.safetensors").exists()
        again = load_scenario(lesson)
        assert np.array_equal(compute(again).arrays["logits"],
                              compute(window.state.scenario).arrays["logits"])
    finally:
        close_window(window)
