"""A label or text that lists right-to-left tokens among ids and numbers reads left to right in
the order it was written: drawn as the canvas, the editor and plain labels draw it (QPainter's
layout) and shown as rich text (the explanation, a tooltip or message shown as HTML:
QTextDocument, which took the direction of a paragraph from an isolated token's letters)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTextDocument, QTextLayout
from PySide6.QtWidgets import QApplication

from app.canvas.theme import font
from app.help.html import step_html, step_plain
from app.model.operands import shown_token
from app.texts.lookup import step_text
from engine import compute, parse_scenario
from tests.app.documents_support import example_document

HEBREW, ARABIC = "שלום", "مرحبا"
LIST = f"0 · {shown_token(HEBREW)}, 12, {shown_token(ARABIC)}"
"""An embedding row's label: the id, then the tokens that pick it (and a number among them)."""
ROW = f"{shown_token(HEBREW)} ← 0"
"""A picked row's label: the token, then its id."""


def laid_out(text: str, rich: bool) -> tuple[QTextLayout, object]:
    """``text``'s one line as Qt lays it out, with what keeps the layout alive."""
    if rich:
        document = QTextDocument()
        document.setDefaultFont(font(16))
        document.setPlainText(text)
        document.documentLayout().documentSize()
        return document.firstBlock().layout(), document
    layout = QTextLayout(text, font(16))
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return layout, layout


def visual_order(text: str, pieces: list[str], rich: bool) -> list[str]:
    """``pieces`` of ``text`` from left to right as Qt places their glyphs."""
    layout, _alive = laid_out(text, rich)
    left = {piece: min(run.boundingRect().left()
                       for run in layout.glyphRuns(text.index(piece), len(piece)))
            for piece in pieces}
    return sorted(pieces, key=left.__getitem__)


def test_a_right_to_left_token_is_isolated_between_left_to_right_marks() -> None:
    assert LIST == "0 · \u200e\u2068שלום\u2069\u200e, 12, \u200e\u2068مرحبا\u2069\u200e"


@pytest.mark.parametrize("rich", [False, True], ids=["drawn", "rich text"])
@pytest.mark.parametrize(("text", "order"), [
    (LIST, ["0", HEBREW, "12", ARABIC]),
    (ROW, [HEBREW, "0"]),
    (f"“{shown_token(HEBREW)}” reads 0.5", [HEBREW, "0.5"]),
])
def test_tokens_ids_and_numbers_read_in_the_order_written(
        qapp: QApplication, text: str, order: list[str], rich: bool) -> None:
    assert visual_order(text, order, rich) == order


def picture(text: str, rich: bool) -> QImage:
    """``text`` drawn left-aligned on a white 600 × 40 picture."""
    image = QImage(600, 40, QImage.Format.Format_Grayscale8)
    image.fill(QColor("white"))
    painter = QPainter(image)
    if rich:
        document = QTextDocument()
        document.setDefaultFont(font(16))
        document.setPlainText(text)
        document.drawContents(painter)
    else:
        painter.setFont(font(16))
        painter.drawText(QRectF(0, 0, 600, 40), Qt.AlignmentFlag.AlignLeft, text)
    painter.end()
    return image


def columns(image: QImage, inked: bool, other: QImage | None = None) -> list[int]:
    """The columns holding ink (``inked``), or those where ``other`` differs."""
    return [x for x in range(image.width()) if any(
        image.pixelColor(x, y).value() < 128 if inked else
        other is not None and image.pixelColor(x, y) != other.pixelColor(x, y)
        for y in range(image.height()))]


@pytest.mark.parametrize("rich", [False, True], ids=["drawn", "rich text"])
def test_the_id_is_drawn_where_it_is_written(qapp: QApplication, rich: bool) -> None:
    """Pixels: only the id's glyph tells ``0 · …`` from ``8 · …``, and it is drawn at the
    label's left end (``…, مرحبا, 12, שלום · 0`` drew it at the right end)."""
    zero = picture(LIST, rich)
    ink = columns(zero, inked=True)
    changed = columns(zero, inked=False, other=picture(LIST.replace("0", "8", 1), rich))
    assert changed and max(changed) < ink[0] + (ink[-1] - ink[0]) / 5, (changed, ink)


def test_the_explanation_lists_the_vocabulary_in_its_order(qapp: QApplication) -> None:
    """The logits step's explanation lists the head's entries as labels show them, and its
    rich text draws them in that order (listed raw, they read עולם, مرحبا, שלום)."""
    document = example_document("training")
    document["tokens"] = [HEBREW, ARABIC, "עולם", HEBREW]
    document["head"]["vocab"] = [HEBREW, ARABIC, "עולם", "cat"]
    trace = compute(parse_scenario(document))
    logits = next(k for k, step in enumerate(trace.steps) if step.id == "logits")
    text = step_text(trace, logits, "en", 3, 0)
    listed = ", ".join(shown_token(t) for t in (HEBREW, ARABIC, "עולם"))
    said = f"one column per entry ({listed} and cat)"
    assert said in step_plain(text, "en")
    shown = QTextDocument()
    shown.setHtml(step_html(text, "en"))
    shown.setTextWidth(4000)
    shown.documentLayout().documentSize()
    block = shown.find("one column per entry").block()
    line = block.text()
    entries = [HEBREW, ARABIC, "עולם", "cat"]
    left = {entry: min(run.boundingRect().left() for run in block.layout().glyphRuns(
        line.index(entry, line.index(said)), len(entry))) for entry in entries}
    assert sorted(entries, key=left.__getitem__) == entries


BYTE_ENDED = "مر<0xD8>"
"""A byte-level token that ends an Arabic word with the first byte of the next letter (ح), as
a byte-level BPE's labels name it."""


@pytest.mark.parametrize("rich", [False, True], ids=["drawn", "rich text"])
@pytest.mark.parametrize("text", [f"1 · {shown_token(BYTE_ENDED)}",
                                  f"{shown_token(BYTE_ENDED)} ← 1",
                                  f"{shown_token('<0xAD>با')} ← 2"])
def test_a_byte_name_beside_right_to_left_letters_reads_left_to_right(
        qapp: QApplication, text: str, rich: bool) -> None:
    """``<0xD8>`` is drawn ``<``, ``0xD8``, ``>`` from left to right (in the right-to-left run
    of its letters, its brackets were mirrored: ``>0xD8<``), to the left of the Arabic letters
    it follows (read right to left, after them) and the right of those after it."""
    layout, _alive = laid_out(text, rich)
    byte = text.index("<0x")

    def left(index: int) -> float:
        return min(run.boundingRect().left() for run in layout.glyphRuns(index, 1))

    code = [left(byte + k) for k in range(6)]  # < 0 x D 8 >  (or < 0 x A D >)
    assert code == sorted(code) and len(set(code)) == 6, code
    letters = [k for k, ch in enumerate(text) if "\u0600" <= ch <= "\u06ff"]
    if letters[0] < byte:  # مر then the byte: the byte drawn on the letters' left
        assert max(code) < min(left(k) for k in letters)
    else:  # the byte then با: the letters on its right
        assert min(left(k) for k in letters) > max(code)
