"""A real model's one score of 0.0000132 (printed 1.32×10⁻⁵: never a false 0) no longer makes
every cell of its 20 × 20 grid as wide as its own: the few values that round to 0 are printed
smaller in cells sized for the rest, and the scores' slide of a 12-layer GPT-2 shape in
presentation at 1920 × 1080 prints its numbers 18.8 px tall (11.7 before)."""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from app.canvas.context import FrameOptions
from app.canvas.grid import NUMBER_SIZE, GridSpec, MatrixGrid
from app.canvas.picture import painting_on_screen
from app.canvas.rare_cells import RARE, SMALLEST, WIDE_COLUMNS, full_size_cells
from app.canvas.theme import SLIDE, text_advance
from app.window.presentation import PresentationView
from engine import compute
from engine.format.numbers import format_exact
from tests.app.legibility import SMALL_CELL, numbers, shown
from tests.app.test_legibility import screen as screen  # the projector-sized canvas fixture
from tests.bench.timing import gpt2_stack

pytestmark = pytest.mark.usefixtures("qapp")

TINY = 1.32e-5


def scores(tiny: int) -> np.ndarray:
    """20 × 20 scores between −9.9 and 9.9 (three decimals), ``tiny`` of them 1.32e-5."""
    values = np.round(np.random.default_rng(3).uniform(-9.9, 9.9, (20, 20)), 3)
    values.flat[np.arange(tiny) * 7] = TINY
    return values


def grid(values: np.ndarray) -> MatrixGrid:
    tokens = [f"t{k}" for k in range(values.shape[0])]
    return MatrixGrid(GridSpec("scores", values, tokens, tokens,
                               explain=lambda r, c: format_exact(float(values[r, c]))),
                      SLIDE)


def test_a_rare_tiny_value_is_printed_smaller_in_cells_sized_for_the_rest() -> None:
    """One 1.32e-5 among 400 scores: the cells are as wide as without it (for "−8.888", 4
    units each side), its text, in full, fits its cell at a smaller size (at least half),
    hovering gives it in full; every other number keeps its size."""
    plain, one = grid(scores(0)), grid(scores(1))
    assert one.cell_width == plain.cell_width == pytest.approx(
        max(46.0, text_advance("−8.888", NUMBER_SIZE) + 8.0))
    assert one.cell_text(0, 0) == "1.32×10⁻⁵"
    (size,) = one.small_cells.values()
    assert one.small_cells == {(0, 0): size}
    assert SMALLEST * NUMBER_SIZE <= size < NUMBER_SIZE
    assert text_advance("1.32×10⁻⁵", size) <= one.cell_width - 8.0
    assert text_advance("1.32×10⁻⁵", NUMBER_SIZE) > one.cell_width - 8.0
    assert one.number_size(0, 1) == NUMBER_SIZE
    one.hoverMoveEvent(_hover_at(one, 0, 0))
    assert one.toolTip() == "0.0000132"


def _hover_at(grid: MatrixGrid, row: int, col: int) -> object:
    class Hover:
        def pos(self) -> QPointF:
            return grid.cell_rect(row, col).center()
    return Hover()


def test_tiny_values_that_are_not_rare_widen_every_cell_as_before() -> None:
    """At most one cell in 20 (:data:`RARE`): 20 of 400 are printed smaller, 21 make every cell
    as wide as their text (the built-in examples' few shares of 10⁻⁴ are a sixth of their
    grid or more)."""
    assert RARE * 400 == 20
    rare, common = grid(scores(20)), grid(scores(21))
    assert len(rare.small_cells) == 20 and not common.small_cells
    assert common.cell_width >= text_advance("1.32×10⁻⁵", NUMBER_SIZE) + 8.0
    assert rare.cell_width < 0.75 * common.cell_width


@pytest.mark.parametrize("screen", [(1920, 1080)], indirect=True)
def test_a_12_layer_gpt2s_scores_slide_is_drawn_larger(screen: PresentationView) -> None:
    """The shares step of layer 1 (a score of 1.32e-5) in presentation at 1920 × 1080 is two
    slides; the scores' slide prints its numbers at least 18 px tall (11.7 when the score
    widened every cell), the tiny score at full size too, only its own column as wide as it
    (printed at half size in cells sized for the rest, before columns had their own width)."""
    trace = compute(gpt2_stack(tiny_score=TINY))
    assert trace.arrays["L1.scores"][0, 0, 0] == pytest.approx(TINY, rel=1e-6)
    options = FrameOptions(aspect=screen.aspect(), theme=SLIDE)
    frame = shown(screen, trace, trace.step_index("L1.weights"), options, part=0)
    assert frame.composition.part == 0
    found = numbers(frame, screen)
    assert not [n for n in found if n.what.startswith(SMALL_CELL)], found
    assert min(n.pixels for n in found) >= 18.0, found
    (grid,) = [g for g in frame.items_of(MatrixGrid) if abs(g.spec.values[0, 0] - TINY) < 1e-9]
    assert grid.col_width(0) == pytest.approx(_width("1.32×10⁻⁵"))
    assert grid.col_width(1) == pytest.approx(_width("−88.888"))
    assert grid.cells_area().width() == pytest.approx(grid.col_width(0) + 19 * grid.col_width(1))


class _Arrays:
    """The part of a layout context :func:`app.canvas.compose._widest` reads (and the widest
    numbers it keeps, one context per array here)."""

    places = 3

    def __init__(self, values: np.ndarray) -> None:
        self.values = values
        self.widest: dict[tuple[str, bool], object] = {}

    def array(self, _name: str) -> np.ndarray:
        return self.values


