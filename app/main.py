"""Starting the window."""

from __future__ import annotations

import sys
from pathlib import Path

from app.examples import DEFAULT_EXAMPLE, example_path, resolve_document

APP_NAME = "QKV Studio"


def run_window(document: str | None) -> int:
    """Open the studio window on ``document`` (a path or example name; F11 by default)."""
    from PySide6.QtWidgets import QApplication

    from app.window import StudioWindow
    from engine import ScenarioError, load_scenario

    path = resolve_document(document) if document else example_path(DEFAULT_EXAMPLE)
    try:
        scenario = load_scenario(path)
    except ScenarioError as error:
        print(f"qkv-studio: {error}", file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    window = StudioWindow(scenario, None if document is None else Path(path))
    window.show()
    return app.exec()
