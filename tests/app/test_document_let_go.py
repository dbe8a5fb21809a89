"""A document the window no longer shows is let go at once, with everything worked out from it
(issue 37: the 16 GB laptop). A Llama-3.2-1B-shaped checkpoint shown up to its FFN and its draw,
then an example opened over it, kept 2.8 GB taken until the program ended: the last four traces
drawn were kept by a cache of draws, the weights made ready by the worker were kept strongly,
and the grids of a frame held its layout back in a cycle that only Python's cycle collector
(which runs when it will) could break. A second window closed kept its document for good: its
slots held it where no collector looks. Each part is checked with that collector switched off.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from pytestqt.qtbot import QtBot

import app.canvas.prepared_drawing
from app.canvas.prepared_drawing import is_prepared
from app.model.while_alive import Remembered
from app.state.window_lifetime import kept_while_open, on_next_turn
from app.window.studio import StudioWindow
from engine.format.mapped_weight import MappedWeight
from tests.app.driving import close_window, open_window
from tests.app.test_step_weights import FFN, small_llama_window
from tests.app.test_step_weights import window as window  # a cut-down Llama checkpoint


class Owner:
    """Something results are worked out from."""


class Result:
    """What is worked out."""

    def __init__(self, word: str) -> None:
        self.word = word


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    """Only reference counts free anything meanwhile."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.usefixtures("no_cycle_collector")
def test_a_result_is_remembered_while_its_owner_lives_and_goes_with_it() -> None:
    made: list[tuple[int, str]] = []

    def work(owner: Owner, word: str) -> Result:
        made.append((id(owner), word))
        return Result(word * 2)

    remembered: Remembered[Owner, Result] = Remembered(work, kept=2)
    first = Owner()
    result = remembered(first, "a")
    assert remembered(first, "a") is result
    assert remembered(first, "b").word == "bb"
    assert len(made) == 2 and len(remembered) == 2
    gone = weakref.ref(result)
    del result
    del first
    assert len(remembered) == 0
    assert gone() is None


def test_at_most_kept_results_stay_the_least_recently_used_dropped_first() -> None:
    remembered: Remembered[Owner, str] = Remembered(lambda _owner, word: word * 3, kept=2)
    owners = [Owner(), Owner(), Owner()]
    remembered(owners[0], "x")
    remembered(owners[1], "y")
    remembered(owners[0], "x")  # used again: the second is now the oldest
    remembered(owners[2], "z")
    assert len(remembered) == 2
    assert sorted(key[0] for key in remembered._results) == sorted(
        [id(owners[0]), id(owners[2])])


def shown_to_the_draw(qtbot: QtBot, window: StudioWindow) -> None:
    """The FFN step drawn from weights made ready, then the draw of the next token."""
    state = window.state
    ops = [step.op for step in state.trace.steps]
    state.set_step(ops.index("ffn"))
    scenario = state.trace.scenario
    qtbot.waitUntil(lambda: all(is_prepared(scenario.weight(path)) for path in FFN))
    for op in ("logits", "probs", "sample"):
        state.set_step(ops.index(op))
        qtbot.waitUntil(lambda op=op: window.canvas.frame is not None
                        and window.canvas.frame.step_index == ops.index(op))


@pytest.mark.usefixtures("no_cycle_collector")
def test_opening_another_document_lets_the_checkpoint_and_its_prepared_weights_go(
        qtbot: QtBot, window: StudioWindow) -> None:
    shown_to_the_draw(qtbot, window)
    trace = weakref.ref(window.state.trace)
    weights = [weakref.ref(weight) for weight in window.state.scenario.parameters.values()
               if isinstance(weight, MappedWeight)]
    assert len(weights) > 5
    assert app.canvas.prepared_drawing._PREPARED
    window.state.undo_stack.setClean()
    assert window.open_example("F11")
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the old grids
    assert window.state.scenario.n == 2
    assert trace() is None
    assert [ref().name for ref in weights if ref() is not None] == []  # type: ignore[union-attr]
    assert app.canvas.prepared_drawing._PREPARED == []


@pytest.mark.usefixtures("no_cycle_collector")
def test_a_second_window_closed_lets_its_document_go_and_the_first_stays(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = open_window(qtbot)
    try:
        second = small_llama_window(qtbot, tmp_path, monkeypatch)
        kept: list[StudioWindow] = []
        kept_while_open(kept, second)  # as the windows opened at launch are kept
        shown_to_the_draw(qtbot, second)
        weights = [weakref.ref(weight) for weight in second.state.scenario.parameters.values()
                   if isinstance(weight, MappedWeight)]
        closed = weakref.ref(second)
        assert second.close()
        del second
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        # the collection that follows a close (the test's own collector is off)
        qtbot.waitUntil(lambda: all(ref() is None for ref in weights))
        assert closed() is None
        assert kept == []
        assert app.canvas.prepared_drawing._PREPARED == []
        assert first.isVisible()
        assert first.state.edit_cell("attention.Wq", 0, 0, 2.5)
        qtbot.waitUntil(lambda: not first.state.busy)
        assert first.state.trace.scenario.weight("attention.Wq")[0, 0] == 2.5
    finally:
        close_window(first)


class Holder(QObject):
    """A Qt object whose slot holds something big."""

    def __init__(self) -> None:
        super().__init__()
        self.held = Result("weights")
        self.called = 0

    def slot(self) -> None:
        self.called += 1


@pytest.mark.usefixtures("no_cycle_collector")
def test_work_put_off_to_the_next_turn_runs_once_or_goes_with_its_owner(qtbot: QtBot) -> None:
    kept = Holder()
    on_next_turn(kept, kept.slot)
    assert kept.called == 0
    qtbot.waitUntil(lambda: kept.called == 1)
    qtbot.wait(20)
    assert kept.called == 1
    # deleted before the turn came: QTimer.singleShot(0, owner, owner.slot) kept the slot,
    # the owner and what it held for good (PySide 6.11)
    gone = Holder()
    on_next_turn(gone, gone.slot)
    held = weakref.ref(gone.held)
    gone.deleteLater()
    del gone
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    assert held() is None
