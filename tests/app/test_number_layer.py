"""A grid's words on screen are kept as pixels and redrawn only where its numbers changed
(issue 36 item 5): the kept layer gives the pixels a whole drawing gives, and anything that
moves the words (a wider number, another shape, a cell masked) is not taken from the last
grid's layer."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pytest
from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

from app.canvas import number_layer
from app.canvas.grid import GridSpec, MatrixGrid
from app.canvas.grid import _Run as Run
from app.canvas.number_layer import forget_layers
from app.canvas.theme import HIGH_CONTRAST, SLIDE
from tests.app.on_screen import counted_calls, painted_on_screen
from tests.app.on_screen import no_kept_layers as no_kept_layers  # autouse

SCALE = 0.8
"""The device pixels per grid unit the grids are painted at (a frame at 0.8 on the window)."""


def grid(values: npt.NDArray[np.float64], masked: npt.NDArray[np.bool_] | None = None,
         first: str = "t0") -> MatrixGrid:
    rows, cols = values.shape
    return MatrixGrid(GridSpec("scores", values, [f"t{r}" for r in range(rows)],
                               [first, *(f"t{c}" for c in range(1, cols))],
                               value_range=(-3.0, 3.0), masked=masked), SLIDE)


def painted(item: MatrixGrid) -> tuple[npt.NDArray[np.uint8], int]:
    """The grid painted on screen at :data:`SCALE` (a fraction of a pixel off the grid), and
    how many numbers were drawn."""
    drawn = [0]
    number_words = item._number_words

    def counted(printed: Sequence[tuple[int, int]], texts: Sequence[str] | None = None,
                rects: Sequence[QRectF] | None = None) -> list[Run]:
        drawn[0] += len(printed)
        return number_words(printed, texts, rects)

    item._number_words = counted  # type: ignore[method-assign]
    pixels = painted_on_screen(item, (900, 500), (3.3, 5.6), SCALE)
    return pixels, drawn[0]


def whole(item: MatrixGrid) -> npt.NDArray[np.uint8]:
    """``item`` drawn with no kept layer (its texts laid out once already, as an edited
    grid's are: on screen a text met before is drawn from its kept glyphs)."""
    painted(item)
    forget_layers()
    pixels, _count = painted(item)
    forget_layers()
    return pixels


def test_an_edit_redraws_only_the_numbers_that_changed_and_gives_the_whole_drawing(
        qtbot: QtBot) -> None:
    rng = np.random.default_rng(0)
    before = rng.normal(size=(8, 8))
    after = before.copy()
    after[0, 0] = 0.5
    after[3] += 0.3
    expected = whole(grid(after))
    _first, count = painted(grid(before))
    assert count == 64, "no layer kept yet: every number drawn"
    pixels, count = painted(grid(after))
    assert count == 9, "the edited cell and row 3"
    np.testing.assert_array_equal(pixels, expected)
    again, count = painted(grid(after))
    assert count == 0, "the same numbers: the layer as kept"
    np.testing.assert_array_equal(again, expected)
    nudged = after.copy()
    nudged[5, 5] += 1e-7
    same, count = painted(grid(nudged))
    assert count == 0, "a value that moved but prints the same is not drawn again"
    np.testing.assert_array_equal(same, expected)


def test_a_cell_masked_is_drawn_again_in_its_muted_ink(qtbot: QtBot) -> None:
    values = np.random.default_rng(1).normal(size=(6, 6))
    masked = np.zeros((6, 6), dtype=bool)
    masked[2, 4] = True
    expected = whole(grid(values, masked))
    painted(grid(values))
    pixels, count = painted(grid(values, masked))
    assert count == 1
    np.testing.assert_array_equal(pixels, expected)


@pytest.mark.parametrize("widened", ["wider number", "scientific", "other shape", "a label"])
def test_words_that_move_are_never_taken_from_the_last_layer(qtbot: QtBot,
                                                             widened: str) -> None:
    values = np.random.default_rng(2).normal(size=(6, 6))
    after = values.copy()
    if widened == "wider number":
        after[1, 1] = -1234.5
    elif widened == "scientific":
        after[1, 1] = 3.0e9
    elif widened == "other shape":
        after = np.hstack([values, values[:, :1]])
    first = "t9" if widened == "a label" else "t0"  # as wide as the label it replaces
    expected = whole(grid(after, first=first))
    painted(grid(values))
    pixels, count = painted(grid(after, first=first))
    assert count == after.size, "laid out anew: every number drawn"
    np.testing.assert_array_equal(pixels, expected)


@pytest.mark.parametrize("change", ["a cell masked", "a cell asked", "another size",
                                    "high contrast"])
def test_the_hatching_and_lines_are_kept_while_the_mask_and_sizes_stay(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """An edit that moves only numbers shows the masked cells' hatching, the grid's lines and
    the asked cells' boxes from their kept layer (they are not drawn again); a change of what
    they show draws them again, as a grid drawn anew gives them."""
    drawn = counted_calls(monkeypatch, MatrixGrid, "_draw_lines")
    values = np.random.default_rng(4).normal(size=(6, 6))
    masked = np.triu(np.ones((6, 6), dtype=bool), 1)
    painted(grid(values, masked))
    assert drawn == [1]
    edited = values + 0.25
    expected = whole(grid(edited, masked))
    drawn[0] = 0
    painted(grid(values, masked))
    pixels, _count = painted(grid(edited, masked))
    assert drawn == [1], "the lines drawn for the first grid only, the edited one's kept"
    np.testing.assert_array_equal(pixels, expected)
    changed = grid(edited, masked)
    if change == "a cell masked":
        more = masked.copy()
        more[5, 0] = True
        changed = grid(edited, more)
    elif change == "a cell asked":
        asked = np.zeros((6, 6), dtype=bool)
        asked[4, 1] = True
        changed = MatrixGrid(replace(changed.spec, asked=asked), SLIDE)
    elif change == "another size":
        changed = grid(np.hstack([edited, edited[:, :1]]),
                       np.hstack([masked, masked[:, :1]]))
    else:  # its lines and hatching darker, the rest as the slide theme's
        changed = MatrixGrid(changed.spec, HIGH_CONTRAST)
    expected = whole(changed)
    painted(grid(edited, masked))
    drawn[0] = 0
    pixels, _count = painted(changed)
    assert drawn == [1], "what the lines show changed: drawn again"
    np.testing.assert_array_equal(pixels, expected)


def test_a_screen_of_pixel_ratio_two_gets_a_layer_of_its_own_pixels(qtbot: QtBot) -> None:
    """On a Retina screen the layer has twice the pixels each way (its words as sharp as drawn
    straight), not the window's pixels scaled up."""
    item = grid(np.random.default_rng(3).normal(size=(4, 4)))
    painted_on_screen(item, (900, 500), (0.0, 0.0), SCALE, pixel_ratio=2)
    (layer,) = [kept for kept in number_layer._layers.values()
                if isinstance(kept, number_layer._Layer)]
    bounds = item.boundingRect()
    assert layer.image.devicePixelRatio() == 2
    assert layer.image.width() == 2 * math.ceil(bounds.width() * SCALE)
    assert layer.image.height() == 2 * math.ceil(bounds.height() * SCALE)
