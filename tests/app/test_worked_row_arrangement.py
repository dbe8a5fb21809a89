"""A worked row's arrangement is kept by the sizes of its words (issue 36 item 5): an edit that
keeps every cell as wide finds it, one that widens a cell arranges the row again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRectF, QSizeF
from pytestqt.qtbot import QtBot

from app.canvas import worked_row
from app.canvas.worked_row import Table

COVERED = QRectF(0, 0, 900, 300)
PARTS = [QRectF(0, 0, 400, 300), QRectF(450, 0, 450, 200)]
"""A picture with a free corner right of its first part and under its second."""
AREA = QSizeF(1800, 900)


@pytest.fixture(autouse=True)
def no_kept_arrangements() -> Iterator[None]:
    worked_row._arrangements.clear()
    yield
    worked_row._arrangements.clear()


def table(share: str, exp: str = "1.000") -> Table:
    cells = [["key", "s", "exp(s − max)", "share"],
             *([f"t{k}", "0.123", exp, share] for k in range(3))]
    return Table("Worked row · t0 · head 1: the shares", cells, 3)


def fresh(drawn: Table) -> tuple[int, bool, float, float]:
    """The arrangement worked out with nothing kept."""
    kept = dict(worked_row._arrangements)
    worked_row._arrangements.clear()
    found = worked_row._arrangement(drawn, COVERED, PARTS, AREA)
    worked_row._arrangements.clear()
    worked_row._arrangements.update(kept)
    return found


def test_an_edit_that_keeps_the_widths_finds_the_arrangement(qtbot: QtBot,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    first = worked_row._arrangement(table("0.5"), COVERED, PARTS, AREA)
    assert first == (1, False, 424.0, 224.0), "in the corner under the second part"
    monkeypatch.setattr(worked_row, "_best_place", None)  # would fail if tried again
    assert worked_row._arrangement(table("0.7"), COVERED, PARTS, AREA) == first


def test_a_cell_widened_arranges_the_row_again(qtbot: QtBot) -> None:
    worked_row._arrangement(table("0.5"), COVERED, PARTS, AREA)
    wide = table("0.5", exp=" × ".join(["1.000"] * 10))
    found = worked_row._arrangement(wide, COVERED, PARTS, AREA)
    assert found == fresh(wide) == (1, False, 0.0, 324.0), "too wide for the corner: below"
