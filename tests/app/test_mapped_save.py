"""A document whose weights stay in their checkpoint, saved from the window and the command
line: by reference by default (the file names the checkpoint's tensors), self-contained when
asked (File → Save self-contained copy…, ``import-hf --self-contained``), which opens with the
checkpoint gone; the reference then refuses to open, naming the checkpoint's file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app.cli import main
from app.window.startup import start_window
from app.window.studio import StudioWindow
from engine import compute, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.format.checkpoint_reference import Relocation
from engine.scenario.edit import with_cell
from tests.app.documents_support import launch_names, patch_save_dialog
from tests.app.driving import Dialogs, when_shown
from tests.engine.hf_reference import FIXTURES

__all__ = ["launch_names"]

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
    asked: list[str] = []
    when_shown(QMessageBox, lambda box: (asked.append(box.text()),
                                         box.button(QMessageBox.StandardButton.Cancel).click()))
    assert not window.open_path(saved)
    assert dialogs.shown == [] and len(asked) == 1
    assert str(folder / "model.safetensors") in asked[0] and "is gone" in asked[0]
    assert window.state.path == copy


@pytest.mark.parametrize("how", ["moved", "copied"])
def test_a_document_whose_checkpoint_moved_opens_from_where_the_user_finds_it(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """File → Open of a document whose checkpoint folder was moved (or copied: new times)
    asks where it is; the folder chosen (and, for a copy, the user's word that it is the same
    checkpoint) opens it with its edits, modified so that a save keeps the new place."""
    folder = copied(tmp_path)
    scenario = import_checkpoint(folder, TEXT)
    window.state.show(scenario, compute(scenario))
    assert window.state.edit_cell(WQ, 1, 2, 0.75)
    expected = compute(window.state.scenario).arrays["logits"]
    saved = tmp_path / "doc.qkv.json"
    patch_save_dialog(monkeypatch, saved)
    assert window.save_as()
    assert window.open_example("f11")
    elsewhere = tmp_path / "usb" / "llama"
    elsewhere.parent.mkdir()
    if how == "moved":
        folder.rename(elsewhere)
    else:
        shutil.copytree(folder, elsewhere, copy_function=shutil.copyfile)
        shutil.rmtree(folder)
    chosen: list[str] = []

    def choose(_parent: object, _title: str, start: str) -> str:
        chosen.append(start)
        return str(elsewhere)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(choose))
    asked: list[tuple[str, list[str]]] = []

    def answer(box: QMessageBox) -> None:
        buttons = [button.text() for button in box.buttons()]
        asked.append((box.text(), buttons))
        wanted = "Open with it anyway" if "Open with it anyway" in buttons \
            else "Find the checkpoint folder…"
        next(button for button in box.buttons() if button.text() == wanted).click()
        if wanted.startswith("Find") and how == "copied":
            when_shown(QMessageBox, answer)  # the copy's time: asked again

    when_shown(QMessageBox, answer)
    assert window.open_path(saved)
    assert chosen == [str(tmp_path)]  # the checkpoint's old folder is gone: the document's
    assert "is gone" in asked[0][0]
    assert sorted(asked[0][1]) == ["Cancel", "Find the checkpoint folder…"]
    if how == "copied":
        assert len(asked) == 2 and "modification time is not" in asked[1][0]
        assert str(elsewhere / "model.safetensors") in asked[1][0]
        assert "Open with it anyway" in asked[1][1]
    else:
        assert len(asked) == 1
    assert window.state.path == saved and window.isWindowModified()
    assert window.statusBar().currentMessage().startswith(
        "Opened doc.qkv.json, its checkpoint read from where you said")
    assert window.state.scenario.parameter(WQ)[1, 2] == 0.75
    np.testing.assert_array_equal(window.state.trace.arrays["logits"], expected)
    assert window.save() and not window.isWindowModified()
    assert str(elsewhere / "model.safetensors") in saved.read_text("utf-8")
    assert load_scenario(saved).parameter(WQ)[1, 2] == 0.75  # opens as it is now, unasked
    assert dialogs.shown == []


def test_a_wrong_folder_chosen_for_a_moved_checkpoint_is_said_and_another_may_be_chosen(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder whose file of that name is not the checkpoint (not even safetensors) is
    refused, naming the file, and the user is asked again; the right folder then opens it."""
    folder = copied(tmp_path)
    saved = tmp_path / "doc.qkv.json"
    save_scenario(with_cell(import_checkpoint(folder, TEXT), WQ, (1, 2), 0.75), saved)
    elsewhere = tmp_path / "moved"
    folder.rename(elsewhere)
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    (wrong / "model.safetensors").write_bytes(b"12345")
    folders = [str(wrong), str(elsewhere)]
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *_args: folders.pop(0)))
    asked: list[str] = []

    def find(box: QMessageBox) -> None:
        asked.append(box.text())
        next(button for button in box.buttons()
             if button.text() == "Find the checkpoint folder…").click()
        if len(asked) == 1:
            when_shown(QMessageBox, find)

    when_shown(QMessageBox, find)
    assert window.open_path(saved)
    assert len(asked) == 2 and "is gone" in asked[0]
    assert f"{wrong / 'model.safetensors'}: " in asked[1], "the wrong file named"
    assert folders == [] and dialogs.shown == []
    assert window.state.scenario.parameter(WQ)[1, 2] == 0.75


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


