"""The window opens inside the screen: at 1024×768 nothing is pushed off its right edge."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas.grid import MatrixGrid
from app.canvas.side_by_side import CompareFrameItem
from app.model.examples import example_path
from app.window.studio import DEFAULT_SIZE, StudioWindow
from engine import load_scenario
from tests.app.driving import close_window


def test_the_first_size_fits_a_screen_smaller_than_the_default(qtbot: QtBot) -> None:
    window = StudioWindow(load_scenario(example_path("f11")))
    try:
        free = window.screen().availableGeometry()
        # The offscreen screen (800×800) is narrower than the default 1280×800, so this
        # checks the shrinking, not a default that happens to fit.
        assert free.width() < DEFAULT_SIZE[0]
        assert (window.width(), window.height()) == (
            min(DEFAULT_SIZE[0], free.width()), min(DEFAULT_SIZE[1], free.height()))
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
    assert canvas.words_hidden, "two frames side by side: the numbers are too small"
    assert canvas.zoom_hint() == "Numbers too small to print at this size: scroll to zoom in"
    grid = next(g for g in canvas.frame.items_of(MatrixGrid) if g.isVisible())
    canvas.view_box.setRange(rect=grid.sceneBoundingRect(), padding=0.0)
    qtbot.wait(20)
    canvas.viewport().repaint()
    assert not canvas.words_hidden, "zoomed onto one grid: its numbers print, the note goes"
