"""Presentation mode: F5 / View → Present shows the frame full screen; presenter keys step,
1–9 and clicks choose the receiver, Esc leaves (F11 and G01)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from pytestqt.qtbot import QtBot

from app.canvas.arrows import AttentionArrows
from app.canvas.frame import FrameItem
from app.canvas.side_by_side import CompareFrameItem
from app.window.presentation import PresentationView
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window


def presenting(qtbot: QtBot, window: StudioWindow) -> PresentationView:
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_F5)
    view = window.presenter.view
    assert view is not None, "F5 opens presentation mode"
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.size() == view.screen().size())
    return view


def shown_step(view: PresentationView) -> int:
    assert isinstance(view.frame, FrameItem)
    return view.frame.step_index



def test_f5_shows_the_frame_full_screen_and_esc_leaves(qtbot: QtBot,
                                                        window: StudioWindow) -> None:
    view = presenting(qtbot, window)
    assert view.isFullScreen() and view.isWindow()
    screen = view.screen().geometry()
    width = 1440 if screen.width() / screen.height() < 1.55 else 1920  # the nearer of 4:3, 16:9
    assert view.frame is not None and view.frame.boundingRect() == QRectF(0, 0, width, 1080)
    shown = view.view_box.viewRect()
    assert shown.contains(view.frame.boundingRect()), "the whole sheet is in view"
    assert min(shown.width() / width, shown.height() / 1080) == pytest.approx(1.0, abs=0.01), \
        "and fills the screen's width or height"
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert window.presenter.view is None
    assert window.isVisible() and window.menuBar().isVisible()


def test_view_menu_present_action_has_f5(qtbot: QtBot, window: StudioWindow) -> None:
    action = window.presenter.action
    assert action.shortcut().toString() == "F5" and action.text() == "&Present"
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert action in view_menu.actions()
    action.trigger()
    assert window.presenter.view is not None
    window.presenter.leave()


def test_presenter_keys_step_through_g01(qtbot: QtBot, g01: StudioWindow) -> None:
    view = presenting(qtbot, g01)
    seen = [shown_step(view)]
    for key in (Qt.Key.Key_Right, Qt.Key.Key_PageDown, Qt.Key.Key_Space, Qt.Key.Key_Left,
                Qt.Key.Key_PageUp, Qt.Key.Key_End, Qt.Key.Key_PageUp, Qt.Key.Key_Home):
        qtbot.keyClick(view, key)
        seen.append(shown_step(view))
        assert g01.state.step == seen[-1], "the window follows the presentation"
    assert seen == [0, 1, 2, 3, 2, 1, 11, 10, 0]
    assert view.frame is not None and view.frame.heading.text.startswith("Step 1 of 12")


def test_number_keys_choose_the_receiver(qtbot: QtBot, window: StudioWindow) -> None:
    view = presenting(qtbot, window)
    qtbot.keyClick(view, Qt.Key.Key_End)  # the mix step draws the arrows
    qtbot.keyClick(view, Qt.Key.Key_1)
    assert window.state.receiver == 0
    assert window.controls.receiver_box.currentText() == "0: 我"  # the window's box follows
    assert view.frame is not None
    (arrows,) = view.frame.items_of(AttentionArrows)
    assert arrows.spec.receiver == 0 and arrows.share_labels == ["1"]
    qtbot.keyClick(view, Qt.Key.Key_9)  # F11 has two tokens: no row 9
    assert window.state.receiver == 0
    qtbot.keyClick(view, Qt.Key.Key_2)
    assert window.state.receiver == 1


def test_clicking_a_query_box_makes_it_the_receiver(qtbot: QtBot,
                                                    window: StudioWindow) -> None:
    view = presenting(qtbot, window)
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.frame is not None
    (arrows,) = view.frame.items_of(AttentionArrows)
    assert arrows.spec.receiver == 1, "the last token by default"
    box = arrows.node_rect(arrows.query_anchor(0), left=True)
    point = view.mapFromScene(arrows.mapToScene(box.center()))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert window.state.receiver == 0
    (arrows,) = view.frame.items_of(AttentionArrows)
    assert arrows.spec.receiver == 0


def test_clicking_a_grid_row_makes_it_the_receiver(qtbot: QtBot, window: StudioWindow) -> None:
    view = presenting(qtbot, window)
    frame = view.frame
    assert isinstance(frame, FrameItem)
    x_grid = next(g for name, g in frame.context.made if name == "X")
    point = view.mapFromScene(x_grid.mapToScene(x_grid.cell_rect(0, 1).center()))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert window.state.receiver == 0


def test_while_comparing_the_comparison_is_presented(qtbot: QtBot,
                                                     window: StudioWindow) -> None:
    window.compare.action.trigger()
    window.compare.set_preset("causal")
    view = presenting(qtbot, window)
    assert isinstance(view.frame, CompareFrameItem)
    assert view.frame.labels == ("causal mask", "no mask")
    assert view.frame.options.theme.name == "slide"
    qtbot.keyClick(view, Qt.Key.Key_End)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert window.state.step == 3
    assert isinstance(view.frame, CompareFrameItem) and view.frame.changed == ["weights"]
    qtbot.keyClick(view, Qt.Key.Key_Escape)


def test_closing_the_window_while_presenting_closes_the_full_screen_view(
        qtbot: QtBot, dialogs: object) -> None:
    """The full-screen view is a top-level window: left open, it outlived its window and its
    presenter, and Python's garbage collector later destroyed it mid-test (a segfault)."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from shiboken6 import isValid


    win = open_window(qtbot)
    win.presenter.present()
    view = win.presenter.view
    assert view is not None and view.isVisible()
    win.state.undo_stack.setClean()
    win.close()
    assert not view.isVisible()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not isValid(view)
    assert not isValid(win)  # a closed window deletes itself (app.state.window_lifetime)


def test_presenter_keys_walk_both_slides_of_a_split_step(qtbot: QtBot) -> None:
    """Pronoun's mask + softmax step is two slides on the 800-line screen: Right shows its
    second half before the mix, Left comes back to that second half and then the first, Home
    and End go to a step's first half; a step chosen in the window starts at its first."""
    window = open_window(qtbot, "pronoun")
    try:
        view = presenting(qtbot, window)

        def seen() -> tuple[int, int | None]:
            frame = view.frame
            assert isinstance(frame, FrameItem)
            return frame.step_index, frame.composition.part

        walked = [seen()]
        for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Space,
                    Qt.Key.Key_PageDown, Qt.Key.Key_Left, Qt.Key.Key_PageUp, Qt.Key.Key_Left,
                    Qt.Key.Key_Right, Qt.Key.Key_End, Qt.Key.Key_Left):
            qtbot.keyClick(view, key)
            walked.append(seen())
            assert window.state.step == walked[-1][0], "the window follows the presentation"
        assert walked == [(0, None), (1, None), (2, None), (3, 0), (3, 1), (4, None), (3, 1),
                          (3, 0), (2, None), (3, 0), (4, None), (3, 1)]
        frame = view.frame
        assert frame is not None and frame.heading.text.endswith("shares (2/2)")
        window.state.set_step(2)
        window.state.set_step(3)
        assert seen() == (3, 0)
        qtbot.keyClick(view, Qt.Key.Key_Right)
        qtbot.keyClick(view, Qt.Key.Key_Home)
        assert seen() == (0, None)
        qtbot.keyClick(view, Qt.Key.Key_Escape)
    finally:
        close_window(window)
