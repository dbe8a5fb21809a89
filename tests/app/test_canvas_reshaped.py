"""A step that reshapes the canvas (the editor's column widened by a layer's grids, the
timeline's texts taking their room) composes one frame, for the sheet that fills the canvas
at last: on a Llama-3.2-1B-shaped document the first step of a layer was composed for 16:9,
then again for 4:3 (issue 37 item 4, about 100 ms each)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem
from app.window.studio import StudioWindow
from tests.app.driving import close_window, count_frames, open_window

PROBS_CROSSES = 1170
"""A window this wide shows G01's logits on a 4:3 sheet and, its canvas shorter as the
probabilities' texts take their room, the probabilities on 16:9."""


@pytest.fixture
def g01(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "g01")
    yield window
    close_window(window)


def settled(window: StudioWindow) -> FrameItem:
    """The frame on screen once the window's queued work is done."""
    for _turn in range(5):
        QApplication.processEvents()
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem)
    return frame


def test_a_step_whose_texts_reshape_the_canvas_is_composed_once(
        qtbot: QtBot, g01: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    g01.resize(PROBS_CROSSES, g01.height())
    qtbot.waitUntil(lambda: g01.width() == PROBS_CROSSES)
    steps = len(g01.state.trace.steps)
    g01.state.set_step(steps - 2)
    assert settled(g01).options.aspect == "4:3"
    made = count_frames(monkeypatch)
    g01.state.set_step(steps - 1)
    frame = settled(g01)
    assert frame.options.aspect == g01.canvas.aspect() == "16:9"
    assert len(made) == 1, "composed again"
    assert made[0] is frame


def test_a_step_that_widens_the_editor_is_composed_once_for_the_narrower_canvas(
        g01: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """The column's new least width is asked for as a layout request (as a layer's grids
    widen it): the canvas takes its new size before the frame is composed."""
    assert settled(g01).options.aspect == "16:9"
    made = count_frames(monkeypatch)
    g01.editor.setMinimumWidth(g01.editor.width() + 250)  # applied at the next layout
    g01.state.set_step(1)
    frame = settled(g01)
    assert frame.options.aspect == g01.canvas.aspect() == "4:3"
    assert len(made) == 1, "composed again"
    assert made[0] is frame
