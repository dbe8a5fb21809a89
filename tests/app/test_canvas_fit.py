"""The canvas shows the whole sheet: it refits whenever the frame's size changes, and after an
edit that reshapes the picture (heads 1 → 2) and its undo."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.canvas import SLIDE, FrameItem, FrameOptions
from app.canvas.view import CanvasView
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import Trace, compute, load_scenario


def fills(view: CanvasView) -> bool:
    """The view shows the whole frame, and the frame fills its width or height."""
    assert view.frame is not None
    frame, shown = view.frame.boundingRect(), view.view_box.viewRect()
    whole = shown.adjusted(-0.5, -0.5, 0.5, 0.5).contains(frame)
    tight = min(shown.width() / frame.width(), shown.height() / frame.height())
    return whole and tight == pytest.approx(1.0, abs=0.01)


def test_heads_one_to_two_and_undo_keep_the_whole_frame_in_view(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.state.set_step(3)
    assert fills(window.canvas)
    spin = window.editor.size_boxes["heads"]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert window.state.scenario.attention.heads == 2
    assert window.canvas.frame is not None
    assert window.canvas.frame.boundingRect() == QRectF(0, 0, 1920, 1080)
    assert fills(window.canvas)
    window.state.undo_stack.undo()
    assert window.state.scenario.attention.heads == 1
    assert fills(window.canvas)


def f11_on_a_canvas(qtbot: QtBot) -> tuple[CanvasView, Trace]:
    """An 800 × 500 canvas showing F11's step 4, fitted."""
    view = CanvasView(SLIDE)
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.show()
    trace = compute(load_scenario(example_path("f11")))
    view.show_item(FrameItem(trace, 3, FrameOptions()), fit=True)
    return view, trace


def test_a_frame_of_another_size_is_fitted_even_without_asking(qtbot: QtBot) -> None:
    view, trace = f11_on_a_canvas(qtbot)
    assert fills(view)
    view.view_box.scaleBy((0.25, 0.25))  # the user zooms in
    view.fitted = False
    view.show_item(FrameItem(trace, 4, FrameOptions()), fit=False)
    assert not fills(view), "same size: the zoom is kept"
    view.show_item(FrameItem(trace, 4, FrameOptions(aspect="4:3")), fit=False)
    assert view.frame is not None and view.frame.boundingRect().width() == 1440
    assert fills(view), "another size: fitted"


def test_resizing_the_canvas_keeps_a_fitted_frame_fitted(qtbot: QtBot) -> None:
    view, _trace = f11_on_a_canvas(qtbot)
    view.resize(1024, 768)
    qtbot.waitUntil(lambda: view.viewport().width() > 1000)
    assert fills(view)


def test_a_resized_canvas_draws_at_the_fitted_zoom_before_it_paints(qtbot: QtBot) -> None:
    """The frame's items take the zoom fitted to the new size at once (pyqtgraph applies a
    new range at its next paint: a click, or a legibility test, read the old zoom before)."""
    holder = QWidget()
    qtbot.addWidget(holder)
    holder.resize(1100, 800)
    view = CanvasView(SLIDE, holder)
    view.resize(800, 500)
    holder.show()
    qtbot.waitExposed(holder)
    view.show_item(FrameItem(compute(load_scenario(example_path("f11"))), 3, FrameOptions()),
                   fit=True)
    QApplication.processEvents()  # painted at 800 × 500
    view.resize(1000, 700)  # a child's resize: no paint yet
    frame = view.frame
    assert frame is not None
    box = view.view_box.size()  # the view's whole size: its focus frame is drawn over it
    fitted = min(box.width() / frame.boundingRect().width(),
                 box.height() / frame.boundingRect().height())
    assert (frame.sceneTransform() * view.viewportTransform()).m22() == pytest.approx(fitted)
