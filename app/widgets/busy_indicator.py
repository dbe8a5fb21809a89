"""The status bar's sign that a big document is computing, with the Cancel that stops it."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.state.document import DocumentState
from app.widgets.cancellable_bar import CancellableBar


class BusyIndicator(CancellableBar):
    """A moving bar and Cancel, shown while the state computes a trace in a worker.

    Cancel takes the pending edits back (Redo brings them again); the canvas keeps showing the
    last computed step throughout.
    """

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(lambda: self.tr("Computing"), lambda: self.tr(
            "Stop computing and take back the edits not yet shown (Redo brings them back)"),
            parent)
        self.cancel_button.clicked.connect(state.cancel_compute)
        state.busyChanged.connect(self.setVisible)
        self.setVisible(state.busy)
