"""The window's one type scale, kept by every step: a worked row takes a free corner of its
picture, the probabilities print as large as the grids, and Generate next costs the canvas one
row, not two, when there is room (issue 23, item 1, the window's target)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.bars import ProbabilityBars
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import NUMBER_SIZE
from app.canvas.layout import ROW_GAP, TextItem
from app.canvas.worked_row import WorkedRow
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import Trace, compute, format_number, load_scenario
from tests.app.driving import close_window


def trace_of(name: str) -> Trace:
    return compute(load_scenario(example_path(name)))


@pytest.mark.parametrize(("name", "step", "scores", "under"),
                         [("multihead", "mix", "scores", 0.01),
                          ("three-layers", "L1.mix", "L1.scores", 0.09),
                          ("training", "L1.weights", "L1.scores", 0.01)])
def test_a_worked_row_in_a_free_corner_keeps_the_documents_scale(
        qtbot: QtBot, name: str, step: str, scores: str, under: float) -> None:
    """Multihead's mix with its worked row beside the picture fitted at 1.283, under the
    document's 1.467 (8.6 px in the window): the row now goes right of the arrows, under
    nothing and over nothing, and the step is drawn at the scale its scores step has, or at
    most ``under`` below it (three-layers' mix, 1.524, is 8 % under its scores step, 1.657,
    since the scores' product is drawn in the corner arrangement; it was 1.483 of 1.554)."""
    trace = trace_of(name)
    options = FrameOptions(worked_row=True)
    frame = FrameItem(trace, trace.step_index(step), options)
    at_scores = FrameItem(trace, trace.step_index(scores), options)
    assert (1 - under) * at_scores.picture_scale <= frame.picture_scale
    assert (1 - under) * frame.composition.scale <= frame.picture_scale
    row = frame.worked_row
    assert isinstance(row, WorkedRow)
    panel = row.mapRectToParent(row.boundingRect())
    room = panel.adjusted(-ROW_GAP / 2, -ROW_GAP / 2, ROW_GAP / 2, ROW_GAP / 2)
    for part in frame.body.childItems():
        if part is not row:
            assert not room.intersects(part.mapRectToParent(part.boundingRect())), part


def test_probabilities_print_as_large_as_the_grids_numbers(qtbot: QtBot) -> None:
    """Encoder–decoder's probabilities: each bar's number is the softmax of its logits row
    (computed here), printed at the grids' size (the bars' 13 px made them the frame's smallest
    numbers, 7.3 px in the window at 1024 × 768)."""
    trace = trace_of("encoder-decoder")
    frame = FrameItem(trace, trace.step_index("probs"), FrameOptions())
    (bars,) = frame.items_of(ProbabilityBars)
    logits = trace.arrays["logits"]
    exps = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = exps / exps.sum(axis=1, keepdims=True)
    assert bars.values, "some probabilities are printed"
    for (position, entry), text in bars.values.items():
        assert text == format_number(float(probs[position, entry]), frame.context.places)
    printed = [item for item in bars.childItems()
               if isinstance(item, TextItem) and item.text in bars.values.values()]
    assert len(printed) == len(bars.values)
    assert {item.font.pixelSize() for item in printed} == {NUMBER_SIZE}


def test_generate_next_takes_one_row_of_the_canvas_when_there_is_room(qtbot: QtBot) -> None:
    """At 1024 × 768 with Focus, Generate next and its settings sit on one line above the
    probabilities (two rows took 49 px of a 507 px canvas, the frame 11 % smaller than at the
    step before); with the editor unfolded they go back to two rows, as narrow as before."""
    window = StudioWindow(load_scenario(example_path("training")))
    try:
        window.resize(1024, 768)
        with qtbot.waitActive(window):
            window.show()
            window.activateWindow()
        panel = window.generation
        probs = window.state.trace.step_index("probs")
        window.view_menu.focus_action.trigger()
        window.state.set_step(probs - 1)
        QApplication.processEvents()
        before = window.canvas.viewport().height()
        window.state.set_step(probs)
        QApplication.processEvents()
        row = max(panel.button.sizeHint().height(), panel.seed_box.sizeHint().height())
        assert panel.isVisible() and panel.height() <= row + 4
        assert before - window.canvas.viewport().height() <= row + 10  # and the layout's gap
        assert panel.seed_box.geometry().top() < panel.button.geometry().bottom()
        window.view_menu.focus_action.trigger()
        QApplication.processEvents()
        assert window.editor.width() > 0
        qtbot.waitUntil(lambda: panel.height() > 1.5 * row)  # two rows beside the editor
        assert panel.minimumSizeHint().width() < 0.6 * panel.one_line_width()
    finally:
        close_window(window)
