"""The canvas's corner note ("numbers too small to print…") sits where the frame draws nothing
when the viewport has such a place, and in the lower right corner otherwise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QFontMetrics
from pytestqt.qtbot import QtBot

from app.canvas.theme import font
from app.canvas.view import NOTE_INSET, free_place
from app.window.studio import StudioWindow
from tests.app.driving import close_window
from tests.bench.timing import attention_scenario

AREA = QRect(8, 8, 600, 400)
"""A viewport of 616 × 416 less the note's inset: x 8–607, y 8–407."""
NOTE = QSize(200, 40)


def test_an_empty_view_takes_the_note_in_its_lower_right_corner() -> None:
    assert free_place(AREA, NOTE, []) == (608 - 200, 408 - 40)


def test_the_note_moves_left_of_a_drawing_in_the_corner() -> None:
    arrows = QRect(450, 100, 100, 300)  # x 450–549, y 100–399: under the corner's box
    # The lowest row first: at y = 368 the box's right edge may reach x = 450 at most.
    assert free_place(AREA, NOTE, [arrows]) == (248, 368)


def test_the_note_goes_up_when_the_whole_bottom_is_drawn() -> None:
    footer = QRect(8, 380, 600, 28)  # the bottom 28 rows, the whole width
    # Rows are tried 4 px apart from y = 368: the first clear of y ≥ 380 is 340.
    assert free_place(AREA, NOTE, [footer]) == (408, 340)


def test_with_nothing_free_the_note_keeps_the_lower_right_corner() -> None:
    assert free_place(AREA, NOTE, [QRect(0, 0, 700, 500)]) == (408, 368)


def test_a_note_wider_than_the_view_keeps_its_lower_right_corner() -> None:
    assert free_place(AREA, QSize(700, 40), [QRect(0, 0, 10, 10)]) == (608 - 700, 368)


@pytest.fixture()
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = StudioWindow(attention_scenario(64, heads=2))
    qtbot.addWidget(window)
    window.resize(1024, 768)
    window.show()
    qtbot.waitExposed(window)
    yield window
    close_window(window)


def test_at_1024_by_768_the_note_hides_nothing_of_a_fitted_frame(
        qtbot: QtBot, window: StudioWindow) -> None:
    """A 64-position document's shares step, fitted: its arrows and their legend run down the
    viewport's right side, where the note used to cover them; it now sits under the grids."""
    canvas = window.canvas
    window.state.set_step(window.state.trace.step_index("weights"))
    canvas.fit()
    qtbot.wait(20)
    canvas.viewport().repaint()
    assert canvas.words_hidden, "64 positions at 1024 × 768: the note is shown"
    size = QFontMetrics(font(13)).boundingRect(QRect(), 0, canvas.zoom_hint()).size()
    box = canvas.note_place(size)
    viewport = canvas.viewport().rect()
    assert viewport.adjusted(NOTE_INSET, NOTE_INSET, -NOTE_INSET, -NOTE_INSET).contains(box)
    frame = canvas.frame
    assert frame is not None
    drawn = [canvas.mapFromScene(item.sceneBoundingRect()).boundingRect()
             for item in canvas.items(viewport)
             if not item.childItems() and frame.isAncestorOf(item)]
    assert len(drawn) > 10, "the grids, their labels, the arrows, the title and the footer"
    assert not [rect for rect in drawn if rect.intersects(box)]
    corner = QRect(QPoint(viewport.right() - NOTE_INSET - size.width() + 1,
                          viewport.bottom() - NOTE_INSET - size.height() + 1), size)
    assert [rect for rect in drawn if rect.intersects(corner)], \
        "the lower right corner holds part of the frame: the note moved away from it"
