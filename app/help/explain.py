"""“Explain this step”: the current step's four headings under the timeline, terms linked."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QSizePolicy, QTextBrowser, QToolButton, QVBoxLayout, QWidget

from app.help.html import step_html, step_plain, term_from_href
from app.i18n import LiveTexts, current_language
from app.texts import StepText, step_text
from engine import Trace

PANEL_HEIGHT = 190


class ExplainPanel(QWidget):
    """A button that folds out the step's why / how / pitfalls / check, in the interface language.

    Signals
    -------
    termActivated(str)
        A linked term was clicked (or activated with Enter): its glossary id.
    """

    termActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._step: tuple[Trace, int, int | None, int] | None = None
        self._given: tuple[StepText, str] | None = None
        """The step's text as the caller made it, and its language."""
        self._shown: tuple[StepText, str] | None = None
        self.texts = LiveTexts()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.texts.bind(self.toggle.setText, lambda: self.tr("Explain this step"))
        self.texts.bind(self.toggle.setAccessibleName, lambda: self.tr("Explain this step"))
        self.texts.bind(self.toggle.setToolTip, lambda: self.tr(
            "Show why the step is needed, how it is done, its pitfalls and how to check it"))
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        # A long formula has no spaces to break at: let it wrap anywhere rather than scroll.
        self.browser.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.browser.setFixedHeight(PANEL_HEIGHT)
        self.browser.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.texts.bind(self.browser.setAccessibleName, lambda: self.tr("Step explanation"))
        self.browser.anchorClicked.connect(self._on_anchor)
        self.browser.hide()
        layout.addWidget(self.toggle)
        layout.addWidget(self.browser)
        self.toggle.toggled.connect(self.set_expanded)

    @property
    def expanded(self) -> bool:
        return self.toggle.isChecked()

    def set_expanded(self, on: bool) -> None:
        """Fold the explanation out (``True``) or in."""
        if self.toggle.isChecked() != on:
            self.toggle.setChecked(on)  # comes back here through toggled
            return
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.browser.setVisible(on)
        if on:
            self._fill()  # folded, it was left as it was

    def show_step(self, trace: Trace, index: int, receiver: int | None = None,
                  head: int = 0, text: StepText | None = None) -> None:
        """Show the texts of step ``index`` of ``trace`` for a receiver and head, in the
        interface language; ``text``: that step's text, when the caller has made it already."""
        self._step = (trace, index, receiver, head)
        self._given = None if text is None else (text, current_language())
        self._fill()

    def _fill(self) -> None:
        """Render the step's text into the browser, only while it is folded out: an edit with
        the explanation folded in costs no text layout."""
        if not self.expanded:
            return
        lang = current_language()
        if self._step is None:
            self.browser.clear()
            return
        trace, index, receiver, head = self._step
        if self._given is not None and self._given[1] == lang:
            text: StepText | None = self._given[0]
        else:
            try:
                text = step_text(trace, index, lang, receiver, head)
            except KeyError:
                text = None
        if text is not None and (text, lang) == self._shown:
            return  # an edit that leaves every quoted number as it was: nothing to re-render
        self._shown = None if text is None else (text, lang)
        html = "" if text is None else step_html(text, lang)
        plain = "" if text is None else step_plain(text, lang)
        self.browser.setHtml(html)
        self.browser.setAccessibleDescription(plain)

    def _on_anchor(self, url: QUrl) -> None:
        term = term_from_href(url.toString())
        if term is not None:
            self.termActivated.emit(term)

    def retranslate(self) -> None:
        """Every text again in the interface language."""
        self.texts.apply()
        self._fill()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
