"""The session remembers itself: layout, last document, step, dwell and view come back."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

from app.files.session import GROUP, last_document
from app.preferences import app_settings
from app.window.startup import start_window
from app.window.studio import StudioWindow
from tests.app.documents_support import example_document, launch_names, write_document
from tests.app.driving import Dialogs, close_window

__all__ = ["launch_names"]
F11_TITLE = example_document()["title"]


def launch(document: str | None = None) -> StudioWindow:
    window = start_window(document)
    assert isinstance(window, StudioWindow)
    return window


def test_the_last_session_comes_back_when_no_file_is_given(qtbot: QtBot, tmp_path: Path,
                                                           launch_names: None) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("multihead"))
    first = launch(str(doc))
    assert first.state.path == doc
    first.resize(790, 560)
    size = first.size()
    first.splitter.setSizes([300, 700])
    sizes = first.splitter.sizes()
    first.state.set_step(4)
    first.timeline.dwell_box.setValue(3.5)
    first.state.set_receiver(1)
    first.state.set_head(1)
    assert first.close()
    assert last_document() == doc

    second = launch()  # its layout at once, its document read in a worker, then its view
    assert second.state.path is None
    qtbot.waitUntil(lambda: second.state.path == doc and second.state.step == 4)
    qtbot.waitUntil(lambda: second.size() == size)
    assert second.state.scenario.title == example_document("multihead")["title"]
    assert second.size() == size
    assert second.splitter.sizes() == sizes
    assert second.state.step == 4
    assert second.timeline.dwell_box.value() == 3.5
    assert (second.state.receiver, second.state.head) == (1, 1)
    assert not second.isWindowModified()


def test_a_document_on_the_command_line_wins_but_the_layout_comes_back(
        qtbot: QtBot, tmp_path: Path, launch_names: None) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("multihead"))
    first = launch(str(doc))
    first.resize(780, 520)
    size = first.size()
    first.state.set_step(3)
    first.timeline.dwell_box.setValue(4.0)
    first.close()
    second = launch("g01")
    assert second.state.path is None, "a built-in example is never saved over"
    assert second.state.scenario.title == example_document("g01")["title"]
    assert second.size() == size and size.height() == 520
    assert second.timeline.dwell_box.value() == 4.0
    assert second.state.step == 0, "the step belonged to another document"


def test_a_last_document_that_is_gone_falls_back_to_f11(qtbot: QtBot, tmp_path: Path,
                                                        launch_names: None) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("g01"))
    launch(str(doc)).close()
    doc.unlink()
    window = launch()
    assert window.state.scenario.title == F11_TITLE and window.state.path is None


def test_a_last_document_that_broke_falls_back_to_f11_and_says_why(
        qtbot: QtBot, tmp_path: Path, launch_names: None, dialogs: Dialogs) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("g01"))
    first = launch(str(doc))
    first.close()
    first.deleteLater()  # no longer watching the file for changes
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    doc.write_text("{ broken", encoding="utf-8")
    window = launch()
    qtbot.waitUntil(lambda: "could not be opened again" in window.statusBar().currentMessage())
    assert window.state.scenario.title == F11_TITLE and window.state.path is None
    assert "invalid JSON" in window.statusBar().currentMessage()
    assert dialogs.shown == []


def test_odd_stored_values_are_ignored(qtbot: QtBot, tmp_path: Path,
                                       launch_names: None) -> None:
    settings = app_settings()
    settings.beginGroup(GROUP)
    for key, value in (("geometry", QByteArray(b"garbage")), ("splitter", "wide"),
                       ("step", "third"), ("dwell", "slow"), ("receiver", 99), ("head", -5),
                       ("document", str(tmp_path))):
        settings.setValue(key, value)
    settings.endGroup()
    settings.sync()
    window = launch()
    assert window.state.scenario.title == F11_TITLE
    assert window.state.step == 0 and window.state.receiver is None and window.state.head is None
    assert window.timeline.dwell_box.value() == 2.0


def test_a_refused_command_line_document_shows_the_window_with_the_refusal(
        tmp_path: Path, launch_names: None, capsys: pytest.CaptureFixture[str],
        dialogs: Dialogs) -> None:
    # As a file manager starts it (Exec=qkv-studio %f, no terminal): the refusal must be seen.
    bad = tmp_path / "bad.qkv.json"
    bad.write_text("[]", encoding="utf-8")
    window = start_window(str(bad))
    try:
        assert window.isVisible() and window.state.scenario.title == F11_TITLE
        assert window.state.path is None  # F11 is shown, never saved over the refused file
        refusal = f"{bad} was not opened:\ndocument: expected an object, got a list of 0"
        assert dialogs.shown == [("warning", "Cannot open", refusal)]
        assert window.statusBar().currentMessage() == ("⚠ document: expected an object, got "
                                                       "a list of 0")
        assert capsys.readouterr().err == "qkv-studio: document: expected an object, got a " \
                                          "list of 0\n"
        assert bad.read_text(encoding="utf-8") == "[]"
    finally:
        close_window(window)