def test_a_launch_on_a_document_whose_checkpoint_moved_asks_where_it_is(
        window: StudioWindow, tmp_path: Path, qtbot: QtBot, launch_names: None,
        dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``qkv-studio lesson.qkv.json`` (a file manager's double click) on a document whose
    checkpoint folder was moved asks where it is, as File → Open does, and opens it there."""
    folder = copied(tmp_path)
    scenario = with_cell(import_checkpoint(folder, TEXT), WQ, (1, 2), 0.75)
    saved = tmp_path / "lesson.qkv.json"
    save_scenario(scenario, saved)
    elsewhere = tmp_path / "moved"
    folder.rename(elsewhere)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *_args: str(elsewhere)))
    asked: list[str] = []

    def find(box: QMessageBox) -> None:
        asked.append(box.text())
        next(button for button in box.buttons()
             if button.text() == "Find the checkpoint folder…").click()

    when_shown(QMessageBox, find)
    launched = start_window(str(saved))
    qtbot.waitUntil(lambda: launched.state.path == saved, timeout=5000)
    assert len(asked) == 1 and "is gone" in asked[0] and dialogs.shown == []
    assert launched.state.scenario.parameter(WQ)[1, 2] == 0.75
    assert launched.isWindowModified()
    assert "is gone" in capsys.readouterr().err  # said on standard error too, as before


def test_the_command_line_reads_a_moved_or_copied_checkpoint_where_told(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--checkpoint-folder`` names where a moved checkpoint's files are now, and
    ``--checkpoint-as-is`` takes a copy's new times on the user's word, for every command that
    reads a document (compute here, export, lens, generate, worksheet and explain alike)."""
    folder = copied(tmp_path)
    saved = tmp_path / "lesson.qkv.json"
    save_scenario(with_cell(import_checkpoint(folder, TEXT), WQ, (1, 2), 0.75), saved)
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, copy_function=shutil.copyfile)  # new modification times
    shutil.rmtree(folder)
    expected = compute(load_scenario(saved, Relocation(folder=copy, any_time=True)))
    compute_logits = ["compute", str(saved), "--arrays", "logits"]
    assert main(compute_logits) == 2
    said = capsys.readouterr().err
    assert "model.safetensors: is gone" in said, "the command line names its own answer:"
    assert said.rstrip().endswith("give --checkpoint-folder DIR, the folder its files are in now")
    assert main([*compute_logits, "--checkpoint-folder", str(copy)]) == 2
    said = capsys.readouterr().err
    assert "modification time is not" in said
    assert said.rstrip().endswith("If it is the same checkpoint, give --checkpoint-as-is")
    for nowhere in (str(tmp_path / "nowhere"), ""):
        assert main([*compute_logits, "--checkpoint-folder", nowhere]) == 2
        assert capsys.readouterr().err == (
            f"qkv-studio: --checkpoint-folder: there is no folder {nowhere!r}: give the folder "
            f"the checkpoint's files are in now\n")
    assert main([*compute_logits, "--checkpoint-folder", str(copy), "--checkpoint-as-is"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert np.array_equal(np.array(printed["arrays"]["logits"]), expected.arrays["logits"])
    for command in (["export", str(saved), "--format", "png", "--steps", "1",
                     "--out", str(tmp_path / "one.png")],
                    ["lens", str(saved)], ["explain", str(saved), "logits[0,1]"]):
        assert main([*command, "--checkpoint-folder", str(copy), "--checkpoint-as-is"]) == 0, \
            command
