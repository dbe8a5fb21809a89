"""✓ or ✗ in the corner of each checked blank's box: what the last Check said of it, as a glyph
(never colour alone), drawn with the frame, so an export of the frame shows it too."""

from __future__ import annotations

from collections.abc import Iterable

from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.texts.words import say

GLYPHS = {True: "✓", False: "✗"}
MARK_SHARE = 0.45
"""A mark's size, as a share of the cell's height."""


def mark_verdicts(grid: MatrixGrid, verdicts: Iterable[tuple[int, int, bool]],
                  lang: str) -> list[TextItem]:
    """A ✓ (right) or ✗ (wrong) in the top right corner of each ``(row, col, right)`` blank of
    ``grid``, named in words for hovering (the canvas's description says it too)."""
    size = max(9, round(grid.cell_height * MARK_SHARE))
    marks = []
    for row, col, right in verdicts:
        mark = TextItem(GLYPHS[right], grid.theme, size=size, bold=True)
        mark.setParentItem(grid)
        mark.setToolTip(say("exercise.blank_right" if right else "exercise.blank_wrong", lang))
        box = grid.cell_rect(row, col).adjusted(2.0, 2.0, -2.0, -2.0)
        mark.setPos(box.right() - mark.boundingRect().width() - 1.0, box.top())
        marks.append(mark)
    return marks
