"""A big document given at launch, or a big recovery copy being restored, is read after the
window shows: a busy sign with Cancel on the canvas, the window answering meanwhile.

Every file counts as big (``BACKGROUND_BYTES = 0``: read in another process) and the reading is
slowed by a sleep, so that G01 behaves like a 13 MB document.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

import app.files.loading
import app.files.opening
import app.state.session
from app.files.loading import LoadingSign
from app.files.recovery import find_orphans, offer_recovery
from app.window.startup import start_window
from app.window.studio import StudioWindow
from engine import load_scenario
from tests.app.documents_support import example_document, launch_names, write_document
from tests.app.driving import Dialogs, close_window
from tests.app.test_documents_recovery import Button, fake_crash
from tests.app.test_window_big_documents import FROZEN_MS, Ticks, slowly

__all__ = ["launch_names"]
F11_TITLE = example_document()["title"]
G01_TITLE = example_document("g01")["title"]


@pytest.fixture(autouse=True)
def every_file_big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.files.opening, "BACKGROUND_BYTES", 0)


def slow_reading(monkeypatch: pytest.MonkeyPatch, seconds: float,
                 ticks: Ticks | None = None) -> None:
    monkeypatch.setattr(app.files.loading, "load_computed",
                        slowly(app.files.opening.load_computed, seconds, ticks))


def sign_of(window: StudioWindow) -> LoadingSign | None:
    signs = [sign for sign in window.findChildren(LoadingSign) if sign.isVisible()]
    return signs[0] if signs else None


def press_later(button: Callable[[], object], after_ms: int) -> None:
    QTimer.singleShot(after_ms, lambda: button())


def test_the_window_shows_before_a_big_command_line_document_arrives(
        qtbot: QtBot, tmp_path: Path, launch_names: None, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    document = write_document(tmp_path / "lesson.qkv.json", example_document("g01"))
    ticks = Ticks()
    slow_reading(monkeypatch, 1.0, ticks)
    read_at: list[float] = []  # when the (slowed) reading returned
    reading = app.files.loading.load_computed

    def noted(*args: Any, **options: Any) -> Any:
        result = reading(*args, **options)
        read_at.append(time.perf_counter())
        return result

    monkeypatch.setattr(app.files.loading, "load_computed", noted)
    window = start_window(str(document))
    shown_at = time.perf_counter()
    drawn: list[bool] = []
    window.firstFrameDrawn.connect(lambda: drawn.append(True))
    assert window.isVisible() and window.state.scenario.title == F11_TITLE
    assert window.statusBar().currentMessage() == "Opening lesson.qkv.json…"
    sign = sign_of(window)
    assert sign is not None and sign.toolTip() == "Opening lesson.qkv.json…"
    # The window's own first frame is built when the event loop first comes round (up to
    # 0.26 s on a loaded CI machine): the ticks time only what follows, the reading.
    qtbot.waitUntil(lambda: bool(drawn), timeout=5000)
    with ticks:  # from here the window is up and drawn: only the reading goes on
        qtbot.waitUntil(lambda: window.state.scenario.title == G01_TITLE, timeout=20_000)
    # shown before the reading returned, whatever the machine's speed (a fixed 0.5 s once
    # failed at 0.5004 s with the other worker building the frozen app)
    assert len(read_at) == 1 and shown_at < read_at[0], "the window waited for the document"
    assert len(ticks.during_work) > 20 and max(ticks.during_work) < FROZEN_MS, \
        ticks.during_work
    expected = load_scenario(document)
    np.testing.assert_array_equal(window.state.scenario.X, expected.X)
    assert window.state.trace.scenario is window.state.scenario
    assert window.state.path == document and not window.isWindowModified()
    assert sign_of(window) is None
    assert window.statusBar().currentMessage().startswith("Opened lesson.qkv.json → ")
    assert dialogs.shown == []


def test_cancel_keeps_the_example_and_says_so(qtbot: QtBot, tmp_path: Path,
                                              launch_names: None, dialogs: Dialogs,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    document = write_document(tmp_path / "lesson.qkv.json", example_document("g01"))
    slow_reading(monkeypatch, 1.0)
    window = start_window(str(document))
    sign = sign_of(window)
    assert sign is not None
    press_later(sign.cancel_button.click, 100)
    qtbot.waitUntil(lambda: sign_of(window) is None, timeout=5000)
    assert window.statusBar().currentMessage() == "Not opened: cancelled"
    qtbot.wait(1300)  # the cancelled reading ends; its result is dropped
    assert window.state.scenario.title == F11_TITLE and window.state.path is None
    assert dialogs.shown == []


def test_a_refused_big_document_is_said_in_the_window(
        qtbot: QtBot, tmp_path: Path, launch_names: None, dialogs: Dialogs,
        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.qkv.json"
    bad.write_text('{"X": [[1, true]], "attention": {}}', encoding="utf-8")
    window = start_window(str(bad))
    assert window.isVisible()
    qtbot.waitUntil(lambda: bool(dialogs.shown), timeout=20_000)
    reason = "X[0][1]: expected a number, got true"
    assert dialogs.shown == [("warning", "Cannot open", f"{bad} was not opened:\n{reason}")]
    assert window.statusBar().currentMessage() == f"⚠ {reason}"
    assert capsys.readouterr().err == f"qkv-studio: {reason}\n"
    assert window.state.scenario.title == F11_TITLE and window.state.path is None
    assert sign_of(window) is None


def test_a_big_recovery_copy_is_restored_after_the_window_shows(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recovery"
    original = write_document(tmp_path / "lesson.qkv.json", example_document())
    changed = example_document()
    changed["attention"]["Wq"][1][0] = 8
    copy = fake_crash(folder, "aaa", changed, original=original)
    window.recovery._directory = folder
    dialogs.answer = Button.Yes
    slow_reading(monkeypatch, 0.6)
    assert offer_recovery(window, find_orphans(folder)) == [window]
    assert window.state.scenario.attention.Wq[1, 0] != 8, "read later, not before"
    sign = sign_of(window)
    assert sign is not None and sign.toolTip().startswith("Restoring unsaved work from ")
    qtbot.waitUntil(lambda: window.state.scenario.attention.Wq[1, 0] == 8, timeout=20_000)
    assert window.isWindowModified() and window.state.path == original
    assert not copy.exists(), "restored: the old copy goes"
    assert window.recovery.copy_path.exists()
    assert "Restored unsaved work" in window.statusBar().currentMessage()


def test_cancelling_a_big_restore_keeps_the_copy(qtbot: QtBot, window: StudioWindow,
                                                 tmp_path: Path, dialogs: Dialogs,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recovery"
    copy = fake_crash(folder, "aaa", example_document("g01"))
    window.recovery._directory = folder
    dialogs.answer = Button.Yes
    slow_reading(monkeypatch, 1.0)
    scenario = window.state.scenario
    offer_recovery(window, find_orphans(folder))
    sign = sign_of(window)
    assert sign is not None
    sign.cancel_button.click()
    qtbot.waitUntil(lambda: sign_of(window) is None, timeout=5000)
    assert window.statusBar().currentMessage() == \
        f"Not restored: cancelled. The copy was kept at {copy}"
    qtbot.wait(1300)
    assert window.state.scenario is scenario
    assert copy.exists() and [c.document for c in find_orphans(folder)] == [copy]


def test_a_document_arriving_after_the_window_moved_on_opens_beside_it_with_its_trace(
        qtbot: QtBot, tmp_path: Path, launch_names: None, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    document = write_document(tmp_path / "lesson.qkv.json", example_document("g01"))
    slow_reading(monkeypatch, 1.0)
    read: list[Any] = []
    reading = app.files.loading.load_computed

    def noted(*args: Any, **options: Any) -> Any:
        read.append(reading(*args, **options))
        return read[-1]

    monkeypatch.setattr(app.files.loading, "load_computed", noted)
    opened: list[StudioWindow] = []
    monkeypatch.setattr(StudioWindow, "open_window",
                        lambda self, scenario, trace=None: opened.append(
                            StudioWindow(scenario, trace=trace)) or opened[-1])
    window = start_window(str(document))
    try:
        assert window.state.edit_cell("attention.Wq", 0, 0, 2.5)  # the user moved on
        computed: list[str] = []
        compute = app.state.session.compute
        monkeypatch.setattr(app.state.session, "compute", lambda scenario: computed.append(
            scenario.title) or compute(scenario))
        qtbot.waitUntil(lambda: bool(opened), timeout=20_000)
        assert computed == []  # a big document's forward pass, again, on the interface thread
        assert window.state.scenario.title == F11_TITLE
        assert opened[0].state.scenario.title == G01_TITLE
        # the trace read with it, not computed again on the interface thread
        assert opened[0].state.trace is read[0][1]
        assert opened[0] in app.files.loading.LATE_WINDOWS
    finally:
        for other in opened:
            close_window(other)
    assert app.files.loading.LATE_WINDOWS == []
