"""High contrast, the system's dark scheme and reduced motion; which theme exports take.

Files take the theme the export asks for (slide by default); Copy frame takes the window's light
theme (high contrast when it is on) and never the dark one. Both light themes have a white
background, so the tests compare whole pictures, pixel for pixel.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.theme import DARK, HIGH_CONTRAST, OKABE_ITO, SLIDE, Theme
from app.export.animation import rgb_array
from app.export.clipboard import PNG_MIME
from app.export.job import run_export
from app.export.render import build_frame, render_image
from app.export.settings import ExportRequest, export_size
from app.window.appearance import (
    REDUCE_MOTION_ENV,
    SCHEME_ENV,
    Appearance,
    appearance,
    environment_reduces_motion,
    system_prefers_high_contrast,
    system_scheme,
)
from app.window.studio import StudioWindow
from app.window.timeline import REDUCED_MOTION_SECONDS

Role = QPalette.ColorRole


def in_theme(window: StudioWindow, theme: Theme) -> np.ndarray:
    """The current frame drawn in ``theme`` at the export size, as RGB pixels."""
    options = replace(window.frame_options(), theme=theme)
    frame = build_frame(window.state.trace, window.state.step, options,
                        lang=window.timeline.lang)
    return rgb_array(render_image(frame, QSize(*export_size())))


def copied(window: StudioWindow) -> np.ndarray:
    """Edit → Copy frame, then the PNG on the clipboard as RGB pixels."""
    window.copy_frame_action.trigger()
    data = QGuiApplication.clipboard().mimeData()
    assert data is not None and data.hasFormat(PNG_MIME)
    with Image.open(io.BytesIO(bytes(data.data(PNG_MIME).data()))) as image:
        return np.asarray(image.convert("RGB"))


def exported(window: StudioWindow, folder: Path) -> np.ndarray:
    """The current step exported to a PNG file with the window's options and no theme asked."""
    request = ExportRequest(format="png", steps=(window.state.step,), destination=folder,
                            lang=window.timeline.lang)
    [path] = run_export(window.state.trace, request, window.frame_options())
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def test_copy_frame_takes_high_contrast_and_a_file_the_slide_theme(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path) -> None:
    slide, contrast = in_theme(window, SLIDE), in_theme(window, HIGH_CONTRAST)
    assert not np.array_equal(slide, contrast), "the two light themes draw differently"
    window.view_menu.high_contrast_action.trigger()
    assert np.array_equal(copied(window), contrast), "Copy frame copies what the canvas shows"
    assert np.array_equal(exported(window, tmp_path), slide), "a file takes its own theme"
    window.view_menu.high_contrast_action.trigger()
    assert np.array_equal(copied(window), slide)


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
    action.trigger()
    assert window.canvas.theme is SLIDE
    assert QApplication.palette().color(Role.Highlight) != QColor("#0000C0")


def test_the_dark_scheme_gives_a_dark_window_and_a_light_export(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    slide = in_theme(window, SLIDE)
    look = appearance()
    monkeypatch.setenv(SCHEME_ENV, "dark")
    assert system_scheme() == "dark"
    look.refresh_scheme()
    try:
        assert window.canvas.theme is DARK
        assert window.canvas.frame is not None and window.canvas.frame.options.theme is DARK
        assert QApplication.palette().color(Role.Window).lightness() < 80
        assert QApplication.palette().color(Role.WindowText).lightness() > 200
        assert np.array_equal(copied(window), slide), "a dark window copies the slide theme"
        window.view_menu.high_contrast_action.trigger()
        assert window.canvas.theme is HIGH_CONTRAST, "high contrast wins over the scheme"
        window.view_menu.high_contrast_action.trigger()
    finally:
        monkeypatch.delenv(SCHEME_ENV)
        look.refresh_scheme()
    assert system_scheme(appearance()._base_palette) == "light"
    assert window.canvas.theme is SLIDE


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_theme_keeps_the_colour_blind_safe_palettes() -> None:
    """Okabe–Ito for the first heads; twelve different colours (GPT-2 small's heads once shared
    the colours of heads 1–4); heads 8–12 stand out from their background (black was head 8 on
    the dark background too, 1.3 : 1)."""
    for theme in (SLIDE, DARK, HIGH_CONTRAST):
        assert theme.heads[:7] == OKABE_ITO[:7]
        assert len(set(theme.heads)) == len(theme.heads) == 12
        assert [theme.head_color(k).name() for k in range(12)] == [
            colour.lower() for colour in theme.heads]
        for colour in theme.heads[7:]:
            assert contrast(colour, theme.background) >= 2.8, (theme.name, colour)
    assert SLIDE.heads[7] == OKABE_ITO[7] == "#000000" != DARK.heads[7]


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
