"""Switching the interface language through View → Language changes every text live, and back."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.i18n import current_language, preferred_language, set_language, system_language
from app.texts import HEADINGS, glossary, step_text, step_title
from app.window.studio import StudioWindow
from tests.app.driving import type_into


def menu_titles(window: StudioWindow) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def choose_language(qtbot: QtBot, window: StudioWindow, lang: str) -> None:
    """Trigger View → Language → lang as a user would, then let the posted events arrive."""
    action = window.view_menu.language_actions[lang]
    assert action in window.view_menu.language_menu.actions()
    action.trigger()
    qtbot.waitUntil(lambda: window.timeline.lang == lang, timeout=2000)
    QApplication.processEvents()


def test_the_language_menu_switches_everything_to_chinese_and_back(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.state.set_step(3)
    step = window.state.trace.steps[3]
    assert menu_titles(window) == ["&File", "&Edit", "&View", "&Step"]
    assert window.timeline.summary_label.text() == step_text(window.state.trace, 3, "en").summary
    qtbot.mouseClick(window.timeline.explain.toggle, Qt.MouseButton.LeftButton)  # fold it out

    choose_language(qtbot, window, "zh")

    assert current_language() == "zh"
    assert menu_titles(window) == ["文件(&F)", "编辑(&E)", "视图(&V)", "步骤(&S)"]
    assert window.view_menu.language_actions["zh"].isChecked()
    assert not window.view_menu.language_actions["en"].isChecked()
    zh_title = step_title(step, window.state.scenario, "zh")
    assert window.timeline.position_label.text() == f"第 4 步（共 5 步）· {zh_title}"
    assert window.timeline.summary_label.text() == step_text(window.state.trace, 3, "zh").summary
    explanation = window.timeline.explain.browser.toPlainText()
    for heading in HEADINGS["zh"]:
        assert heading in explanation
    assert window.timeline.play_button.text() == "播放"
    assert window.glossary.windowTitle() == "术语表"
    assert window.glossary.terms.item(0).text() == glossary("zh")[0].term
    assert window.canvas.frame is not None
    assert window.canvas.frame.heading.text.startswith("第 4 步（共 5 步）")
    assert window.controls.head_box.itemText(0) == "全部头"
    assert window.undo_action.text() == "撤销(&U)"

    choose_language(qtbot, window, "en")

    assert menu_titles(window) == ["&File", "&Edit", "&View", "&Step"]
    assert window.timeline.position_label.text().startswith("Step 4 of 5 · ")
    assert window.timeline.summary_label.text() == step_text(window.state.trace, 3, "en").summary
    assert HEADINGS["en"][0] in window.timeline.explain.browser.toPlainText()
    assert window.glossary.windowTitle() == "Glossary"
    assert window.glossary.terms.item(0).text() == glossary("en")[0].term
    assert window.canvas.frame.heading.text.startswith("Step 4 of 5 · ")


def test_qts_own_buttons_follow_the_language(qtbot: QtBot, window: StudioWindow) -> None:
    """qtbase_zh_CN.qm is installed too: a standard button of a dialog box reads 取消."""
    from PySide6.QtWidgets import QDialogButtonBox

    choose_language(qtbot, window, "zh")
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
    from app.i18n.language import switcher

    assert switcher().missing == []


def test_the_choice_is_remembered_and_wins_over_the_system_locale(
        qtbot: QtBot, window: StudioWindow) -> None:
    choose_language(qtbot, window, "zh")
    assert preferred_language() == "zh"
    choose_language(qtbot, window, "en")
    assert preferred_language() == "en"


@pytest.mark.parametrize(("locale", "lang"), [("zh_CN", "zh"), ("zh_TW", "zh"), ("zh_HK", "zh"),
                                               ("en_US", "en"), ("de_DE", "en"), ("ja_JP", "en")])
def test_the_system_locale_picks_the_first_language(locale: str, lang: str) -> None:
    assert system_language(QLocale(locale)) == lang


def test_without_a_saved_choice_the_system_locale_decides(qapp: QApplication) -> None:
    assert preferred_language() == system_language()


def test_switching_to_the_same_language_does_nothing(qapp: QApplication) -> None:
    assert set_language("en") is False
    assert set_language("zh") is True
    assert set_language("zh") is False
    with pytest.raises(ValueError, match="unknown language"):
        set_language("fr")


def test_a_refused_number_is_explained_in_chinese(qtbot: QtBot, window: StudioWindow) -> None:
    set_language("zh")
    type_into(qtbot, window.editor.tables["attention.Wk"], 1, 0, "abc")
    assert window.editor.error_label.text() == "⚠ Wk[1,0]：“abc”不是数字；保留原值 0.5"
    assert window.state.scenario.attention.Wk[1, 0] == 0.5


def test_hover_arithmetic_follows_the_language(qtbot: QtBot, window: StudioWindow) -> None:
    from app.canvas.grid import MatrixGrid

    set_language("zh")
    window.state.set_step(window.state.trace.step_index("weights"))
    frame = window.canvas.frame
    assert frame is not None
    shares = [g for g in frame.items_of(MatrixGrid) if g.spec.masked is not None][-1]
    assert shares.spec.explain is not None
    assert shares.spec.explain(0, 1).startswith("weights[0,0,1] = 0（精确）：键 1（“爱”）")
