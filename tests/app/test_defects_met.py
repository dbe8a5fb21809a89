"""Defects met while making frames slide-grade (issue 11, item 6); each test failed first."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from pytestqt.qtbot import QtBot

from app.window import StudioWindow


def glyphs_missing(widget_text: str, metrics: QFontMetrics) -> list[str]:
    return [ch for ch in widget_text if not ch.isspace() and not metrics.inFontUcs4(ord(ch))]


def test_play_and_pause_show_themed_icons_and_no_missing_glyph(qtbot: QtBot,
                                                               window: StudioWindow) -> None:
    button = window.timeline.play_button
    metrics = QFontMetrics(button.font())
    assert not button.icon().isNull() and button.text() == "Play"
    assert glyphs_missing(button.text(), metrics) == []
    play_icon = button.icon().cacheKey()
    window.timeline.play()
    try:
        assert button.text() == "Pause"
        assert glyphs_missing(button.text(), metrics) == []  # U+23F8 drew a tofu box
        assert not button.icon().isNull() and button.icon().cacheKey() != play_icon
    finally:
        window.timeline.pause()


def test_at_the_last_step_left_still_steps_back(qtbot: QtBot, window: StudioWindow) -> None:
    timeline = window.timeline
    timeline.next_button.setFocus()
    for _ in range(4):
        qtbot.mouseClick(timeline.next_button, Qt.MouseButton.LeftButton)
    assert window.state.step == 4 and not timeline.next_button.isEnabled()
    assert window.focusWidget() is not timeline.dwell_box
    dwell = timeline.dwell_box.value()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Left)
    assert window.state.step == 3, "Left steps back instead of editing Dwell"
    assert timeline.dwell_box.value() == dwell
