"""The row above the canvas: receiver in focus, head, arrow filter and fit."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QToolButton, QWidget

from app.canvas.context import HEADS_AT_ONCE
from app.i18n import LiveTexts
from app.model.operands import shown_token
from app.plain_text import PlainLabel
from app.state.document import DocumentState


class CanvasControls(QWidget):
    """Chooses what the canvas emphasises; all choices live in the document state."""

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.row = row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        self.texts = LiveTexts()
        bind = self.texts.bind
        self.receiver_box = QComboBox()
        bind(self.receiver_box.setAccessibleName,
             lambda: self.tr("Receiver: the query row in focus"))
        self.head_box = QComboBox()
        bind(self.head_box.setAccessibleName, lambda: self.tr("Head shown"))
        for box in (self.receiver_box, self.head_box):
            # Grow with the labels of every document (the default sizes once, on first show,
            # and clipped "2: 过滤" to "2: 过…" after a document with shorter tokens).
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.all_arrows_box = QCheckBox()
        bind(self.all_arrows_box.setText, lambda: self.tr("All arro&ws"))
        bind(self.all_arrows_box.setAccessibleName, lambda: self.tr("Show all arrows"))
        bind(self.all_arrows_box.setToolTip, lambda: self.tr(
            "With many positions only each row's strongest arrows are drawn; tick to draw them "
            "all"))
        # A tool button: a push button's 80 px minimum would keep the window wider than an
        # 800-px screen once the Exercise toggle shares the row.
        self.fit_button = QToolButton()
        bind(self.fit_button.setText, lambda: self.tr("Fit"))
        bind(self.fit_button.setAccessibleName, lambda: self.tr("Fit the frame to the view"))
        for text, widget in ((lambda: self.tr("&Receiver"), self.receiver_box),
                             (lambda: self.tr("&Head"), self.head_box)):
            label = PlainLabel()
            bind(label.setText, text)
            label.setBuddy(widget)
            row.addWidget(label)
            row.addWidget(widget)
        row.addWidget(self.all_arrows_box)
        row.addStretch(1)
        row.addWidget(self.fit_button)
        self._shown: tuple[object, ...] = ()
        self._fill()
        self.receiver_box.currentIndexChanged.connect(self._on_receiver)
        self.head_box.currentIndexChanged.connect(self._on_head)
        self.all_arrows_box.toggled.connect(state.set_show_all_arrows)
        state.traceChanged.connect(self._fill)
        state.viewChanged.connect(self._fill)  # a receiver chosen on the canvas or presenting

    def add_control(self, control: QWidget, stretch: int = 0) -> None:
        """Put ``control`` in the row, after the arrow filter (before the stretch and Fit)."""
        self.row.insertWidget(self.row.count() - 2, control, stretch)

    def _fill(self) -> None:
        """List the positions and heads of the document on screen: while a token of the run is
        viewed, the document that drew it (its prefix), else the whole document."""
        scenario = self.state.scenario if self.state.token is None else \
            self.state.trace.scenario
        heads = scenario.most_heads
        shown = (scenario.tokens, heads, self.state.receiver, self.state.head)
        if shown == self._shown:
            return
        self._shown = shown
        self.receiver_box.blockSignals(True)
        self.receiver_box.clear()
        for k, token in enumerate(scenario.tokens):
            self.receiver_box.addItem(f"{k}: {shown_token(token)}", k)
        self.receiver_box.setCurrentIndex(self.state.focused_receiver())
        self.receiver_box.blockSignals(False)
        self.head_box.blockSignals(True)
        self.head_box.clear()
        if heads <= HEADS_AT_ONCE:  # more are drawn one at a time (Head 1 for "all")
            self.head_box.addItem(self.tr("All heads"), None)
        for h in range(heads):
            self.head_box.addItem(self.tr("Head {n}").format(n=h + 1), h)
        self.head_box.setCurrentIndex(max(0, self.head_box.findData(self.state.head)))
        self.head_box.setEnabled(heads > 1)
        self.head_box.blockSignals(False)

    def retranslate(self) -> None:
        """Labels and the head list again in the interface language."""
        self.texts.apply()
        self._shown = ()
        self._fill()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _on_receiver(self, index: int) -> None:
        self.state.set_receiver(None if index == self.receiver_box.count() - 1 else index)

    def _on_head(self, index: int) -> None:
        self.state.set_head(self.head_box.itemData(index) if index >= 0 else None)
