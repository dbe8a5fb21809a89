"""Compare mode in the window: the same scenario under two settings, side by side, with what
differs marked and printed. Golden numbers: LayerNorm([1, 3]) = [−1, 1] and
RMSNorm([1, 3]) = [1/√5, 3/√5] from the chapter's glossary."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QApplication, QFileDialog
from pytestqt.qtbot import QtBot

from app.canvas.bars import ProbabilityBars
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.side_by_side import CompareFrameItem, DifferenceMark
from app.i18n import set_language
from app.model.examples import example_path
from app.window.compare_mode import PRESETS
from app.window.studio import StudioWindow
from engine import compute, load_scenario
from engine.arithmetic.differences import compare
from engine.scenario.variants import variant
from tests.app.driving import close_window, open_window, type_into


@pytest.fixture
def norms(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "norms")
    yield window
    close_window(window)


def comparison(window: StudioWindow) -> CompareFrameItem:
    item = window.canvas.frame
    assert isinstance(item, CompareFrameItem)
    return item


def side_grid(frame: FrameItem, title: str) -> MatrixGrid:
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title == title)


def test_layernorm_against_rmsnorm_on_one_three(qtbot: QtBot, norms: StudioWindow) -> None:
    norms.canvas.setFocus()
    qtbot.keyClick(norms.canvas, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert norms.compare.active and norms.compare.bar.isVisible()
    assert norms.compare.preset == "norm"
    item = comparison(norms)
    assert item.header.text == "Compare · A: LayerNorm  |  B: RMSNorm"
    a_norm = side_grid(item.a_frame, "norm1")
    b_norm = side_grid(item.b_frame, "norm1")
    np.testing.assert_allclose(a_norm.spec.values, [[-1.0, 1.0]], atol=0)
    np.testing.assert_allclose(b_norm.spec.values, [[1 / math.sqrt(5), 3 / math.sqrt(5)]],
                               rtol=1e-15)
    assert [b_norm.cell_text(0, k) for k in range(2)] == ["0.447214", "1.341641"]
    assert [a_norm.cell_text(0, k) for k in range(2)] == ["−1", "1"]
    assert item.changed == ["norm1"]
    assert item.max_differences == {"norm1": f"{1 + 1 / math.sqrt(5):.6f}"} == \
        {"norm1": "1.447214"}
    difference = next(g for g in item.items_of(MatrixGrid) if g.spec.title == "B − A · norm1")
    np.testing.assert_allclose(difference.spec.values,
                               [[1 / math.sqrt(5) + 1, 3 / math.sqrt(5) - 1]], rtol=1e-15)
    assert [difference.cell_text(0, k) for k in range(2)] == ["1.447214", "0.341641"]
    assert difference.note == "max |B − A| = 1.447214"
    marked = {mark.target for mark in item.items_of(DifferenceMark)}
    assert marked == {a_norm, b_norm}, "the differing array is outlined on both sides"
    words = [t.text for t in item.items_of(TextItem)]
    assert "identical in A and B: X, block.gamma1, block.beta1" in words
    assert norms.editor.isHidden() or norms.splitter.sizes()[0] == 0
    qtbot.keyClick(norms.canvas, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert not norms.compare.active
    assert isinstance(norms.canvas.frame, FrameItem)
    assert norms.splitter.sizes()[0] > 0, "the editor comes back"


def test_the_comparison_follows_the_timeline_and_edits(qtbot: QtBot,
                                                       norms: StudioWindow) -> None:
    norms.compare.action.trigger()
    norms.canvas.setFocus()
    qtbot.keyClick(norms.canvas, Qt.Key.Key_Right)
    item = comparison(norms)
    assert norms.state.trace.steps[norms.state.step].id == "projections"
    assert item.changed == ["norm1", "Q", "K", "V"]
    norms.compare.action.trigger()
    type_into(qtbot, norms.editor.tables["X"], 0, 1, "5")
    norms.compare.action.trigger()
    item = comparison(norms)
    np.testing.assert_allclose(side_grid(item.b_frame, "norm1").spec.values,
                               [[1 / math.sqrt(13), 5 / math.sqrt(13)]], rtol=1e-15)


def test_block_presets_are_off_without_a_block_and_causal_compares(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.compare.action.trigger()
    model = window.compare.preset_box.model()
    assert isinstance(model, QStandardItemModel)
    enabled = {preset: model.item(k).isEnabled() for k, preset in enumerate(PRESETS)}
    assert enabled == {"norm": False, "placement": False, "causal": True, "scale": True,
                       "swap": True, "ablate": True, "opened": True}
    window.compare.set_preset("causal")
    window.state.set_step(window.state.trace.step_index("weights"))
    item = comparison(window)
    assert item.labels == ("causal mask", "no mask")
    assert item.changed == ["weights"]
    set_language("zh")
    window.compare.refresh()
    assert comparison(window).labels == ("因果掩码", "不加掩码")
    set_language("en")
    weights = window.state.trace.arrays["weights"][0]
    scores = window.state.trace.arrays["scores"][0]
    open_row = np.exp(scores[0]) / np.exp(scores[0]).sum()
    difference = next(g for g in item.items_of(MatrixGrid) if g.spec.title == "B − A · weights")
    np.testing.assert_allclose(difference.spec.values[0], open_row - weights[0], rtol=1e-12)


def test_current_edits_against_the_opened_document(qtbot: QtBot,
                                                   window: StudioWindow) -> None:
    type_into(qtbot, window.editor.tables["attention.Wv"], 0, 0, "7")
    window.compare.set_preset("opened")
    window.compare.action.trigger()
    window.timeline.last()
    item = comparison(window)
    assert item.labels == ("opened document", "current edits")
    assert item.changed == ["V", "mixed", "attn_out"]
    # V = X·Wv with X = [[1, 1], [1, −1]]: Wv[0,0] from 5 to 7 adds 2 to V's first column.
    assert item.max_differences["V"] == "2"
    np.testing.assert_array_equal(side_grid(item.a_frame, "V").spec.values, [[10, 0], [0, 20]])
    np.testing.assert_array_equal(side_grid(item.b_frame, "V").spec.values, [[12, 0], [2, 20]])
    window.state.set_step(window.state.trace.step_index("projections"))
    item = comparison(window)
    assert item.changed == ["attention.Wv", "V"]
    assert item.max_differences["attention.Wv"] == "2"


def test_the_opened_document_is_the_one_opened_last_even_over_one_without_edits(
        qtbot: QtBot, window: StudioWindow) -> None:
    # F11 unedited, then G01 opened over it: the stack stays clean, and "the opened document"
    # stayed F11, so G01's edits were compared with another document.
    assert window.open_example("g01")
    opened = load_scenario(example_path("g01"))
    wv = opened.weight("attention.Wv")
    type_into(qtbot, window.editor.tables["attention.Wv"], 0, 0, str(wv[0, 0] + 2))
    window.compare.set_preset("opened")
    window.compare.action.trigger()
    window.state.set_step(window.state.trace.step_index("projections"))
    item = comparison(window)
    assert item.a_frame.trace.scenario.title == opened.title
    np.testing.assert_array_equal(side_grid(item.a_frame, "Wv").spec.values, wv)
    assert item.max_differences["attention.Wv"] == "2"


def test_a_block_preset_on_a_document_without_a_block_says_why(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        window.compare.set_preset("placement")
        window.compare.action.trigger()
        assert comparison(window).labels == ("pre-norm", "post-norm")
        window.timeline.last()
        item = comparison(window)
        assert item.changed == ["logits", "probs"]
        bars = [m.target for m in item.items_of(DifferenceMark)
                if isinstance(m.target, ProbabilityBars)]
        assert len(bars) == 2, "the probability bars are outlined on both sides"
        assert cast(ProbabilityBars, bars[1]).values[(1, 2)] == \
            f"{float(item.b_frame.trace.arrays['probs'][1, 2]):.6f}".rstrip("0")  # as grids print
        window.editor.block_editor.block_box.click()
        assert window.state.scenario.block is None
        assert isinstance(window.canvas.frame, FrameItem), "single frame when B cannot be made"
        assert "this document has no block" in window.compare.problem_label.text()
        window.undo_action.trigger()
        assert isinstance(window.canvas.frame, CompareFrameItem)
        assert window.compare.problem_label.text() == ""
    finally:
        close_window(window)


def test_the_comparison_exports_as_png(monkeypatch: pytest.MonkeyPatch, norms: StudioWindow,
                                       tmp_path: Path) -> None:
    target = tmp_path / "norms.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_args, **_kw: (str(target), "")))
    norms.compare.action.trigger()
    norms.compare.export_action.trigger()
    assert comparison(norms).boundingRect().width() > 1000, "two frames side by side"
    with Image.open(target) as image:
        assert image.size == (1920, 1080), "the size of every export"
    assert "Exported the comparison" in norms.statusBar().currentMessage()


def test_copy_and_export_while_comparing_take_the_comparison(
        qtbot: QtBot, norms: StudioWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import xml.etree.ElementTree as ET

    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QFileDialog

    norms.canvas.setFocus()
    qtbot.keyClick(norms.canvas, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    norms.copy_frame_action.trigger()
    data = QGuiApplication.clipboard().mimeData()
    assert data is not None and data.hasFormat("image/svg+xml")
    svg = ET.fromstring(bytes(data.data("image/svg+xml").data()))
    words = "".join("".join(t.itertext()) for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "LayerNorm" in words and "RMSNorm" in words
    assert norms.statusBar().currentMessage() == "Copied the comparison as PNG and SVG"
    target = tmp_path / "ln-vs-rms.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (str(target), "")))
    norms.export_action.trigger()
    exported = "".join("".join(t.itertext()) for t in ET.parse(target).getroot().iter(
        "{http://www.w3.org/2000/svg}text"))
    assert "RMSNorm" in exported and "0.447214" in exported


def test_at_1024_by_768_a_refusal_wraps_in_the_row_and_the_window_keeps_its_width(
        qtbot: QtBot) -> None:
    """A refusal once set the bar's width to its whole text: the window grew to 1372 pixels,
    off a 1024 × 768 screen. It wraps now, every word of it in view."""
    window = open_window(qtbot, "f11")
    try:
        window.resize(1024, 768)
        window.compare.action.setChecked(True)
        window.compare.set_preset("norm")  # F11 has no decoder block
        label = window.compare.problem_label
        qtbot.waitUntil(lambda: "this document has no block" in label.text())
        QApplication.processEvents()
        assert window.minimumSizeHint().width() <= 1024
        assert window.width() == 1024
        assert label.isVisible() and label.heightForWidth(label.width()) <= label.height()
        right = label.mapTo(window, label.rect().topRight()).x()
        assert right <= window.controls.fit_button.mapTo(window, QPoint(0, 0)).x()
    finally:
        close_window(window)


@pytest.mark.parametrize(("name", "kind", "aspect", "lang"),
                         [("norms", "scale", "4:3", "zh"), ("tokenizer", "scale", "16:9", "en"),
                          ("g01", "norm", "16:9", "en")])
def test_a_difference_tag_covers_no_words(qtbot: QtBot, name: str, kind: str, aspect: str,
                                          lang: str) -> None:
    """At every step, the “≠” tag on what differs covers no heading or title of the
    comparison (it covered the side's heading when a changed grid was at the top of a side —
    norms' scores and second residual, tokenizer's shares —, and A's probability bars' tag B's bars'
    title); the words of its own grid are its own."""
    scenario = load_scenario(example_path(name))
    a, b = compute(scenario), compute(variant(scenario, kind).scenario)
    differences = compare(a, b)
    tags = 0
    for k in range(len(a.steps)):
        item = CompareFrameItem(a, b, differences, k, FrameOptions(aspect=aspect, lang=lang))
        words = item.items_of(TextItem)
        for mark in item.items_of(DifferenceMark):
            tag = mark.mapRectToScene(mark.tag_rect())
            tags += 1
            for text in words:
                if not mark.target.isAncestorOf(text):
                    assert not tag.intersects(text.mapRectToScene(text.boundingRect())), \
                        (k + 1, text.text)
    assert tags > 0
