"""Keyboard alone: Tab reaches every control, each with a name; focus is visible; keys work."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QApplication, QMenu, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.canvas.theme import SLIDE
from app.canvas.view import CanvasView
from app.editor.table import MatrixTable
from app.i18n import set_language
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window

MAX_PRESSES = 400


def tab_walk(qtbot: QtBot, window: StudioWindow, start: QWidget) -> list[QWidget]:
    """Press Tab from ``start`` until the focus comes back to it; every widget focused, in order.

    Real key presses, so widgets that handle Tab themselves (a text browser with links) are
    walked the way a user walks them.
    """
    start.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is start, timeout=2000)
    order: list[QWidget] = [start]
    for _ in range(MAX_PRESSES):
        focus = QApplication.focusWidget()
        assert focus is not None and focus.window() is window, f"focus left the window: {focus}"
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
        now = QApplication.focusWidget()
        if now is start:
            return order
        if now not in order:
            order.append(now)
    raise AssertionError(f"Tab never came back to {start} after {MAX_PRESSES} presses")


@pytest.mark.parametrize("example", ["f11", "g01"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_control_tab_reaches_has_an_accessible_name(qtbot: QtBot, example: str,
                                                           lang: str) -> None:
    set_language(lang)
    window = open_window(qtbot, example)
    window.glossary.show()
    window.timeline.explain.set_expanded(True)
    window.state.set_step(1)
    QApplication.processEvents()
    reached = tab_walk(qtbot, window, window.editor.size_boxes["n"])
    nameless = [f"{type(w).__name__} {w.objectName()}" for w in reached
                if not w.accessibleName().strip()]
    assert nameless == []
    assert window.canvas in reached
    steps = window.timeline.step_group.buttons()
    assert all(button in reached for button in steps), "every step button is reachable by Tab"
    assert [w for w in reached if w in steps] == steps, "in step order"
    assert all(table in reached for table in window.editor.tables.values())
    for widget in (window.controls.receiver_box, window.timeline.play_button,
                   window.timeline.dwell_box, window.timeline.explain.toggle,
                   window.timeline.explain.browser, window.glossary.search,
                   window.glossary.terms):
        assert widget in reached, widget.accessibleName()
    if lang == "zh":
        assert window.canvas.accessibleName() == "注意力画布"
        assert steps[0].accessibleName().startswith("第 1 步：")
    close_window(window)


def test_the_reading_order_runs_editor_canvas_timeline(qtbot: QtBot,
                                                       window: StudioWindow) -> None:
    reached = tab_walk(qtbot, window, window.editor.size_boxes["n"])
    position = {id(w): k for k, w in enumerate(reached)}

    def at(widget: QWidget) -> int:
        return position[id(widget)]

    assert at(window.editor.tables["X"]) < at(window.controls.receiver_box) \
        < at(window.canvas) < at(window.timeline.play_button) \
        < at(window.timeline.step_group.buttons()[0]) < at(window.timeline.explain.toggle)


def test_menus_and_their_actions_are_named(window: StudioWindow) -> None:
    def walk(menu: QMenu) -> list[QAction]:
        found = []
        for action in menu.actions():
            if action.isSeparator():
                continue
            found.append(action)
            if action.menu() is not None:
                found += walk(action.menu())
        return found

    actions = [a for top in window.menuBar().actions() if top.menu() is not None
               for a in [top, *walk(top.menu())]]
    assert len(actions) > 25
    assert [a for a in actions if not a.text().replace("&", "").strip()] == []
    shortcuts = {a.shortcut().toString() for a in actions if not a.shortcut().isEmpty()}
    assert {"F1", "Shift+F1", "Ctrl+0", "Ctrl+E"} <= shortcuts


def focus_frame_colour(canvas: CanvasView) -> QColor:
    image = canvas.grab().toImage()
    return image.pixelColor(1, image.height() // 2)


def test_the_canvas_shows_a_focus_frame(qtbot: QtBot, window: StudioWindow) -> None:
    window.controls.receiver_box.setFocus()
    qtbot.waitUntil(lambda: not window.canvas.hasFocus(), timeout=2000)
    assert focus_frame_colour(window.canvas) == QColor(SLIDE.background)
    window.controls.fit_button.setFocus()
    qtbot.waitUntil(window.controls.fit_button.hasFocus, timeout=2000)
    qtbot.keyClick(window.controls.fit_button, Qt.Key.Key_Tab)
    qtbot.waitUntil(window.canvas.hasFocus, timeout=2000)
    assert focus_frame_colour(window.canvas) == QColor(SLIDE.accent)


def test_space_presses_a_focused_step_button_and_arrows_still_step(
        qtbot: QtBot, window: StudioWindow) -> None:
    third: QPushButton = window.timeline.step_group.buttons()[2]
    third.setFocus()
    qtbot.waitUntil(third.hasFocus, timeout=2000)
    qtbot.keyClick(third, Qt.Key.Key_Space)
    assert window.state.step == 2
    assert third.isChecked()
    assert [b.isChecked() for b in window.timeline.step_group.buttons()].count(True) == 1
    assert not window.timeline.playing, "Space on a button is that button's, not Play"
    qtbot.keyClick(third, Qt.Key.Key_Right)
    assert window.state.step == 3
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Space)
    assert window.timeline.playing, "Space elsewhere still plays"
    window.timeline.pause()


def test_clicking_the_current_step_keeps_it_marked(qtbot: QtBot, window: StudioWindow) -> None:
    first = window.timeline.step_group.buttons()[0]
    qtbot.mouseClick(first, Qt.MouseButton.LeftButton)
    assert first.isChecked()
    assert window.state.step == 0


def test_grid_cells_are_reached_with_arrows_and_tab_leaves(qtbot: QtBot,
                                                           window: StudioWindow) -> None:
    table: MatrixTable = window.editor.tables["attention.Wq"]
    table.setFocus()
    table.setCurrentIndex(table.model().index(0, 0))
    qtbot.keyClick(table, Qt.Key.Key_Down)
    assert table.currentIndex().row() == 1
    qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not table
