"""The timeline's second level for a document with a generation run: a button per token of
the run (its own steps, read-only) and one for the whole document, and a banner while a token
is shown."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.i18n import LiveTexts, current_language
from app.model.run import RunToken, run_tokens
from app.plain_text import PlainLabel, as_written
from app.state.document import DocumentState
from app.texts.run_words import token_name, token_of


class RunLevel(QWidget):
    """``Run: [token 1 “你”] [token 2 “爱”] … [Whole document]``; hidden without a run.

    Choosing a token shows the trace of the document that drew it (the prompt and the tokens
    before it), its draw step current; any edit goes back to the whole document, as the banner
    says.
    """

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.texts = LiveTexts()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        self.run_label = PlainLabel()
        self.texts.bind(self.run_label.setText, lambda: self.tr("Generation run:"))
        line.addWidget(self.run_label)
        self.strip = QScrollArea()
        """The buttons, scrolled sideways when the run's tokens are more than the line holds
        (squeezed, they were drawn over one another at 1024 × 768)."""
        self.strip.setWidgetResizable(True)
        self.strip.setFrameShape(QFrame.Shape.NoFrame)
        self.strip.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.strip.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.strip.setFixedHeight(QPushButton("1").sizeHint().height()
                                  + self.strip.horizontalScrollBar().sizeHint().height() + 4)
        buttons = QWidget()
        self.row = QHBoxLayout(buttons)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.token_buttons: list[QPushButton] = []
        self.whole_button = QPushButton()
        self.whole_button.setCheckable(True)
        self.texts.bind(self.whole_button.setText, lambda: self.tr("Whole document"))
        self.texts.bind(self.whole_button.setToolTip, lambda: self.tr(
            "The whole document's steps, where edits apply"))
        self.whole_button.clicked.connect(lambda: self._choose(None))
        self.row.addWidget(self.whole_button)
        self.row.addStretch(1)
        self.strip.setWidget(buttons)
        line.addWidget(self.strip, 1)
        layout.addLayout(line)
        self.banner = PlainLabel()
        self.banner.setWordWrap(True)
        layout.addWidget(self.banner)
        self.texts.bind(self.setAccessibleName, lambda: self.tr("Generation run"))
        self._tokens: tuple[RunToken, ...] = ()
        self._refresh()
        state.traceChanged.connect(self._refresh)
        state.tokenChanged.connect(self._refresh)

    def place(self) -> str:
        """Where the shown steps are in the run (``Token 2 of 3 “爱”``); empty for the whole
        document."""
        place = self.state.run_place()
        return "" if place is None else token_of(place, current_language())

    def _choose(self, t: int | None) -> None:
        self.state.view_token(t)
        self._mark()  # pressing the shown one again leaves it checked

    def _refresh(self) -> None:
        tokens = run_tokens(self.state.scenario)
        if tokens != self._tokens:
            self._tokens = tokens
            self._rebuild()
        self.setVisible(bool(tokens))
        self._mark()

    def _rebuild(self) -> None:
        for button in self.token_buttons:
            self.row.removeWidget(button)
            button.deleteLater()
        self.token_buttons = []
        for token in self._tokens:
            button = QPushButton()
            button.setCheckable(True)
            button.clicked.connect(lambda _on=False, t=token.t: self._choose(t))
            self.row.insertWidget(token.t - 1, button)  # before Whole document
            self.token_buttons.append(button)
        self._name()

    def _name(self) -> None:
        lang = current_language()
        for token, button in zip(self._tokens, self.token_buttons, strict=True):
            button.setText(token_name(token.t, token.label, lang))
            button.setToolTip(as_written(self.tr("The steps that drew {token}: the prompt and "
                                                 "the tokens before it").format(
                token=token_name(token.t, token.label, lang))))

    def _mark(self) -> None:
        t = self.state.token
        for token, button in zip(self._tokens, self.token_buttons, strict=True):
            button.setChecked(token.t == t)
        self.whole_button.setChecked(t is None)
        shown = self.whole_button if t is None else next(
            (button for token, button in zip(self._tokens, self.token_buttons, strict=True)
             if token.t == t), self.whole_button)
        self.row.activate()  # buttons just made: placed before the strip scrolls to one
        self.strip.ensureWidgetVisible(shown)
        self.banner.setVisible(t is not None)
        if t is not None:
            self.banner.setText(self.tr(
                "Viewing {place} of the run: the steps that drew it, read-only. Edits apply to "
                "the whole document.").format(place=self.place()))

    def retranslate(self) -> None:
        self.texts.apply()
        self._name()
        self._mark()


__all__ = ["RunLevel"]
