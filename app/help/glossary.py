"""The Glossary dock: the 39 terms with definition and worked example, searchable, in the
interface language."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QDockWidget,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.help.html import entry_html, term_from_href
from app.i18n import LiveTexts, current_language
from app.plain_text import PlainLabel
from app.texts import glossary, glossary_entry

TERM_ROLE = Qt.ItemDataRole.UserRole


class GlossaryDock(QDockWidget):
    """A search field, the list of terms, and the chosen term's definition and example.

    Signals
    -------
    termShown(str)
        The term now shown (its id).
    """

    termShown = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("glossary")
        self.texts = LiveTexts()
        self.current_term = ""
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        search_label = PlainLabel()
        search_label.setBuddy(self.search)
        self.texts.bind(search_label.setText, lambda: self.tr("Find &term:"))
        self.texts.bind(self.search.setPlaceholderText,
                        lambda: self.tr("A term, or a word of its definition"))
        self.texts.bind(self.search.setAccessibleName, lambda: self.tr("Search the glossary"))
        self.terms = QListWidget()
        # A term wider than the dock (a 1024-pixel window leaves it some 180 pixels: "Query、Key、
        # Value（Q、K、V）") wraps onto a second line, never cut; the list scrolls down.
        self.terms.setWordWrap(True)
        self.terms.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.terms.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.terms.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.texts.bind(self.terms.setAccessibleName, lambda: self.tr("Glossary terms"))
        self.details = QTextBrowser()
        self.details.setOpenLinks(False)
        self.texts.bind(self.details.setAccessibleName, lambda: self.tr("Definition and example"))
        self.count_label = PlainLabel()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.terms)
        split.addWidget(self.details)
        split.setSizes([220, 260])
        layout.addWidget(search_label)
        layout.addWidget(self.search)
        layout.addWidget(self.count_label)
        layout.addWidget(split, 1)
        self.setWidget(body)
        self.texts.bind(self.setWindowTitle, lambda: self.tr("Glossary"))
        self.texts.bind(self.setAccessibleName, lambda: self.tr("Glossary"))
        self._name_title_buttons()
        self.search.textChanged.connect(self._filter)
        self.terms.currentItemChanged.connect(self._on_current)
        self.details.anchorClicked.connect(self._on_anchor)
        self._fill()

    # -- content ---------------------------------------------------------------------------
    def _fill(self) -> None:
        lang = current_language()
        keep = self.current_term
        self.terms.blockSignals(True)
        self.terms.clear()
        for entry in glossary(lang):
            item = QListWidgetItem(entry.term)
            item.setData(TERM_ROLE, entry.term_id)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{entry.term}: {entry.definition}")
            item.setToolTip(entry.definition)
            self.terms.addItem(item)
        self.terms.blockSignals(False)
        self._filter(self.search.text())
        self.show_term(keep or glossary(lang)[0].term_id, raise_dock=False)

    def _filter(self, text: str) -> None:
        """Hide the terms whose name, id, definition and example all lack ``text``."""
        needle = text.strip().casefold()
        lang = current_language()
        shown = 0
        for row in range(self.terms.count()):
            item = self.terms.item(row)
            entry = glossary_entry(str(item.data(TERM_ROLE)), lang)
            haystack = " ".join((entry.term, entry.term_id, entry.definition,
                                 entry.example)).casefold()
            hidden = bool(needle) and needle not in haystack
            item.setHidden(hidden)
            shown += not hidden
        self.count_label.setText(self.tr("{shown} of {total} terms").format(
            shown=shown, total=self.terms.count()))
        current = self.terms.currentItem()
        if current is None or current.isHidden():
            first = next((self.terms.item(r) for r in range(self.terms.count())
                          if not self.terms.item(r).isHidden()), None)
            if first is not None:
                self.terms.setCurrentItem(first)

    def visible_terms(self) -> list[str]:
        """Ids of the terms the list shows now (after the search)."""
        return [str(self.terms.item(r).data(TERM_ROLE)) for r in range(self.terms.count())
                if not self.terms.item(r).isHidden()]

    def show_term(self, term_id: str, *, raise_dock: bool = True) -> None:
        """Select ``term_id`` and show its definition; with ``raise_dock``, show the dock too."""
        for row in range(self.terms.count()):
            item = self.terms.item(row)
            if item.data(TERM_ROLE) == term_id:
                if item.isHidden():
                    self.search.clear()
                self.terms.setCurrentItem(item)
                self.terms.scrollToItem(item)
                self._show(term_id)
                break
        if raise_dock:
            self.show()
            self.raise_()

    def _on_current(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        if item is not None:
            self._show(str(item.data(TERM_ROLE)))

    def _show(self, term_id: str) -> None:
        lang = current_language()
        entry = glossary_entry(term_id, lang)
        self.current_term = term_id
        self.details.setHtml(entry_html(entry, lang, self.tr("Example:")))
        self.details.setAccessibleDescription(f"{entry.term}. {entry.definition} "
                                              f"{self.tr('Example:')} {entry.example}")
        self.termShown.emit(term_id)

    def _on_anchor(self, url: QUrl) -> None:
        term = term_from_href(url.toString())
        if term is not None:
            self.show_term(term)

    # -- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Titles, labels and every entry again in the interface language."""
        self.texts.apply()
        self._name_title_buttons()
        self._fill()

    def _name_title_buttons(self) -> None:
        """Qt names its dock's title-bar buttons once, in the language of the moment."""
        for name, text in (("qt_dockwidget_closebutton", self.tr("Close the glossary")),
                           ("qt_dockwidget_floatbutton", self.tr("Float the glossary"))):
            button = self.findChild(QAbstractButton, name)
            if button is not None:
                button.setAccessibleName(text)
                button.setToolTip(text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
