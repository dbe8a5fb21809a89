"""After a long resize's progress dialog, the window takes the keys again: Ctrl+Z right after
it undoes the resize (the dialog held the window; nothing gave the keys back)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.editor import pane
from app.state import jobs
from engine.format.writer import to_document
from tests.app.driving import Dialogs, close_window, open_window
from tests.app.test_documents_properties import set_size


def test_ctrl_z_right_after_a_resize_that_showed_its_progress_undoes_it(
        qtbot: QtBot, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    dialogs.answer = QMessageBox.StandardButton.Yes
    quick = pane.resized
    wait = 3 * jobs.SHOW_PROGRESS_AFTER_MS / 1000  # long enough for the dialog to show
    monkeypatch.setattr(pane, "resized", lambda scenario, sizes: (
        time.sleep(wait), quick(scenario, sizes))[1])
    window = open_window(qtbot)
    before = to_document(window.state.scenario)
    set_size(qtbot, window, "d", 3)
    assert len(to_document(window.state.scenario)["X"][0]) == 3
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert to_document(window.state.scenario) == before
    close_window(window)
