"""File → Open checkpoint… (issue 25, item 2): a fixture checkpoint imported in a worker becomes
the document (or opens in a new window beside unsaved work); a refusal is said in the interface
language and changes nothing; Cancel imports nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QDialogButtonBox, QLabel
from pytestqt.qtbot import QtBot

from app.files import checkpoint
from app.files.checkpoint import CheckpointDialog, Choice, open_checkpoint
from app.i18n import set_language
from app.model.cancel import CancelledError
from engine import compute
from engine.checkpoint import import_checkpoint
from tests.app.driving import Dialogs, beside_unsaved_work, close_window, open_window
from tests.engine.hf_reference import FIXTURES

LLAMA = Choice(FIXTURES / "llama", "the cat sat", None)


def test_the_imported_checkpoint_becomes_the_unsaved_document(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    try:
        assert open_checkpoint(window, ask=lambda _parent: LLAMA)
        qtbot.waitUntil(lambda: window.state.scenario.title == "llama · llama")
        expected = compute(import_checkpoint(FIXTURES / "llama", "the cat sat"))
        assert list(window.state.scenario.tokens) == ["<s>", " the cat", " sat"]
        np.testing.assert_array_equal(window.state.trace.arrays["probs"],
                                      expected.arrays["probs"])
        assert window.state.path is None  # Save asks where
        assert window.statusBar().currentMessage().startswith("Imported llama → ")
    finally:
        close_window(window)


def test_a_text_pair_opens_bert_with_the_second_segments_token_types(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    try:
        pair = Choice(FIXTURES / "bert", "the cat", None, "sat on the mat")
        assert open_checkpoint(window, ask=lambda _parent: pair)
        qtbot.waitUntil(lambda: window.state.scenario.title == "bert · bert")
        scenario = window.state.scenario
        assert list(scenario.tokens) == ["[CLS]", "the", "cat", "[SEP]", "sat", "on", "the",
                                         "mat", "[SEP]"]
        assert scenario.token_types == (0, 0, 0, 0, 1, 1, 1, 1, 1)
    finally:
        close_window(window)


def test_unsaved_work_stays_and_the_checkpoint_opens_in_a_new_window(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    with beside_unsaved_work(qtbot, monkeypatch) as (window, opened):
        before = window.state.scenario
        made: list[tuple[object, object]] = []
        imported = checkpoint.imported
        monkeypatch.setattr(checkpoint, "imported", lambda choice, cancelled: made.append(
            imported(choice, cancelled)) or made[-1])
        assert open_checkpoint(window, ask=lambda _parent: LLAMA)
        assert window.state.scenario is before
        assert len(opened) == 1 and opened[0].state.scenario.title == "llama · llama"
        # the new window shows the trace the worker computed: computing it again froze the
        # interface for a whole forward pass (a 1B model's: about 10 s)
        assert opened[0].state.trace is made[0][1]


def test_a_refusal_is_said_in_the_interface_language_and_changes_nothing(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialogs = Dialogs()
    dialogs.install(monkeypatch)
    window = open_window(qtbot)
    try:
        before = window.state.scenario
        long_text = Choice(FIXTURES / "gpt2", "the cat sat on the mat " * 4, None)
        assert not open_checkpoint(window, ask=lambda _parent: long_text)
        assert dialogs.shown[-1] == (
            "warning", "Cannot import",
            f"{FIXTURES / 'gpt2'} was not imported:\ntext: the text is 37 tokens, more than the "
            "model's context of 16 positions")
        set_language("zh")
        assert not open_checkpoint(window, ask=lambda _parent: Choice(tmp_path, "猫", None))
        assert dialogs.shown[-1] == (
            "warning", "无法导入",
            f"{tmp_path} 未能导入：\n{tmp_path}/config.json：缺失：Hugging Face 检查点文件夹里应有 "
            "config.json、*.safetensors 权重文件和 tokenizer.json")
        assert window.statusBar().currentMessage().startswith("⚠ 未导入：")
        assert window.state.scenario is before
    finally:
        set_language("en")
        close_window(window)


def test_cancel_imports_nothing(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    def cancelled(*_args: object) -> object:
        raise CancelledError

    monkeypatch.setattr(checkpoint, "run_with_progress", cancelled)
    window = open_window(qtbot)
    try:
        before = window.state.scenario
        assert not open_checkpoint(window, ask=lambda _parent: LLAMA)
        assert window.state.scenario is before
        assert window.statusBar().currentMessage() == "Not imported: cancelled"
        assert not open_checkpoint(window, ask=lambda _parent: None)
    finally:
        close_window(window)


def test_the_dialog_asks_for_a_folder_and_a_text(qtbot: QtBot) -> None:
    dialog = CheckpointDialog(None)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()
    dialog.folder.setText(f" {FIXTURES / 'gpt2'} ")
    assert not ok.isEnabled()
    dialog.text.setText("the cat")
    assert ok.isEnabled()
    assert dialog.choice() == Choice(FIXTURES / "gpt2", "the cat", None)
    dialog.layers.setText(" 1-2 ")
    assert dialog.choice().layers == "1-2"
    dialog.pair.setText("on the mat")
    assert dialog.choice().pair == "on the mat"
    # Alt+F, Alt+T, Alt+P, Alt+L reach the four fields (the folder's row holds a layout: its
    # label needs its buddy set by hand, or it shows "&Folder:").
    labels = dialog.findChildren(QLabel)
    assert sorted(label.text() for label in labels) == ["&Folder:", "&Layers:", "&Text:",
                                                        "Text &pair:"]
    assert all(label.buddy() is not None for label in labels)


def test_the_window_loads_the_importers_libraries_only_when_a_checkpoint_is_opened() -> None:
    """safetensors and tokenizers (about 17 ms) are imported by Open checkpoint's worker, not
    when the window's module is: every launch would pay for them."""
    code = ("import sys, app.window.studio\n"
            "print(sorted(m for m in sys.modules if m.startswith(\n"
            "    ('safetensors', 'tokenizers', 'engine.checkpoint'))))\n")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, timeout=60, check=False,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
