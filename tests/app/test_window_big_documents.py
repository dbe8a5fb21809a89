"""Big documents: computing, opening, saving and recovery copies run in workers, the window
keeps answering, Cancel keeps what was there, a stale result never wins, failures are said.

Each test makes every document "big" (``BIG_CELLS = 0``) and slows the work down with a sleep
(which, like numpy's large operations, lets the interface thread run), so the F11 example
behaves like a 33 MB document without the wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QProgressDialog, QPushButton
from pytestqt.qtbot import QtBot

import app.files.opening
import app.files.reading
import app.files.recovery
import app.files.saving
import app.state.big
import app.state.jobs
import app.state.session
import app.window.studio
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import Scenario, Trace, load_scenario, save_scenario
from engine.format.io import dump_scenario
from tests.app.driving import Dialogs

RESPONSIVE_MS = 100
"""How long an edit may take to return: the event loop is not held longer."""
FROZEN_MS = 250
"""A gap between 10-ms ticks this long means the slowed work (600 ms or more) ran on the event
loop. Shorter gaps are the machine's noise: a loaded 2-core machine delays a tick past 100 ms now
and then (101 ms was seen in a full run), which is no sign of the work being on this thread."""


@pytest.fixture(autouse=True)
def everything_big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    # The timing tests measure the work, not the progress dialog's first paint: it shows only
    # where Cancel is pressed (those tests show it at once).
    monkeypatch.setattr(app.state.jobs, "SHOW_PROGRESS_AFTER_MS", 60_000)


def show_progress_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.jobs, "SHOW_PROGRESS_AFTER_MS", 0)


def slow_compute(monkeypatch: pytest.MonkeyPatch, delays: list[float]) -> list[Scenario]:
    """Make the state's computations of whole traces (from the start, or from the first step a
    cell edit feeds) take ``delays[k]`` seconds for the k-th call; the scenarios computed, in
    call order. A cell edit's step on screen (``through``, worked first) is not slowed."""
    real, real_retraced = app.state.session.compute, app.state.session.retraced
    calls: list[Scenario] = []

    def slowly(scenario: Scenario) -> None:
        calls.append(scenario)
        time.sleep(delays[min(len(calls), len(delays)) - 1])

    def compute(scenario: Scenario) -> Trace:
        slowly(scenario)
        return real(scenario)

    def retraced(before: Trace, after: Scenario, start: int,
                 through: int | None = None) -> Trace | None:
        if through is None:
            slowly(after)
        return real_retraced(before, after, start, through)

    monkeypatch.setattr(app.state.session, "compute", compute)
    monkeypatch.setattr(app.state.session, "retraced", retraced)
    return calls


class Ticks:
    """A 10 ms timer that notes the gaps between its ticks (a long one is a frozen event loop).

    :meth:`mark`, called by the work itself as it ends (in the worker), keeps the gaps seen
    while it ran: what comes after (building the new document's grids and canvas) is the
    interface's own work, not the long work being measured.
    """

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[int] = []
        self.during_work: list[int] = []

    def _tick(self) -> None:
        self.gaps.append(self.clock.restart())

    def __enter__(self) -> Ticks:
        self.clock.start()
        self.timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.timer.stop()
        self.gaps.append(self.clock.restart())

    def mark(self) -> None:
        self.during_work = [*self.gaps, self.clock.elapsed()]

    @property
    def longest(self) -> int:
        return max(self.gaps)


def press_cancel_later(window: StudioWindow, after_ms: int) -> None:
    """Press Cancel in the progress dialog ``after_ms`` from now, as a user would."""
    def press() -> None:
        assert all(dialog.isVisible() for dialog in window.findChildren(QProgressDialog))
        dialogs = window.findChildren(QProgressDialog)
        assert dialogs, "no progress dialog to cancel"
        dialogs[-1].findChild(QPushButton).click()
    QTimer.singleShot(after_ms, press)


def q_of(scenario: Scenario) -> np.ndarray:
    """Independent projection: Q = X · Wq (no biases in F11)."""
    return np.asarray(scenario.X) @ np.asarray(scenario.attention.Wq)


