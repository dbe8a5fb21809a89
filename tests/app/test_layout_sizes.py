"""The type scale's search measures sizes without working them out again (issue 36 item 6): a
grid of an array met before takes the size it was given (under the same heat limits and cell
sizing), and a full store of sizes makes room for many at once."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

from app.canvas import grid as grid_module
from app.canvas.grid import CELL_HEIGHT, NUMBER_SIZE, GridSpec, MatrixGrid
from app.canvas.heat import HeatLimits, heat_within
from app.canvas.powers import number_advance
from app.canvas.rare_cells import full_size_cells
from app.canvas.remember import Store, remembered
from app.canvas.theme import SLIDE, text_advance

pytestmark = pytest.mark.usefixtures("qapp")

COLS = 40
"""Wider than :data:`~app.canvas.heat.PRINTED_ALWAYS`: a heat map under small limits."""
SMALL_HEAT = HeatLimits(from_width=1000.0, from_height=1000.0, width=200.0, height=100.0)


def spec(values: np.ndarray) -> GridSpec:
    rows = [f"t{k}" for k in range(values.shape[0])]
    return GridSpec("x", values, rows, [str(c) for c in range(values.shape[1])])


def test_a_grid_of_an_array_met_before_takes_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two grids of one array (the second through a view of all of it) are sized once, each
    cell as wide as "−8.888" and 4 units each side; under smaller heat limits the grid is
    sized again, a heat map whose 40 columns share 200 units and 4 rows 100."""
    values = np.round(np.random.default_rng(5).uniform(-9.9, 9.9, (4, COLS)), 3)
    values[0, 0] = -8.888
    worked: list[GridSpec] = []
    sized = grid_module._grid_size

    def counted(shown: GridSpec) -> grid_module.GridSize:
        worked.append(shown)
        return sized(shown)

    monkeypatch.setattr(grid_module, "_grid_size", counted)
    first, again = MatrixGrid(spec(values), SLIDE), MatrixGrid(spec(values[:]), SLIDE)
    assert len(worked) == 1
    width = max(46.0, text_advance("−8.888", NUMBER_SIZE) + 8.0)
    assert first.cell_width == again.cell_width == pytest.approx(width)
    assert not first.heat and first.boundingRect() == again.boundingRect()
    with heat_within(SMALL_HEAT):
        heated = MatrixGrid(spec(values), SLIDE)
    assert len(worked) == 2
    assert heated.heat
    assert heated.cell_width == pytest.approx(200.0 / COLS)
    assert heated.cell_height == pytest.approx(min(CELL_HEIGHT, 100.0 / 4))
    assert heated.natural_cell.width() == pytest.approx(width)


def test_full_size_cells_size_a_grid_again() -> None:
    """A rare tiny value (printed 1.32×10⁻⁵) keeps its column as wide as the rest in the
    window, and widens it to its own text on a back row: the two are sized apart."""
    values = np.round(np.random.default_rng(3).uniform(-9.9, 9.9, (20, 20)), 3)
    values[0, 2] = 1.32e-5
    window = MatrixGrid(spec(values), SLIDE)
    with full_size_cells():
        back_row = MatrixGrid(spec(values), SLIDE)
    assert window.columns == pytest.approx(window.cell_width)
    assert isinstance(back_row.columns, tuple)
    assert back_row.col_width(2) == pytest.approx(
        number_advance("1.32×10⁻⁵", NUMBER_SIZE) + 8.0)
    assert back_row.col_width(1) == pytest.approx(window.cell_width)


def test_a_full_store_of_live_arrays_makes_room_for_an_eighth_at_once() -> None:
    """16 entries kept, all of arrays alive: the 17th first drops the three least recently used
    (14 kept with it: room for two more before a full store looks for gone arrays again); the
    array read since it was kept stays."""
    store: Store = OrderedDict()
    arrays = [np.full(3, float(k)) for k in range(17)]
    for k, values in enumerate(arrays[:16]):
        assert remembered(values, ("test",), lambda k=k: k, store=(store, 16), smallest=0) == k
    assert remembered(arrays[0], ("test",), lambda: -1, store=(store, 16), smallest=0) == 0
    assert remembered(arrays[16], ("test",), lambda: 16, store=(store, 16), smallest=0) == 16
    assert [result for _owner, result in store.values()] == [*range(4, 16), 0, 16]
