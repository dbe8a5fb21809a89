"""A grid's numbers go to the painter as runs of one ink and size, in reading order within each
run: white on the dark end of the colour scale, black on the light end, the muted grey on a
masked cell, an asked cell's mark apart in the accent; two inks of the same colour (the high
contrast theme's muted is black) are one run."""

from __future__ import annotations

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas.grid import GridSpec, MatrixGrid
from app.canvas.theme import HIGH_CONTRAST, SLIDE, Theme

VALUES = np.array([[-2.0, 2.0, 1.5],
                   [2.0, -2.0, -1.5]])
"""At the ends of a value range of ±2: −2 the darkest blue (white ink), 2 the lightest yellow
(black ink)."""
MASKED = np.array([[False, False, True],
                   [False, False, False]])
ASKED = np.array([[False, False, False],
                  [False, True, False]])


def runs(theme: Theme) -> list[tuple[str, int, list[str]]]:
    grid = MatrixGrid(GridSpec("scores", VALUES, ["a", "b"], ["x", "y", "z"],
                               value_range=(-2.0, 2.0), masked=MASKED, asked=ASKED), theme)
    printed = [(r, c) for r in range(2) for c in range(3)]
    return [(ink.name(), run_font.pixelSize(), [text for _rect, text in texts])
            for run_font, ink, _area, _align, texts in grid._number_words(printed)]


@pytest.mark.parametrize(("theme", "expected"), [
    (SLIDE, [("#ffffff", 17, ["−2", "−1.5"]), ("#000000", 17, ["2", "2"]),
             ("#5f6368", 17, ["1.5"]), (SLIDE.accent.lower(), 17, ["?"])]),
    (HIGH_CONTRAST, [("#ffffff", 17, ["−2", "−1.5"]), ("#000000", 17, ["2", "1.5", "2"]),
                     ("#0000c0", 17, ["?"])]),
])
def test_numbers_are_grouped_by_ink_in_reading_order(qtbot: QtBot, theme: Theme,
                                                     expected: list[tuple[str, int, list[str]]]
                                                     ) -> None:
    assert runs(theme) == expected
