"""The Glossary dock and the step explanation: 42 terms, search, linked terms, both languages."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.help.html import linked_html, step_html, term_from_href, term_href
from app.i18n import set_language
from app.model.examples import example_path
from app.texts import TERM_IDS, glossary, glossary_entry, linked_terms, step_text
from app.window.studio import StudioWindow
from engine import compute, load_scenario


def test_the_glossary_lists_the_42_terms_with_definition_and_example(
        window: StudioWindow) -> None:
    dock = window.glossary
    assert dock.terms.count() == len(TERM_IDS) == 42
    assert [dock.terms.item(r).text() for r in range(42)] == [e.term for e in glossary("en")]
    dock.show_term("shares")
    entry = glossary_entry("shares", "en")
    text = dock.details.toPlainText()
    assert entry.definition in text
    assert entry.example in text
    assert "Example:" in text


def test_f1_opens_the_glossary_from_the_view_menu(qtbot: QtBot, window: StudioWindow) -> None:
    assert not window.glossary.isVisible()
    action = window.view_menu.glossary_action
    assert action.shortcut().toString() == "F1"
    qtbot.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(window.glossary.isVisible, timeout=2000)
    assert action.isChecked()


def test_search_filters_by_name_and_definition(window: StudioWindow) -> None:
    dock = window.glossary
    dock.search.setText("softmax")
    shown = dock.visible_terms()
    assert "softmax" in shown and "shares" in shown
    assert "Wq" not in shown
    assert dock.count_label.text() == f"{len(shown)} of 42 terms"
    dock.search.setText("LayerNorm")
    assert dock.visible_terms()[0] in ("Norm", "LayerNorm")
    assert "LayerNorm" in dock.visible_terms()
    dock.search.setText("zzz-no-such-term")
    assert dock.visible_terms() == []
    dock.search.clear()
    assert len(dock.visible_terms()) == 42


def test_search_works_in_chinese(qtbot: QtBot, window: StudioWindow) -> None:
    set_language("zh")
    qtbot.waitUntil(lambda: window.glossary.windowTitle() == "术语表", timeout=2000)
    dock = window.glossary
    dock.search.setText("份额")
    assert "shares" in dock.visible_terms()
    assert dock.terms.currentItem().text() == glossary_entry(
        dock.visible_terms()[0], "zh").term
    assert dock.count_label.text().startswith(f"显示 {len(dock.visible_terms())} / 42")


def test_a_term_link_in_the_step_text_selects_it_in_the_glossary(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.state.set_step(3)  # softmax shares
    panel = window.timeline.explain
    panel.set_expanded(True)
    assert panel.browser.isVisible()
    assert not window.timeline.check_label.isVisible(), "the panel holds the check already"
    html = panel.browser.toHtml()
    assert 'href="term:causal-mask"' in html
    with qtbot.waitSignal(window.glossary.termShown, timeout=2000) as shown:
        panel.browser.anchorClicked.emit(QUrl(term_href("causal-mask")))
    assert shown.args == ["causal-mask"]
    assert window.glossary.isVisible()
    assert window.glossary.current_term == "causal-mask"
    item = window.glossary.terms.currentItem()
    assert item.text() == glossary_entry("causal-mask", "en").term


def test_links_inside_a_definition_move_to_that_term(qtbot: QtBot, window: StudioWindow) -> None:
    dock = window.glossary
    dock.show_term("shares")
    assert 'href="term:softmax"' in dock.details.toHtml()
    assert 'href="term:shares"' not in dock.details.toHtml(), "a term does not link to itself"
    dock.details.anchorClicked.emit(QUrl("term:softmax"))
    assert dock.current_term == "softmax"
    dock.details.anchorClicked.emit(QUrl("https://example.org"))
    assert dock.current_term == "softmax", "other links are ignored"


def test_the_explain_panel_folds_out_from_the_menu_and_by_keyboard(
        qtbot: QtBot, window: StudioWindow) -> None:
    panel = window.timeline.explain
    assert not panel.expanded
    window.view_menu.explain_action.trigger()
    assert panel.expanded and panel.browser.isVisible()
    panel.toggle.setFocus()
    qtbot.keyClick(panel.toggle, Qt.Key.Key_Space)
    assert not panel.expanded
    assert not window.view_menu.explain_action.isChecked()
    assert window.state.step == 0, "Space on the focused button did not drive the timeline"


def test_linked_html_escapes_and_links_every_term() -> None:
    text = "Q·Kᵀ <b> then softmax gives the shares"
    html = linked_html(text, "en")
    assert "&lt;b&gt;" in html
    assert html.count("<a ") == len(linked_terms(text, "en")) >= 2
    assert '<a href="term:softmax">softmax</a>' in html
    assert term_from_href(term_href("pre-norm")) == "pre-norm"
    assert term_from_href("https://example.org") is None
    f11 = compute(load_scenario(example_path("f11")))
    assert step_html(step_text(f11, 3, "zh"), "zh").count("<h4>") == 4


def test_steps_texts_follow_the_language_in_the_panel(qtbot: QtBot, window: StudioWindow) -> None:
    panel = window.timeline.explain
    assert panel.browser.toPlainText() == "", "folded in: not rendered"
    qtbot.mouseClick(panel.toggle, Qt.MouseButton.LeftButton)
    assert "Why it is needed" in panel.browser.toPlainText()
    set_language("zh")
    qtbot.waitUntil(lambda: "为什么需要" in panel.browser.toPlainText(), timeout=2000)
    assert panel.toggle.text() == "讲解这一步"
    assert "为什么需要" in panel.browser.accessibleDescription()
    QApplication.processEvents()
