"""A real model's one score of 0.0000132 (printed 1.32×10⁻⁵: never a false 0) no longer makes
every cell of its 20 × 20 grid as wide as its own: the few values that round to 0 are printed
smaller in cells sized for the rest, and the scores' slide of a 12-layer GPT-2 shape in
presentation at 1920 × 1080 prints its numbers 18.8 px tall (11.7 before)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from app.canvas.context import FrameOptions
from app.canvas.grid import NUMBER_SIZE, GridSpec, MatrixGrid
from app.canvas.rare_cells import RARE, SMALLEST
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
    widened every cell), its small cell at least half that."""
    trace = compute(gpt2_stack(tiny_score=TINY))
    assert trace.arrays["L1.scores"][0, 0, 0] == pytest.approx(TINY, rel=1e-6)
    options = FrameOptions(aspect=screen.aspect(), theme=SLIDE)
    frame = shown(screen, trace, trace.step_index("L1.weights"), options, part=0)
    assert frame.composition.part == 0
    found = numbers(frame, screen)
    small = [n.pixels for n in found if n.what.startswith(SMALL_CELL)]
    usual = [n.pixels for n in found if not n.what.startswith(SMALL_CELL)]
    assert min(usual) >= 18.0, found
    assert len(small) == 1 and small[0] >= 0.5 * min(usual)


class _Arrays:
    """The part of a layout context :func:`app.canvas.compose._widest` reads."""

    places = 3

    def __init__(self, values: np.ndarray) -> None:
        self.values = values

    def array(self, _name: str) -> np.ndarray:
        return self.values


def test_a_steps_measured_fits_hold_while_only_its_count_of_small_cells_changes() -> None:
    """A step's fits are known by the text its cells are as wide as: one tiny score or two
    (an edit of a real model moves such counts all the time) is the same layout, measured once
    (keyed by the count too, an FFN edit of GPT-2 small laid its step out again each time:
    painted in 307 ms, not about 150)."""
    from app.canvas.compose import _widest

    texts = [_widest(_Arrays(scores(tiny)), ("scores",)) for tiny in (1, 2)]  # type: ignore[arg-type]
    assert texts[0] == texts[1] == ("−8.888",)
    assert _widest(_Arrays(scores(21)), ("scores",)) == ("−8.888×88⁻⁴",)  # type: ignore[arg-type]
