"""A view never refuses what the engine accepts: a GPT-2-shaped layer (d = 768, 12 heads, a
50,257-word vocabulary) drawn as heat maps with the numbers of the part in view, one head at a
time, the top 10 of the vocabulary with the rest summed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from pytestqt.qtbot import QtBot

import app.canvas.vocab_steps
from app.canvas import compose
from app.canvas.bars import ProbabilityBars
from app.canvas.cividis import CIVIDIS_ARGB
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import LEGEND_BAR, GridSpec, MatrixGrid, _levels
from app.canvas.theme import SLIDE, text_advance
from app.canvas.view import CanvasView
from app.export.dialog import ExportDialog
from app.window.studio import StudioWindow
from engine import Trace, compute, format_number
from tests.app.driving import close_window, counting
from tests.bench.timing import attention_scenario, gpt2_shaped

pytestmark = pytest.mark.usefixtures("qapp")


@pytest.fixture(scope="module")
def gpt2() -> Trace:
    return compute(gpt2_shaped())


def grid_of(frame: FrameItem, shape: tuple[int, ...]) -> MatrixGrid:
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.values.shape == shape)


def pixels(grid: MatrixGrid) -> np.ndarray:
    heat = grid._heat_picture()
    assert heat is not None
    image = heat[1]
    words = np.frombuffer(image.constBits(), dtype=np.uint32,
                          count=image.height() * image.bytesPerLine() // 4)
    return words.reshape(image.height(), image.bytesPerLine() // 4)[:, :image.width()]


def test_top_ten_bars_are_the_most_probable_and_the_rest_is_summed(gpt2: Trace) -> None:
    frame = FrameItem(gpt2, gpt2.step_index("probs"), FrameOptions())
    bars = frame.items_of(ProbabilityBars)[0]
    probs = gpt2.arrays["probs"][7]
    assert probs.shape == (50_257,) and abs(probs.sum() - 1) < 1e-12, "over the vocabulary"
    top = np.argsort(-probs, kind="stable")[:10]
    assert [entry for _rect, entry in bars.rows] == top.tolist()
    label, rest = bars.spec.others[7]
    assert label == "the other 50,247"
    assert rest == pytest.approx(1 - probs[top].sum(), abs=1e-12)
    assert bars.values[(7, -1)] == format_number(1 - float(probs[top].sum()), 3)
    assert bars.spec.legend.splitlines()[-1] == "top 10 of 50,257 entries", "as “50,247”"


def test_the_logits_frame_prints_the_top_ten_logits(gpt2: Trace) -> None:
    frame = FrameItem(gpt2, gpt2.step_index("logits"), FrameOptions())
    top_grid = grid_of(frame, (1, 10))
    logits = gpt2.arrays["logits"][7]
    top = np.argsort(-gpt2.arrays["probs"][7], kind="stable")[:10]
    assert np.array_equal(top_grid.spec.values[0], logits[top])
    assert list(top_grid.spec.col_labels) == [f"w{k}" for k in top]
    rest = np.delete(logits, top)
    low, high = format_number(rest.min(), 3), format_number(rest.max(), 3)
    assert top_grid.note_text == f"the other 50,247 logits lie from {low} to {high}"


def test_a_logits_frame_by_itself_copies_the_left_out_logits_once_per_layout_context(
        gpt2: Trace, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type scale's search lays the logits step out many times by itself: the logits its
    top ten leave out are copied, for the note's ends, once per layout context (Llama 3's
    128,256 logits at each layout), and the note says the ends worked out here."""
    copied: list[int] = []
    real_delete = np.delete

    def delete(values: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        if values.shape == (50_257,):
            copied.append(1)
        return real_delete(values, *args, **kwargs)

    monkeypatch.setattr(np, "delete", delete)
    laid = counting(monkeypatch, app.canvas.vocab_steps, "_top_logits")
    compose.forget()
    frame = FrameItem(gpt2, gpt2.step_index("logits"), FrameOptions(), alone=True)
    compose.forget()
    assert len(laid) > 40 and len(copied) <= 4, (len(laid), len(copied))  # 46 layouts
    top = np.argsort(-gpt2.arrays["probs"][7], kind="stable")[:10]
    rest = real_delete(gpt2.arrays["logits"][7], top)
    low, high = format_number(rest.min(), 3), format_number(rest.max(), 3)
    assert grid_of(frame, (1, 10)).note_text == \
        f"the other 50,247 logits lie from {low} to {high}"


def test_a_heat_map_square_is_the_mean_of_its_block(gpt2: Trace) -> None:
    """The vocabulary head, 768 × 50,257, draws 768 × 1,006 squares of 1 × 50 cells (the last
    square: the 7 cells left over), each in the colour of its cells' mean."""
    frame = FrameItem(gpt2, gpt2.step_index("logits"), FrameOptions())
    grid = grid_of(frame, (768, 50_257))
    assert grid.heat and grid.boundingRect().width() < 1000
    values = grid.spec.values
    lo, hi = float(values.min()), float(values.max())
    means = np.empty((768, 1006))
    means[:, :1005] = values[:, :50_250].reshape(768, 1005, 50).mean(axis=2)
    means[:, 1005] = values[:, 50_250:].mean(axis=1)
    levels = np.rint(np.clip((means - lo) / (hi - lo), 0, 1) * 255).astype(int)
    assert np.array_equal(pixels(grid), CIVIDIS_ARGB[levels])
    assert grid.note_text == "heat map: a square is the mean of 1×50 cells"
    assert " ".join(grid.note_lines) == grid.note_text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_heat_maps_notes_wrap_at_its_own_width(gpt2: Trace, lang: str) -> None:
    """Every heat map of the layer says what a square is under it, its lines no wider than
    its cells, title or colour scale (those set its width: the notes were about 310 units
    wide and set the widths of the projections, the mix and the FFN)."""
    options = FrameOptions(lang=lang)
    frames = [FrameItem(gpt2, k, options) for k in range(len(gpt2.steps))]
    heat = [g for frame in frames for g in frame.items_of(MatrixGrid) if g.heat]
    assert len(heat) >= 30
    widest_scale = LEGEND_BAR + 16 + 2 * text_advance("−00.000", 12)  # low, bar, high
    for grid in heat:
        rows, cols = grid.spec.values.shape
        down, across = -(-rows // 1024), -(-cols // 1024)
        square = (f"a square is the mean of {down}×{across} cells" if down * across > 1
                  else "a square is a cell") if lang == "en" else \
            (f"一个方块是 {down}×{across} 格的平均值" if down * across > 1 else "一个方块是一格")
        assert grid.note_text.endswith(("heat map: " if lang == "en" else "热图：") + square)
        width = grid.boundingRect().width()
        assert all(text_advance(line, 12) + 4 <= width for line in grid.note_lines)
        assert any(f"{down}×{across}" in line for line in grid.note_lines) or \
            down * across == 1, "a block's size is never cut between lines (“1 ×” / “3 cells”)"
        assert width <= max(grid.label_width + grid.cells_area().width(),
                            text_advance(grid.title_text, 14, bold=True) + 22,
                            widest_scale), (grid.spec.title, grid.note_lines)
    gelu = next(g for g in heat if g.spec.note.startswith("GELU"))
    assert gelu.note_lines[0] == "GELU(z) = z·Φ(z)"


def test_a_heat_map_hover_names_every_cell_exactly(gpt2: Trace) -> None:
    frame = FrameItem(gpt2, gpt2.step_index("ffn"), FrameOptions())
    w1 = grid_of(frame, (768, 3072))
    assert w1.heat
    for row, col in [(0, 0), (767, 3071), (300, 1234)]:
        assert w1.cell_at(w1.cell_rect(row, col).center()) == (row, col)
        assert w1.spec.explain is not None
        assert format_number(float(w1.spec.values[row, col]), 3) in w1.spec.explain(row, col)
    assert not w1.prints_numbers(0)


def test_a_grid_small_enough_keeps_its_look() -> None:
    values = np.arange(8 * 40, dtype=float).reshape(8, 40) / 7
    spec = GridSpec(title="X", values=values, row_labels=[f"t{k}" for k in range(8)],
                    col_labels=[str(k) for k in range(40)])
    grid = MatrixGrid(spec, SLIDE)
    assert not grid.heat and not grid.large
    assert grid.cell_rect(1, 2).height() == 26.0 and grid.cell_width >= 46.0
    assert all(grid.prints_numbers(r) for r in range(8))
    wide = MatrixGrid(GridSpec(title="X", values=np.tile(values, 3), row_labels=spec.row_labels,
                               col_labels=[str(k) for k in range(120)]), SLIDE)
    assert wide.heat and wide.cells_area().width() <= 640.0


def test_masked_blocks_average_only_their_visible_cells() -> None:
    rng = np.random.default_rng(3)
    values = rng.normal(size=(600, 2100))
    masked = np.zeros(values.shape, dtype=bool)
    masked[:, :3] = True  # the first block of 1 × 3 cells is all masked
    masked[0, 3] = True  # the second: one of three
    grid = MatrixGrid(GridSpec(title="S", values=values, row_labels=[""] * 600,
                               col_labels=[""] * 2100, masked=masked), SLIDE)
    drawn = pixels(grid)
    lo, hi = float(values.min()), float(values.max())
    grey = SLIDE.color("masked")
    assert drawn[0, 0] == (0xFF << 24 | grey.red() << 16 | grey.green() << 8 | grey.blue())
    second = _levels(np.array([[values[0, 4:6].mean()]]), lo, hi)[0, 0]
    assert drawn[0, 1] == CIVIDIS_ARGB[second]


@pytest.fixture
def window(qtbot: QtBot, gpt2: Trace) -> Iterator[StudioWindow]:
    win = StudioWindow(gpt2.scenario)
    win.resize(1024, 768)
    win.show()
    qtbot.waitExposed(win)
    yield win
    close_window(win)


def test_zooming_in_prints_the_numbers_of_the_cells_in_view(qtbot: QtBot,
                                                            window: StudioWindow) -> None:
    window.state.set_step(window.state.trace.step_index("ffn"))
    canvas = window.canvas
    frame = canvas.frame
    assert frame is not None
    w1 = grid_of(frame, (768, 3072))
    canvas.grab()
    assert canvas.words_hidden, "fitted, the heat map's numbers are too small: the note says so"
    assert canvas.zoom_hint() == "Numbers too small to print at this size: scroll to zoom in" \
        "\nHeat maps: hover over a cell for its value", "said once, not under every heat map"
    cells = w1.cell_rect(10, 20).united(w1.cell_rect(12, 23))
    view = canvas.view_box.childGroup
    canvas.view_box.setRange(rect=w1.mapRectToItem(view, cells), padding=0)
    qtbot.waitUntil(lambda: bool(canvas.grab()) and bool(canvas.in_view_note()))
    shown_rows, shown_cols = w1.cells_in(w1.mapRectFromItem(view, canvas.view_box.viewRect()))
    assert 10 in shown_rows and 12 in shown_rows and 20 in shown_cols and 23 in shown_cols
    assert len(shown_rows) * len(shown_cols) < 100
    said = re.fullmatch(r"In view: W1   768×3072, rows (\d+)–(\d+), columns (\d+)–(\d+)",
                        canvas.in_view_note())
    assert said is not None, canvas.in_view_note()
    first_row, last_row, first_col, last_col = map(int, said.groups())
    assert abs(first_row - shown_rows.start) <= 1 and abs(last_row - shown_rows[-1]) <= 1
    assert abs(first_col - shown_cols.start) <= 1 and abs(last_col - shown_cols[-1]) <= 1
    assert not canvas.words_hidden, "zoomed in, the numbers in view are printed"


def test_the_head_chooser_draws_one_head_at_a_time(qtbot: QtBot) -> None:
    scenario = attention_scenario(4, heads=12, width=2)
    trace = compute(scenario)
    win = StudioWindow(scenario)
    try:
        box = win.controls.head_box
        assert [box.itemText(k) for k in range(box.count())] == \
            [f"Head {k}" for k in range(1, 13)], "12 heads: no side-by-side 'All heads'"
        win.state.set_step(trace.step_index("weights"))
        shares = [g for g in grid_of_all(win) if g.spec.title.startswith("shares")]
        assert [g.spec.title for g in shares] == ["shares · head 1 of 12"]
        assert np.array_equal(shares[0].spec.values, trace.arrays["weights"][0])
        box.setCurrentIndex(4)
        qtbot.waitUntil(lambda: [g.spec.title for g in grid_of_all(win)
                                 if g.spec.title.startswith("shares")] == ["shares · head 5"])
        shares = [g for g in grid_of_all(win) if g.spec.title.startswith("shares")]
        assert np.array_equal(shares[0].spec.values, trace.arrays["weights"][4])
        dialog = ExportDialog(win.state.trace, 0, win.frame_options(), win, name="heads")
        heads = dialog.head_box
        assert [heads.itemText(k) for k in range(heads.count())] == \
            [f"Head {k}" for k in range(1, 13)] and heads.currentData() == 4, \
            "the export dialog offers the same heads, the one shown chosen"
        dialog.deleteLater()
    finally:
        close_window(win)


def grid_of_all(window: StudioWindow) -> list[MatrixGrid]:
    frame = window.canvas.frame
    assert frame is not None
    return frame.items_of(MatrixGrid)


def test_the_whole_layer_paints_every_step_into_a_file(gpt2: Trace) -> None:
    """Every frame of the layer renders (as the exports do), each heat map within the sheet."""
    from PySide6.QtGui import QImage, QPainter

    from app.canvas.frame import build_frame_scene
    for index in range(len(gpt2.steps)):
        scene, frame = build_frame_scene(gpt2, index, FrameOptions())
        assert frame.picture_scale > 0.4, gpt2.steps[index].id
        image = QImage(960, 540, QImage.Format.Format_ARGB32)
        image.fill(0xFFFFFFFF)
        painter = QPainter(image)
        scene.render(painter, QRectF(0, 0, 960, 540), frame.boundingRect())
        painter.end()


def test_the_editor_shows_the_vocabulary_head_without_a_cell_per_number(
        window: StudioWindow) -> None:
    """768 × 50,257 = 38.6 million numbers: a table model that answers each cell on demand."""
    from PySide6.QtCore import QAbstractTableModel, Qt

    model = window.editor.tables["block.unembed"].model()
    assert isinstance(model, QAbstractTableModel)
    assert (model.rowCount(), model.columnCount()) == (768, 50_257)
    unembed = window.state.scenario.parameter("block.unembed")
    for row, col in [(0, 0), (767, 50_256), (400, 31_337)]:
        shown = model.data(model.index(row, col), Qt.ItemDataRole.DisplayRole)
        assert shown == format_number(float(unembed[row, col]), 2)


def test_the_draw_of_a_large_vocabulary_sums_the_entries_it_leaves_out() -> None:
    """The three-layer chapter document with a 40-entry vocabulary: the draw's chart lists its
    ranked rows and a row for the 30 others with their summed share of the draw."""
    from engine import parse_scenario
    from tests.engine.generation_documents import cases

    doc = cases()["three-layers"]
    rng = np.random.default_rng(8)
    d = len(doc["embedding"][0])
    doc["head"] = {**doc["head"], "unembed": np.round(rng.normal(0, 1, (d, 40)), 2).tolist(),
                   "vocab": [f"v{k}" for k in range(40)]}
    doc["embedding"] = [*doc["embedding"], *np.round(rng.normal(0, 1, (37, d)), 2).tolist()]
    doc["generation"] = {"temperature": 1.5, "seed": 2}
    trace = compute(parse_scenario(doc))
    frame = FrameItem(trace, [s.op for s in trace.steps].index("sample"), FrameOptions())
    bars = frame.items_of(ProbabilityBars)[0]
    shares = trace.arrays["gen1.sample_probs"]
    shown = [entry for _rect, entry in bars.rows]
    label, rest = bars.spec.others[0]
    assert label == f"the other {40 - len(shown)}" and len(shown) in (10, 11)
    assert rest == pytest.approx(1 - shares[shown].sum(), abs=1e-12)
    assert shown[:10] == np.argsort(-trace.arrays["probs"][-1], kind="stable")[:10].tolist()


def test_a_slide_carries_no_window_hint(qtbot: QtBot, window: StudioWindow,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's corner note ("scroll to zoom in", "hover over a cell") tells how to look
    closer; a presentation slide zooms and hovers nothing, so F5 paints no such box even where
    its heat maps' numbers are too small to print."""
    said: list[str] = []
    monkeypatch.setattr(CanvasView, "_say_zoom_in", lambda _view, text: said.append(text))
    window.state.set_step(window.state.trace.step_index("ffn"))
    window.canvas.grab()
    assert window.canvas.words_hidden and said, "the window says it"
    said.clear()
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_F5)
    view = window.presenter.view
    assert view is not None
    qtbot.waitExposed(view)
    try:
        view.grab()
        assert view.words_hidden, "the slide's heat maps hide their numbers too"
        assert said == []
    finally:
        window.presenter.leave()
