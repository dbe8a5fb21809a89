"""Hostile use of a big document's step that waits for its weights (issue 37, item 4): edits,
undo, stepping, Cancel, the language, closing, opening, comparing, presenting, exports, the
receiver and head, and a failing worker, all while a step's weights are being made ready.

The document is :mod:`tests.app.test_step_weights`'s cut-down mapped Llama checkpoint (one
layer, a 24 × 3,000 feed-forward), every mapped weight counting as big; the worker is held at
its first weight by a :class:`Gate` until the test lets it go, so "while waiting" is a state the
test controls rather than a race it hopes to win."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

import app.canvas.context
import app.canvas.prepared_drawing
import app.state.big
import app.state.jobs
import app.window.step_weights
from app.canvas.frame import FrameItem
from app.canvas.prepared_drawing import is_prepared
from app.i18n import set_language
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import compute
from engine.format.mapped_weight import MappedWeight
from tests.app import test_step_weights as step_weights_tests
from tests.app.driving import asked_to_prepare, close_window, type_into

FFN = step_weights_tests.FFN
PROJECTIONS = ("layers.0.attention.Wq", "layers.0.attention.Wk", "layers.0.attention.Wv")


def click(qtbot: QtBot, widget: QWidget) -> None:
    bot: Any = qtbot  # pytest-qt's methods are untyped
    bot.mouseClick(widget, Qt.MouseButton.LeftButton)


def press(qtbot: QtBot, widget: QWidget, key: Qt.Key) -> None:
    bot: Any = qtbot
    bot.keyClick(widget, key)


class Gate:
    """The worker's ``prepare_weight`` held until :meth:`open` (or failing, if told to)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.released = threading.Event()
        self.entered = threading.Event()
        self.calls: list[MappedWeight] = []
        self.failing: set[str] = set()
        """Names of weights whose preparation raises (once let go)."""
        real = app.canvas.prepared_drawing.prepare_weight

        def held(weight: MappedWeight, places: int, unembedding: bool = False,
                 keeping: Sequence[MappedWeight] = ()) -> None:
            self.calls.append(weight)
            self.entered.set()
            if not self.released.wait(10):
                raise TimeoutError("the test never let the worker go")
            if weight.name in self.failing or "*" in self.failing:
                raise RuntimeError(f"hostile failure preparing {weight.name}")
            real(weight, places, unembedding, keeping)

        monkeypatch.setattr(app.window.step_weights, "prepare_weight", held)

    def open(self) -> None:
        self.released.set()


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[StudioWindow]:
    monkeypatch.setattr(app.state.jobs, "SHOW_PROGRESS_AFTER_MS", 0)
    monkeypatch.setattr(app.window.step_weights, "SHOW_PROGRESS_AFTER_MS", 0)
    made = step_weights_tests.small_llama_window(qtbot, tmp_path, monkeypatch)
    yield made
    job = made.step_weights.job if _alive(made) else None
    if job is not None:  # a test that failed with the worker held: let it go first
        job.cancel()
        job.wait(10)
    close_window(made)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    made = Gate(monkeypatch)
    yield made
    made.open()


def _alive(window: StudioWindow) -> bool:
    import shiboken6
    return shiboken6.isValid(window) and shiboken6.isValid(window.step_weights)


def index_of(window: StudioWindow, step_id: str) -> int:
    return window.state.trace.step_index(step_id)


def click_step(qtbot: QtBot, window: StudioWindow, step_id: str) -> int:
    """Click the timeline's button of ``step_id``; its index."""
    index = index_of(window, step_id)
    button = window.timeline.step_group.button(index)
    assert button is not None
    click(qtbot, button)
    assert window.state.step == index
    return index


def on_screen(window: StudioWindow) -> int | None:
    frame = window.canvas.frame
    return frame.step_index if isinstance(frame, FrameItem) else None


def drawn(qtbot: QtBot, window: StudioWindow, step: int) -> None:
    qtbot.waitUntil(lambda: on_screen(window) == step, timeout=3000)


