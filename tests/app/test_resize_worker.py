"""A size box's resize is worked in a worker, once: the window keeps running meanwhile (its timers
fire), Cancel leaves the document and its history as they were, and a refusal is said with the
size box put back."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

import app.editor.pane as pane
from app.model.cancel import CancelledError
from app.model.edits import resized
from app.window.studio import StudioWindow
from engine import Scenario, ScenarioError
from engine.scenario.resize import Sizes
from tests.app.driving import Dialogs

SLOW = 0.4
"""Seconds a resize is held up in the test: long past a repaint's 16 ms."""


def test_the_resize_runs_off_the_window_thread_and_the_window_keeps_running(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    ran_on: list[threading.Thread] = []
    calls: list[Sizes] = []

    def slow(scenario: Scenario, sizes: Sizes) -> tuple[Scenario, int]:
        ran_on.append(threading.current_thread())
        calls.append(sizes)
        time.sleep(SLOW)
        return resized(scenario, sizes)

    monkeypatch.setattr(pane, "resized", slow)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(20)
    spin = window.editor.size_boxes["n"]
    spin.setFocus()
    started = time.perf_counter()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    timer.stop()
    assert ran_on and ran_on[0] is not threading.main_thread()
    assert len(calls) == 1, "worked once, for the question and the edit alike"
    during = [t for t in ticks if started < t < started + SLOW]
    assert len(during) >= 5, "the window's own timers fired while the document was resized"
    scenario = window.state.scenario
    assert scenario.tokens == ("我", "爱", "t3")
    np.testing.assert_array_equal(scenario.X, [[1, 1], [1, -1], [0, 0]])
    assert window.state.undo_stack.undoText() == "resize n 2→3"
    window.state.undo()
    assert window.state.scenario.n == 2 and spin.value() == 2


def test_cancel_leaves_the_document_and_its_history(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    def cancelled(*_args: object, **_kwargs: object) -> object:
        raise CancelledError

    monkeypatch.setattr(pane, "run_with_progress", cancelled)
    before = window.state.scenario
    spin = window.editor.size_boxes["d"]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert window.state.scenario is before
    assert window.state.undo_stack.count() == 0
    assert spin.value() == 2, "the box shows the document's size again"


def test_a_refused_resize_is_said_and_the_box_put_back(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch,
        dialogs: Dialogs) -> None:
    def refused(_scenario: Scenario, _sizes: Sizes) -> tuple[Scenario, int]:
        raise ScenarioError("attention.Wq", "too large for this computer")

    monkeypatch.setattr(pane, "resized", refused)
    said: list[str] = []
    window.state.refused.connect(said.append)
    before = window.state.scenario
    spin = window.editor.size_boxes["heads"]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert said == ["resize heads 1→2: attention.Wq: too large for this computer"]
    assert window.state.scenario is before and spin.value() == 1
    assert dialogs.shown == []
