"""A one-line label that ends in “…” when its text does not fit; the whole text is its tooltip
and its accessible description."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """Shows as much of its text as fits, then “…”; it never widens its layout for a long text
    (a long step title such as “Encoder · Layer 1 · …” would squeeze the editor beside it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        self._whole = text
        self.setToolTip(text)
        self.setAccessibleDescription(text)
        self._fit()

    def clear(self) -> None:
        self.setText("")

    def text(self) -> str:
        """The whole text, whatever is shown of it."""
        return self._whole

    def shown_text(self) -> str:
        """What the label shows: the text, or its beginning and “…”."""
        return super().text()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        room = self.contentsRect().width()
        super().setText(self.fontMetrics().elidedText(self._whole, Qt.TextElideMode.ElideRight,
                                                      room))
