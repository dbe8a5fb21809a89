"""Nothing lost in the window (issue 13): every save path reports any failure and keeps the
window open, devices are refused, too-large frames are said, two windows on one file ask first,
recovery copies stay private."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

import app.export.render
import app.files.recovery
import app.files.saving
import engine.files.safe_write
from app.window.studio import StudioWindow
from tests.app.documents_support import (
    example_document,
    make_modified,
    patch_save_dialog,
    write_document,
)
from tests.app.driving import Dialogs, close_window, open_window

Button = QMessageBox.StandardButton
SURROGATE = UnicodeEncodeError("utf-8", "a\udfff", 1, 2, "surrogates not allowed")


def fail_every_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving raises what an unsaveable title raised before (not an OSError)."""
    def refuse(*_args: object) -> None:
        raise SURROGATE

    monkeypatch.setattr(app.files.saving, "write_dumped", refuse)  # what every save goes through


def test_ctrl_s_reports_any_failure(window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    target = write_document(tmp_path / "lesson.qkv.json", example_document())
    assert window.open_path(target)
    make_modified(window)
    fail_every_save(monkeypatch)
    window.save_action.trigger()
    assert [(kind, title) for kind, title, _text in dialogs.shown] == [("critical", "Not saved")]
    assert str(target) in dialogs.shown[0][2] and "surrogates not allowed" in dialogs.shown[0][2]
    assert window.isWindowModified()
    assert json.loads(target.read_text(encoding="utf-8")) == example_document()


def test_quit_then_save_that_fails_keeps_the_window_and_the_edit(
        qtbot: QtBot, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    win = open_window(qtbot)
    try:
        target = write_document(tmp_path / "lesson.qkv.json", example_document())
        assert win.open_path(target)
        make_modified(win, 7.0)
        fail_every_save(monkeypatch)
        dialogs.answer = Button.Save
        assert not win.close()
        assert win.isVisible() and win.isWindowModified()
        assert win.state.scenario.attention.Wq[0, 0] == 7.0
        assert [kind for kind, _title, _text in dialogs.shown] == ["question", "critical"]
    finally:
        close_window(win)


def test_an_exception_while_closing_never_accepts_the_close(
        qtbot: QtBot, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    win = open_window(qtbot)
    try:
        make_modified(win)

        def broken() -> bool:
            raise RuntimeError("the question could not be asked")

        monkeypatch.setattr(win, "_may_discard", broken)
        assert not win.close()
        assert win.isVisible()
        assert "the question could not be asked" in win.statusBar().currentMessage()
    finally:
        monkeypatch.undo()
        close_window(win)


def test_an_autosave_failure_of_any_kind_is_said(qtbot: QtBot, window: StudioWindow,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    window.recovery.timer.setInterval(10)
    window.recovery._directory = tmp_path / "recovery"

    def refuse(*_args: object) -> str:
        raise SURROGATE

    monkeypatch.setattr("app.files.recovery.dump_scenario", refuse)
    with qtbot.waitSignal(window.recovery.failed, timeout=3000) as failed:
        make_modified(window)
    assert failed.args is not None and "surrogates not allowed" in failed.args[0]
    assert "recovery copy not written" in window.statusBar().currentMessage()


def test_saving_onto_a_fifo_or_a_symlink_loop_is_refused_visibly(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "pipe.qkv.json"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.qkv.json"
    loop.symlink_to(tmp_path / "back.qkv.json")
    (tmp_path / "back.qkv.json").symlink_to(loop)
    make_modified(window)
    for target, reason in ((fifo, "it is a pipe (FIFO), not a file; choose a file name"),
                           (loop, "it is a loop of symbolic links")):
        dialogs.shown.clear()
        patch_save_dialog(monkeypatch, target)
        assert not window.save_as()
        assert dialogs.shown[0][:2] == ("critical", "Not saved")
        assert f"Could not save to {target}: {reason}." in dialogs.shown[0][2]
        assert window.isWindowModified()
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and loop.is_symlink()


def test_copying_a_frame_too_large_to_draw_is_said_not_a_crash(
        window: StudioWindow, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.export.render, "MAX_IMAGE_BYTES", 100_000)
    window.copy_frame_action.trigger()
    assert [(kind, title) for kind, title, _text in dialogs.shown] == [("warning", "Not copied")]
    assert "a picture of " in dialogs.shown[0][2] and "a width of at most" in dialogs.shown[0][2]
    assert window.statusBar().currentMessage().startswith("⚠ not copied: a picture of ")


def test_two_windows_on_one_file_ask_before_overwriting_or_reloading(
        qtbot: QtBot, tmp_path: Path, dialogs: Dialogs) -> None:
    target = write_document(tmp_path / "shared.qkv.json", example_document())
    first, second = open_window(qtbot), open_window(qtbot)
    try:
        assert first.open_path(target) and second.open_path(target)
        make_modified(second, 2.0)
        dialogs.answer = Button.No  # first: keep this window's version, do not reload
        assert second.save()
        qtbot.waitUntil(lambda: bool(dialogs.shown), timeout=5000)
        assert dialogs.shown[0][:2] == ("question", "File changed on disk")
        assert "Reload it?" in dialogs.shown[0][2]
        assert first.state.scenario.attention.Wq[0, 0] != 2.0
        make_modified(first, 3.0)
        dialogs.shown.clear()
        dialogs.answer = Button.Cancel  # do not overwrite the other window's save
        assert not first.save()
        assert dialogs.shown[0][:2] == ("question", "File changed on disk")
        assert json.loads(target.read_text(encoding="utf-8"))["attention"]["Wq"][0][0] == 2
        assert first.isWindowModified()
        dialogs.answer = Button.Save  # now overwrite on purpose
        assert first.save()
        assert json.loads(target.read_text(encoding="utf-8"))["attention"]["Wq"][0][0] == 3
        dialogs.shown.clear()
        dialogs.answer = Button.Yes  # second is clean: reload what first saved
        qtbot.waitUntil(lambda: second.state.scenario.attention.Wq[0, 0] == 3.0, timeout=5000)
        assert dialogs.shown[0][:2] == ("question", "File changed on disk")
        assert not second.isWindowModified()
    finally:
        close_window(first)
        close_window(second)


def test_recovery_copies_are_private(qtbot: QtBot, window: StudioWindow, tmp_path: Path) -> None:
    target = write_document(tmp_path / "secret.qkv.json", example_document())
    target.chmod(0o600)
    assert window.open_path(target)
    folder = tmp_path / "data" / "recovery"
    folder.mkdir(parents=True, mode=0o755)
    folder.chmod(0o755)  # an older, more open folder is tightened
    window.recovery._directory = folder
    window.recovery.timer.setInterval(10)
    make_modified(window)
    qtbot.waitUntil(lambda: window.recovery.sidecar_path.exists(), timeout=3000)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in (window.recovery.copy_path, window.recovery.sidecar_path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_a_recovery_folder_on_a_full_disk_says_so(qtbot: QtBot, window: StudioWindow,
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    window.recovery._directory = tmp_path / "recovery"
    (tmp_path / "recovery").mkdir()
    monkeypatch.setattr("app.files.recovery.QLockFile.tryLock", lambda *_a: False)
    monkeypatch.setattr("app.files.recovery.QLockFile.error",
                        lambda *_a: app.files.recovery.QLockFile.LockError.UnknownError)

    def full(*_args: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(engine.files.safe_write.os, "write", full)
    messages: list[str] = []
    window.recovery.failed.connect(messages.append)
    make_modified(window)
    assert not window.recovery.write_now()
    assert messages == [f"recovery copy not written to {tmp_path / 'recovery'}: the disk is full"]
