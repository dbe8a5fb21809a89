"""The window opens at a size fitting the screen: most of a 1920 × 1080 one, inside a 1024 × 768
one; at 1024×768 nothing is pushed off its right edge, nor cut at the editor column's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSize
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QWidget
from pytestqt.qtbot import QtBot

from app.canvas.grid import MatrixGrid
from app.canvas.side_by_side import CompareFrameItem
from app.model.examples import example_path
from app.window.studio import StudioWindow, opening_size
from engine import load_scenario
from tests.app.driving import close_window


@pytest.mark.parametrize(("free", "expected"), [
    ((1920, 1050), (1728, 945)),  # a 1920 × 1080 screen less a 30 px panel: not 1280 × 800
    ((1024, 738), (922, 664)),  # 1024 × 768: room for the frame and the panel left
    ((5120, 2850), (2560, 1600)),  # a 5K screen: capped
])
def test_the_window_opens_at_most_of_the_screens_free_area(
        free: tuple[int, int], expected: tuple[int, int]) -> None:
    share = 0.9  # worked out here: nine tenths of each side, rounded, then capped
    assert expected == (min(round(free[0] * share), 2560), min(round(free[1] * share), 1600))
    size = opening_size(QSize(*free))
    assert (size.width(), size.height()) == expected


def test_the_first_size_fits_the_screen_with_room_to_spare(qtbot: QtBot) -> None:
    window = StudioWindow(load_scenario(example_path("f11")))
    try:
        free = window.screen().availableGeometry()
        # The offscreen screen is 800×800: the window opens at 720×720, inside it, centred.
        assert (free.width(), free.height()) == (800, 800)
        assert (window.width(), window.height()) == (720, 720)
        assert free.contains(window.geometry())
        assert window.geometry().center() == free.center()
    finally:
        close_window(window)


def test_the_canvas_frame_is_composed_on_the_sheet_shaped_most_like_it(qtbot: QtBot) -> None:
    window = StudioWindow(load_scenario(example_path("pronoun")))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.state.set_step(window.state.trace.step_index("weights"))
    canvas = window.canvas

    def sheet() -> float:
        frame = canvas.frame
        assert frame is not None
        return frame.boundingRect().width()

    for width, height in ((1024, 768), (1900, 700), (1024, 768)):
        window.setFixedSize(width, height)  # above the offscreen screen's size, if need be
        qtbot.waitUntil(lambda: canvas.viewport().width() > 0)
        qtbot.wait(20)
        shape = canvas.viewport().width() / canvas.viewport().height()
        expected = 1440.0 if abs(shape / (4 / 3) - 1) < abs(shape / (16 / 9) - 1) else 1920.0
        qtbot.waitUntil(lambda expected=expected: sheet() == expected, timeout=2000)
        shown = canvas.view_box.viewRect()
        assert shown.contains(canvas.frame.boundingRect()), "fitted to the new sheet"
    assert (window.width(), window.height(), sheet()) == (1024, 768, 1440.0), \
        "a 1024 × 768 window's canvas takes the 4:3 sheet"


def test_numbers_too_small_to_print_are_announced_until_zoomed_in(qtbot: QtBot) -> None:
    window = StudioWindow(load_scenario(example_path("pronoun")))
    qtbot.addWidget(window)
    window.setFixedSize(1024, 768)
    window.show()
    qtbot.waitExposed(window)
    canvas = window.canvas
    window.state.set_step(window.state.trace.step_index("weights"))
    canvas.viewport().repaint()
    assert not canvas.words_hidden, "one pronoun frame at 1024 × 768: every number printed"
    window.compare.action.setChecked(True)
    window.compare.set_preset("causal")
    qtbot.waitUntil(lambda: isinstance(canvas.frame, CompareFrameItem))
    canvas.fit()
    qtbot.wait(20)
    canvas.viewport().repaint()
    assert not canvas.words_hidden, "the two frames of a comparison print their numbers too"

    def painted_with_words_hidden(hidden: bool) -> bool:
        """Whether a paint now leaves words out as ``hidden`` says (a loaded machine applies
        a zoom a few turns of the event loop later)."""
        canvas.viewport().repaint()
        return canvas.words_hidden == hidden

    canvas.view_box.scaleBy((3.0, 3.0))  # zoomed out
    qtbot.waitUntil(lambda: painted_with_words_hidden(True), timeout=3000)
    assert canvas.zoom_hint() == "Numbers too small to print at this size: scroll to zoom in"
    grid = next(g for g in canvas.frame.items_of(MatrixGrid) if g.isVisible())
    canvas.view_box.setRange(rect=grid.sceneBoundingRect(), padding=0.0)
    qtbot.waitUntil(lambda: painted_with_words_hidden(False), timeout=3000)
    assert canvas.words_hidden is False, "zoomed onto one grid: its numbers print, the note goes"


@pytest.mark.parametrize("example", ["f11", "rope", "encoder-decoder"])
def test_at_1024_by_768_the_editor_column_cuts_none_of_its_rows(qtbot: QtBot,
                                                                 example: str) -> None:
    window = StudioWindow(load_scenario(example_path(example)))
    qtbot.addWidget(window)
    window.setFixedSize(opening_size(QSize(1024, 738)))  # 922 × 664
    window.show()
    qtbot.waitExposed(window)
    window.splitter.setSizes([260, 662])  # 380 : 900 scaled down: what a 922 px window had
    qtbot.wait(20)
    editor = window.editor
    viewport = editor.viewport()
    boxes = [w for kind in (QAbstractSpinBox, QCheckBox, QComboBox)
             for w in editor.widget().findChildren(kind) if w.isVisible()]
    assert len(boxes) >= 8
    for box in boxes:
        name = box.text() if isinstance(box, QCheckBox) else box.objectName() or type(box).__name__
        right = box.mapTo(viewport, QPoint(box.width(), 0)).x()
        assert right <= viewport.width(), f"{name} cut at the right edge"
        assert box.width() >= box.minimumSizeHint().width(), f"{name} squeezed"
    canvas_side = window.splitter.widget(1)
    assert isinstance(canvas_side, QWidget)
    assert editor.width() + canvas_side.width() + window.splitter.handleWidth() == \
        window.splitter.width(), "the canvas takes the rest"
    assert canvas_side.width() > 500