def settled(qtbot: QtBot, window: StudioWindow) -> None:
    """The worker has returned, the document is computed and nothing is pending."""
    qtbot.waitUntil(lambda: window.step_weights.job is None and not window.state.busy,
                    timeout=5000)
    qtbot.wait(60)  # a build_later or a queued redraw


def stays_on(qtbot: QtBot, window: StudioWindow, gate: Gate, step: int) -> None:
    """Step ``step`` is asked for and on screen, and stays so once the worker is let go, the
    bar and Cancel gone."""
    assert window.state.step == step and on_screen(window) == step
    gate.open()
    settled(qtbot, window)
    assert window.state.step == step and on_screen(window) == step
    assert not window.step_weights.isVisible()


def start_waiting(qtbot: QtBot, window: StudioWindow, gate: Gate, before: str = "L1.norm2",
                  waiting: str = "L1.ffn") -> tuple[int, int]:
    """``before`` drawn, then ``waiting`` clicked: its weights held in the worker, the bar and
    Cancel showing, the canvas still on ``before``."""
    first = click_step(qtbot, window, before)
    drawn(qtbot, window, first)
    second = click_step(qtbot, window, waiting)
    qtbot.waitUntil(window.step_weights.isVisible, timeout=2000)
    assert gate.entered.wait(2)
    assert on_screen(window) == first and window.state.step == second
    return first, second


def status(window: StudioWindow) -> str:
    return window.statusBar().currentMessage()


def weights(window: StudioWindow, paths: tuple[str, ...]) -> list[MappedWeight]:
    found = [window.state.scenario.weight(path) for path in paths]
    assert all(isinstance(w, MappedWeight) for w in found)
    return found  # type: ignore[return-value]


def widened_here(monkeypatch: pytest.MonkeyPatch) -> list[MappedWeight]:
    """:func:`tests.app.test_step_weights.widened_here`, the canvas's cache of weights it
    widened itself emptied first (so that a grid drawing one widens it again)."""
    monkeypatch.setattr(app.canvas.context, "_DRAWN", [])
    return step_weights_tests.widened_here(monkeypatch)


def frame_matches_document(window: StudioWindow, step: int) -> None:
    """The frame on screen is step ``step`` of the document as it now is (its output equal to a
    fresh computation of the document's scenario)."""
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.step_index == step
    fresh = compute(window.state.scenario)
    out = fresh.steps[step].writes[0] if fresh.steps[step].writes else None
    if out is not None:
        np.testing.assert_allclose(frame.trace.arrays[out], fresh.arrays[out], rtol=1e-12,
                                   atol=1e-12)


# -- edits, undo and redo while a step waits ----------------------------------------------------

@pytest.mark.parametrize(("path", "typed"), [
    ("layers.0.block.gamma2", 5.0),  # the norm before the FFN: the waiting step's input
    ("layers.0.block.ffn.W1", 7.0),  # one of the weights the step waits for
])
def test_an_edit_while_the_ffn_waits_is_drawn_in_the_ffn(
        qtbot: QtBot, window: StudioWindow, gate: Gate, path: str, typed: float) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    type_into(qtbot, window.editor.tables[path], 0, 0, f"{typed:g}")
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn
    assert np.asarray(window.state.scenario.weight(path)).flat[0] == typed
    frame_matches_document(window, ffn)
    assert not window.step_weights.isVisible()
    assert window.state.undo_stack.count() == 1


def test_undo_and_redo_while_the_ffn_waits(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before = click_step(qtbot, window, "L1.norm2")
    drawn(qtbot, window, before)
    type_into(qtbot, window.editor.tables["layers.0.block.gamma2"], 0, 0, "3")
    qtbot.waitUntil(lambda: not window.state.busy)
    edited = window.state.scenario
    ffn = click_step(qtbot, window, "L1.ffn")
    qtbot.waitUntil(window.step_weights.isVisible)
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: not window.state.busy)
    assert window.state.scenario is not edited and window.state.step == ffn
    window.redo_action.trigger()
    window.undo_action.trigger()
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn
    assert window.state.undo_stack.index() == 0 and window.state.undo_stack.count() == 1
    frame_matches_document(window, ffn)


