"""Editing cells in the studio window: shares, mix, refusals, undo and redo (F11)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.window.studio import StudioWindow
from tests.app.driving import canvas_arrows, type_into

X = np.array([[1.0, 1.0], [1.0, -1.0]])
WK = np.array([[0.5, 0.5], [0.5, -0.5]])
WV = np.array([[5.0, 10.0], [5.0, -10.0]])


def shares_for_last_row(wq: np.ndarray) -> list[float]:
    """Independent F11 computation: shares of 爱 over (我, 爱)."""
    q = X[1] @ wq
    keys = X @ WK
    scores = [float(q @ keys[j]) / math.sqrt(2) for j in range(2)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def go_to_step(qtbot: QtBot, window: StudioWindow, step_id: str) -> None:
    index = [s.id for s in window.state.trace.steps].index(step_id)
    qtbot.mouseClick(window.timeline.step_group.button(index),
                     Qt.MouseButton.LeftButton)
    assert window.state.step == index


def test_typing_into_wq_changes_the_arrows_and_the_status_line(qtbot: QtBot,
                                                              window: StudioWindow) -> None:
    go_to_step(qtbot, window, "weights")
    assert canvas_arrows(window).share_labels == ["0.804", "0.196"]
    type_into(qtbot, window.editor.tables["attention.Wq"], 0, 0, "3")
    wq = np.array([[3.0, 1.0], [-1.0, 1.0]])
    expected = shares_for_last_row(wq)
    assert window.state.scenario.attention.Wq[0, 0] == 3.0
    labels = canvas_arrows(window).share_labels
    assert labels == [f"{expected[0]:.3f}", f"{expected[1]:.3f}"]
    assert labels != ["0.804", "0.196"]
    status = window.statusBar().currentMessage()
    assert status == f"Wq[0,0] = 3 → shares for 爱: {expected[0]:.3f} / {expected[1]:.3f}"


def test_typing_into_wv_changes_the_mix_but_never_the_shares(qtbot: QtBot,
                                                            window: StudioWindow) -> None:
    before = window.state.trace
    type_into(qtbot, window.editor.tables["attention.Wv"], 1, 1, "-4")
    after = window.state.trace
    assert after is not before
    np.testing.assert_array_equal(after.arrays["weights"], before.arrays["weights"])
    wv = WV.copy()
    wv[1, 1] = -4.0
    v = X @ wv
    w = shares_for_last_row(np.array([[1.0, 1.0], [-1.0, 1.0]]))
    np.testing.assert_allclose(after.arrays["mixed"][1], w[0] * v[0] + w[1] * v[1])
    assert not np.allclose(after.arrays["mixed"], before.arrays["mixed"])


@pytest.mark.parametrize("text", ["abc", "1e999", ""])
def test_bad_text_is_refused_and_the_cell_keeps_its_value(qtbot: QtBot, window: StudioWindow,
                                                          text: str) -> None:
    trace = window.state.trace
    table = window.editor.tables["attention.Wk"]
    type_into(qtbot, table, 1, 0, text)
    assert window.state.trace is trace, "nothing may recompute"
    assert window.state.scenario.attention.Wk[1, 0] == 0.5
    assert table.model().index(1, 0).data() == "0.5"
    assert window.editor.error_label.isVisible()
    message = window.editor.error_label.text()
    assert message.startswith("⚠ Wk[1,0]: ") and message.endswith("kept 0.5")
    assert window.statusBar().currentMessage() == message
    assert window.state.undo_stack.count() == 0


def test_undo_restores_the_exact_previous_trace_and_redo_reapplies(qtbot: QtBot,
                                                                  window: StudioWindow) -> None:
    original = window.state.trace
    type_into(qtbot, window.editor.tables["attention.Wk"], 1, 0, "2")
    edited = window.state.trace
    wk = WK.copy()
    wk[1, 0] = 2.0
    assert edited.arrays["K"][1, 0] == (X @ wk)[1, 0] == -1.5
    assert window.isWindowModified()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier)
    assert window.state.trace is original
    assert window.editor.tables["attention.Wk"].model().index(1, 0).data() == "0.5"
    assert not window.isWindowModified()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert window.state.trace is edited
    for name, array in edited.arrays.items():
        np.testing.assert_array_equal(window.state.trace.arrays[name], array)


def test_typing_twice_into_one_cell_is_one_undo_step(qtbot: QtBot, window: StudioWindow) -> None:
    table = window.editor.tables["X"]
    type_into(qtbot, table, 0, 1, "2")
    type_into(qtbot, table, 0, 1, "4")
    assert window.state.undo_stack.count() == 1
    window.undo_action.trigger()
    assert window.state.scenario.X[0, 1] == 1.0


def test_title_names_the_document_and_marks_changes(qtbot: QtBot, window: StudioWindow) -> None:
    assert window.windowTitle() == "QKV Studio — F11 · Q/K/V on two positions[*]"
    assert not window.isWindowModified()
    type_into(qtbot, window.editor.tables["X"], 1, 0, "0.5")
    assert window.isWindowModified()
