"""A document's words are shown as written: a tokenizer's ``<s>`` (the first token of every
Llama 2, Mistral and TinyLlama text) and a title typed as HTML are never read as rich text by a
label, a tooltip or a message box; a token that would break a line or show nothing (a real
tokenizer's newline) or look like another (`` the`` and ``the``) is named (↵, ␣the)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QGraphicsSceneHoverEvent, QLabel
from pytestqt.qtbot import QtBot

from app.canvas.grid import MatrixGrid
from app.canvas.theme import font
from app.model import operands
from app.model.operands import shown_token, shown_tokens
from app.plain_text import as_written
from engine import parse_scenario
from engine.checkpoint import import_checkpoint
from tests.app.documents_support import example_document
from tests.app.driving import Dialogs, close_window, open_window, show_window, type_into
from tests.engine.fixture_copies import fixture_copy
from tests.engine.hf_reference import FIXTURES


def shown_by_qt(text: str) -> str:
    """The characters Qt shows for ``text`` in a tooltip or message box (rich text when it
    looks like it)."""
    document = QTextDocument()
    if GuiQt.mightBeRichText(text):
        document.setHtml(text)
    else:
        document.setPlainText(text)
    return document.toPlainText()


@pytest.mark.parametrize("text", ["row “<s>” of L1.Q", "<b>bold</b>\nline  two", "a < b > c",
                                  "&lt;s&gt; typed", "plain words", "<|begin_of_text|>"])
def test_a_tooltip_or_message_shows_the_characters_it_was_given(qtbot: QtBot, text: str) -> None:
    assert shown_by_qt(as_written(text)) == text


def test_the_tokenizers_s_stays_in_every_steps_texts_and_tooltips(qtbot: QtBot) -> None:
    scenario = import_checkpoint(FIXTURES / "mistral", "the cat sat")
    assert scenario.tokens[0] == "<s>"
    window = show_window(qtbot, scenario)
    try:
        timeline = window.timeline
        quoted, hovered = [], []
        for k in range(len(window.state.trace.steps)):
            window.state.set_step(k)
            QApplication.processEvents()
            for label in (timeline.summary_label, timeline.check_label):
                assert label.textFormat() == Qt.TextFormat.PlainText
                if "“<s>”" in label.text():
                    quoted.append(window.state.trace.steps[k].id)
            frame = window.canvas.frame
            assert frame is not None
            for grid in frame.items_of(MatrixGrid):
                if grid.spec.explain is not None and str(grid.spec.row_labels[0]).startswith("<s>"):
                    hover = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverMove)
                    hover.setPos(grid.cell_rect(0, 0).center())
                    grid.hoverMoveEvent(hover)
                    said = grid.spec.explain(0, 0)
                    assert shown_by_qt(grid.toolTip()) == said
                    hovered.append(said)
        assert quoted, "no step's text quotes the first token"
        assert any("<s>" in said for said in hovered), hovered
        labels = window.findChildren(QLabel)
        assert labels and all(label.textFormat() == Qt.TextFormat.PlainText
                              for label in labels), [label.text() for label in labels
                                                     if label.textFormat() !=
                                                     Qt.TextFormat.PlainText]
    finally:
        close_window(window)



def test_a_refusal_names_a_file_as_written(qtbot: QtBot, tmp_path: Path,
                                            dialogs: Dialogs) -> None:
    broken = tmp_path / "<s>lesson.qkv.json"
    broken.write_text("{ not json", encoding="utf-8")
    window = open_window(qtbot)
    try:
        before = window.state.scenario
        assert not window.open_path(broken)
        assert window.state.scenario is before
        [(kind, title, text)] = dialogs.shown
        assert (kind, title) == ("warning", "Cannot open")
        assert shown_by_qt(text).startswith(f"{broken} was not opened:\n")
    finally:
        close_window(window)


@pytest.mark.parametrize(("token", "shown"), [
    ("\n", "↵"), ("\t", "⇥"), ("a\r\nb", "a<0x0D>↵b"), ("\x00", "<0x00>"), ("\x7f", "<0x7F>"),
    ("\u2028", "<U+2028>"), (" sat", "␣sat"), ("on the ", "on the␣"), (" ", "␣"),
    ("the cat", "the cat"), ("我", "我"), ("<s>", "<s>"),
    ("␣", "<U+2423>"), ("a↵", "a<U+21B5>"), (" ⇥\t", "␣<U+21E5>⇥"),
    ("\u202erow", "<U+202E>row"), ("\u200b", "<U+200B>"), ("\u00a0x", "<0xA0>x"),
    ("\u3000", "<U+3000>"), ("👩\u200d👧", "👩\u200d👧"), ("\u200d", "<U+200D>"),
    ("שלום", "\u200e\u2068שלום\u2069\u200e"), (" مرحبا", "\u200e\u2068␣مرحبا\u2069\u200e")])
def test_a_token_that_would_break_a_line_show_nothing_or_look_like_another_is_named(
        token: str, shown: str) -> None:
    assert shown_token(token) == shown


def byte_fallback_mistral(tmp_path: Path) -> Path:
    """The mistral fixture with byte fallback, as Mistral ships it: a newline and a tab are the
    entries ``<0x0A>`` and ``<0x09>`` (the fixture's 。 and ，, renamed; these texts use neither),
    and not its unknown token, which reads ``<unk>``."""
    written = json.dumps(json.loads((FIXTURES / "mistral" / "tokenizer.json").read_text("utf-8")),
                         ensure_ascii=False)
    tokenizer = json.loads(written.replace("。", "<0x0A>").replace("，", "<0x09>"))
    decoders = tokenizer["decoder"]["decoders"]
    return fixture_copy(tmp_path, "mistral", {
        "model": {**tokenizer["model"], "byte_fallback": True},
        "decoder": {"type": "Sequence", "decoders": [decoders[0], {"type": "ByteFallback"},
                                                     *decoders[1:]]}}, file="tokenizer.json")


def test_a_real_tokenizers_newline_is_labelled_not_broken(qtbot: QtBot, tmp_path: Path) -> None:
    scenario = import_checkpoint(byte_fallback_mistral(tmp_path), "the cat\nsat \t on")
    assert scenario.tokens[:4] == ("<s>", " the cat", "\n", "sat")
    window = show_window(qtbot, scenario)
    try:
        window.state.set_step([s.id for s in window.state.trace.steps].index("L1.weights"))
        window.state.set_receiver(2)
        QApplication.processEvents()
        assert window.controls.receiver_box.currentText() == "2: ↵"
        assert [window.compare.first_box.itemText(k) for k in (2, 4, 5)] == \
            ["2 · ↵", "4 · ␣", "5 · ⇥"]
        assert "“↵”" in window.timeline.check_label.text()
        assert "\n" not in window.timeline.summary_label.text()
        frame = window.canvas.frame
        assert frame is not None
        labels = {str(label) for grid in frame.items_of(MatrixGrid)
                  for label in grid.spec.row_labels}
        assert {"↵ · p2", "␣ · p4", "⇥ · p5"} <= labels
        assert not any("\n" in label or "\t" in label for label in labels)
    finally:
        close_window(window)


def test_the_token_editor_shows_tokens_as_the_canvas_does_and_keeps_spaces_typed(
        qtbot: QtBot, tmp_path: Path) -> None:
    """The editor's row of token labels names a newline, a tab and an edge space as the canvas
    does (a real tokenizer's ``\n`` showed as an empty cell), gives the written label to edit,
    and keeps a space typed at a label's start: it is part of the token."""
    window = show_window(qtbot, import_checkpoint(byte_fallback_mistral(tmp_path),
                                                  "the cat\nsat \t on"))
    try:
        table = window.editor.token_table
        model = table.model()
        shown = [model.index(0, k).data() for k in range(model.columnCount())]
        assert shown[:6] == ["<s>", "␣the cat", "↵", "sat", "␣", "⇥"]
        assert model.index(0, 2).data(Qt.ItemDataRole.EditRole) == "\n"
        assert model.index(0, 4).data(Qt.ItemDataRole.ToolTipRole).endswith(": ␣")
        type_into(qtbot, table, 0, 3, " dog")
        assert window.state.scenario.tokens[3] == " dog"
        assert model.index(0, 3).data() == "␣dog"
        frame = window.canvas.frame
        assert frame is not None
        token_id = (window.state.scenario.token_ids or ())[3]  # the id stays the tokenizer's
        assert f"{token_id} · ␣dog" in {str(label) for grid in frame.items_of(MatrixGrid)
                                         for label in grid.spec.row_labels}
    finally:
        close_window(window)


def test_a_vocabulary_is_named_once_while_a_run_grows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each generated token makes a new list of tokens; the vocabulary every frame labels stays
    worked out (128,256 entries take 30-45 ms)."""
    vocabulary = tuple(f" entry {k}" for k in range(1000))
    named: list[str] = []
    real = operands.shown_token

    def counted(token: str) -> str:
        named.append(token)
        return real(token)

    monkeypatch.setattr(operands, "shown_token", counted)
    assert shown_tokens(vocabulary)[:2] == ("␣entry 0", "␣entry 1")
    for length in range(1, 11):
        run = tuple(f" t{k}" for k in range(length))
        assert shown_tokens(run)[-1] == f"␣t{length - 1}"
        assert shown_tokens(vocabulary)[999] == "␣entry 999"
    assert len(named) == 1000 + sum(range(1, 11))


def test_a_byte_name_after_arabic_letters_reads_left_to_right_in_a_cells_tooltip(
        qtbot: QtBot) -> None:
    """The embedding's explanation quotes the token (``token “مر<0xD8>” has id 0``): the
    tooltip shows it with ``<0xD8>`` drawn ``<``, ``0xD8``, ``>`` left to right after the
    letters (its ``<0`` was drawn in the letters' run, mirrored: ``0>``), the same characters
    besides the marks."""
    document = example_document("training")
    document["tokens"], document["token_ids"] = ["مر<0xD8>", "<0xAD>با", "x", "y"], [0, 1, 2, 3]
    window = show_window(qtbot, parse_scenario(document))
    try:
        window.state.set_step(1)  # the inputs: X's cells say which token picked their row
        QApplication.processEvents()
        frame = window.canvas.frame
        assert frame is not None
        grid = next(grid for grid in frame.items_of(MatrixGrid) if grid.spec.explain is not None
                    and "has id" in grid.spec.explain(0, 0))  # X, the picked rows
        hover = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverMove)
        hover.setPos(grid.cell_rect(0, 0).center())
        grid.hoverMoveEvent(hover)
        said = grid.spec.explain(0, 0)
        assert "“مر<0xD8>”" in said
        assert shown_by_qt(grid.toolTip()) == said.replace("<0xD8>", "\u200e<0xD8>\u200e")
        shown = QTextDocument()
        shown.setDefaultFont(font(16))
        shown.setPlainText(shown_by_qt(grid.toolTip()))
        shown.setTextWidth(4000)
        shown.documentLayout().documentSize()
        block = shown.find("“مر").block()
        line, layout = block.text(), block.layout()
        byte = line.index("<0xD8>")
        code = [min(run.boundingRect().left() for run in layout.glyphRuns(byte + k, 1))
                for k in range(6)]
        assert code == sorted(code) and len(set(code)) == 6, code
        letters = [min(run.boundingRect().left() for run in layout.glyphRuns(line.index(ch), 1))
                   for ch in "مر"]
        assert min(code) > max(letters)  # a left-to-right line: read after the letters
    finally:
        close_window(window)
