"""Window items a back row notices: no empty band above the editor, step titles that keep
their start when cut, whole words only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.widgets.elided_label import ElidedLabel
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "three-layers")
    yield window
    close_window(window)


def test_the_editor_starts_with_its_sizes_not_an_empty_band(window: StudioWindow) -> None:
    editor = window.editor
    body = editor.widget()
    sizes = editor.size_boxes["n"].parentWidget()
    assert sizes is not None and sizes.title() == "Sizes"
    margin = body.layout().contentsMargins().top()
    assert sizes.mapTo(body, QPoint(0, 0)).y() <= margin, "nothing above the Sizes box"
    model = editor.tables["layers.0.attention.Wq"].model()
    assert not model.setData(model.index(0, 0), "abc")
    banner = editor.error_label
    assert banner.isVisible() and "abc" in banner.text()
    assert banner.parentWidget() is editor.viewport(), "floats over the top of the view"
    assert (banner.y(), banner.width()) == (0, editor.viewport().width())
    assert sizes.mapTo(body, QPoint(0, 0)).y() <= margin, "and pushes nothing down"


def test_a_cut_title_keeps_its_start_and_whole_words(qtbot: QtBot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    whole = "Step 1 of 5 · One input, three parameter paths"
    metrics = label.fontMetrics()
    # Room for everything up to the middle of "parameter": a character cut would show
    # "… three paramete…".
    label.setFixedWidth(metrics.horizontalAdvance("Step 1 of 5 · One input, three paramete…"))
    label.setText(whole)
    shown = label.shown_text()
    assert shown == "Step 1 of 5 · One input, three…"
    assert label.text() == label.toolTip() == label.accessibleDescription() == whole


def test_a_cut_that_would_keep_under_four_characters_of_the_title_shows_the_count_alone(
        qtbot: QtBot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    whole, short = "Step 1 of 5 · One input, three parameter paths", "1/5 · One input, three…"
    metrics = label.fontMetrics()
    label.setFixedWidth(metrics.horizontalAdvance("1/5 · On…"))  # the window's default width
    label.setText(whole, short, "1/5")
    assert label.shown_text() == "1/5", "not “1/5 · On…”"
    label.setFixedWidth(metrics.horizontalAdvance("1/5 · One input…"))
    label.setText(whole, short, "1/5")
    assert label.shown_text() == "1/5 · One input…"
    assert label.text() == label.toolTip() == whole


def test_at_1024_the_timeline_title_shows_the_steps_own_title(window: StudioWindow) -> None:
    window.setFixedSize(1024, 768)
    window.state.set_step(window.state.trace.step_index("L2.weights"))  # step 13 of 30
    QApplication.processEvents()
    label = window.timeline.position_label
    title = "Causal mask and softmax shares"
    assert label.text() == f"Step 13 of 30 · Layer 2 · {title}"
    shown = label.shown_text()
    assert shown.startswith(f"13/30 · {title[:20]}"), shown
    words = shown.removeprefix("13/30 · ").removesuffix("…").split()
    assert words == title.split()[:len(words)], "the title's start, in whole words"
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()


def test_the_encoder_decoders_timeline_names_the_decoder_and_the_cross_attention(
        qtbot: QtBot) -> None:
    from app.i18n import set_language

    window = open_window(qtbot, "encoder-decoder")
    try:
        timeline = window.timeline
        steps = window.state.trace.steps
        assert [g.text() for g in timeline.layer_groups] == [
            "▾ Encoder · Layer 1", "▾ Decoder · Layer 1", "▾ Head"]
        decoder = timeline.layer_groups[1]
        decoder.click()  # collapsed: still says which stack
        assert decoder.text() == "▸ Decoder · Layer 1"
        decoder.click()

        def label(step_id: str) -> str:
            button = timeline.step_group.button(window.state.trace.step_index(step_id))
            assert button is not None
            return button.text()

        assert steps[16].id == "L1.cross.scores"
        assert (label("L1.scores"), label("L1.cross.scores")) == (
            "11 scores", "17 cross-attention · scores")
        assert label("L1.cross.projections") == "16 cross-attention · projections"
        set_language("zh")
        QApplication.processEvents()
        assert [g.text() for g in timeline.layer_groups] == [
            "▾ 编码器 · 第 1 层", "▾ 解码器 · 第 1 层", "▾ 输出头"]
        assert (label("L1.scores"), label("L1.cross.scores")) == ("11 分数", "17 交叉注意力 · 分数")
    finally:
        close_window(window)


def test_a_stack_without_an_encoder_keeps_plain_layer_names(window: StudioWindow) -> None:
    assert [g.text() for g in window.timeline.layer_groups] == [
        "▾ Layer 1", "▾ Layer 2", "▾ Layer 3", "▾ Head"]
