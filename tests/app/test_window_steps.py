"""The timeline, the keys that drive it, the receiver selector and the arrows (F11)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.canvas.grid import MatrixGrid
from app.window.studio import StudioWindow
from engine.reader import MAX_HEADS, MAX_POSITIONS, MAX_WIDTH
from tests.app.driving import Dialogs, canvas_arrows, open_window

F11_STEPS = ["inputs", "projections", "scores", "weights", "mix"]


def step_id(window: StudioWindow) -> str:
    return window.state.trace.steps[window.state.step].id


def test_right_four_times_walks_the_five_f11_steps_and_home_returns(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.canvas.setFocus()
    seen = [step_id(window)]
    for _ in range(4):
        qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
        seen.append(step_id(window))
    assert seen == F11_STEPS
    assert window.timeline.position_label.text().startswith("Step 5 of 5 · Mix of V")
    assert not window.timeline.next_button.isEnabled()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
    assert step_id(window) == "mix"
    qtbot.keyClick(window.canvas, Qt.Key.Key_Home)
    assert step_id(window) == "inputs"
    qtbot.keyClick(window.canvas, Qt.Key.Key_End)
    assert step_id(window) == "mix"
    qtbot.keyClick(window.canvas, Qt.Key.Key_Left)
    assert step_id(window) == "weights"
    frame = window.canvas.frame
    assert frame is not None and frame.heading.text.startswith("Step 4 of 5 · ")


def test_step_keys_leave_a_grid_alone(qtbot: QtBot, window: StudioWindow) -> None:
    table = window.editor.tables["X"]
    table.setFocus()
    table.setCurrentIndex(table.model().index(0, 0))
    qtbot.keyClick(table, Qt.Key.Key_Right)
    assert table.currentIndex().column() == 1, "Right moves within the grid"
    assert step_id(window) == "inputs"


def test_play_runs_to_the_last_step_and_stops(qtbot: QtBot, window: StudioWindow) -> None:
    dwell = window.timeline.dwell_box
    dwell.selectAll()
    qtbot.keyClicks(dwell, "0.1")
    qtbot.keyClick(dwell, Qt.Key.Key_Return)
    assert window.timeline.dwell_ms() == 100
    assert not window.timeline.playing, "default is still"
    qtbot.mouseClick(window.timeline.play_button, Qt.MouseButton.LeftButton)
    assert window.timeline.playing
    assert window.timeline.play_button.text() == "Pause"
    with qtbot.waitSignal(window.timeline.playingChanged, timeout=3000) as stopped:
        pass
    assert stopped.args == [False]
    assert step_id(window) == "mix"
    assert window.timeline.play_button.text() == "Play"


def test_space_plays_and_pauses(qtbot: QtBot, window: StudioWindow) -> None:
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Space)
    assert window.timeline.playing
    qtbot.keyClick(window.canvas, Qt.Key.Key_Space)
    assert not window.timeline.playing
    assert step_id(window) == "inputs", "a 2 s dwell has not passed yet"


def test_receiver_selector_changes_the_emphasised_arrows(qtbot: QtBot,
                                                         window: StudioWindow) -> None:
    window.timeline.last()
    window.state.set_step(window.state.trace.step_index("weights"))
    arrows = canvas_arrows(window)
    focused = [(a.query, a.key) for a in arrows.drawn if a.focused]
    assert focused == [(1, 0), (1, 1)], "by default the last position (爱) is in focus"
    assert arrows.share_labels == ["0.804", "0.196"]
    assert arrows.masked_keys == []
    combo = window.controls.receiver_box
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Up)
    assert window.state.receiver == 0
    arrows = canvas_arrows(window)
    focused = [(a.query, a.key, a.share) for a in arrows.drawn if a.focused]
    assert focused == [(0, 0, 1.0)], "我 sees only itself: share 1 for lack of competition"
    assert arrows.share_labels == ["1"]
    assert (0, 1) not in {(a.query, a.key) for a in arrows.drawn}, "masked pair: no arrow"
    assert arrows.masked_keys == [1]
    weights = window.state.trace.arrays["weights"][0]
    for arrow in arrows.drawn:
        assert arrow.share == weights[arrow.query, arrow.key]
        assert window.state.trace.visible[arrow.query, arrow.key]


def test_arrow_width_and_opacity_follow_the_share(window: StudioWindow) -> None:
    window.state.set_step(window.state.trace.step_index("mix"))
    arrows = {(a.query, a.key): a for a in canvas_arrows(window).drawn if a.focused}
    strong, weak = arrows[(1, 0)], arrows[(1, 1)]
    assert strong.share > weak.share
    assert strong.width > weak.width and strong.opacity > weak.opacity


def test_hovering_a_number_shows_its_arithmetic(qtbot: QtBot, window: StudioWindow) -> None:
    with qtbot.waitSignal(window.canvas.repainted, timeout=2000):
        window.state.set_step(window.state.trace.step_index("projections"))
    frame = window.canvas.frame
    assert frame is not None
    q_grid = next(g for g in frame.items_of(MatrixGrid) if g.spec.title.startswith("Q ="))
    centre = q_grid.mapToScene(q_grid.cell_rect(1, 0).center())
    point = window.canvas.mapFromScene(centre)
    qtbot.mouseMove(window.canvas.viewport(), QPoint(point.x(), point.y()))
    qtbot.waitUntil(lambda: q_grid.toolTip() != "", timeout=2000)
    assert q_grid.toolTip().splitlines()[0] == \
        "Q[1,0] = X[1,0]·Wq[0,0] + X[1,1]·Wq[1,0] = 1·1 + (−1)·(−1) = 2"
    assert q_grid.cell_text(1, 0) == "2"


def test_resizing_n_from_2_to_3_keeps_the_numbers_and_adds_a_token(
        qtbot: QtBot, window: StudioWindow) -> None:
    spin = window.editor.size_boxes["n"]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    scenario = window.state.scenario
    assert scenario.tokens == ("我", "爱", "t3")
    np.testing.assert_array_equal(scenario.X, [[1, 1], [1, -1], [0, 0]])
    np.testing.assert_array_equal(scenario.attention.Wq, [[1, 1], [-1, 1]])
    assert window.editor.tables["X"].model().rowCount() == 3
    assert window.controls.receiver_box.count() == 3
    assert window.state.undo_stack.undoText() == "resize n 2→3"


def test_shrinking_asks_before_dropping_numbers(qtbot: QtBot, window: StudioWindow,
                                                 dialogs: Dialogs) -> None:
    spin = window.editor.size_boxes["d"]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    assert dialogs.shown and dialogs.shown[-1][0] == "question"
    assert "drops 8 non-zero numbers" in dialogs.shown[-1][2]
    assert window.state.scenario.d == 2, "declined: nothing dropped"
    assert spin.value() == 2
    from PySide6.QtWidgets import QMessageBox

    dialogs.answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    assert window.state.scenario.d == 1
    np.testing.assert_array_equal(window.state.scenario.X, [[1], [1]])


def test_a_wide_document_keeps_its_sizes_and_resizing_n_touches_only_n(
        qtbot: QtBot, window: StudioWindow, dialogs: Dialogs, tmp_path: Path) -> None:
    """A valid d = 200 document shows d = 200; growing n asks nothing and changes no width."""
    rng = np.random.default_rng(16)
    d, width = 200, 3
    X = rng.integers(-3, 4, size=(2, d)).astype(float)
    weights = {name: rng.integers(-2, 3, size=(d, width)).astype(float).tolist()
               for name in ("Wq", "Wk", "Wv")}
    path = tmp_path / "wide.qkv.json"
    path.write_text(json.dumps({"tokens": ["a", "b"], "X": X.tolist(), "attention": weights}))
    assert window.open_path(path)
    sizes = {key: spin.value() for key, spin in window.editor.size_boxes.items()}
    assert sizes == {"n": 2, "d": 200, "d_k": 3, "d_v": 3, "heads": 1}
    assert window.editor.size_boxes["d"].maximum() == MAX_WIDTH
    assert window.editor.size_boxes["n"].maximum() == MAX_POSITIONS
    assert window.editor.size_boxes["heads"].maximum() == MAX_HEADS == 64  # Llama 3.1 70B's
    spin = window.editor.size_boxes["n"]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert dialogs.shown == [], "growing n drops nothing, so nothing is asked"
    scenario = window.state.scenario
    assert (scenario.n, scenario.d, scenario.attention.d_k) == (3, 200, 3)
    np.testing.assert_array_equal(scenario.X[:2], X)
    np.testing.assert_array_equal(scenario.attention.Wq, weights["Wq"])
    assert window.editor.size_boxes["d"].value() == 200
    assert window.state.undo_stack.undoText() == "resize n 2→3"


def test_pasting_a_spreadsheet_block_fills_from_the_current_cell(qtbot: QtBot,
                                                                 window: StudioWindow) -> None:
    from PySide6.QtGui import QGuiApplication

    table = window.editor.tables["attention.Wv"]
    table.setFocus()
    table.setCurrentIndex(table.model().index(0, 0))
    QGuiApplication.clipboard().setText("1\t2\n3,4\n")
    qtbot.keyClick(table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    np.testing.assert_array_equal(window.state.scenario.attention.Wv, [[1, 2], [3, 4]])
    assert window.state.undo_stack.count() == 1
    QGuiApplication.clipboard().setText("1\t2\t3")
    qtbot.keyClick(table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert "a 1×3 block does not fit Wv, which is 2×2 at the current sizes" in \
        window.editor.error_label.text()
    np.testing.assert_array_equal(window.state.scenario.attention.Wv, [[1, 2], [3, 4]])


@pytest.mark.slow
def test_many_windows_open_and_close_without_crashing(qtbot: QtBot) -> None:
    """PySide6 6.12.0 crashed the interpreter with many pyqtgraph canvases on Python 3.11.

    Eighteen windows in turn each draw every one of their steps, then close and are deleted:
    no window, canvas or frame is left behind."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication
    from shiboken6 import isValid

    from app.canvas.frame import FrameItem

    closed: list[object] = []
    for example in ["f11", "g01", "multihead", "tokenizer", "single-key", "norms"] * 3:
        window = open_window(qtbot, example)
        drawn = []
        for step in range(len(window.state.trace.steps)):
            window.state.set_step(step)
            frame = window.canvas.frame
            assert isinstance(frame, FrameItem)
            drawn.append((frame.step_index, frame.trace is window.state.trace))
        assert drawn == [(k, True) for k in range(len(window.state.trace.steps))], example
        qtbot.wait(1)
        closed += [window, window.canvas, window.canvas.frame]
        window.close()
        window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qtbot.wait(10)
    assert [thing for thing in closed if isValid(thing)] == []
    assert [w for w in QApplication.topLevelWidgets() if isinstance(w, StudioWindow)] == []


def test_a_step_title_too_long_for_its_room_keeps_the_steps_own_title(
        qtbot: QtBot, window: StudioWindow) -> None:
    """At 1024 × 768 the shares step's title does not fit beside the controls: it shows the
    short form, the step's own title whole (it was cut mid-word), the whole line in its tooltip;
    wide, it is whole."""
    title = window.timeline.position_label
    window.state.set_step(F11_STEPS.index("weights"))
    whole = title.text()
    assert whole == "Step 4 of 5 · Causal mask and softmax shares"
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: title.shown_text() != whole)
    shown = title.shown_text()
    assert shown == "4/5 · Causal mask and softmax shares"
    assert title.fontMetrics().horizontalAdvance(shown) <= title.contentsRect().width()
    assert title.toolTip() == title.accessibleDescription() == whole
    window.resize(1900, 900)
    qtbot.waitUntil(lambda: title.shown_text() == whole)
