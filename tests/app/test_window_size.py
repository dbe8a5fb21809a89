"""The window opens inside the screen: at 1024×768 nothing is pushed off its right edge."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.examples import example_path
from app.window import DEFAULT_SIZE, StudioWindow
from engine import load_scenario
from tests.app.driving import close_window


def test_the_first_size_fits_a_screen_smaller_than_the_default(qtbot: QtBot) -> None:
    window = StudioWindow(load_scenario(example_path("f11")))
    try:
        free = window.screen().availableGeometry()
        # The offscreen screen (800×800) is narrower than the default 1280×800, so this
        # checks the shrinking, not a default that happens to fit.
        assert free.width() < DEFAULT_SIZE[0]
        assert (window.width(), window.height()) == (
            min(DEFAULT_SIZE[0], free.width()), min(DEFAULT_SIZE[1], free.height()))
    finally:
        close_window(window)
