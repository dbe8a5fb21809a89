"""The decoder block on the canvas: G01 walked step by step in the real window, every picture
checked against the chapter's printed numbers (6 decimals) and the trace's arrays."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsRectItem
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.bars import BAR_LENGTH, ProbabilityBars
from app.canvas.frame import FrameItem, shown_names
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.window.studio import StudioWindow
from engine import compute, format_number, parse_scenario
from tests.app.documents_support import example_document
from tests.app.driving import canvas_arrows, close_window, open_window

G01_PICTURES = {
    "norm1": ["X", "per row", "norm1", "γ1", "β1"],
    "projections": ["norm1", "Wq", "Q = norm1·Wq", "Wk", "K = norm1·Wk", "Wv", "V = norm1·Wv"],
    "scores": ["Q", "Kᵀ", "scores"],
    "weights": ["scores", "shares"],
    "mix": ["shares", "V", "mixed", "mixed (heads joined)", "Wo", "attention output"],
    "resid1": ["X", "attn_out", "resid1"],
    "norm2": ["resid1", "per row", "norm2", "γ2", "β2"],
    "ffn": ["norm2", "W1", "z = norm2·W1", "hidden = relu(z)", "hidden = relu(z)", "W2",
            "ffn_out = hidden·W2"],
    "resid2": ["resid1", "ffn_out", "resid2"],
    "final_norm": ["resid2", "per row", "final_norm", "γf", "βf"],
    "logits": ["final_norm", "unembed", "logits = final_norm·unembed"],
    "probs": ["logits"],
}
"""Step id → the titles of the grids its picture shows, left to right, top to bottom."""



def frame_of(window: StudioWindow) -> FrameItem:
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem)
    return frame


def grids(window: StudioWindow) -> list[MatrixGrid]:
    return frame_of(window).items_of(MatrixGrid)


def grid_titled(window: StudioWindow, title: str) -> MatrixGrid:
    found = [g for g in grids(window) if g.spec.title == title]
    assert found, f"no grid titled {title!r} on step {window.state.step}"
    return found[0]


def texts(window: StudioWindow) -> list[str]:
    return [item.text for item in frame_of(window).items_of(TextItem)]


def cells(grid: MatrixGrid) -> list[list[str]]:
    rows, cols = grid.spec.values.shape
    return [[grid.cell_text(r, c) for c in range(cols)] for r in range(rows)]


def test_right_walks_all_twelve_block_steps_each_with_its_picture(
        qtbot: QtBot, g01: StudioWindow) -> None:
    window = g01
    window.canvas.setFocus()
    trace = window.state.trace
    seen = []
    for k in range(12):
        if k:
            qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
        step = trace.steps[window.state.step]
        seen.append(step.id)
        assert [g.spec.title for g in grids(window)] == G01_PICTURES[step.id]
        frame = frame_of(window)
        assert frame.heading.text.startswith(f"Step {k + 1} of 12 · ")
        footer = (f"reads: {shown_names(trace, step.reads)}     "
                  f"writes: {shown_names(trace, step.writes)}")
        assert footer in texts(window)
        for grid in grids(window):  # every grid of a trace array shows that array
            name = grid.spec.title.split(" ")[0]
            if name in trace.arrays and trace.arrays[name].ndim == 2:
                np.testing.assert_array_equal(grid.spec.values, trace.arrays[name])
    assert seen == list(G01_PICTURES)
    assert not window.timeline.next_button.isEnabled()
    assert len(frame_of(window).items_of(ProbabilityBars)) == 1


def test_the_norm_prints_each_rows_mean_and_variance_then_the_chapters_rows(
        g01: StudioWindow) -> None:
    g01.state.set_step(0)
    stats = grid_titled(g01, "per row")
    assert list(stats.spec.col_labels) == ["μ", "σ²", "√(σ²+ε)"]
    # X = [[1, 0], [0, 2]]: μ = 0.5 and 1, σ² = 0.25 and 1, √(σ² + 1e−5).
    assert cells(stats) == [["0.5", "0.25", f"{math.sqrt(0.25 + 1e-5):.6f}".rstrip("0")],
                            ["1", "1", f"{math.sqrt(1 + 1e-5):.6f}"]]
    assert cells(grid_titled(g01, "norm1")) == [["0.99998", "−0.99998"],
                                                ["−0.999995", "0.999995"]]
    assert "row p2: (x − 1) / 1.000005 · γ + β" in texts(g01)
    assert any(t.startswith("LayerNorm, each row on its own") and "ε = 0.00001" in t
               for t in texts(g01))


def test_residuals_are_drawn_as_additions(g01: StudioWindow) -> None:
    g01.state.set_step(g01.state.trace.step_index("resid1"))
    frame = frame_of(g01)
    operators = [t for t in texts(g01) if t in ("+", "=")]
    assert operators == ["+", "="]
    assert cells(grid_titled(g01, "resid1"))[1] == ["−0.888377", "2.888377"]
    assert frame.items_of(MatrixGrid)[2].spec.highlight_rows == frozenset({1})
    g01.state.set_step(g01.state.trace.step_index("resid2"))
    assert cells(grid_titled(g01, "resid2"))[1] == ["−0.888377", "3.388376"]


def test_the_feed_forward_marks_the_units_relu_zeroed(g01: StudioWindow) -> None:
    g01.state.set_step(g01.state.trace.step_index("ffn"))
    z = grid_titled(g01, "z = norm2·W1")
    assert cells(z) == [["0.999998", "−0.999998"], ["−0.999999", "0.999999"]]
    hidden = grid_titled(g01, "hidden = relu(z)")
    assert hidden.spec.marked is not None
    assert hidden.spec.marked.tolist() == [[False, True], [True, False]]
    assert hidden.note == "▸ marked: zeroed by ReLU"
    assert cells(hidden) == [["0.999998", "0"], ["0", "0.999999"]]
    assert cells(grid_titled(g01, "ffn_out = hidden·W2"))[1] == ["0", "0.499999"]


def test_the_last_step_prints_the_chapters_probabilities_as_bars(g01: StudioWindow) -> None:
    g01.timeline.last()
    assert g01.state.trace.steps[g01.state.step].id == "probs"
    printed = texts(g01)
    for value in ("0.048611", "0.359188", "0.592201"):
        assert value in printed
    [bars] = frame_of(g01).items_of(ProbabilityBars)
    assert [bars.values[(1, k)] for k in range(3)] == ["0.048611", "0.359188", "0.592201"]
    assert [bars.values[(0, k)] for k in range(3)] == ["0.821408", "0.111166", "0.067426"]
    assert "p2 (receiver)" in printed and "w3" in printed
    lengths = sorted(round(item.rect().width(), 6) for item in bars.childItems()
                     if isinstance(item, QGraphicsRectItem) and item.rect().width() < BAR_LENGTH)
    probs = g01.state.trace.arrays["probs"]
    assert lengths == sorted(round(float(p) * BAR_LENGTH, 6) for p in probs.ravel())


def test_logits_use_the_vocabulary_labels(g01: StudioWindow) -> None:
    g01.state.set_step(g01.state.trace.step_index("logits"))
    logits = grid_titled(g01, "logits = final_norm·unembed")
    assert list(logits.spec.col_labels) == ["w1", "w2", "w3"]
    assert cells(logits)[1] == ["−0.999999", "0.999999", "1.499998"]
    assert list(grid_titled(g01, "unembed").spec.col_labels) == ["w1", "w2", "w3"]


def test_the_tokenizer_example_picks_rows_seven_twelve_three(qtbot: QtBot) -> None:
    window = open_window(qtbot, "tokenizer")
    try:
        assert window.state.trace.steps[0].id == "embed"
        ids = grid_titled(window, "token ids")
        assert cells(ids) == [["7"], ["12"], ["3"]]
        table = grid_titled(window, "embedding table")
        assert table.spec.highlight_rows == frozenset({3, 7, 12})
        assert table.spec.row_labels[7] == "7 · 检查"
        picked = grid_titled(window, "X · the picked rows")
        embedding = window.state.scenario.embedding
        assert embedding is not None
        np.testing.assert_array_equal(picked.spec.values, embedding[[7, 12, 3]])
        assert list(picked.spec.row_labels) == ["检查 ← 7", "路径 ← 12", "过滤 ← 3"]
        assert any("检查 → row 7 · 路径 → row 12 · 过滤 → row 3" in t for t in texts(window))
    finally:
        close_window(window)


def test_two_heads_draw_arrows_in_two_okabe_ito_colours(qtbot: QtBot) -> None:
    window = open_window(qtbot, "multihead")
    try:
        window.state.set_step(window.state.trace.step_index("weights"))
        arrows = canvas_arrows(window)
        focused = [a for a in arrows.drawn if a.focused]
        assert {a.head for a in focused} == {0, 1}
        colours = {a.head: a.color for a in focused}
        assert colours == {0: "#e69f00", 1: "#56b4e9"}
        assert all(a.color == colours[a.head] for a in arrows.drawn)
        weights = window.state.trace.arrays["weights"]
        assert sorted(arrows.share_labels) == sorted(
            f"h{h + 1} {round(float(weights[h, 2, j]), 3):g}" for h in (0, 1) for j in range(3))
        swatches = [g.spec.swatch for g in grids(window) if g.spec.title.startswith("shares")]
        assert swatches == ["#E69F00", "#56B4E9"]
        combo = window.controls.head_box
        combo.setFocus()
        qtbot.keyClick(combo, Qt.Key.Key_Down)
        qtbot.keyClick(combo, Qt.Key.Key_Down)
        assert window.state.head == 1
        arrows = canvas_arrows(window)
        assert {a.head for a in arrows.drawn} == {1}
        assert {a.color for a in arrows.drawn} == {"#56b4e9"}, "head 2 keeps its colour alone"
        assert [g.spec.title for g in grids(window)] == ["scores · head 2", "shares · head 2"]
    finally:
        close_window(window)


def test_two_heads_are_concatenated_into_wo_as_in_the_chapter(qtbot: QtBot) -> None:
    from app.canvas.heads import HeadBands

    window = open_window(qtbot, "multihead")
    try:
        window.state.set_step(window.state.trace.step_index("mix"))
        joined = grid_titled(window, "concatenate → width 4")
        trace = window.state.trace
        np.testing.assert_array_equal(joined.spec.values, trace.arrays["mixed"])
        [bands] = frame_of(window).items_of(HeadBands)
        assert bands.labels == ["head 1", "head 2"] and bands.width == 2
        assert bands.named and bands.divider == 3.0, "the chapter's two heads keep their look"
        assert grid_titled(window, "Wo").spec.values.shape == (4, 6)
        out = grid_titled(window, "output · width 6")
        np.testing.assert_array_equal(out.spec.values, trace.arrays["attn_out"])
        assert "2 heads × 2 = width 4, then · Wo (4×6) gives 6 numbers per position" in \
            texts(window)
        assert not any("; ·" in line or ";  ·" in line for line in texts(window))
    finally:
        close_window(window)


def test_a_means_rounding_noise_prints_0_and_its_hover_the_exact_value(qtbot: QtBot) -> None:
    """[0.1, 0.2, −0.3] averages to 1.85×10⁻¹⁷ in floating point: the row statistics and the
    formula print μ = 0; hovering the cell gives the exact mean."""
    eye = np.eye(3).tolist()
    doc = {"format": "qkv-studio", "version": 1, "title": "noise", "tokens": ["a", "b"],
           "X": [[0.1, 0.2, -0.3], [1.0, 2.0, 4.0]],
           "attention": {"heads": 1, "causal": True, "scale": True, "Wq": eye, "Wk": eye,
                         "Wv": eye},
           "block": {"norm": "layernorm", "eps": 1e-5, "placement": "pre",
                     "ffn": {"W1": eye, "activation": "relu", "W2": eye}}}
    trace = compute(parse_scenario(doc))
    exact = float(np.mean([0.1, 0.2, -0.3]))
    assert exact != 0 and abs(exact) < 1e-16
    frame = FrameItem(trace, trace.step_index("norm1"), FrameOptions(receiver=0))
    [stats] = [g for g in frame.items_of(MatrixGrid) if g.spec.title == "per row"]
    assert stats.cell_text(0, 0) == "0" and stats.cell_text(1, 0) == "2.333333"
    assert stats.spec.explain is not None
    assert format_number(exact) in stats.spec.explain(0, 0)
    assert "row a: (x − 0) / " in " ".join(t.text for t in frame.items_of(TextItem))


def test_an_embedding_row_names_each_token_that_picks_it_once(qtbot: QtBot) -> None:
    """Two positions of one token, or two typed texts a tokenizer reads as one entry (all of
    all-MiniLM-L6-v2's unknown characters are ``[UNK]``, id 100), pick one row: its label and
    its cells' explanation name the token once, the ids grid every position."""
    document = example_document("tokenizer")
    document["tokens"] = ["检查", "[UNK]", "检查", "[UNK]"]
    document["token_ids"] = [7, 12, 7, 12]
    trace = compute(parse_scenario(document))
    frame = FrameItem(trace, trace.step_index("embed"), FrameOptions(lang="en"))
    [table] = [g for g in frame.items_of(MatrixGrid) if g.spec.title == "embedding table"]
    assert table.spec.row_labels[7] == "7 · 检查"
    assert table.spec.row_labels[12] == "12 · [UNK]"
    assert table.spec.explain is not None
    said = table.spec.explain(12, 0)
    assert said.startswith("embedding[12,0] = ") and said.count("[UNK]") == 1, said
    [ids] = [g for g in frame.items_of(MatrixGrid) if g.spec.title == "token ids"]
    assert list(ids.spec.row_labels) == ["检查", "[UNK]", "检查", "[UNK]"]
