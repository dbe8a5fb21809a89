"""Exercise blanks on the canvas: the frame option ``blanks`` hides exactly its cells."""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import ASKED, MatrixGrid
from app.model.examples import example_path
from engine import Trace, compute, load_scenario


def f11() -> Trace:
    return compute(load_scenario(example_path("f11")))


def shares_grid(frame: FrameItem) -> MatrixGrid:
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title == "shares")


def words_of(grid: MatrixGrid) -> list[str]:
    """Every text the grid paints (its title, labels, numbers and note)."""
    return [text for run in grid._words() for _rect, text in run[4]]


def test_a_blank_hides_exactly_its_cell_colour_and_number(qtbot: QtBot) -> None:
    trace = f11()
    weights = trace.step_index("weights")
    plain = shares_grid(FrameItem(trace, weights, FrameOptions()))
    frame = FrameItem(trace, weights, FrameOptions(blanks=frozenset({("weights", (0, 1, 0))})))
    grid = shares_grid(frame)
    # The chapter's shares for 爱 (row 1): 0.804 from 我, 0.196 from itself.
    assert plain.cell_text(1, 0) == "0.804"
    assert grid.cell_text(1, 0) == ASKED
    assert grid.cell_fill(1, 0) == "#ffffff", "an empty box: no colour tells the value"
    for row, col in ((0, 0), (0, 1), (1, 1)):
        assert grid.cell_text(row, col) == plain.cell_text(row, col)
        assert grid.cell_fill(row, col) == plain.cell_fill(row, col)
    painted = words_of(grid)
    assert "0.804" not in painted and painted.count(ASKED) == 1
    assert sorted(words_of(plain)) == sorted(
        [*(w for w in painted if w != ASKED), "0.804"]), "every other word is painted as before"


def test_blanks_of_another_head_or_array_leave_the_grid_alone(qtbot: QtBot) -> None:
    trace = f11()
    options = FrameOptions(blanks=frozenset({("weights", (1, 1, 0)), ("scores", (0, 1, 0))}))
    grid = shares_grid(FrameItem(trace, trace.step_index("weights"), options))
    assert grid.spec.asked is None and grid.cell_text(1, 0) == "0.804"


def test_a_blank_follows_its_array_into_a_slice_of_columns(qtbot: QtBot) -> None:
    trace = compute(load_scenario(example_path("multihead")))
    step = trace.step_index("projections")
    base = FrameOptions()
    plain = FrameItem(trace, step, base)
    frame = FrameItem(trace, step, replace(base, blanks=frozenset({("Q", (1, 3))})))
    asked = [(g.source, g.spec.asked) for g in frame.items_of(MatrixGrid)
             if g.spec.asked is not None]
    assert len(asked) == 1, "one grid shows Q[1, 3]"
    source, mask = asked[0]
    assert source is not None and source[0] == "Q"
    (row, col), = [tuple(int(k) for k in rc) for rc in zip(*mask.nonzero(), strict=True)]
    assert source[1].index_of(row, col) == (1, 3)
    assert len(plain.items_of(MatrixGrid)) == len(frame.items_of(MatrixGrid))


def painted_at(frame: FrameItem, grid: MatrixGrid, row: int, col: int) -> str:
    """The colour painted a quarter of the way into cell (``row``, ``col``), left of its
    number, when the frame is drawn into an image as exports draw it."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QGraphicsScene

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


def test_the_painted_blank_is_an_empty_box_and_its_neighbours_keep_their_colour(
        qtbot: QtBot) -> None:
    trace = f11()
    weights = trace.step_index("weights")
    plain = FrameItem(trace, weights, FrameOptions())
    frame = FrameItem(trace, weights, FrameOptions(blanks=frozenset({("weights", (0, 1, 0))})))
    before, after = shares_grid(plain), shares_grid(frame)
    assert painted_at(plain, before, 1, 0) != "#ffffff"
    assert painted_at(frame, after, 1, 0) == "#ffffff"
    for row, col in ((0, 0), (1, 1)):
        assert painted_at(frame, after, row, col) == painted_at(plain, before, row, col) \
            != "#ffffff"
