"""Recovery copies: written while a document is unsaved, found after a crash, offered once."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app.files.recovery import (
    AUTOSAVE_ENV,
    DEFAULT_AUTOSAVE_MS,
    MIN_AUTOSAVE_MS,
    autosave_interval,
    find_orphans,
    offer_recovery,
    recovery_dir,
)
from app.model.examples import example_path
from app.window.startup import start_window
from app.window.studio import StudioWindow
from engine import load_scenario
from engine.format.writer import to_document
from tests.app.documents_support import (
    example_document,
    launch_names,
    make_modified,
    patch_save_dialog,
    write_document,
)
from tests.app.driving import Dialogs, close_window, open_window

__all__ = ["launch_names"]  # a fixture used below
CRASH_SCRIPT = Path(__file__).with_name("crash_session.py")
Button = QMessageBox.StandardButton


def fast(window: StudioWindow, folder: Path) -> StudioWindow:
    """Copies every 10 ms, into ``folder``."""
    window.recovery.timer.setInterval(10)
    window.recovery._directory = folder
    return window


def wait_for_copy(qtbot: QtBot, window: StudioWindow) -> Path:
    qtbot.waitUntil(lambda: window.recovery.sidecar_path.exists(), timeout=3000)
    return window.recovery.copy_path


def test_the_autosave_interval_comes_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(AUTOSAVE_ENV, raising=False)
    assert autosave_interval() == DEFAULT_AUTOSAVE_MS
    for text, expected in (("250", 250), ("0", MIN_AUTOSAVE_MS), ("soon", DEFAULT_AUTOSAVE_MS)):
        monkeypatch.setenv(AUTOSAVE_ENV, text)
        assert autosave_interval() == expected


def test_a_copy_is_kept_while_unsaved_and_removed_by_save_undo_and_close(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recovery"
    fast(window, folder)
    qtbot.wait(30)
    assert not folder.exists(), "nothing is written for a document without changes"
    make_modified(window, 3.0)
    copy = wait_for_copy(qtbot, window)
    assert to_document(load_scenario(copy)) == to_document(window.state.scenario)
    info = json.loads(window.recovery.sidecar_path.read_text(encoding="utf-8"))
    assert info["original"] is None and info["pid"] == os.getpid()
    assert info["title"] == window.state.scenario.title
    assert abs((datetime.now().astimezone() - datetime.fromisoformat(info["time"]))
               .total_seconds()) < 60
    assert window.recovery.lock_path.exists()
    make_modified(window, 4.0)  # a later edit refreshes the copy
    qtbot.waitUntil(lambda: load_scenario(copy).attention.Wq[0, 0] == 4.0, timeout=3000)
    target = tmp_path / "saved.qkv.json"
    patch_save_dialog(monkeypatch, target)
    assert window.save()
    assert not copy.exists() and not window.recovery.sidecar_path.exists()
    make_modified(window, 5.0)
    wait_for_copy(qtbot, window)
    window.undo_action.trigger()  # back to the saved state
    assert not copy.exists()
    qtbot.wait(30)
    assert not copy.exists(), "a clean document gets no copy"
    make_modified(window, 6.0)
    wait_for_copy(qtbot, window)
    window.state.undo_stack.setClean()
    window.close()
    assert sorted(folder.iterdir()) == [], "closing removes copy, sidecar and lock"


def test_closing_after_declining_to_save_removes_the_copy(qtbot: QtBot, tmp_path: Path,
                                                          dialogs: Dialogs) -> None:
    window = fast(open_window(qtbot), tmp_path / "recovery")
    make_modified(window)
    wait_for_copy(qtbot, window)
    dialogs.answer = Button.Discard
    assert window.close()
    assert [k for k, _t, _x in dialogs.shown] == ["question"]
    assert sorted((tmp_path / "recovery").iterdir()) == []
    close_window(window)  # marks it clean so that deleting it emits nothing into a dead window


def test_cancelling_the_close_keeps_the_copy(qtbot: QtBot, window: StudioWindow,
                                             tmp_path: Path, dialogs: Dialogs) -> None:
    fast(window, tmp_path / "recovery")
    make_modified(window)
    copy = wait_for_copy(qtbot, window)
    dialogs.answer = Button.Cancel
    assert not window.close()
    assert copy.exists() and window.recovery.lock_path.exists()


def test_two_running_windows_never_touch_each_others_copies(qtbot: QtBot, tmp_path: Path,
                                                           ) -> None:
    folder = tmp_path / "recovery"
    first, second = (fast(open_window(qtbot), folder) for _ in range(2))
    try:
        make_modified(first, 1.5)
        make_modified(second, 2.5)
        copies = [wait_for_copy(qtbot, w) for w in (first, second)]
        assert copies[0] != copies[1]
        assert load_scenario(copies[0]).attention.Wq[0, 0] == 1.5
        assert load_scenario(copies[1]).attention.Wq[0, 0] == 2.5
        assert find_orphans(folder) == [], "a running session's copy is never offered"
        close_window(first)
        assert not copies[0].exists() and copies[1].exists()
        assert find_orphans(folder) == []
    finally:
        close_window(first)
        close_window(second)


def leave_stale_lock(lock: Path) -> None:
    """A lock taken by a process that then died without releasing it."""
    code = ("import os, sys\nfrom PySide6.QtCore import QLockFile\n"
            "lock = QLockFile(sys.argv[1])\nassert lock.tryLock(0)\nos._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(lock)], check=True, timeout=60)
    assert lock.exists()


def fake_crash(folder: Path, session: str, document: dict[str, object],
               original: Path | None = None, sidecar: object = "default") -> Path:
    """What a killed session leaves: copy, sidecar and a stale lock."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = write_document(folder / f"{session}.qkv.json", document)
    if sidecar == "default":
        sidecar = {"format": "qkv-studio-recovery", "session": session,
                   "original": str(original) if original else None, "title": "Lesson",
                   "time": "2025-03-04T10:20:30+00:00", "pid": 999999}
    if sidecar is not None:
        (folder / f"{session}.meta.json").write_text(
            sidecar if isinstance(sidecar, str) else json.dumps(sidecar), encoding="utf-8")
    leave_stale_lock(folder / f"{session}.lock")
    return copy


