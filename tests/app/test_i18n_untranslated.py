"""In Chinese, no English sentence is left anywhere in the window (menus, widgets, tooltips,
accessible names), whatever the document shows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QSpinBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.export.dialog import ExportDialog
from app.files.matrix_text import (
    MatrixTextError,
    fit_problem,
    load_matrix_file,
    parse_matrix_text,
)
from app.i18n import set_language
from app.i18n.catalogue import translations
from app.i18n.language import catalogue_path
from app.model.examples import example_path
from app.texts import LANGUAGE_NAMES, words_zh
from app.texts.problems import problem_words
from app.texts.words import say
from app.window.studio import StudioWindow
from engine import ScenarioError, compute, load_scenario, parse_scenario
from engine.format.reader import MAX_LAYERS
from engine.format.writer import to_document
from engine.scenario.names import short_name
from tests.app.driving import close_window, open_window, type_into

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
ALLOWED_WORDS = {
    # symbols and names of the mathematics
    "Wq", "Wk", "Wv", "Wo", "W1", "W2", "Q", "K", "V", "X", "QKV", "q", "k", "v", "d", "d_k",
    "d_v", "n", "h", "softmax", "ReLU", "GELU", "SiLU", "relu", "gelu", "silu", "identity",
    "gelu_tanh",
    "LayerNorm", "RMSNorm", "Token", "exp", "b", "bq", "bk", "bv", "bo", "b1", "b2",
    "unembed", "F", "Norm", "x", "ffn", "mixed", "attn_out", "norm", "resid", "probs",
    # formats and products
    "PNG", "SVG", "PDF", "GIF", "MP4", "H", "PowerPoint", "Studio", "npy", "CSV", "json", "qkv",
}


def texts_of(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every text a user can see or hear from ``widget``."""
    name = f"{type(widget).__name__}({widget.objectName() or widget.accessibleName()!r})"
    yield f"{name}.accessibleName", widget.accessibleName()
    yield f"{name}.toolTip", widget.toolTip()
    yield f"{name}.statusTip", widget.statusTip()
    yield f"{name}.whatsThis", widget.whatsThis()
    if isinstance(widget, QDockWidget) or widget.isWindow():
        yield f"{name}.windowTitle", widget.windowTitle()
    if isinstance(widget, QAbstractButton):
        yield f"{name}.text", widget.text()
    if isinstance(widget, QLabel):
        yield f"{name}.text", widget.text()
    if isinstance(widget, QGroupBox):
        yield f"{name}.title", widget.title()
    if isinstance(widget, QMenu):
        yield f"{name}.title", widget.title()
    if isinstance(widget, QComboBox):
        for k in range(widget.count()):
            yield f"{name}.item{k}", widget.itemText(k)
    if isinstance(widget, QLineEdit):
        yield f"{name}.placeholder", widget.placeholderText()
    if isinstance(widget, (QSpinBox, QDoubleSpinBox)):
        yield f"{name}.suffix", widget.suffix()
        yield f"{name}.prefix", widget.prefix()
    if isinstance(widget, QAbstractSpinBox):
        yield f"{name}.specialValueText", widget.specialValueText()


def texts_of_action(action: QAction) -> Iterator[tuple[str, str]]:
    name = f"QAction({action.text()!r})"
    yield f"{name}.text", action.text().split("\t")[0]
    yield f"{name}.toolTip", action.toolTip()
    yield f"{name}.statusTip", action.statusTip()
    menu = action.menu()
    if isinstance(menu, QMenu):
        yield f"{name}.menu", menu.title()
        for sub in menu.actions():
            yield from texts_of_action(sub)


def every_text(window: StudioWindow) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = list(texts_of(window))
    for widget in window.findChildren(QWidget):
        found += texts_of(widget)
    for action in window.menuBar().actions():
        found += texts_of_action(action)
    for action in window.findChildren(QAction):
        found += texts_of_action(action)
    return [(where, text) for where, text in found if text]


def untranslated(text: str, translated: set[str], allowed: set[str]) -> bool:
    """True for a text with no Chinese that is more than numbers, symbols and allowed words."""
    if text in translated or CJK.search(text):
        return False
    words = set(LATIN_WORD.findall(text.replace("&", "")))
    return not words <= allowed


