"""The status bar's sign that a big document is computing, with the Cancel that stops it."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from app.i18n import LiveTexts
from app.state.document import DocumentState


class BusyIndicator(QWidget):
    """A moving bar and Cancel, shown while the state computes a trace in a worker.

    Cancel takes the pending edits back (Redo brings them again); the canvas keeps showing the
    last computed step throughout.
    """

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.texts = LiveTexts()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: the work has no steps to count
        self.bar.setMaximumWidth(120)
        self.texts.bind(self.bar.setAccessibleName, lambda: self.tr("Computing"))
        self.cancel_button = QPushButton()
        self.texts.bind(self.cancel_button.setText, lambda: self.tr("Cancel"))
        self.texts.bind(self.cancel_button.setToolTip, lambda: self.tr(
            "Stop computing and take back the edits not yet shown (Redo brings them back)"))
        self.cancel_button.clicked.connect(state.cancel_compute)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # showing it never relays out (and refits) the canvas
        self.setSizePolicy(policy)
        state.busyChanged.connect(self.setVisible)
        self.setVisible(state.busy)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
        super().changeEvent(event)
