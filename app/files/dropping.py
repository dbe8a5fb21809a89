"""Dropping a scenario document (a ``.qkv.json`` or ``.json`` file) onto the window opens it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent

from app.state.window_lifetime import on_next_turn

if TYPE_CHECKING:
    from app.state.shell import Shell

SUFFIX = ".json"


def dropped_document(mime: QMimeData | None) -> Path | None:
    """The first local ``*.json`` file among the dragged URLs, if any."""
    if mime is None or not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            path = Path(url.toLocalFile())
            if path.name.lower().endswith(SUFFIX):
                return path
    return None


def accept_drag(event: QDragEnterEvent | QDragMoveEvent) -> None:
    """Show the drop as possible only for a document."""
    if dropped_document(event.mimeData()) is not None:
        event.acceptProposedAction()
    else:
        event.ignore()


def drop(shell: Shell, event: QDropEvent) -> None:
    """Open the dropped document once the drop has finished (a question may follow)."""
    path = dropped_document(event.mimeData())
    if path is None:
        event.ignore()
        return
    event.acceptProposedAction()
    # The drag source waits until dropEvent returns: ask about unsaved changes afterwards.
    on_next_turn(shell.widget(), lambda: shell.open_path(path))
