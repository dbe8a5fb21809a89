"""High contrast, the system's dark scheme and reduced motion; exports keep the slide theme."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.appearance import (
    REDUCE_MOTION_ENV,
    SCHEME_ENV,
    Appearance,
    appearance,
    environment_reduces_motion,
    system_prefers_high_contrast,
    system_scheme,
)
from app.canvas.theme import DARK, HIGH_CONTRAST, OKABE_ITO, SLIDE
from app.export.render import build_frame, render_image
from app.timeline import REDUCED_MOTION_SECONDS
from app.window import StudioWindow

Role = QPalette.ColorRole


def exported_background(window: StudioWindow) -> QColor:
    """The top-left pixel of the current frame exported from the window's own options."""
    frame = build_frame(window.state.trace, window.state.step, window.frame_options())
    image: QImage = render_image(frame, 1.0)
    return image.pixelColor(2, 2)


def test_high_contrast_from_the_view_menu(qtbot: QtBot, window: StudioWindow) -> None:
    action = window.view_menu.high_contrast_action
    assert not action.isChecked()
    assert window.canvas.theme is SLIDE
    action.trigger()
    assert appearance().high_contrast
    assert window.canvas.theme is HIGH_CONTRAST
    assert window.frame_options().theme is HIGH_CONTRAST
    assert window.canvas.frame is not None and window.canvas.frame.options.theme is HIGH_CONTRAST
    palette = QApplication.palette()
    assert palette.color(Role.Window) == QColor("#FFFFFF")
    assert palette.color(Role.WindowText) == QColor("#000000")
    assert palette.color(Role.Highlight) == QColor("#0000C0")
    assert exported_background(window) == QColor(SLIDE.background)
    action.trigger()
    assert window.canvas.theme is SLIDE
    assert QApplication.palette().color(Role.Highlight) != QColor("#0000C0")


def test_the_dark_scheme_gives_a_dark_window_and_a_light_export(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    look = appearance()
    monkeypatch.setenv(SCHEME_ENV, "dark")
    assert system_scheme() == "dark"
    look.refresh_scheme()
    try:
        assert window.canvas.theme is DARK
        assert window.canvas.frame is not None and window.canvas.frame.options.theme is DARK
        assert QApplication.palette().color(Role.Window).lightness() < 80
        assert QApplication.palette().color(Role.WindowText).lightness() > 200
        assert exported_background(window) == QColor(SLIDE.background), "exports stay light"
        window.view_menu.high_contrast_action.trigger()
        assert window.canvas.theme is HIGH_CONTRAST, "high contrast wins over the scheme"
        window.view_menu.high_contrast_action.trigger()
    finally:
        monkeypatch.delenv(SCHEME_ENV)
        look.refresh_scheme()
    assert system_scheme(appearance()._base_palette) == "light"
    assert window.canvas.theme is SLIDE


def test_every_theme_keeps_the_colour_blind_safe_palettes() -> None:
    for theme in (SLIDE, DARK, HIGH_CONTRAST):
        assert theme.heads == OKABE_ITO


def test_reduce_motion_slows_play_to_five_seconds_a_step(qtbot: QtBot,
                                                         window: StudioWindow) -> None:
    timeline = window.timeline
    timeline.dwell_box.setValue(0.1)
    assert timeline.dwell_ms() == 100
    window.view_menu.reduce_motion_action.trigger()
    assert appearance().reduce_motion and timeline.reduce_motion
    assert timeline.dwell_ms() == round(REDUCED_MOTION_SECONDS * 1000) == 5000
    assert "5 s" in timeline.dwell_box.toolTip()
    timeline.play()
    assert timeline.timer.interval() == 5000
    qtbot.wait(300)
    assert window.state.step == 0, "nothing moved within 0.3 s"
    window.view_menu.reduce_motion_action.trigger()
    assert timeline.timer.interval() == 100
    qtbot.waitUntil(lambda: window.state.step > 0, timeout=2000)
    timeline.pause()


def test_a_longer_dwell_is_kept_with_reduced_motion(window: StudioWindow) -> None:
    window.timeline.dwell_box.setValue(8.0)
    window.view_menu.reduce_motion_action.trigger()
    assert window.timeline.dwell_ms() == 8000


def test_defaults_come_from_the_environment(qapp: QApplication,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert system_prefers_high_contrast() is False  # the offscreen platform asks for none
    assert environment_reduces_motion() is False
    monkeypatch.setenv(REDUCE_MOTION_ENV, "1")
    assert environment_reduces_motion() is True
    fresh = Appearance()
    try:
        assert fresh.reduce_motion is True
        assert fresh.high_contrast is False
    finally:
        fresh.deleteLater()
    monkeypatch.setenv(REDUCE_MOTION_ENV, "no")
    assert environment_reduces_motion() is False


def test_the_choices_are_remembered(window: StudioWindow) -> None:
    window.view_menu.high_contrast_action.trigger()
    window.view_menu.reduce_motion_action.trigger()
    fresh = Appearance()
    try:
        assert fresh.high_contrast and fresh.reduce_motion
    finally:
        fresh.deleteLater()
    appearance().apply()
