"""Layouts applied now rather than at the next turn of the event loop: a widget that grew asks
its parent's layout, which asks the one above it, one posted request per level."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject

LAYOUT_LEVELS = 12
"""More than the window's layouts nest: a size change reaches the window within as many
rounds of layout requests."""


class _Requests(QObject):
    """Counts the layout requests delivered while it watches the application."""

    def __init__(self) -> None:
        super().__init__()
        self.delivered = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.delivered += 1
        return False


def lay_out_now() -> None:
    """Deliver the layout requests posted so far, then those they post in turn, until a round
    delivers none (at most :data:`LAYOUT_LEVELS` rounds): every widget then has the size its
    layouts give it."""
    application = QCoreApplication.instance()
    if application is None:
        return
    requests = _Requests()
    application.installEventFilter(requests)
    try:
        for _level in range(LAYOUT_LEVELS):
            requests.delivered = 0
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            if not requests.delivered:
                break
    finally:
        application.removeEventFilter(requests)
