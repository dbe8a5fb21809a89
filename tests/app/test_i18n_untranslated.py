"""In Chinese, no English sentence is left anywhere in the window (menus, widgets, tooltips,
accessible names), whatever the document shows."""

from __future__ import annotations

import re
from collections.abc import Iterator

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

from app.examples import example_names
from app.i18n import set_language
from app.i18n.catalogue import translations
from app.i18n.language import catalogue_path
from app.texts import LANGUAGE_NAMES
from app.window import StudioWindow
from engine.names import short_name
from tests.app.driving import close_window, open_window

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
ALLOWED_WORDS = {
    # symbols and names of the mathematics
    "Wq", "Wk", "Wv", "Wo", "W1", "W2", "Q", "K", "V", "X", "QKV", "q", "k", "v", "d", "d_k",
    "d_v", "n", "h", "softmax", "ReLU", "GELU", "SiLU", "relu", "gelu", "silu", "identity",
    "LayerNorm", "RMSNorm", "logits", "Token", "exp", "b", "bq", "bk", "bv", "bo", "b1", "b2",
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
    translated = set(translations(catalogue_path("zh", ".ts")).values()) | set(example_names())
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
