"""A comparison on the canvas draws its two halves as large as their numbers need: the step's
grids without the arrows beside them, each half under a heading of its own, A above B when
the pictures are wide, the two at one scale, and the height shared with B − A so that every
number of every step of the order example prints at 9 px or more at 1024 × 768 after Fit
(narrow, tall pictures, the scores under their factors, in three columns A | B | B − A; RoPE
without its dials, as the shares without their arrows).

The digit height is measured as the audience sees it (:mod:`tests.app.legibility`): the ink of
“0123456789” in each number's font times the scale it is drawn at on the canvas."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.side_by_side import CompareFrameItem, DifferenceMark
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window
from tests.app.legibility import device_scale, digit_ink, smallest_number

TARGET = 9.0
"""Smallest digit height (px) in the window at 1024 × 768 (issue 23, item 4)."""


@pytest.fixture
def order(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "order")
    yield window
    close_window(window)


def compared(qtbot: QtBot, window: StudioWindow, step: str) -> CompareFrameItem:
    """Order's “two tokens swapped” comparison of ``step`` at 1024 × 768, receiver B, fitted."""
    window.setFixedSize(1024, 768)
    window.state.set_receiver(3)
    window.compare.action.setChecked(True)
    window.compare.set_preset("swap")
    window.state.set_step(window.state.trace.step_index(step))
    canvas = window.canvas
    qtbot.waitUntil(lambda: isinstance(canvas.frame, CompareFrameItem))
    canvas.fit()
    QApplication.processEvents()
    item = canvas.frame
    assert isinstance(item, CompareFrameItem)
    return item


@pytest.mark.parametrize("step", ["inputs", "projections", "rope", "scores", "weights", "mix"])
def test_swapped_tokens_comparison_prints_every_number_at_9_px(
        qtbot: QtBot, order: StudioWindow, step: str) -> None:
    item = compared(qtbot, order, step)
    canvas = order.canvas
    a, b = item.a_frame, item.b_frame
    assert a.picture_scale == pytest.approx(b.picture_scale), "one scale for A and B"
    for side in (a, b):
        smallest = smallest_number(side, canvas)
        assert smallest.pixels >= TARGET, smallest
    differences = [grid for grid in item.differences.childItems()
                   if isinstance(grid, MatrixGrid)] if item.changed else []
    assert [grid.spec.title for grid in differences] == \
        [f"B − A · {name}" for name in item.drawn]
    for grid in differences:
        assert digit_ink(NUMBER_SIZE) * device_scale(grid, canvas) >= TARGET, grid.spec.title
    canvas.viewport().repaint()
    assert not canvas.words_hidden, "every number printed"


def test_the_halves_show_the_steps_grids_a_above_b_and_b_minus_a_of_what_it_writes(
        qtbot: QtBot, order: StudioWindow) -> None:
    item = compared(qtbot, order, "weights")
    a, b = item.a_frame, item.b_frame
    assert b.pos().y() > a.pos().y() + a.boundingRect().height() - 1, "B below A"
    assert item.changed == ["scores", "weights"]
    assert item.drawn == ["weights"], "the scores' B − A is drawn at the scores step"
    notes = [text.text for text in item.childItems() if hasattr(text, "text")]
    assert "differs too (its B − A is drawn at the step that writes it): scores" in notes
    assert a.heading.text == "Step 5 of 6 · A · as typed: Softmax shares"
    assert b.heading.text == "Step 5 of 6 · B · A ↔ B swapped: Softmax shares"
    heading_ink = digit_ink(a.heading.font.pixelSize(), True) * device_scale(a.heading,
                                                                             order.canvas)
    assert heading_ink >= TARGET - 1, "a side's heading reads like its numbers"


def test_ropes_angles_are_outlined_where_a_and_b_differ(qtbot: QtBot,
                                                      order: StudioWindow) -> None:
    """Swapping A (p1) and B (p3) moves each token's angle p·θ₀ (θ₀ = 1 for d_k = 2): drawn by
    token, B's angles are 0, 3, 2, 1 against A's 0, 1, 2, 3, so the angles grid of each side is
    outlined “≠” like Q_rot's, and its B − A is 0, 2, 0, −2."""
    item = compared(qtbot, order, "rope")
    assert "rope_angles" in item.changed
    for side, angles in ((item.a_frame, [0, 1, 2, 3]), (item.b_frame, [0, 3, 2, 1])):
        (grid,) = [g for g in side.items_of(MatrixGrid) if g.spec.title.startswith("angles")]
        assert grid.spec.values[:, 0].tolist() == angles
        marks = [mark for mark in grid.childItems() if isinstance(mark, DifferenceMark)]
        assert len(marks) == 1, "the angles that differ are outlined"
        (unchanged,) = [g for g in side.items_of(MatrixGrid) if g.spec.title == "K"]
        assert not any(isinstance(m, DifferenceMark) for m in unchanged.childItems())
    (difference,) = [g for g in item.differences.childItems()
                     if isinstance(g, MatrixGrid) and "rope_angles" in g.spec.title]
    assert difference.spec.values[:, 0].tolist() == [0, 2, 0, -2]
