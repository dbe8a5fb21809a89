"""A document the window no longer shows is let go at once, with everything worked out from it
(issue 37: the 16 GB laptop). A Llama-3.2-1B-shaped checkpoint shown up to its FFN and its draw,
then an example opened over it, kept 2.8 GB taken until the program ended: the last four traces
drawn were kept by a cache of draws, the weights made ready by the worker were kept strongly,
and the grids of a frame held its layout back in a cycle that only Python's cycle collector
(which runs when it will) could break. Each part is checked with that collector switched off.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

import app.canvas.prepared_drawing
from app.canvas.prepared_drawing import is_prepared
from app.model.while_alive import Remembered
from app.window.studio import StudioWindow
from engine.format.mapped_weight import MappedWeight
from tests.app.test_step_weights import FFN
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