@pytest.mark.parametrize("example", ["f11", "g01", "multihead"])
def test_no_english_sentence_is_left_in_the_chinese_window(qtbot: QtBot, example: str) -> None:
    window = open_window(qtbot, example)
    try:
        check_chinese_window(qtbot, window)
    finally:
        close_window(window)


def check_chinese_window(qtbot: QtBot, window: StudioWindow) -> None:
    set_language("zh")
    qtbot.waitUntil(lambda: window.menuBar().actions()[0].text() == "文件(&F)", timeout=2000)
    window.glossary.show()
    window.timeline.explain.set_expanded(True)
    for step in range(len(window.state.trace.steps)):
        window.state.set_step(step)
    QApplication.processEvents()
    translated = set(translations(catalogue_path("zh", ".ts")).values())
    scenario = window.state.scenario
    allowed = (ALLOWED_WORDS | set(LANGUAGE_NAMES.values())
               | set(LATIN_WORD.findall(" ".join(short_name(path)
                                                 for path in scenario.parameter_paths())))
               | set(LATIN_WORD.findall(" ".join(scenario.tokens)))
               | set(LATIN_WORD.findall(scenario.title))
               | set(LATIN_WORD.findall(" ".join(scenario.block.vocab if scenario.block
                                                 and scenario.block.vocab else []))))
    texts = every_text(window)
    assert len(texts) > 150, "the walk found the window's texts"
    left = sorted({f"{where}: {text!r}" for where, text in texts
                   if untranslated(text, translated, allowed)})
    assert left == [], "\n".join(left)


def test_the_same_walk_finds_english_in_the_english_window(window: StudioWindow) -> None:
    """The check is not vacuous: in English it flags the menus and buttons."""
    translated = set(translations(catalogue_path("zh", ".ts")).values())
    flagged = {text for _where, text in every_text(window)
               if untranslated(text, translated, ALLOWED_WORDS)}
    assert {"&File", "&Edit", "Play", "Glossary"} <= flagged


# -- messages: refusals, undo labels, import reasons -----------------------------------------


def test_every_matrix_reason_has_chinese_words() -> None:
    """Each reason of the matrix reader, filled with sample fields, reads as Chinese."""
    fields = {"chars": 5, "limit": 9, "row": 2, "col": 3, "number": "“x”不是数", "line": 4,
              "detail": "?", "count": 1, "width": 2, "shape": "3×2", "size": 10, "dtype": "<U1",
              "ndim": 3, "byte": 7, "name": "m.csv", "problem": "数组是空的", "block": "2×2",
              "grid": "Wq", "place": "Wq[1,0]", "text": "x", "encoding": "UTF-16"}
    allowed = ALLOWED_WORDS | {"NumPy", "npy", "npz", "np", "save", "Python", "UTF", "NaN",
                               "Wq", "m", "csv", "U1"}
    left = [key for key in words_zh.MATRIX
            if untranslated(say(f"matrix.{key}", "zh", **fields), set(), allowed)]
    assert left == []
    # The check can fail: the English words are flagged.
    assert untranslated(say("matrix.binary", "en"), set(), allowed)


def test_matrix_refusals_are_worded_in_chinese(tmp_path: Path) -> None:
    refusals = []
    for text in ("", "1, x", "[[1, 2], [3]]", "[[1, 2]", "1 2\n3", "[[[1]]]"):
        with pytest.raises(MatrixTextError) as caught:
            parse_matrix_text(text)
        refusals.append(caught.value)
    folder = tmp_path / "m.npy"
    folder.mkdir()
    for path in (folder, tmp_path / "missing.csv"):
        with pytest.raises(MatrixTextError) as caught:
            load_matrix_file(path)
        refusals.append(caught.value)
    for error in refusals:
        chinese = error.words("zh")
        assert CJK.search(chinese), chinese
        assert not untranslated(chinese, set(), ALLOWED_WORDS | {"m", "npy", "missing", "csv",
                                                                 "Errno", "No", "such", "file",
                                                                 "or", "directory"}), chinese
        assert str(error) == error.words("en")
    assert fit_problem((3, 3), "Wq", (2, 2), lang="zh") == \
        "3×3 的数块放不进 Wq，它在当前尺寸下是 2×2"


