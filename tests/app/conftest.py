"""Fixtures for the window tests: no modal box can block, every window is closed cleanly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.window.studio import StudioWindow
from tests.app.driving import Dialogs, close_window, open_window


@pytest.fixture(autouse=True)
def dialogs(monkeypatch: pytest.MonkeyPatch) -> Dialogs:
    recorder = Dialogs()
    recorder.install(monkeypatch)
    return recorder


@pytest.fixture(autouse=True)
def _english_plain_look() -> Iterator[None]:
    """Every test starts and ends in English, without high contrast or reduced motion (the
    language and the look belong to the application, which outlives a test)."""
    yield
    from PySide6.QtWidgets import QApplication

    from app import i18n
    from app.window import appearance

    if QApplication.instance() is None:
        return
    i18n.set_language("en")
    if appearance._APPEARANCE:
        look = appearance._APPEARANCE[0]
        look.set_high_contrast(False)
        look.set_reduce_motion(False)
        look.refresh_scheme()
    QApplication.processEvents()


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    win = open_window(qtbot)
    yield win
    close_window(win)


@pytest.fixture
def g01(qtbot: QtBot) -> Iterator[StudioWindow]:
    """A window on the chapter's G01 decoder layer."""
    win = open_window(qtbot, "g01")
    yield win
    close_window(win)


@pytest.fixture
def stack(qtbot: QtBot) -> Iterator[StudioWindow]:
    """A window on the three-layer stack."""
    win = open_window(qtbot, "three-layers")
    yield win
    close_window(win)


@pytest.fixture
def translation(qtbot: QtBot) -> Iterator[StudioWindow]:
    """A window on the encoder–decoder example."""
    win = open_window(qtbot, "encoder-decoder")
    yield win
    close_window(win)