def test_a_steps_measured_fits_hold_while_only_its_count_of_small_cells_changes() -> None:
    """A step's fits are known by the text its cells are as wide as: one tiny score or two
    (an edit of a real model moves such counts all the time) is the same layout, measured once
    (keyed by the count too, an FFN edit of GPT-2 small laid its step out again each time:
    painted in 307 ms, not about 150)."""
    from app.canvas.compose import _widest

    texts = [_widest(_Arrays(scores(tiny)), ("scores",)) for tiny in (1, 2)]  # type: ignore[arg-type]
    assert texts[0] == texts[1] == (("−8.888", ()),)
    assert _widest(_Arrays(scores(21)), ("scores",)) == (("−8.888×88⁻⁴", ()),)  # type: ignore[arg-type]


def test_on_a_back_row_the_fits_are_known_by_the_wide_columns_too() -> None:
    """Every cell at full size, a step's layout depends on which columns hold the wide cells:
    one tiny score in column 0 or in column 7 is not the same layout."""
    from app.canvas.compose import _widest

    moved = scores(1)
    moved[0, 0], moved[0, 7] = moved[0, 7], TINY
    with full_size_cells():
        first = _widest(_Arrays(scores(1)), ("scores",))  # type: ignore[arg-type]
        second = _widest(_Arrays(moved), ("scores",))  # type: ignore[arg-type]
    assert first == (("−8.888", ((0, "1.32×10⁻⁵"),)),)
    assert second == (("−8.888", ((7, "1.32×10⁻⁵"),)),)


def _width(text: str) -> float:
    """A cell's width for ``text``: its advance and 4 units each side, at least 46 (a power's
    exponent is printed apart, raised at the digits' size: ``1.32×10`` then ``−5``)."""
    mantissa, times, exponent = text.partition("×10")
    if times:
        exponent = exponent.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "−0123456789"))
        return max(46.0, text_advance(mantissa + times, NUMBER_SIZE)
                   + text_advance(exponent, NUMBER_SIZE) + 8.0)
    return max(46.0, text_advance(text, NUMBER_SIZE) + 8.0)


def test_on_a_back_row_a_rare_wide_cell_widens_its_own_column_alone() -> None:
    """Every cell at full size (F5, an export): the column of 1.32×10⁻⁵ is as wide as it, the
    other 19 as wide as "−8.888", every cell where its column says (cell_rect, cell_at,
    cells_in, the grid's lines and fills, the column labels), none printed smaller."""
    values = scores(3)  # 1.32e-5 at flat 0, 7, 14: columns 0, 7 and 14 of row 0
    with full_size_cells():
        one = grid(values)
    usual, wide = _width("−8.888"), _width("1.32×10⁻⁵")
    widths = [wide if c in (0, 7, 14) else usual for c in range(20)]
    edges = one.grid_origin.x() + np.concatenate([[0.0], np.cumsum(widths)])
    assert not one.small_cells and one.number_size(0, 7) == NUMBER_SIZE
    assert one.cells_area().width() == pytest.approx(sum(widths))
    for c in range(20):
        rect = one.cell_rect(4, c)
        assert (rect.left(), rect.width()) == pytest.approx((edges[c], widths[c]))
        assert one.cell_at(rect.center()) == (4, c)
        assert one.cell_at(QPointF(rect.right() - 0.5, rect.center().y())) == (4, c)
        assert one.col_label_rect(c).center().x() == pytest.approx(rect.center().x())
    rows, cols = one.cells_in(one.cell_rect(2, 7).adjusted(1, 1, -1, -1))
    assert (rows, cols) == (range(2, 3), range(7, 8))
    down = sorted({x for (x, _), (x2, _) in one._lines().ends.tolist() if x == x2})
    assert down == pytest.approx(edges.tolist())


@pytest.mark.parametrize("screen_paint", [False, True], ids=["file", "screen"])
def test_on_a_back_row_each_cell_is_filled_in_its_own_column(screen_paint: bool) -> None:
    """Painted (the screen's image of a pixel per cell, an export's rectangles), each cell's
    middle is its own colour: the wide columns do not shift the colours of the others."""
    with full_size_cells():
        one = grid(scores(3))
    image = QImage(int(one.boundingRect().width()) + 1, int(one.boundingRect().height()) + 1,
                   QImage.Format.Format_ARGB32)
    image.fill(0)
    option = QStyleOptionGraphicsItem()
    option.exposedRect = one.boundingRect()
    painter = QPainter(image)
    try:
        with painting_on_screen() if screen_paint else nullcontext():
            one.paint(painter, option)
    finally:
        painter.end()
    for r, c in [(1, 0), (1, 1), (1, 6), (1, 7), (1, 8), (5, 14), (5, 15), (9, 19)]:
        corner = one.cell_rect(r, c).topLeft() + QPointF(3.0, 3.0)  # off the digits
        assert image.pixelColor(corner.toPoint()).name() == one.cell_fill(r, c), (r, c)


def test_on_a_back_row_too_many_wide_cells_widen_every_column_as_before() -> None:
    """Over :data:`WIDE_COLUMNS` of them (a big grid stays quick): every column as wide as
    the widest text."""
    values = np.full((30, 30), 1.5)
    values.flat[:WIDE_COLUMNS + 1] = TINY
    with full_size_cells():
        many = grid(values)
    assert many.columns == many.cell_width >= _width("1.32×10⁻⁵")
    assert many.cells_area().width() == pytest.approx(30 * many.cell_width)
    values = values.copy()  # grids know an array by its numbers' place: never set in place
    values.flat[WIDE_COLUMNS] = 1.5
    with full_size_cells():
        fewer = grid(values)
    assert isinstance(fewer.columns, tuple)
