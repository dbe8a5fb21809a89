"""The glossary at 1024 × 768 in Chinese (issue 35): the dock fits the window, and every term of
its list can be read whole — a term wider than the list wraps onto a second line, never cut —
and scrolled to."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QStyle
from pytestqt.qtbot import QtBot

from app import i18n
from app.texts import glossary
from tests.app.driving import close_window, open_window


def test_every_chinese_term_is_whole_in_the_glossary_at_1024_by_768(qtbot: QtBot) -> None:
    window = open_window(qtbot, "pronoun")  # its editor leaves the dock the least room
    try:
        i18n.set_language("zh")
        window.resize(1024, 768)
        window.glossary.show()
        QApplication.processEvents()
        assert (window.width(), window.height()) == (1024, 768)
        assert window.minimumSizeHint().width() <= 1024
        dock, terms = window.glossary, window.glossary.terms
        assert window.rect().contains(dock.geometry())
        names = [entry.term for entry in glossary("zh")]
        assert [terms.item(row).text() for row in range(terms.count())] == names
        view = terms.viewport().rect()
        margin = terms.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None,
                                           terms) + 1
        metrics = terms.fontMetrics()
        cut = []
        for row in range(terms.count()):
            item = terms.item(row)
            terms.scrollToItem(item)
            rect = terms.visualItemRect(item)
            needed = metrics.boundingRect(QRect(0, 0, rect.width() - 2 * margin, 10_000),
                                          Qt.TextFlag.TextWordWrap, item.text())
            if not view.contains(rect) or needed.height() > rect.height():
                cut.append(item.text())
        assert cut == []
        wide = "Query、Key、Value（Q、K、V）"
        assert metrics.horizontalAdvance(wide) + 2 * margin > view.width(), \
            "the widest term does not fit on one line: it is the case the wrapping is for"
        assert terms.visualItemRect(terms.item(names.index(wide))).height() >= \
            2 * metrics.lineSpacing()
    finally:
        close_window(window)
