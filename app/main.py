"""Starting the window."""

from __future__ import annotations

import os
import sys

from app.model.examples import resolve_document


def run_window(document: str | None) -> int:
    """Open the studio window on ``document`` (a path or example name).

    Without a document, the last session comes back (F11 if its document is gone), and work
    left unsaved by a session that crashed is offered for restoring (see
    :mod:`app.window.startup`).
    """
    from PySide6.QtWidgets import QApplication

    from app.files.opening import load_checked
    from app.window.startup import configure_application, start_window
    from engine import ScenarioError

    if document and not _has_display():  # say it before Qt stops for want of a display
        try:
            load_checked(resolve_document(document))
        except ScenarioError as error:
            print(f"qkv-studio: {error}", file=sys.stderr)
            return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    configure_application(app)
    from app.i18n import start_language

    start_language()  # the saved choice, else the system locale's (zh_* → Chinese)
    start_window(document)  # a refused document is said in the window, over F11
    return app.exec()


def _has_display() -> bool:
    """Whether Qt can show a window: a display, or a platform chosen explicitly."""
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))
