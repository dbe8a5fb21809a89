"""A cell edit of a big document: the step on screen shows the new numbers first, worked by the
worker before the rest of the trace, which follows (worked on from the edited step, equal to
``compute``); nothing is worked on the interface thread; undo and redo show their traces at once.

Every document is "big" here (``BIG_CELLS = 0``) and the worker's part is slowed by a sleep, so a
three-layer document behaves like a whole model without the wait.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

import app.canvas.frame
import app.state.big
import app.state.jobs
import app.state.session
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.window.studio import StudioWindow
from engine import Scenario, Trace, compute, parse_scenario
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.app.test_window_edit import go_to_step
from tests.engine.v2_documents import document

W1 = "layers.1.block.ffn.W1"


@pytest.fixture
def window(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> StudioWindow:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(app.state.jobs, "SHOW_PROGRESS_AFTER_MS", 60_000)
    made = StudioWindow(parse_scenario(document(90, n=4, d=4, layers=3)))
    made.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(made):
        made.show()
    yield made
    close_window(made)


INTERFACE: list[bool] = []
"""Whether each trace :func:`slow_worker` saw worked was worked on the interface thread."""


def slow_worker(monkeypatch: pytest.MonkeyPatch, seconds: float) -> list[int]:
    """The worker's whole traces take ``seconds`` longer; the first step each worked from
    (:data:`INTERFACE`: where each was worked, the steps on screen too)."""
    real = app.state.session.retraced
    starts: list[int] = []
    INTERFACE.clear()

    def retraced(before: Trace, after: Scenario, start: int,
                 through: int | None = None) -> Trace | None:
        INTERFACE.append(threading.current_thread() is threading.main_thread())
        if through is None:
            starts.append(start)
            time.sleep(seconds)
        return real(before, after, start, through)

    monkeypatch.setattr(app.state.session, "retraced", retraced)
    return starts


def grid_values(window: StudioWindow) -> list[np.ndarray]:
    frame = window.canvas.frame
    assert frame is not None
    return [np.asarray(grid.spec.values) for grid in frame.items_of(MatrixGrid)]


def assert_exact(got: Trace, want: Trace) -> None:
    assert list(got.arrays) == list(want.arrays)
    for name, array in want.arrays.items():
        assert np.array_equal(got.arrays[name], array), name


def test_the_edited_step_shows_new_numbers_before_the_rest_is_computed(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    starts = slow_worker(monkeypatch, 0.6)
    state = window.state
    go_to_step(qtbot, window, "L2.ffn")
    old = state.trace
    ffn = state.step
    old_check = window.timeline.check_label.text()
    assert state.edit_cell(W1, 1, 2, 5.0)
    want = compute(state.scenario)
    # At once the window says it is computing, nothing worked on the interface thread; the
    # worker works this step first: the frame's trace is then the edited document's through
    # it, the whole trace (timeline, exports) still the old one.
    assert state.busy and state.trace is old and not any(INTERFACE)
    qtbot.waitUntil(lambda: state.frame_trace.scenario is state.scenario, timeout=2000)
    assert state.busy and state.trace is old
    hidden = want.arrays["L2.ffn_hidden"]
    assert not np.array_equal(old.arrays["L2.ffn_hidden"], hidden)
    assert np.array_equal(state.frame_trace.arrays["L2.ffn_hidden"], hidden)
    qtbot.waitUntil(lambda: any(np.array_equal(values, hidden)
                                for values in grid_values(window)), timeout=2000)
    assert state.busy  # the frame has the new numbers while the rest still computes
    check = window.timeline.check_label.text()  # and the step's texts under it with it
    assert check != old_check
    # The next step is not computed yet: its frame is the old trace's, never a mix.
    state.set_step(ffn + 1)
    assert state.frame_trace is old
    state.set_step(ffn)
    qtbot.waitUntil(lambda: not state.busy, timeout=5000)
    assert starts == [ffn + 1]  # the worker went on from the step already worked
    assert INTERFACE == [False, False]  # that step, then the rest: both in the worker
    assert state.trace.scenario is state.scenario and state.frame_trace is state.trace
    assert_exact(state.trace, want)
    assert any(np.array_equal(values, hidden) for values in grid_values(window))
    assert window.timeline.check_label.text() == check
    # Undo and redo show their traces at once: nothing computes again.
    state.undo_stack.undo()
    assert not state.busy and state.trace is old
    state.undo_stack.redo()
    assert not state.busy
    assert_exact(state.trace, want)
    assert starts == [ffn + 1]


def test_an_edit_before_the_step_on_screen_leaves_it_to_the_worker(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the head's logits, an edit of layer 1's Wq changes two layers before them: nothing
    is worked at once, the frame keeps the old trace (the window busy) until the whole trace
    comes, worked from layer 1's projections."""
    starts = slow_worker(monkeypatch, 0.3)
    state = window.state
    go_to_step(qtbot, window, "logits")
    old = state.trace
    assert state.edit_cell("layers.0.attention.Wq", 0, 0, 2.5)
    assert state.busy and state.frame_trace is old
    qtbot.waitUntil(lambda: not state.busy, timeout=5000)
    assert starts == [[s.id for s in old.steps].index("L1.projections")]
    assert INTERFACE == [False]  # the whole trace alone, in the worker
    assert_exact(state.trace, compute(state.scenario))