def test_orphans_are_the_copies_whose_lock_is_stale(tmp_path: Path) -> None:
    folder = tmp_path / "recovery"
    fake_crash(folder, "aaa", example_document(), original=tmp_path / "a.qkv.json")
    fake_crash(folder, "bbb", example_document("g01"), sidecar="{ not json")
    fake_crash(folder, "ccc", example_document(), sidecar=None)
    write_document(folder / "live.qkv.json", example_document())
    live = QLockFile(str(folder / "live.lock"))
    assert live.tryLock(0)  # a session that is still running
    (folder / "lonely.meta.json").write_text("{}", encoding="utf-8")  # debris of a crash
    try:
        orphans = find_orphans(folder)
        assert sorted(o.session for o in orphans) == ["aaa", "bbb", "ccc"]
        by_session = {o.session: o for o in orphans}
        assert by_session["aaa"].original == tmp_path / "a.qkv.json"
        assert by_session["aaa"].title == "Lesson"
        assert by_session["aaa"].time_text().startswith("2025-03-04")
        assert by_session["bbb"].title == "bbb.qkv.json" and by_session["bbb"].original is None
        assert not (folder / "lonely.meta.json").exists()
        assert find_orphans(folder) == [], "offered copies stay locked while offered"
        for orphan in orphans:
            orphan.discard()
        assert sorted(p.name for p in folder.iterdir()) == ["live.lock", "live.qkv.json"]
    finally:
        live.unlock()


def test_declining_deletes_the_copy_and_keeps_the_document(window: StudioWindow,
                                                           tmp_path: Path,
                                                           dialogs: Dialogs) -> None:
    folder = tmp_path / "recovery"
    fake_crash(folder, "aaa", example_document("g01"))
    scenario = window.state.scenario
    dialogs.answer = Button.No
    assert offer_recovery(window, find_orphans(folder)) == []
    kind, title, text = dialogs.shown[0]
    assert (kind, title) == ("question", "Restore unsaved work")
    assert text.startswith("Restore unsaved work from 2025-03-04 ")
    assert "“Lesson”, never saved to a file" in text
    assert window.state.scenario is scenario
    assert list(folder.iterdir()) == []


def test_accepting_restores_the_work_as_modified_with_its_original_path(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path, dialogs: Dialogs) -> None:
    folder = tmp_path / "recovery"
    original = write_document(tmp_path / "lesson.qkv.json", example_document())
    before = original.read_bytes()
    changed = example_document()
    changed["attention"]["Wq"][1][0] = 8
    fake_crash(folder, "aaa", changed, original=original)
    window.recovery._directory = folder
    dialogs.answer = Button.Yes
    assert offer_recovery(window, find_orphans(folder)) == [window]
    assert f"of {original}" in dialogs.shown[0][2]
    assert window.state.scenario.attention.Wq[1, 0] == 8
    assert window.editor.tables["attention.Wq"].model().index(1, 0).data() == "8"
    assert window.isWindowModified() and window.state.path == original
    assert original.read_bytes() == before, "nothing is written to the original until Save"
    assert not (folder / "aaa.qkv.json").exists() and not (folder / "aaa.lock").exists()
    assert window.recovery.copy_path.exists(), "the restored work has a copy again at once"
    assert "Restored unsaved work" in window.statusBar().currentMessage()
    assert window.save()
    assert json.loads(original.read_text(encoding="utf-8"))["attention"]["Wq"][1][0] == 8


