"""How many times an edit lays the shown step out: once, to draw it, whether the document is
laid out at one scale or frame by frame (counted, never timed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

import app.canvas.compose
import app.canvas.frame
from app.canvas.compose import FRAME_BY_FRAME_UNDER, compose, forget
from app.canvas.frame import FrameItem
from app.window.studio import StudioWindow
from tests.app.driving import DEFAULT_SIZE, close_window, counting, open_window, type_into
from tests.bench.timing import attention_scenario


@pytest.fixture
def sixteen(qtbot: QtBot) -> Iterator[StudioWindow]:
    """The edit benchmark's window (tests/bench/bench_window.py): 16 positions, two heads,
    on the shares step."""
    window = StudioWindow(attention_scenario(16))
    window.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(window):
        window.show()
    window.state.set_step(window.state.trace.step_index("weights"))
    yield window
    close_window(window)


@pytest.fixture
def f11(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "f11")
    window.state.set_step(window.state.trace.step_index("weights"))
    yield window
    close_window(window)


def edited(qtbot: QtBot, window: StudioWindow, text: str) -> FrameItem:
    """Type ``text`` into Wq[0, 0] and wait for the canvas to show the new trace."""
    type_into(qtbot, window.editor.tables["attention.Wq"], 0, 0, text)
    qtbot.waitUntil(lambda: window.canvas.frame is not None
                    and window.canvas.frame.trace is window.state.frame_trace)
    frame = window.canvas.frame
    assert frame is not None
    return frame


def test_an_edit_of_a_frame_laid_out_by_itself_lays_its_step_out_once(
        qtbot: QtBot, sixteen: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = edited(qtbot, sixteen, "0.25")  # the frame's arrangement found once
    one_scale = compose(frame.trace, frame.options, frame.area.size()).scale
    assert one_scale < FRAME_BY_FRAME_UNDER  # so laid out by itself (666eb2a)
    laid_out = counting(monkeypatch, app.canvas.compose, "lay_out_step")
    frame = edited(qtbot, sixteen, "0.26")  # as wide as 0.25: every fit is known
    assert float(frame.trace.scenario.parameter("attention.Wq")[0, 0]) == 0.26
    assert len(laid_out) == 1  # were 3: two more to find again how its rows may sit
    kept = frame.composition
    assert kept.scale > one_scale
    forget()  # the same frame worked out from nothing: the kept composition is exact
    assert frame._composed(quick=False) == kept


def test_an_edit_of_a_document_legible_at_one_scale_never_lays_a_frame_out_by_itself(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = edited(qtbot, f11, "1.5")
    alone = counting(monkeypatch, app.canvas.frame, "compose_alone")
    laid_out = counting(monkeypatch, app.canvas.compose, "lay_out_step")
    frame = edited(qtbot, f11, "1.25")
    assert float(frame.trace.scenario.parameter("attention.Wq")[0, 0]) == 1.25
    assert alone == [] and len(laid_out) == 1
    assert frame.composition.scale >= FRAME_BY_FRAME_UNDER
    assert frame.composition == compose(frame.trace, frame.options, frame.area.size())