# -- stepping while a step waits -----------------------------------------------------------------

def test_stepping_forward_past_the_waiting_step_draws_the_next_and_stays(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    click(qtbot, window.timeline.next_button)
    assert window.state.step == ffn + 1
    drawn(qtbot, window, ffn + 1)  # resid2 reads no big weight: drawn at once
    assert not window.step_weights.isVisible()
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn + 1 and on_screen(window) == ffn + 1
    frame_matches_document(window, ffn + 1)


def test_stepping_back_while_waiting_draws_the_step_before_and_stays(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before, _ffn = start_waiting(qtbot, window, gate)
    press(qtbot, window.canvas, Qt.Key.Key_Left)
    assert window.state.step == before
    gate.open()
    settled(qtbot, window)
    assert window.state.step == before and on_screen(window) == before
    assert not window.step_weights.isVisible()


def test_jumping_between_two_waiting_steps_draws_the_last_one_asked_for(
        qtbot: QtBot, window: StudioWindow, gate: Gate, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    _before, _ffn = start_waiting(qtbot, window, gate)
    projections = click_step(qtbot, window, "L1.projections")
    here = widened_here(monkeypatch)
    gate.open()
    settled(qtbot, window)
    assert window.state.step == projections and on_screen(window) == projections
    assert [w.name for w in here] == []  # nothing widened on the interface thread
    assert all(is_prepared(w) for w in weights(window, PROJECTIONS))
    frame_matches_document(window, projections)
    assert not window.step_weights.isVisible()


def test_jumps_by_the_timeline_then_cancel_go_back_to_the_step_on_screen(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before, _ffn = start_waiting(qtbot, window, gate)
    click_step(qtbot, window, "L1.projections")
    click_step(qtbot, window, "L1.mix")
    click(qtbot, window.timeline.previous_button)  # weights
    weights_step = index_of(window, "L1.weights")
    drawn(qtbot, window, weights_step)  # a big document's step: drawn at the next turn
    click_step(qtbot, window, "L1.ffn")  # waits again
    qtbot.waitUntil(window.step_weights.isVisible)
    click(qtbot, window.step_weights.cancel_button)
    assert window.state.step == weights_step  # the step drawn last, not the one before it
    assert on_screen(window) == weights_step and not window.step_weights.isVisible()
    gate.open()
    settled(qtbot, window)
    assert window.state.step == weights_step and on_screen(window) == weights_step
    assert before != weights_step


def test_quick_key_presses_while_waiting_end_on_the_last_step_pressed(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    for _ in range(4):
        press(qtbot, window.canvas, Qt.Key.Key_Left)   # mix is among them: it waits
    press(qtbot, window.canvas, Qt.Key.Key_Right)
    target = ffn - 3  # L1.mix
    assert window.state.trace.steps[target].id == "L1.mix" and window.state.step == target
    gate.open()
    settled(qtbot, window)
    assert window.state.step == target and on_screen(window) == target
    frame_matches_document(window, target)


# -- Cancel --------------------------------------------------------------------------------------

def test_cancel_twice_stays_on_the_step_shown(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before, _ffn = start_waiting(qtbot, window, gate)
    window.step_weights.cancel_button.click()
    window.step_weights.cancel_button.click()  # a second press lands on the hidden button
    stays_on(qtbot, window, gate, before)


def test_cancel_after_the_weights_arrived_keeps_the_step_drawn(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    gate.open()
    drawn(qtbot, window, ffn)
    window.step_weights.cancel_button.click()  # pressed as the frame arrived
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn


def test_cancel_then_the_same_step_again_is_drawn_once_ready(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before, ffn = start_waiting(qtbot, window, gate)
    click(qtbot, window.step_weights.cancel_button)
    assert window.state.step == before
    click_step(qtbot, window, "L1.ffn")  # the cancelled worker has not returned yet
    qtbot.waitUntil(window.step_weights.isVisible)
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn
    assert all(is_prepared(w) for w in weights(window, FFN))


# -- the language --------------------------------------------------------------------------------

def test_the_bar_and_cancel_speak_chinese_when_the_language_changes_while_waiting(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    assert window.step_weights.cancel_button.text() == "Cancel"
    set_language("zh")
    QCoreApplication.processEvents()
    indicator = window.step_weights
    assert indicator.cancel_button.text() == "取消"
    assert indicator.bar.accessibleName() == "正在准备"
    assert indicator.cancel_button.toolTip() == "停止准备这一步的权重，回到正在显示的那一步"
    assert indicator.isVisible() and window.state.step == ffn
    gate.open()
    settled(qtbot, window)
    assert on_screen(window) == ffn and not indicator.isVisible()
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.options.lang == "zh"


# -- closing and opening -------------------------------------------------------------------------

def test_closing_the_window_while_the_worker_runs_leaves_no_traceback(
        qtbot: QtBot, window: StudioWindow, gate: Gate, capfd: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _before, _ffn = start_waiting(qtbot, window, gate)
    job = window.step_weights.job
    assert job is not None
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    hook: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda args: hook.append(args.exc_value))
    close_window(window)
    assert not _alive(window)
    assert job.cancelled.is_set(), "closing the window stops the worker at its next weight"
    gate.open()
    job.wait(5)
    QCoreApplication.processEvents()
    qtbot.wait(50)
    err = capfd.readouterr().err
    assert raised == [] and hook == [], raised or hook
    assert "Traceback" not in err and "RuntimeError" not in err, err


def test_opening_another_document_while_waiting_shows_it_and_nothing_of_the_old(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, _ffn = start_waiting(qtbot, window, gate)
    assert window.open_path(example_path("f11"))
    assert window.state.scenario.title != "" and window.state.step == 0
    assert not window.step_weights.isVisible()
    gate.open()
    settled(qtbot, window)
    assert window.state.step == 0 and on_screen(window) == 0
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.trace.scenario is window.state.scenario
    frame_matches_document(window, 0)
    assert not window.step_weights.isVisible()


# -- compare, present, export -------------------------------------------------------------------

def test_compare_mode_turned_on_while_waiting_leaves_no_bar_behind(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    window.compare.action.setChecked(True)
    assert window.compare.active
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn
    assert not window.step_weights.isVisible()  # nothing is being prepared any more
    assert window.step_weights.waiting is None
    window.compare.action.setChecked(False)
    settled(qtbot, window)
    assert on_screen(window) == ffn
    frame_matches_document(window, ffn)


def test_compare_mode_turned_off_while_waiting_draws_the_step(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before = click_step(qtbot, window, "L1.norm2")
    drawn(qtbot, window, before)
    window.compare.action.setChecked(True)
    qtbot.wait(20)
    ffn = click_step(qtbot, window, "L1.ffn")  # comparing: drawn at once, nothing waits
    assert window.step_weights.waiting is None and not window.step_weights.isVisible()
    window.compare.action.setChecked(False)
    qtbot.waitUntil(window.step_weights.isVisible)
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn
    assert not window.step_weights.isVisible()


def test_presenting_while_waiting_shows_the_step_asked_for_and_the_window_follows(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    window.presenter.present()
    view = window.presenter.view
    assert view is not None
    frame = view.frame
    assert isinstance(frame, FrameItem) and frame.step_index == ffn
    gate.open()
    settled(qtbot, window)
    assert on_screen(window) == ffn and window.state.step == ffn
    window.presenter.leave()
    assert not window.step_weights.isVisible()


def test_copy_frame_while_waiting_copies_the_step_asked_for(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    QGuiApplication.clipboard().clear()
    window.copy_frame_action.trigger()
    assert status(window) == "Copied the frame as PNG and SVG"
    mime = QGuiApplication.clipboard().mimeData()
    assert mime is not None and mime.hasImage()
    svg = bytes(mime.data("image/svg+xml").data()).decode("utf-8", "replace")
    assert "L1.ffn" in svg or "feed-forward" in svg.lower() or "FFN" in svg, svg[:400]
    gate.open()
    settled(qtbot, window)
    assert on_screen(window) == ffn
    QGuiApplication.clipboard().clear()


def test_export_dialog_while_waiting_exports_the_step_asked_for(
        qtbot: QtBot, window: StudioWindow, gate: Gate, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    import app.export.dialog

    seen: list[int] = []

    class Recording(app.export.dialog.ExportDialog):
        def exec(self) -> int:
            seen.append(self.current_step)
            self.written = []
            return 0

    monkeypatch.setattr(app.export.dialog, "ExportDialog", Recording)
    _before, ffn = start_waiting(qtbot, window, gate)
    window.export_action.trigger()
    assert seen == [ffn]
    gate.open()
    settled(qtbot, window)
    assert on_screen(window) == ffn


# -- the receiver and the head --------------------------------------------------------------------

def test_receiver_and_head_chosen_while_waiting_are_those_drawn(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    _before, ffn = start_waiting(qtbot, window, gate)
    window.controls.receiver_box.setCurrentIndex(2)
    window.controls.head_box.setCurrentIndex(window.controls.head_box.findData(1))
    assert window.state.receiver == 2 and window.state.head == 1
    assert window.step_weights.isVisible() and window.state.step == ffn
    gate.open()
    settled(qtbot, window)
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.step_index == ffn
    assert frame.options.receiver == 2 and frame.options.head == 1


# -- a failing worker -----------------------------------------------------------------------------

def test_a_failing_worker_still_draws_the_step(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    gate.failing.add("*")
    _before, ffn = start_waiting(qtbot, window, gate)
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn
    frame_matches_document(window, ffn)
    assert not window.step_weights.isVisible()


def test_a_step_that_cannot_be_drawn_after_the_worker_failed_is_said_and_not_stuck(
        qtbot: QtBot, window: StudioWindow, gate: Gate, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    gate.failing.add("*")
    before, ffn = start_waiting(qtbot, window, gate)

    def broken(self: MappedWeight, room: object = None) -> np.ndarray:
        raise OSError("the checkpoint's file went away")

    monkeypatch.setattr(MappedWeight, "widened", broken)
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn
    assert on_screen(window) == before  # the old frame kept, never a blank canvas
    assert status(window).startswith("⚠ step ")
    assert "L1.ffn" in status(window)
    assert not window.step_weights.isVisible()
    press(qtbot, window.canvas, Qt.Key.Key_Right)  # still usable
    drawn(qtbot, window, ffn + 1)


def test_a_failure_of_an_earlier_steps_weights_is_not_blamed_on_the_step_waiting_now(
        qtbot: QtBot, window: StudioWindow, gate: Gate, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    gate.failing.update(weight.name for weight in weights(window, FFN))
    _before, _ffn = start_waiting(qtbot, window, gate)
    projections = click_step(qtbot, window, "L1.projections")
    here = widened_here(monkeypatch)
    gate.open()
    settled(qtbot, window)
    assert on_screen(window) == projections
    assert [w.name for w in here] == []
    asked = [w.name for w in gate.calls]
    assert all(w.name in asked and is_prepared(w) for w in weights(window, PROJECTIONS)), asked


# -- room for the weights -------------------------------------------------------------------------

def test_a_step_whose_weights_outgrow_the_kept_room_is_still_drawn(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    ffn_weights = weights(window, FFN)
    one = max(w.size * 8 for w in ffn_weights)
    # As Llama-3.1-8B's 1 GiB against three FFN weights of 470 MB: room for two of the three.
    monkeypatch.setattr(app.canvas.prepared_drawing, "KEPT_BYTES", 2 * one + one // 5)
    prepared = asked_to_prepare(monkeypatch)
    before = click_step(qtbot, window, "L1.norm2")
    drawn(qtbot, window, before)
    ffn = click_step(qtbot, window, "L1.ffn")
    qtbot.waitUntil(lambda: on_screen(window) == ffn or len(prepared) > 12, timeout=1500)
    looping, shown = len(prepared), on_screen(window)
    window.step_weights.cancel_button.click()  # stop a loop before the window closes
    settled(qtbot, window)
    assert (shown, looping) == (ffn, 3), \
        f"step {shown} on screen (L1.ffn is {ffn}); {looping} weights made ready for a step of 3"


# -- weights made ready ahead ---------------------------------------------------------------------


def making_ready_ahead(qtbot: QtBot, window: StudioWindow, gate: Gate,
                       monkeypatch: pytest.MonkeyPatch) -> int:
    """The first layer's norm on screen, and the worker (held by ``gate``) making the layer's
    weights ready ahead; the norm's step."""
    monkeypatch.setattr(app.window.step_weights, "AHEAD", 12)
    monkeypatch.setattr(app.window.step_weights, "AHEAD_AFTER_MS", 50)
    norm = click_step(qtbot, window, "L1.norm1")
    drawn(qtbot, window, norm)
    qtbot.waitUntil(gate.entered.is_set)
    return norm

def test_stepping_onto_a_step_whose_weights_are_being_made_ready_ahead_draws_it(
        qtbot: QtBot, window: StudioWindow, gate: Gate, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    norm = making_ready_ahead(qtbot, window, gate, monkeypatch)
    indicator = window.step_weights
    assert indicator.job is not None and indicator.waiting is None
    assert not indicator.isVisible()  # ahead: no bar
    ffn = click_step(qtbot, window, "L1.ffn")
    qtbot.waitUntil(indicator.isVisible)
    assert on_screen(window) == norm
    gate.open()
    settled(qtbot, window)
    assert window.state.step == ffn and on_screen(window) == ffn
    assert not indicator.isVisible()
    frame_matches_document(window, ffn)


def test_cancel_while_waiting_for_weights_made_ready_ahead_goes_back(
        qtbot: QtBot, window: StudioWindow, gate: Gate, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    norm = making_ready_ahead(qtbot, window, gate, monkeypatch)
    job = window.step_weights.job
    assert job is not None
    click_step(qtbot, window, "L1.mix")
    qtbot.waitUntil(window.step_weights.isVisible)
    click(qtbot, window.step_weights.cancel_button)
    assert job.cancelled.is_set()
    stays_on(qtbot, window, gate, norm)


def test_an_edit_then_cancel_while_waiting_goes_back_to_the_step_shown_with_the_edit(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before, _ffn = start_waiting(qtbot, window, gate)
    type_into(qtbot, window.editor.tables["layers.0.block.gamma2"], 0, 0, "4")
    qtbot.waitUntil(lambda: not window.state.busy)
    click(qtbot, window.step_weights.cancel_button)
    assert window.state.step == before
    gate.open()
    settled(qtbot, window)
    assert window.state.step == before and on_screen(window) == before
    assert np.asarray(window.state.scenario.weight("layers.0.block.gamma2")).flat[0] == 4
    frame_matches_document(window, before)  # norm2's output with the new gain
    assert window.state.undo_stack.count() == 1


def test_playing_through_a_waiting_step_ends_on_the_step_it_stopped_at(
        qtbot: QtBot, window: StudioWindow, gate: Gate) -> None:
    before = click_step(qtbot, window, "L1.norm2")
    drawn(qtbot, window, before)
    timeline = window.timeline
    timeline.dwell_box.setValue(timeline.dwell_box.minimum())
    timeline.play()
    qtbot.waitUntil(lambda: window.state.step >= before + 2, timeout=3000)  # past the FFN
    timeline.pause()
    stopped = window.state.step
    gate.open()
    settled(qtbot, window)
    assert window.state.step == stopped and on_screen(window) == stopped
    assert not window.step_weights.isVisible()
