"""The middle dot of English texts (``Decoder · Layer 1``, ``好 · p2``) is drawn half-width, not
as the CJK face's full-width dot (one em, like 好), in the font the line was measured in; in
Chinese text it stays full-width. The em is measured here on 好 in the frame's font."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas import grid as grid_module
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.picture import painting_on_screen
from app.canvas.theme import SLIDE, font
from app.model.examples import example_path
from engine import compute, load_scenario

SIZE = 22


def advance(text_font: QFont, text: str) -> float:
    return QFontMetricsF(text_font).horizontalAdvance(text)


def em(size: int) -> float:
    return advance(font(size), "好")


@pytest.mark.parametrize("text", ["Decoder · Layer 1", "shares · head 1", "好 · p2"])
def test_an_english_line_draws_its_middle_dot_half_width(qtbot: QtBot, text: str) -> None:
    item = TextItem(text, SLIDE, size=SIZE)
    assert advance(font(SIZE), "·") > 0.9 * em(SIZE), "the CJK face's dot is full-width"
    assert advance(item.font, "·") <= 0.5 * em(SIZE)
    assert item.boundingRect().width() == pytest.approx(advance(item.font, text) + 4)


def test_chinese_text_keeps_its_full_width_middle_dot(qtbot: QtBot) -> None:
    item = TextItem("对比 · A：甲", SLIDE, size=SIZE)
    assert advance(item.font, "·") > 0.9 * em(SIZE)


def test_a_grid_draws_positioned_row_labels_in_the_font_they_were_measured_in(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    trace = compute(load_scenario(example_path("rope")))
    frame = FrameItem(trace, trace.step_index("scores"), FrameOptions(lang="en"))
    grid = next(g for g in frame.items_of(MatrixGrid) if " · p" in str(g.spec.row_labels[0]))
    drawn: dict[str, QFont] = {}
    real = grid_module.draw_text

    def noted(painter: QPainter, rect: QRectF, align: Qt.AlignmentFlag, text: str,
              text_font: QFont) -> None:
        drawn[text] = QFont(text_font)
        real(painter, rect, align, text, text_font)

    monkeypatch.setattr(grid_module, "draw_text", noted)
    # drawn straight, text by text (the on-screen words layer draws the same runs, fonts and
    # all, into its image: app.canvas.number_layer)
    monkeypatch.setattr(grid_module, "paint_layer", lambda _painter, _words: False)
    image = QImage(1600, 800, QImage.Format.Format_ARGB32_Premultiplied)
    option = QStyleOptionGraphicsItem()
    option.exposedRect = grid.boundingRect()
    painter = QPainter(image)
    try:
        with painting_on_screen():
            grid.paint(painter, option)
    finally:
        painter.end()
    labels = [str(label) for label in grid.spec.row_labels]
    for label in labels:
        label_font = drawn[label]
        assert advance(label_font, "·") <= 0.5 * em(12), label
        assert advance(label_font, label) <= grid.row_label_rect(0).width(), label
