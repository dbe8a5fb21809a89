"""The editor column's least width: its widest row, so no spin box, check box or label is cut
at the right edge however narrow the window (the canvas takes what is left). Folded away (while
comparing), the column asks for no width: two frames side by side need the room."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QScrollArea, QWidget


class EditorColumnWidth(QObject):
    """Keeps ``pane``'s minimum width at its rows' widest size hint, plus the scroll bar and
    the frame, following rows that come, go or change language (each asks for a new layout)."""

    def __init__(self, pane: QScrollArea) -> None:
        super().__init__(pane)
        self._pane = pane
        self._folded = False
        self._rows().installEventFilter(self)
        self.fit()

    def _rows(self) -> QWidget:
        rows = self._pane.widget()
        assert rows is not None, "the editor pane holds its rows from the start"
        return rows

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.fit()
        return False

    def set_folded(self, folded: bool) -> None:
        """Fold the column away (no least width) or bring its rows' width back."""
        self._folded = folded
        self.fit()

    def fit(self) -> None:
        """Set the least width from the rows as they are now (none while folded)."""
        pane = self._pane
        width = self._rows().minimumSizeHint().width() + \
            pane.verticalScrollBar().sizeHint().width() + 2 * pane.frameWidth()
        pane.setMinimumWidth(0 if self._folded else width)