def test_a_second_edit_while_the_first_computes_is_worked_from_the_first_ones_frame(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing on: the second cell edit comes while the first's trace still computes; its
    step on screen is worked first from the first's (exact through that step), and the
    worker's trace of the second document equals ``compute``."""
    starts = slow_worker(monkeypatch, 0.4)
    state = window.state
    go_to_step(qtbot, window, "L2.ffn")
    ffn = state.step
    assert state.edit_cell(W1, 1, 2, 5.0)
    qtbot.waitUntil(lambda: starts == [ffn + 1], timeout=2000)  # the first's rest computes
    assert state.edit_cell(W1, 0, 3, -2.0)
    assert state.busy
    want = compute(state.scenario)
    assert state.scenario.parameter(W1)[1, 2] == 5.0  # both edits are in the document
    qtbot.waitUntil(lambda: state.frame_trace.scenario is state.scenario, timeout=2000)
    assert np.array_equal(state.frame_trace.arrays["L2.ffn_hidden"],
                          want.arrays["L2.ffn_hidden"])
    qtbot.waitUntil(lambda: not state.busy, timeout=5000)
    assert starts[-1] == ffn + 1 and not any(INTERFACE)
    assert_exact(state.trace, want)
    assert state.undo_stack.count() == 2


def test_the_whole_trace_arriving_keeps_the_edited_frame_as_it_is(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """The edited step's frame was worked first; the whole trace that follows holds the same
    arrays through that step (only the later steps' are new): the frame is neither laid out
    nor painted again, the later steps are measured once typing pauses, and it looks as the
    frame built from the whole trace does."""
    slow_worker(monkeypatch, 0.3)
    state, canvas = window.state, window.canvas
    go_to_step(qtbot, window, "L2.ffn")
    previewed: list[bool] = []

    def painted_preview() -> None:
        shown = canvas.frame
        previewed.append(shown is not None and shown.trace is state.frame_trace
                         and shown.trace.scenario is state.scenario and state.busy)

    canvas.repainted.connect(painted_preview)
    assert state.edit_cell(W1, 1, 2, 5.0)
    qtbot.waitUntil(lambda: any(previewed), timeout=2000)  # the edited step, worked first
    canvas.repainted.disconnect(painted_preview)
    frame = canvas.frame
    assert isinstance(frame, FrameItem) and frame.trace is state.frame_trace
    body = frame.body
    layouts: list[int] = []
    real = app.canvas.frame.lay_out
    monkeypatch.setattr(app.canvas.frame, "lay_out",
                        lambda *args: layouts.append(1) or real(*args))
    painted: list[int] = []  # once the whole trace is in (the preview's paints may go on)
    canvas.repainted.connect(lambda: None if state.busy else painted.append(1))
    qtbot.waitUntil(lambda: not state.busy, timeout=5000)
    qtbot.waitUntil(lambda: frame.trace is state.trace, timeout=2000)
    assert canvas.frame is frame and frame.body is body and frame.picture_kept
    later = list(range(state.step + 1, len(state.trace.steps)))
    assert list(frame.composition.provisional) == later
    qtbot.waitUntil(lambda: not frame.composition.provisional, timeout=5000)
    assert (layouts, painted) == ([], [])
    kept = canvas.grab().toImage()
    canvas.show_item(FrameItem(state.trace, state.step, frame.options,
                               window.timeline.title_for(state.step),
                               screen=canvas.viewport().height()), fit=False)
    qtbot.waitUntil(lambda: bool(painted), timeout=2000)
    assert canvas.grab().toImage() == kept


def test_a_trace_with_other_numbers_for_the_step_lays_its_picture_out_again(
        window: StudioWindow) -> None:
    """Refilled with a trace whose step on screen reads another array object (an edit), the
    picture is laid out again and shows the new numbers."""
    state = window.state
    trace = state.trace
    step = [s.id for s in trace.steps].index("L2.ffn")
    frame = FrameItem(trace, step)
    hidden = trace.arrays["L2.ffn_hidden"] + 1.0
    edited = Trace(trace.scenario, {**trace.arrays, "L2.ffn_hidden": hidden}, trace.steps,
                   trace.visible, trace.visibility)
    assert frame.refill(edited, step, frame.options, None)
    assert not frame.picture_kept
    assert any(np.array_equal(grid.spec.values, hidden) for grid in frame.items_of(MatrixGrid))
