"""Window items a back row notices: no empty band above the editor, step titles that keep
their start when cut, whole words only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.widgets.elided_label import ElidedLabel
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "three-layers")
    yield window
    close_window(window)


def test_the_editor_starts_with_its_sizes_not_an_empty_band(window: StudioWindow) -> None:
    editor = window.editor
    body = editor.widget()
    sizes = editor.size_boxes["n"].parentWidget()
    assert sizes is not None and sizes.title() == "Sizes"
    margin = body.layout().contentsMargins().top()
    assert sizes.mapTo(body, QPoint(0, 0)).y() <= margin, "nothing above the Sizes box"
    model = editor.tables["layers.0.attention.Wq"].model()
    assert not model.setData(model.index(0, 0), "abc")
    banner = editor.error_label
    assert banner.isVisible() and "abc" in banner.text()
    assert banner.parentWidget() is editor.viewport(), "floats over the top of the view"
    assert (banner.y(), banner.width()) == (0, editor.viewport().width())
    assert sizes.mapTo(body, QPoint(0, 0)).y() <= margin, "and pushes nothing down"


def test_a_cut_title_keeps_its_start_and_whole_words(qtbot: QtBot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    whole = "Step 1 of 5 · One input, three parameter paths"
    metrics = label.fontMetrics()
    # Room for everything up to the middle of "parameter": a character cut would show
    # "… three paramete…".
    label.setFixedWidth(metrics.horizontalAdvance("Step 1 of 5 · One input, three paramete…"))
    label.setText(whole)
    shown = label.shown_text()
    assert shown == "Step 1 of 5 · One input, three…"
    assert label.text() == label.toolTip() == label.accessibleDescription() == whole


def test_at_1024_the_timeline_title_shows_the_steps_own_title(window: StudioWindow) -> None:
    window.setFixedSize(1024, 768)
    window.state.set_step(window.state.trace.step_index("L2.weights"))  # step 13 of 30
    QApplication.processEvents()
    label = window.timeline.position_label
    title = "Causal mask and softmax shares"
    assert label.text() == f"Step 13 of 30 · Layer 2 · {title}"
    shown = label.shown_text()
    assert shown.startswith(f"13/30 · {title[:20]}"), shown
    words = shown.removeprefix("13/30 · ").removesuffix("…").split()
    assert words == title.split()[:len(words)], "the title's start, in whole words"
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
