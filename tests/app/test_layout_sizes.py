"""The type scale's search measures sizes without working them out again or making items it
does not draw (issue 36 item 6): a grid of an array met before takes the size it was given
(under the same heat limits and cell sizing), a full store of sizes makes room for many at
once, a layout tried only for its size places the worked row without making it (covering
what the drawn one covers, its table worded once per step and its free places found at once),
a layout's labels are worked out once, and a grid only measured is not made ready to paint."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF, QSizeF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas import compose as compose_module
from app.canvas import grid as grid_module
from app.canvas import worked_row as worked_row_module
from app.canvas.compose import WRAPS, Group
from app.canvas.context import FrameOptions, LayoutContext
from app.canvas.grid import CELL_HEIGHT, NUMBER_SIZE, GridSpec, MatrixGrid
from app.canvas.heat import HeatLimits, heat_within
from app.canvas.layout import ROW_GAP, items_of, wrapping
from app.canvas.powers import number_advance
from app.canvas.rare_cells import full_size_cells
from app.canvas.remember import Store, remembered
from app.canvas.steps import lay_out_step
from app.canvas.theme import SLIDE, text_advance
from app.canvas.vocab_steps import probability_bars
from app.canvas.worked_row import WorkedRow, _overlapping, add_worked_row, worked_row_cover
from app.model.examples import example_path
from engine import Step, compute, load_scenario

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


@pytest.mark.parametrize("wrap", [None, *WRAPS])
def test_a_worked_row_measured_covers_what_the_drawn_one_covers(wrap: float | None) -> None:
    """F11's shares step with its worked row, at every wrap the search tries: measured, the
    row is placed but not made; drawn, it covers the same rectangle, right of or under the
    picture."""
    trace = compute(load_scenario(example_path("f11")))
    index = next(k for k, step in enumerate(trace.steps) if step.op == "weights")
    step = trace.steps[index]
    ctx = LayoutContext(trace, FrameOptions(worked_row=True)).for_step(step)
    area = QSizeF(1920.0, 1080.0)
    parent = Group()
    with wrapping(wrap):
        picture = lay_out_step(ctx, step, parent)
    made = len(parent.childItems())
    measured = worked_row_cover(ctx, step, parent, picture, area)
    assert len(parent.childItems()) == made and not items_of(parent, WorkedRow)
    drawn = add_worked_row(ctx, step, parent, picture, area)
    (row,) = items_of(parent, WorkedRow)
    assert measured == drawn == picture.united(row.mapRectToParent(row.boundingRect()))
    assert drawn.width() > picture.width() or drawn.height() > picture.height()


def test_a_layouts_labels_are_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """RoPE's one word at three positions: the rows of its inputs read 好 · p0 … 好 · p2 and
    their four columns 0 … 3, asked again (by a step's own context too) without working them
    out again."""
    trace = compute(load_scenario(example_path("rope")))
    ctx = LayoutContext(trace, FrameOptions())
    name = "X"
    rows, cols = ctx.labels_for(name, 0, 3), ctx.labels_for(name, 1, 4)
    assert list(rows) == ["好 · p0", "好 · p1", "好 · p2"]
    assert list(cols) == ["0", "1", "2", "3"]
    monkeypatch.setattr(LayoutContext, "_labels_of", None)  # would fail if asked
    assert ctx.for_step(trace.steps[-1]).labels_for(name, 0, 3) is rows
    assert ctx.labels_for(name, 1, 4) is cols


def test_a_composition_sizes_each_array_once_whatever_the_steps_showing_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F11's shares step has a worked row, so it shows every array of the trace, and the
    other steps show some of them again: the window's composition of an edit looks each one's
    widest numbers up once (K's, as wide as 8.888, on screen and again for a back row)."""
    trace = compute(load_scenario(example_path("f11")))
    options = FrameOptions(worked_row=True)
    asked: list[tuple[int, ...]] = []
    sizing = compose_module.sizing

    def counted(values: np.ndarray, places: int, size: int) -> object:
        asked.append(values.shape)
        return sizing(values, places, size)

    monkeypatch.setattr(compose_module, "sizing", counted)
    ctx = LayoutContext(trace, options)
    names = tuple(trace.arrays)
    widest = compose_module._widest(ctx, names)
    assert compose_module._widest(ctx, names[:2]) == widest[:2]
    assert asked == [trace.arrays[name].shape for name in names]
    assert widest[names.index("K")] == ("8.888", ())
    with full_size_cells():
        assert compose_module._widest(ctx, ("K",)) == (("8.888", ()),)
    assert len(asked) == len(names) + 1


def test_a_grid_only_measured_has_the_drawn_ones_size_unflagged() -> None:
    """A grid made under ``size_only`` (a layout the search tries) has the drawn grid's
    extent and cells' origin, but neither the extended style option a drawn grid paints with
    nor hovering (a drawn grid with an explanation accepts hover events)."""
    values = np.round(np.random.default_rng(7).uniform(-9.9, 9.9, (3, 5)), 3)
    shown = GridSpec("x", values, ["a", "b", "c"], [str(c) for c in range(5)],
                     explain=lambda row, col: f"{row},{col}")
    drawn = MatrixGrid(shown, SLIDE)
    with grid_module.size_only():
        measured = MatrixGrid(shown, SLIDE)
    extended = QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption
    assert bool(drawn.flags() & extended) and drawn.acceptHoverEvents()
    assert not measured.flags() & extended and not measured.acceptHoverEvents()
    assert measured.boundingRect() == drawn.boundingRect()
    assert measured.grid_origin == drawn.grid_origin == QPointF(drawn.label_width, 24.0 + 20.0)


@pytest.mark.parametrize("seed", range(4))
def test_a_worked_rows_free_places_are_those_qt_finds_free(seed: int) -> None:
    """Which places overlap the picture's parts, worked out for all at once, is what
    ``QRectF.intersects`` says of the panel grown by half a row gap at each: random panels,
    parts (empty and negative ones among them) and places on a coarse grid, so that edges
    meet exactly."""
    rng = np.random.default_rng(seed)
    size = QRectF(*rng.integers(-2, 3, 2).tolist(), *rng.integers(-2, 40, 2).tolist())
    parts = [QRectF(*rng.integers(-60, 60, 2).tolist(), *rng.integers(-3, 30, 2).tolist())
             for _ in range(6)] + [QRectF(5, 5, 0, 9), QRectF()]
    places = rng.integers(-80, 80, (300, 2)).astype(np.float64)
    margin = ROW_GAP / 2
    expected = [any(size.translated(QPointF(x, y)).adjusted(-margin, -margin, margin, margin)
                    .intersects(part) for part in parts) for x, y in places.tolist()]
    found = _overlapping(size, places, parts)
    assert found.tolist() == expected and 0 < sum(expected) < len(expected)
    assert not _overlapping(size, places, []).any()


def test_a_worked_rows_table_is_worded_once_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """F11's scores step measured at every wrap words its worked row once; another receiver
    words it again (its row of the receiver's arithmetic is another)."""
    trace = compute(load_scenario(example_path("f11")))
    step = next(step for step in trace.steps if step.op == "scores")
    worded: list[int] = []
    table = worked_row_module._table

    def counted(ctx: LayoutContext, shown: Step) -> worked_row_module.Table | None:
        worded.append(ctx.receiver)
        return table(ctx, shown)

    monkeypatch.setattr(worked_row_module, "_table", counted)
    area = QSizeF(1920.0, 1080.0)
    for receiver in (0, 0, 1):
        ctx = LayoutContext(trace, FrameOptions(worked_row=True, receiver=receiver))
        for wrap in (None, *WRAPS):
            parent = Group()
            with wrapping(wrap):
                picture = lay_out_step(ctx, step, parent)
            worked_row_cover(ctx.for_step(step), step, parent, picture, area)
    assert worded == [0, 1]


def test_a_chart_only_measured_again_is_not_made_again() -> None:
    """The probabilities' chart of a layout tried only for its size is made once: tried again
    (another wrap), it has no bars or texts of its own and covers what the drawn chart covers,
    the title, G01's two groups of three bars and the legend."""
    trace = compute(load_scenario(example_path("g01")))
    step = next(step for step in trace.steps if step.op == "probs")
    ctx = LayoutContext(trace, FrameOptions())
    drawn = probability_bars(ctx, step)
    with grid_module.size_only():
        first, again = probability_bars(ctx, step), probability_bars(ctx, step)
    assert len(drawn.values) == 2 * 3 == len(first.values)
    assert first.childItems() and not again.childItems() and not again.values
    assert again.boundingRect() == first.boundingRect() == drawn.boundingRect() \
        == drawn.childrenBoundingRect()
