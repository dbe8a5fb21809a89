"""An exercise's blank on the canvas: an empty dashed box marked “?” where its cell was, and
a click on a grid names the trace array's cell (the teacher hides cells so)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene
from pytestqt.qtbot import QtBot

from app.canvas import Blanks, FrameItem, FrameOptions
from app.canvas.grid import ASKED, MatrixGrid
from app.model.examples import example_path
from engine import Trace, compute, load_scenario


def f11() -> Trace:
    return compute(load_scenario(example_path("f11")))


def one_share_hidden(trace: Trace) -> FrameOptions:
    """The share of 我 for 爱 (weights[0, 1, 0], 0.804 in the chapter) left blank."""
    mask = np.zeros(trace.arrays["weights"].shape, dtype=bool)
    mask[0, 1, 0] = True
    return FrameOptions(blanks=Blanks({"weights": mask}))


def shares_grid(frame: FrameItem) -> MatrixGrid:
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title == "shares")


def words_of(grid: MatrixGrid) -> list[str]:
    """Every text the grid paints (its title, labels, numbers, marks and note)."""
    return [text for run in grid._words() for _rect, text in run[4]]


def painted_at(frame: FrameItem, grid: MatrixGrid, row: int, col: int) -> str:
    """The colour painted a quarter of the way into cell (``row``, ``col``), left of its
    number, when the frame is drawn into an image as exports draw it."""
    scene = QGraphicsScene()
    scene.addItem(frame)
    rect = frame.boundingRect()
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_RGB32)
    painter = QPainter(image)
    scene.render(painter, rect, rect)
    painter.end()
    cell = grid.cell_rect(row, col)
    point = grid.mapToScene(QPointF(cell.left() + cell.width() / 4, cell.center().y()))
    colour = image.pixelColor(int(point.x()), int(point.y())).name()
    scene.removeItem(frame)
    return colour


def test_a_blank_is_marked_with_one_question_mark_and_nothing_else_changes(
        qtbot: QtBot) -> None:
    trace = f11()
    weights = trace.step_index("weights")
    plain = shares_grid(FrameItem(trace, weights, FrameOptions()))
    grid = shares_grid(FrameItem(trace, weights, one_share_hidden(trace)))
    assert plain.cell_text(1, 0) == "0.804" and grid.cell_text(1, 0) == ""
    painted = words_of(grid)
    assert "0.804" not in painted and painted.count(ASKED) == 1
    assert sorted(words_of(plain)) == sorted(
        [*(w for w in painted if w != ASKED), "0.804"]), "every other word is painted as before"


def test_the_painted_blank_is_an_empty_box_and_its_neighbours_keep_their_colour(
        qtbot: QtBot) -> None:
    trace = f11()
    weights = trace.step_index("weights")
    plain = FrameItem(trace, weights, FrameOptions())
    frame = FrameItem(trace, weights, one_share_hidden(trace))
    before, after = shares_grid(plain), shares_grid(frame)
    assert painted_at(plain, before, 1, 0) != "#ffffff"
    assert painted_at(frame, after, 1, 0) == "#ffffff"
    for row, col in ((0, 0), (1, 1)):
        assert painted_at(frame, after, row, col) == painted_at(plain, before, row, col) \
            != "#ffffff"


def test_a_grid_cell_names_its_array_cell_in_a_slice_of_columns(qtbot: QtBot) -> None:
    trace = compute(load_scenario(example_path("multihead")))
    step = trace.step_index("scores")  # Q and Kᵀ drawn by head: Q · head 2 is columns 2–3
    mask = np.zeros(trace.arrays["Q"].shape, dtype=bool)
    mask[1, 3] = True
    frame = FrameItem(trace, step, replace(FrameOptions(), blanks=Blanks({"Q": mask})))
    asked = [g for g in frame.items_of(MatrixGrid) if g.spec.asked is not None]
    assert len(asked) == 1, "one grid (head 2's slice of Q) shows Q[1, 3]"
    assert asked[0].spec.title == "Q · head 2"
    grid = asked[0]
    assert grid.source is not None and grid.source[0] == "Q"
    (row, col), = np.argwhere(grid.spec.asked).tolist()
    assert grid.source[1].index_of(row, col) == (1, 3)
    assert (row, col) != (1, 3), "the grid's own column is another: the map is not the identity"
