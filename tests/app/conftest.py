"""Fixtures for the window tests: no modal box can block, every window is closed cleanly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.window import StudioWindow
from tests.app.driving import Dialogs, close_window, open_window


@pytest.fixture(autouse=True)
def dialogs(monkeypatch: pytest.MonkeyPatch) -> Dialogs:
    recorder = Dialogs()
    recorder.install(monkeypatch)
    return recorder


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    win = open_window(qtbot)
    yield win
    close_window(win)