def test_an_edit_computes_in_a_worker_while_the_window_keeps_answering(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    slow_compute(monkeypatch, [0.8])
    before = window.state.trace
    with Ticks() as ticks:
        started = time.perf_counter()
        assert window.state.edit_cell("X", 0, 0, 3.0)
        edit_ms = (time.perf_counter() - started) * 1000.0
        assert window.state.busy and window.state.trace is before
        assert window.editor.tables["X"].model().index(0, 0).data() == "3"  # shown at once
        assert window.findChild(app.window.studio.BusyIndicator).isVisibleTo(window)
        qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    assert edit_ms < RESPONSIVE_MS
    assert ticks.longest < FROZEN_MS and len(ticks.gaps) > 20
    trace = window.state.trace
    assert trace.scenario is window.state.scenario
    expected = np.array([[1.0, 1.0], [1.0, -1.0]]) @ np.asarray(trace.scenario.attention.Wq)
    expected[0] = [3.0, 1.0] @ np.asarray(trace.scenario.attention.Wq)
    np.testing.assert_allclose(trace.arrays["Q"], expected)
    assert window.statusBar().currentMessage().startswith("X[0,0] = 3 → shares for 爱: ")


def test_a_stale_result_never_overwrites_a_newer_edit(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    # The first edit's computation is the slowest: it finishes after the second's.
    calls = slow_compute(monkeypatch, [0.9, 0.1])
    shown: list[Trace] = []
    window.state.traceChanged.connect(lambda: shown.append(window.state.trace))
    assert window.state.edit_cell("X", 0, 0, 3.0)
    qtbot.waitUntil(lambda: len(calls) == 1, timeout=2000)  # its step on screen worked first
    assert window.state.edit_cell("X", 1, 1, 7.0)
    qtbot.waitUntil(lambda: len(calls) == 2 and not window.state.busy, timeout=5000)
    qtbot.wait(1200)  # the slow, stale result arrives meanwhile and must be dropped
    final = window.state.scenario
    assert final.X.tolist() == [[3.0, 1.0], [1.0, 7.0]]  # typing fast lost nothing
    assert [trace.scenario for trace in shown] == [final]
    assert window.state.trace.scenario is final
    np.testing.assert_allclose(window.state.trace.arrays["Q"], q_of(final))
    assert window.state.undo_stack.count() == 2  # each edit is its own undo step


def test_cancel_takes_the_pending_edit_back(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    slow_compute(monkeypatch, [1.0, 0.0])
    scenario, trace = window.state.scenario, window.state.trace
    assert window.state.edit_cell("attention.Wq", 0, 0, 5.0)
    indicator = window.findChild(app.window.studio.BusyIndicator)
    qtbot.waitUntil(indicator.isVisible, timeout=2000)
    indicator.cancel_button.click()
    assert window.state.scenario is scenario and window.state.trace is trace
    assert not window.state.busy and not indicator.isVisible()
    assert window.editor.tables["attention.Wq"].model().index(0, 0).data() == "1"
    qtbot.wait(1200)  # the cancelled computation ends; nothing changes
    assert window.state.scenario is scenario and window.state.trace is trace
    assert window.state.undo_stack.canRedo()  # Redo brings the edit back


def test_a_failure_in_the_worker_is_said_and_the_cell_keeps_its_value(
        qtbot: QtBot, window: StudioWindow) -> None:
    # 1e300 is a valid number, but q·k overflows: found only by computing, in the worker.
    assert window.state.edit_cell("X", 0, 0, 1e300)
    qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    assert window.state.scenario.X.tolist() == [[1.0, 1.0], [1.0, -1.0]]
    assert window.state.trace.scenario is window.state.scenario
    message = window.statusBar().currentMessage()
    assert message.startswith("⚠ X[0,0] = ") and \
        ": scores[0,0,0]: a value overflowed or was divided by zero" in message, message
    assert window.editor.error_label.isVisibleTo(window)
    assert window.state.undo_stack.count() == 0  # the refused edit is not left to redo


def test_saving_runs_in_a_worker_and_the_file_reads_back(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    window.state.edit_cell("X", 0, 1, 4.0)
    qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    window.state.path = tmp_path / "big.qkv.json"
    with Ticks() as ticks:
        monkeypatch.setattr(app.files.saving, "dump_scenario", slowly(dump_scenario, 0.6, ticks))
        assert window.save()
    assert max(ticks.during_work) < FROZEN_MS, ticks.during_work
    assert len(ticks.during_work) > 20
    assert load_scenario(tmp_path / "big.qkv.json").X.tolist() == [[1.0, 4.0], [1.0, -1.0]]
    assert window.state.undo_stack.isClean()


def test_cancel_while_saving_leaves_the_old_file_and_the_window_modified(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    target = tmp_path / "kept.qkv.json"
    save_scenario(window.state.scenario, target)
    old = target.read_bytes()
    window.state.edit_cell("X", 0, 1, 4.0)
    qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    window.state.path = target
    monkeypatch.setattr(app.files.saving, "dump_scenario", slowly(dump_scenario, 0.6))
    show_progress_at_once(monkeypatch)
    press_cancel_later(window, 150)
    assert not window.save()
    assert target.read_bytes() == old
    assert not window.state.undo_stack.isClean()
    assert window.state.scenario.X[0, 1] == 4.0
    assert window.statusBar().currentMessage() == "Not saved: cancelled"


def test_opening_a_big_file_reads_it_in_another_process(
        window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.files.opening, "BACKGROUND_BYTES", 0)
    with Ticks() as ticks:
        # 0.4 s more than the reading itself, so that the window is seen answering for a while
        # on an idle machine too (a fresh process alone can start in under 0.2 s).
        monkeypatch.setattr(app.files.reading, "load_computed", slowly(
            app.files.opening.load_computed, 0.4, ticks))
        assert window.open_path(example_path("g01"))
    assert max(ticks.during_work) < FROZEN_MS, ticks.during_work
    assert len(ticks.during_work) > 20
    expected = load_scenario(example_path("g01"))
    assert window.state.scenario.title == expected.title
    np.testing.assert_array_equal(window.state.scenario.X, expected.X)
    assert window.state.trace.scenario is window.state.scenario
    assert not window.state.scenario.X.flags.writeable  # frozen again after the crossing


def test_cancel_while_opening_keeps_the_open_document(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.files.reading, "computed", slowly(app.files.opening.computed, 1.0))
    window.state.edit_cell("X", 0, 1, 4.0)
    qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    scenario, trace = window.state.scenario, window.state.trace
    show_progress_at_once(monkeypatch)
    press_cancel_later(window, 150)
    assert not window.open_path(example_path("g01"))
    qtbot.wait(1200)  # the cancelled reading ends; its result is dropped
    assert window.state.scenario is scenario and window.state.trace is trace
    assert window.state.undo_stack.count() == 1 and not window.state.undo_stack.isClean()
    assert window.statusBar().currentMessage() == "Not opened: cancelled"


def test_a_refused_big_file_is_said_in_a_message(
        window: StudioWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        dialogs: object) -> None:
    monkeypatch.setattr(app.files.opening, "BACKGROUND_BYTES", 0)
    bad = tmp_path / "bad.qkv.json"
    bad.write_text('{"X": [[1, true]], "attention": {}}', encoding="utf-8")
    scenario = window.state.scenario
    assert not window.open_path(bad)
    assert window.state.scenario is scenario
    assert window.statusBar().currentMessage() == \
        "⚠ not opened: X[0][1]: expected a number, got true"


def test_a_recovery_copy_is_written_in_a_worker(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setattr(window.recovery, "_directory", tmp_path)
    window.state.edit_cell("X", 0, 1, 4.0)
    qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
    with Ticks() as ticks, qtbot.waitSignal(window.recovery.written, timeout=5000):
        monkeypatch.setattr(app.files.recovery, "dump_scenario",
                            slowly(dump_scenario, 0.6, ticks))
        window.recovery.write_soon()
    assert max(ticks.during_work) < FROZEN_MS, ticks.during_work
    assert len(ticks.during_work) > 20
    assert load_scenario(window.recovery.copy_path).X.tolist() == [[1.0, 4.0], [1.0, -1.0]]


def slowly(function: Callable[..., object], seconds: float,
           ticks: Ticks | None = None) -> Callable[..., object]:
    """``function`` taking ``seconds`` longer; its end marked in ``ticks``."""
    def slow(*args: object, **options: object) -> object:
        time.sleep(seconds)
        result = function(*args, **options)
        if ticks is not None:
            ticks.mark()
        return result
    return slow



def test_saving_in_a_worker_never_asks_about_its_own_change_on_disk(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        dialogs: Dialogs) -> None:
    # The file is watched; a save in a worker turns the event loop while it replaces the file.
    target = tmp_path / "watched.qkv.json"
    save_scenario(window.state.scenario, target)
    assert window.open_path(target)
    for value in (4.0, 5.0):
        window.state.edit_cell("X", 0, 1, value)
        qtbot.waitUntil(lambda: not window.state.busy, timeout=5000)
        monkeypatch.setattr(app.files.saving, "dump_scenario", slowly(dump_scenario, 0.3))
        assert window.save()
        qtbot.wait(300)  # the watcher's late news of the write arrives
    assert dialogs.shown == []  # neither "changed on disk: reload?" nor "overwrite?"
    assert load_scenario(target).X.tolist() == [[1.0, 5.0], [1.0, -1.0]]
    assert window.state.undo_stack.isClean()
