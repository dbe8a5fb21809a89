"""Helpers for the document tests: patched file dialogs, quick edits, launch-time names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from app.model.examples import example_path
from app.window import startup
from app.window.studio import StudioWindow
from tests.app.driving import close_window


def example_document(name: str = "f11") -> dict[str, Any]:
    value: dict[str, Any] = json.loads(example_path(name).read_text(encoding="utf-8"))
    return value


def write_document(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def patch_open_dialog(monkeypatch: pytest.MonkeyPatch, path: Path | str) -> list[str]:
    """QFileDialog.getOpenFileName answers ``path``; returns the captions it was asked with."""
    asked: list[str] = []

    def answer(_parent: object, caption: str = "", *_args: object,
               **_kwargs: object) -> tuple[str, str]:
        asked.append(caption)
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(answer))
    return asked


def patch_save_dialog(monkeypatch: pytest.MonkeyPatch, path: Path | str) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (str(path), "")))


def make_modified(window: StudioWindow, value: float = 9.0) -> None:
    """An unsaved change (through the state, for tests where typing is not the point)."""
    assert window.state.edit_cell("attention.Wq", 0, 0, value)
    assert window.isWindowModified()


@pytest.fixture
def launch_names() -> Iterator[None]:
    """The names ``qkv-studio`` gives the application (settings and recovery places), undone
    afterwards; windows opened at launch are closed."""
    app = QCoreApplication.instance()
    assert app is not None
    before = (app.applicationName(), app.organizationName())
    startup.configure_application(app)
    yield
    for window in startup.WINDOWS:
        close_window(window)
    startup.WINDOWS.clear()
    app.setApplicationName(before[0])
    app.setOrganizationName(before[1])
