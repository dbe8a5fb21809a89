"""A moving bar and a Cancel button for the status bar, for work off the interface thread."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QSizePolicy, QWidget

from app.i18n import LiveTexts


class CancellableBar(QWidget):
    """A moving bar named ``busy()`` and a Cancel button whose tooltip is ``cancel_tip()``,
    hidden until shown; the status bar keeps their room while hidden, so showing them never
    relays out (and refits) the canvas. The texts are the subclass's own (``self.tr``), told
    again when the language changes."""

    def __init__(self, busy: Callable[[], str], cancel_tip: Callable[[], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.texts = LiveTexts()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: the work has no steps to count
        self.bar.setMaximumWidth(120)
        self.texts.bind(self.bar.setAccessibleName, busy)
        self.cancel_button = QPushButton()
        self.cancel_button.setSizePolicy(QSizePolicy.Policy.Maximum,
                                         QSizePolicy.Policy.Fixed)  # as wide as its word
        self.texts.bind(self.cancel_button.setText, lambda: self.tr("Cancel"))
        self.texts.bind(self.cancel_button.setToolTip, cancel_tip)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
        super().changeEvent(event)
