"""A one-cell edit of a large matrix brings its grid's colours and format up to date from that
cell (issue 15): the picture is the one worked out from every number, without reading them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import QSizeF
from pytestqt.qtbot import QtBot

from app.canvas import grid as grid_module
from app.canvas.cividis import CIVIDIS_ARGB
from app.canvas.compose import compose, measure
from app.canvas.context import FrameOptions
from app.canvas.grid import GridSpec, MatrixGrid
from app.canvas.heat import block_shape
from app.canvas.remember import REMEMBERED, REMEMBERED_FROM, remembered, spread
from app.canvas.theme import SLIDE
from app.window.studio import StudioWindow
from engine import Trace, compute, parse_scenario
from engine.arithmetic.cells import made_by
from engine.format.numbers import NumberFormat, Spread
from engine.forward import lineage
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.engine.v2_documents import document

N, D, FFN = 3, 16, 400
"""W1 is 16 × 400: 6,400 numbers, above the 4,096 from which a grid's work is remembered and
the 6,000 a heat map in view paints one by one (the document is laid out frame by frame, its
FFN large enough for that: with every cell painted, each paint reads them all)."""


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    rng = np.random.default_rng(15)

    def table(*shape: int) -> list[object]:
        values: list[object] = np.round(rng.normal(0.0, 1.0, shape), 3).tolist()
        return values

    scenario = parse_scenario({
        "format": "qkv-studio", "version": 1, "tokens": [f"t{k}" for k in range(N)],
        "X": table(N, D),
        "attention": {"heads": 2, "causal": True, "scale": True,
                      **{name: table(D, D) for name in ("Wq", "Wk", "Wv")}},
        "block": {"norm": "layernorm", "ffn": {"W1": table(D, FFN), "activation": "gelu",
                                               "W2": table(FFN, D)}}})
    win = StudioWindow(scenario)
    win.resize(*DEFAULT_SIZE)
    win.show()
    win.state.set_step(win.state.trace.step_index("ffn"))
    qtbot.waitUntil(lambda: w1_grid(win) is not None)
    first = w1_grid(win)
    assert first is not None
    first._heat_picture()  # what the first paint works out
    yield win
    close_window(win)


def w1_grid(window: StudioWindow) -> MatrixGrid | None:
    frame = window.canvas.frame
    if frame is None:
        return None
    found = [g for g in frame.items_of(MatrixGrid) if g.spec.values.shape == (D, FFN)]
    return found[0] if found else None


def painted_colours(grid: MatrixGrid) -> np.ndarray:
    """The grid's picture of its colours, a pixel per cell, as ARGB numbers."""
    heat = grid._heat_picture()
    assert heat is not None
    image = heat[1]
    rows, cols = image.height(), image.width()
    words = np.frombuffer(image.constBits(), dtype=np.uint32,
                          count=rows * image.bytesPerLine() // 4)
    return words.reshape(rows, image.bytesPerLine() // 4)[:, :cols]


def colours_by_hand(values: np.ndarray) -> np.ndarray:
    """Each cell's cividis colour across the matrix's own minimum and maximum."""
    lo, hi = float(values.min()), float(values.max())
    levels = np.rint(np.clip((values - lo) / (hi - lo), 0.0, 1.0) * 255).astype(int)
    return CIVIDIS_ARGB[levels]


def edit(qtbot: QtBot, window: StudioWindow, row: int, col: int, value: float) -> MatrixGrid:
    old = w1_grid(window)
    model = window.editor.tables["block.ffn.W1"].model()
    assert model.setData(model.index(row, col), f"{value:g}")
    qtbot.waitUntil(lambda: w1_grid(window) not in (None, old)
                    and float(w1_grid(window).spec.values[row, col]) == value)  # type: ignore
    grid = w1_grid(window)
    assert grid is not None
    grid._heat_picture()  # what the next paint works out
    return grid


@pytest.fixture
def full_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What read every number of W1: its spread or its colour levels."""
    read: list[str] = []
    spread_of, levels = Spread.of.__func__, grid_module._levels  # type: ignore[attr-defined]

    def counted_spread(cls: type[Spread], values: np.ndarray) -> Spread:
        if values.shape == (D, FFN):
            read.append("spread")
        result: Spread = spread_of(cls, values)
        return result

    def counted_levels(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
        if values.shape == (D, FFN):
            read.append("levels")
        return levels(values, lo, hi)

    monkeypatch.setattr(Spread, "of", classmethod(counted_spread))
    monkeypatch.setattr(grid_module, "_levels", counted_levels)
    return read


def test_an_edit_inside_the_range_recolours_one_cell_and_reads_no_other(
        qtbot: QtBot, window: StudioWindow, full_reads: list[str]) -> None:
    before = window.state.scenario.parameter("block.ffn.W1")
    lo, hi = float(before.min()), float(before.max())
    row, col = 5, 77
    assert lo < before[row, col] < hi
    value = round((lo + 3 * hi) / 4, 3)  # a new colour, well inside the range
    grid = edit(qtbot, window, row, col, value)
    after = window.state.scenario.parameter("block.ffn.W1")
    assert full_reads == []
    colours = painted_colours(grid)
    assert np.array_equal(colours, colours_by_hand(after))
    assert colours[row, col] != colours_by_hand(before)[row, col]  # the cell did change colour
    assert (grid.format, grid.cell_text(row, col)) == (
        NumberFormat.with_widest(after, grid.spec.decimals)[0], f"{value:g}".replace("-", "−"))


def test_an_edit_past_the_maximum_recolours_every_cell(
        qtbot: QtBot, window: StudioWindow, full_reads: list[str]) -> None:
    before = window.state.scenario.parameter("block.ffn.W1")
    row, col = np.unravel_index(int(np.argmax(before)), before.shape)
    grid = edit(qtbot, window, int(row), int(col), -0.125)  # the old maximum is gone
    after = window.state.scenario.parameter("block.ffn.W1")
    assert full_reads == ["spread", "levels"]  # the scale changed: every number again
    assert np.array_equal(painted_colours(grid), colours_by_hand(after))
    assert float(after.max()) < float(before.max())


def test_what_every_frame_asks_for_outlives_a_full_memory() -> None:
    """Each edit brings new arrays; the unchanged ones every frame shows (a layer's other
    weights) and the edited one of the frame before are still known when memory is full."""
    def never() -> int:
        raise AssertionError("worked out again")

    weights = np.ones(REMEMBERED_FROM)
    assert remembered(weights, ("test",), lambda: 7) == 7
    arrays = []
    for k in range(3 * REMEMBERED):
        arrays.append(np.full(REMEMBERED_FROM, float(k)))  # alive: nothing to drop for being gone
        assert remembered(arrays[-1], ("test",), lambda k=k: k) == k
        assert remembered(weights, ("test",), never) == 7
        if k:
            assert remembered(arrays[-2], ("test",), never) == k - 1


def test_every_spread_of_a_big_document_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A GPT-2-sized document's frame asks for the spread of every array (its composition
    measures every step by its widest numbers): many more than the 64 images kept, each one
    read once while its array lives, whatever images come between."""
    arrays = [np.full(REMEMBERED_FROM, float(k)) for k in range(5 * REMEMBERED)]
    for values in arrays:
        assert spread(values).high == values[0]
        remembered(values, ("image",), lambda: object())  # the large results come and go
    monkeypatch.setattr(Spread, "of", classmethod(lambda cls, values: pytest.fail("read again")))
    assert [spread(values).low for values in arrays] == [float(k) for k in range(5 * REMEMBERED)]


def test_one_head_of_an_array_of_one_head_is_read_once_with_its_array(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A 512-position frame's composition asks for the spread of the scores (1 × 512 × 512)
    and its grid for that of their one head: the same numbers, read once (an edit made each
    2.6 ms of work twice); a head of two is its own numbers."""
    scores = np.arange(2 * 64 * 64, dtype=np.float64).reshape(2, 64, 64) - 100.0
    one_head = scores[1:].copy()
    reads: list[tuple[int, ...]] = []
    spread_of = Spread.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Spread], values: np.ndarray) -> Spread:
        reads.append(values.shape)
        result: Spread = spread_of(cls, values)
        return result

    monkeypatch.setattr(Spread, "of", classmethod(counted))
    assert (spread(one_head).low, spread(one_head).high) == (4096.0 - 100.0, 8191.0 - 100.0)
    assert (spread(one_head[0]).low, spread(one_head[0]).high) == (3996.0, 8091.0)
    assert reads == [(1, 64, 64)]
    assert (spread(scores[0]).low, spread(scores[0]).high) == (-100.0, 3995.0)
    assert (spread(scores).low, spread(scores).high) == (-100.0, 8091.0)
    assert reads == [(1, 64, 64), (64, 64), (2, 64, 64)]


def test_typing_reads_no_large_array_of_another_step(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame refilled while typing (or as a whole trace arrives) measures its own step now;
    a later step whose large arrays are new objects is taken on trust, their numbers read
    only once typing pauses (:func:`~app.canvas.compose.measure`), and the composition then is
    the one of the numbers."""
    trace = compute(parse_scenario(document(3, n=16, d=16, layers=2, block_keys={"f": 300})))
    options, area = FrameOptions(), QSizeF(1800.0, 900.0)
    shown = [step.id for step in trace.steps].index("L1.ffn")
    exact = compose(trace, options, area)
    later = {name for step in trace.steps[shown + 1:] for name in made_by(step)}
    arrived = Trace(trace.scenario, {name: values.copy() if name in later else values
                                     for name, values in trace.arrays.items()},
                    trace.steps, trace.visible, trace.visibility)
    large = [k for k, step in enumerate(trace.steps) if k > shown and any(
        arrived.arrays[name].size >= REMEMBERED_FROM for name in made_by(step))]
    assert large  # L2's feed-forward: 16 × 300 numbers
    read: list[tuple[int, ...]] = []
    real = Spread.of
    monkeypatch.setattr(Spread, "of", classmethod(
        lambda cls, values: read.append(values.shape) or real(values)))
    typing = compose(arrived, options, area, shown)
    assert read == []
    assert set(large) <= set(typing.provisional)
    for index in typing.provisional:
        measure(arrived, options, area, index)
    assert (16, 300) in read
    assert compose(arrived, options, area) == exact


@pytest.mark.parametrize("masked", [False, True])
def test_a_heat_map_of_blocks_recolours_only_the_edited_block(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, masked: bool) -> None:
    """A heat map of 6 × 5,000 cells draws blocks of 1 × 5 (a GPT-2 layer's W1: 1 × 3): one
    cell set inside the range recolours its block from that block's own cells, and the image
    is the one worked from every cell, pixel for pixel."""
    rng = np.random.default_rng(25)
    before = rng.normal(0.0, 1.0, (6, 5000))
    mask = rng.random(before.shape) < 0.5 if masked else None
    row, col = 4, 1234  # block (4, 246): cells 1230-1234 of row 4
    if mask is not None:
        mask[row, col] = False

    def image(values: np.ndarray) -> np.ndarray:
        grid = MatrixGrid(GridSpec("W", values, [str(k) for k in range(6)],
                                   [str(k) for k in range(5000)], masked=mask), SLIDE)
        assert grid.heat and block_shape(*values.shape) == (1, 5)
        return painted_colours(grid)

    first = image(before)
    after = before.copy()
    after[row, col] = round((float(before.min()) + 3 * float(before.max())) / 4, 3)
    lineage.record(after, before, [row * before.shape[1] + col])
    read: list[tuple[int, ...]] = []
    means = grid_module.block_means
    monkeypatch.setattr(grid_module, "block_means", lambda values, hidden, block: (
        read.append(values.shape) or means(values, hidden, block)))
    updated = image(after)
    assert read == [(1, 5)]
    from_every_cell = painted_colours(MatrixGrid(GridSpec(
        "W", after.copy(), [str(k) for k in range(6)], [str(k) for k in range(5000)],
        masked=mask), SLIDE))
    assert np.array_equal(updated, from_every_cell)
    assert [tuple(k) for k in np.argwhere(updated != first)] == [(row, col // 5)]


@pytest.mark.parametrize(("chosen", "huge_pages"), [(None, "False"), ("1", "True")])
def test_the_app_asks_numpy_for_no_huge_pages_unless_told_to(
        chosen: str | None, huge_pages: str) -> None:
    """A fresh copy of a 19 MB matrix took 24 ms with huge pages on a machine whose kernel
    compacts memory for them, 9 ms without (docs/limits.md)."""
    environment = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if chosen is not None:
        environment["NUMPY_MADVISE_HUGEPAGE"] = chosen
    asked = subprocess.run(
        [sys.executable, "-c", "import app, numpy\n"
         "from numpy._core.multiarray import _set_madvise_hugepage\n"
         "print(_set_madvise_hugepage(False))"],
        env=environment, capture_output=True, text=True, check=True, timeout=60)
    assert asked.stdout.strip() == huge_pages