def test_engine_refusals_an_edit_can_meet_are_worded_in_chinese() -> None:
    f11 = to_document(load_scenario(example_path("f11")))
    g01 = to_document(load_scenario(example_path("g01")))
    bad = [("block", {**g01, "block": {**g01["block"], "eps": -1}}),
           ("labels", {**f11, "tokens": ["a"]}),
           ("heads", {**f11, "attention": {**f11["attention"], "heads": 3}}),
           ("wo", {**g01, "attention": {**g01["attention"], "Wo": [[1, 0, 0], [0, 1, 0]]}})]
    for name, document in bad:
        with pytest.raises(ScenarioError) as caught:
            parse_scenario(document)
        words = problem_words(caught.value, "zh")
        assert CJK.search(words) and "文档不接受" not in words, (name, words)
        assert not untranslated(words, set(), ALLOWED_WORDS | {"attention", "block", "eps",
                                                              "tokens", "heads"}), (name, words)
    encoder = to_document(load_scenario(example_path("encoder-decoder")))
    enc_layer = encoder["encoder"]["layers"][0]
    cross = {**encoder, "encoder": {**encoder["encoder"], "layers": [
        {**enc_layer, "cross_attention": encoder["layers"][0]["cross_attention"]}]}}
    deep = {**encoder, "encoder": {**encoder["encoder"], "layers": [enc_layer] * MAX_LAYERS}}
    for name, document in [("encoder cross", cross), ("budget", deep)]:
        with pytest.raises(ScenarioError) as caught:
            parse_scenario(document)
        words = problem_words(caught.value, "zh")
        assert CJK.search(words) and "文档不接受" not in words, (name, words)
    assert f"{MAX_LAYERS} 层" in problem_words(caught.value, "zh") and "1 层" in words
    huge = {**f11, "X": [[1e300, 1e300], [1e300, -1e300]],
            "attention": {**f11["attention"], "Wq": [[1e10, 1], [1, 1]]}}
    with pytest.raises(ScenarioError) as caught:
        compute(parse_scenario(huge))
    assert problem_words(caught.value, "zh").startswith("projections (Q[0,0])：有数值溢出")


def test_refusals_and_undo_labels_follow_the_chinese_interface(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        set_language("zh")
        qtbot.waitUntil(lambda: window.menuBar().actions()[0].text() == "文件(&F)", timeout=2000)
        refused: list[str] = []
        window.state.refused.connect(refused.append)
        undo: list[str] = []
        table = window.editor.tables["attention.Wq"]
        type_into(qtbot, table, 0, 0, "abc")
        type_into(qtbot, table, 0, 0, "1e400")
        window.editor.tables["attention.Wq"].model().paste_block(0, 0, "1 2 3\n4 5 6\n7 8 9")
        window.editor.tables["attention.Wq"].model().paste_block(0, 0, "1, x")
        editor = window.editor.block_editor
        editor.eps_edit.setText("abc")
        editor.eps_edit.editingFinished.emit()
        editor.final_norm_box.setChecked(False)
        undo.append(window.state.undo_stack.undoText())
        window.editor.tables["attention.Wq"].model().paste_block(0, 0, "0.5")
        undo.append(window.state.undo_stack.undoText())
        editor.eps_edit.setText("-1")
        editor.eps_edit.editingFinished.emit()
        editor.block_box.setChecked(False)
        undo.append(window.state.undo_stack.undoText())
        translated = set(translations(catalogue_path("zh", ".ts")).values())
        allowed = ALLOWED_WORDS | {"Wq", "abc", "e400", "block", "eps"}
        assert len(refused) >= 5, refused
        assert len(undo) == 3 and all(undo), undo
        left = [text for text in refused + undo if untranslated(text, translated, allowed)]
        assert left == [], left
        assert all(CJK.search(text) for text in refused + undo), refused + undo
        dialog = ExportDialog(window.state.trace, 0, window.frame_options(), window, name="g01")
        assert dialog.dwell_spin.suffix() == " 秒"
        dialog.deleteLater()
    finally:
        set_language("en")
        close_window(window)