def test_a_copy_that_cannot_be_restored_is_kept_and_its_place_named(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs) -> None:
    folder = tmp_path / "recovery"
    copy = fake_crash(folder, "aaa", example_document())
    copy.write_text('{"X": [[1, 2]', encoding="utf-8")
    scenario = window.state.scenario
    dialogs.answer = Button.Yes
    assert offer_recovery(window, find_orphans(folder)) == []
    assert [(k, t) for k, t, _x in dialogs.shown] == [("question", "Restore unsaved work"),
                                                      ("warning", "Cannot restore")]
    assert "invalid JSON" in dialogs.shown[1][2]
    assert str(copy) in dialogs.shown[1][2] and "kept" in dialogs.shown[1][2]
    assert window.state.scenario is scenario
    assert copy.read_text(encoding="utf-8") == '{"X": [[1, 2]'  # never deleted
    assert sorted(p.name for p in folder.iterdir()) == ["aaa.meta.json", "aaa.qkv.json"]
    assert [c.document for c in find_orphans(folder)] == [copy]  # offered again next time


def test_a_copy_that_cannot_be_written_is_reported_once(qtbot: QtBot, window: StudioWindow,
                                                       tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    fast(window, blocker / "recovery")
    failures: list[str] = []
    window.recovery.failed.connect(failures.append)
    make_modified(window, 2.0)
    qtbot.waitUntil(lambda: len(failures) == 1, timeout=3000)
    assert "recovery copy not written" in window.statusBar().currentMessage()
    make_modified(window, 3.0)
    qtbot.wait(50)
    assert len(failures) == 1 and "recovery copy not written" in failures[0]
    assert str(blocker / "recovery") in failures[0]


# -- a real crash ----------------------------------------------------------------------------
def read_lines(stream: object, lines: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line.rstrip("\n"))


@pytest.mark.slow
def test_a_killed_app_offers_its_unsaved_edit_on_the_next_launch(
        qtbot: QtBot, tmp_path: Path, dialogs: Dialogs, launch_names: None) -> None:
    document = write_document(tmp_path / "lesson.qkv.json", example_document())
    before = document.read_bytes()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           AUTOSAVE_ENV: "50"}
    assert env["XDG_DATA_HOME"].startswith(str(tmp_path))
    assert env["XDG_CONFIG_HOME"].startswith(str(tmp_path))
    process = subprocess.Popen(
        [sys.executable, str(CRASH_SCRIPT), str(document), "attention.Wq", "0", "0", "7.5"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=tmp_path)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        while not (seen and seen[-1].startswith("RECOVERY ")):
            seen.append(lines.get(timeout=90))
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert "EDITED [[7.5, 1.0], [-1.0, 1.0]]" in seen
    copy = Path(seen[-1].removeprefix("RECOVERY "))
    assert copy.parent == recovery_dir()
    assert copy.exists() and copy.with_suffix("").with_suffix(".lock").exists()

    dialogs.answer = Button.Yes
    window = start_window(None)  # the next launch, as run_window does it
    assert isinstance(window, StudioWindow)
    try:
        questions = [(t, x) for k, t, x in dialogs.shown if k == "question"]
        assert len(questions) == 1
        title, text = questions[0]
        assert title == "Restore unsaved work"
        assert text.startswith("Restore unsaved work from ") and str(document) in text
        assert window.state.scenario.attention.Wq[0, 0] == 7.5
        assert window.editor.tables["attention.Wq"].model().index(0, 0).data() == "7.5"
        assert window.isWindowModified()
        assert window.state.path == document
        assert document.read_bytes() == before
        assert not copy.exists()

        again = start_window(None)  # a second launch while the first still runs
        assert isinstance(again, StudioWindow)
        close_window(again)
        assert len([k for k, _t, _x in dialogs.shown if k == "question"]) == 1, \
            "a running session's copy is not offered"
    finally:
        close_window(window)  # left open, it failed a later module's count of open windows


def test_orphans_default_to_the_app_data_folder(qapp: QApplication, launch_names: None,
                                                tmp_path: Path) -> None:
    """With no folder given, copies are looked for in AppDataLocation/recovery under the
    application's names, and only there."""
    folder = recovery_dir()
    assert folder == tmp_path / "data" / "QKV Studio" / "QKV Studio" / "recovery"
    assert find_orphans() == []  # the folder does not exist yet
    elsewhere = tmp_path / "elsewhere"
    for place, session in ((folder, "left-here"), (elsewhere, "left-there")):
        place.mkdir(parents=True)
        (place / f"{session}.qkv.json").write_text(
            example_path("f11").read_text(encoding="utf-8"), encoding="utf-8")
        (place / f"{session}.meta.json").write_text(json.dumps(
            {"format": "qkv-studio-recovery", "session": session, "original": None,
             "title": session, "time": "2026-01-02T03:04:05+00:00"}), encoding="utf-8")
    found = find_orphans()
    try:
        assert [(c.session, c.document, c.title) for c in found] == \
            [("left-here", folder / "left-here.qkv.json", "left-here")]
    finally:
        for copy in found:
            assert copy.lock is not None
            copy.lock.unlock()
