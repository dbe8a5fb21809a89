"""Curly quotes in English text are as wide as the Latin letters' quotes, not the CJK face's
full-width ones (``Which word does  “it”  read?``); in Chinese text they stay full-width.

The reference widths are measured here: the straight quote ``"`` of the frame's font (a Latin
glyph wherever the letters come from) and a CJK ideograph (one em)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetricsF
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.layout import TextItem
from app.canvas.theme import SLIDE, font
from app.model.examples import example_path
from engine import compute, load_scenario

SIZE = 22


def quote_advances(item: TextItem) -> tuple[float, float]:
    metrics = QFontMetricsF(item.font)
    return metrics.horizontalAdvance("“"), metrics.horizontalAdvance("”")


def test_the_pronoun_title_draws_its_quotes_in_the_latin_width(qtbot: QtBot) -> None:
    trace = compute(load_scenario(example_path("pronoun")))
    frame = FrameItem(trace, 0, FrameOptions(lang="en"))
    (title,) = [t for t in frame.items_of(TextItem) if t.text.startswith("Which word does “it”")]
    latin = QFontMetricsF(font(title.font.pixelSize())).horizontalAdvance('"')
    em = QFontMetricsF(font(title.font.pixelSize())).horizontalAdvance("好")
    for advance in quote_advances(title):
        assert advance < 0.6 * em
        assert abs(advance - latin) <= 0.2 * latin
    assert title.boundingRect().width() < QFontMetricsF(font(title.font.pixelSize())) \
        .horizontalAdvance(title.text)  # the line is measured in the font it is drawn in


def test_an_english_line_quoting_a_chinese_token_keeps_latin_quotes(qtbot: QtBot) -> None:
    item = TextItem("“我” sees only itself", SLIDE, size=SIZE)
    latin = QFontMetricsF(font(SIZE)).horizontalAdvance('"')
    assert all(abs(a - latin) <= 0.2 * latin for a in quote_advances(item))


def test_chinese_text_keeps_full_width_quotes(qtbot: QtBot) -> None:
    item = TextItem("“它”指的是哪个词？", SLIDE, size=SIZE)
    em = QFontMetricsF(font(SIZE)).horizontalAdvance("好")
    assert all(a > 0.9 * em for a in quote_advances(item))
