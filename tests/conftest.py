"""Shared test set-up: Qt runs offscreen; settings and data go to a temporary home."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import Phase, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

settings.register_profile("mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate],
                          database=None)
"""For mutmut (``--hypothesis-profile=mutation``, see docs/testing.md): a failing example is
enough to kill a mutant, so none is shrunk, and none is remembered between mutants."""


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """QSettings and data folders in a temporary place (Qt caches XDG_CONFIG_HOME, so its
    settings path is set explicitly as well)."""
    from PySide6.QtCore import QSettings

    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(config))
    yield


@pytest.fixture(scope="session", autouse=True)
def _empty_clipboard_at_exit() -> Iterator[None]:
    """The offscreen platform crashes at interpreter exit while the clipboard holds data that a
    test put there (PySide6 6.11); empty it once the session ends."""
    yield
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is not None:
        QGuiApplication.clipboard().clear()
