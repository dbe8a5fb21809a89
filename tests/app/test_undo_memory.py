"""A long session of cell edits keeps no copy of its matrix per step: old undo steps of cell
edits keep only their two numbers once the newer ones hold enough, and a computation's worker
lets go of its document (issue 15: each cell edit of W1 in a GPT-2 layer makes a 19 MB copy).
Undo and redo still bring every number back, bit for bit."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

import app.state.big
import app.state.history
from app.state.history import EditStep
from app.state.jobs import Job
from app.window.studio import StudioWindow
from engine import Scenario, load_scenario
from engine.format.writer import to_document

EDITS = [(0, 0, 0.25), (0, 1, -1.5), (1, 0, 2.0), (1, 1, 0.125), (0, 0, 4.0)]
"""Cells of Wq and their new numbers, one undo step each (no two in a row on one cell)."""


def settle(qtbot: QtBot, window: StudioWindow) -> None:
    """The trace computed, jobs deleted. Garbage is collected only where a test looks at what
    was let go: a full collection in a test worker's grown heap takes a quarter of a second."""
    qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.mark.parametrize("big", [False, True], ids=["computed here", "computed in a worker"])
def test_old_cell_edits_keep_their_numbers_and_let_their_documents_go(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch, big: bool) -> None:
    if big:
        monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    # every step below the newest two forgets
    monkeypatch.setattr(app.state.history, "UNDO_BYTES", 0)
    state = window.state
    original: Scenario = state.scenario
    expected = np.array(original.attention.Wq)
    made: list[weakref.ref[Scenario]] = []
    for row, col, value in EDITS:
        assert state.edit_cell("attention.Wq", row, col, value)
        settle(qtbot, window)
        expected[row, col] = value
        made.append(weakref.ref(state.scenario))
    stack = state.undo_stack
    commands = [stack.command(k) for k in range(stack.count())]
    assert all(isinstance(command, EditStep) for command in commands)
    assert [command.edit is None for command in commands] == [True, True, True, False, False]
    # The documents only the forgotten steps held are gone; the newest two steps keep theirs.
    gc.collect()
    assert [ref() is None for ref in made] == [True, True, False, False, False]
    assert made[-1]() is state.scenario
    np.testing.assert_array_equal(state.scenario.attention.Wq, expected)
    for _ in EDITS:
        stack.undo()
        settle(qtbot, window)
    assert state.scenario.attention.Wq.tobytes() == original.attention.Wq.tobytes()
    assert to_document(state.scenario) == to_document(original)
    assert state.trace.scenario is state.scenario
    assert stack.redoText() == "Wq[0,0] = 0.25"
    for _ in EDITS:
        stack.redo()
        settle(qtbot, window)
    assert state.scenario.attention.Wq.tobytes() == expected.tobytes()
    assert stack.undoText() == "Wq[0,0] = 4"
    stack.setClean()


def test_a_recovery_copy_written_in_a_worker_lets_go_of_its_document(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(window.recovery, "_directory", tmp_path)
    assert window.state.edit_cell("X", 0, 1, 4.0)
    settle(qtbot, window)
    copied = weakref.ref(window.state.scenario)
    with qtbot.waitSignal(window.recovery.written, timeout=5000):
        window.recovery.write_soon()
    assert load_scenario(window.recovery.copy_path).X.tolist() == [[1.0, 4.0], [1.0, -1.0]]
    assert window.state.edit_cell("X", 0, 0, 5.0)  # the copied document is now only undo's
    window.state.undo_stack.clear()
    settle(qtbot, window)

    def let_go() -> bool:  # a loaded machine may still be finishing the worker's job
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
        return copied() is None

    qtbot.waitUntil(let_go, timeout=5000)
    assert window.recovery.findChildren(Job) == []
    window.state.undo_stack.setClean()
