"""Defects met while making frames slide-grade (issue 11, item 6); each test failed first."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPalette
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QStyle, QStyleOptionComboBox
from pytestqt.qtbot import QtBot

from app.model.edits import SetBlock, SetLabel
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import load_scenario
from tests.app.driving import close_window, open_window


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


def test_compare_opens_on_a_setting_that_applies(qtbot: QtBot, window: StudioWindow) -> None:
    # F11 has no decoder block: "the other norm" and "the other placement" are greyed out.
    compare = window.compare
    compare.action.trigger()
    try:
        assert compare.preset == "causal"
        model = compare.preset_box.model()
        assert model.item(compare.preset_box.currentIndex()).isEnabled()
        assert compare.problem_label.text() == "" and compare.item is not None
    finally:
        compare.action.trigger()


def test_compare_reopens_on_a_setting_that_applies_after_the_block_goes(
        qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        compare = window.compare
        assert compare.preset == "norm"  # G01 has a block: the first preset applies
        assert window.state.apply(SetBlock(False))
        compare.action.trigger()
        assert compare.preset == "causal" and compare.problem_label.text() == ""
        compare.action.trigger()
    finally:
        close_window(window)


def test_no_literal_underscore_in_dk_where_it_is_shown(qtbot: QtBot,
                                                       window: StudioWindow) -> None:
    window.state.set_step(2)  # scores, divided by √dₖ
    frame = window.canvas.frame
    assert frame is not None
    shown = [frame.heading.text, window.timeline.position_label.text(),
             window.timeline.summary_label.text(), window.timeline.check_label.text(),
             window.editor.scale_box.text(),
             *(window.compare.preset_box.itemText(k)
               for k in range(window.compare.preset_box.count())),
             *(label.text() for label in window.editor.findChildren(QLabel))]
    assert any("√dₖ" in text for text in shown)
    assert [text for text in shown if "d_k" in text or "d_v" in text] == []


def test_undo_merges_only_consecutive_edits_of_one_cell(qtbot: QtBot,
                                                        window: StudioWindow) -> None:
    state = window.state
    model = window.editor.tables["attention.Wq"].model()
    original = float(state.scenario.attention.Wq[0, 0])
    index = model.index(0, 0)
    assert model.setData(index, "2")
    window.undo_action.trigger()
    window.redo_action.trigger()
    assert not model.setData(index, "abc")  # refused: the cell keeps 2
    assert model.setData(index, "1e300")
    window.undo_action.trigger()
    assert state.scenario.attention.Wq[0, 0] == 2.0, "one Ctrl+Z undoes only the last edit"
    window.undo_action.trigger()
    assert state.scenario.attention.Wq[0, 0] == original
    # Typing twice in a row into one cell is still one step.
    assert model.setData(index, "3") and model.setData(index, "4")
    window.undo_action.trigger()
    assert state.scenario.attention.Wq[0, 0] == original


def test_the_status_line_says_what_ctrl_z_undid(qtbot: QtBot, window: StudioWindow) -> None:
    model = window.editor.tables["attention.Wq"].model()
    assert model.setData(model.index(0, 0), "2")
    status = window.statusBar()
    assert status.currentMessage().startswith("Wq[0,0] = 2 → shares for 爱:")
    window.undo_action.trigger()
    # Back to F11's shares 0.804 / 0.196, and the line says the edit was undone.
    assert status.currentMessage() == "Undone: Wq[0,0] = 2 → shares for 爱: 0.804 / 0.196"
    window.redo_action.trigger()
    assert status.currentMessage().startswith("Redone: Wq[0,0] = 2 → shares for 爱:")


def test_disabled_block_controls_do_not_show_the_previous_document(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        block = window.editor.block_editor
        assert block.eps_edit.text() == "0.00001" and block.final_norm_box.isChecked()
        window.show_document(load_scenario(example_path("f11")), None)
        assert window.state.scenario.block is None and not block.norm_box.isEnabled()
        assert block.eps_edit.text() == ""
        assert not block.final_norm_box.isChecked() and not block.head_box.isChecked()
        assert [box.currentText() for box in (block.norm_box, block.placement_box,
                                              block.activation_box)] == ["", "", ""]
        block.block_box.click()  # a new block shows its own defaults
        assert block.eps_edit.text() == "0.00001" and block.norm_box.currentText() == "LayerNorm"
    finally:
        close_window(window)


def luminance(colour: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return (0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF())
            + 0.0722 * channel(colour.blueF()))


def contrast(a: QColor, b: QColor) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mean_grey(image: QImage) -> float:
    image = image.convertToFormat(QImage.Format.Format_Grayscale8)
    values = [image.pixelColor(x, y).red() for x in range(image.width())
              for y in range(image.height())]
    return sum(values) / len(values)


def test_in_high_contrast_disabled_controls_look_disabled(qtbot: QtBot,
                                                          window: StudioWindow) -> None:
    window.view_menu.high_contrast_action.trigger()
    QApplication.processEvents()  # the widgets take the new palette
    try:
        palette = QApplication.palette()
        disabled, active = QPalette.ColorGroup.Disabled, QPalette.ColorGroup.Active
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
            assert palette.color(disabled, role) != palette.color(active, role), role
            # Still readable: the disabled text keeps at least 4.5:1 on the disabled fill.
            assert contrast(palette.color(disabled, QPalette.ColorRole.Text),
                            palette.color(disabled, role)) >= 4.5
        box = window.editor.block_editor.eps_edit  # F11: no block, the field is disabled
        assert not box.isEnabled()
        dimmed = mean_grey(box.grab().toImage())
        box.setEnabled(True)
        lit = mean_grey(box.grab().toImage())
        box.setEnabled(False)
        assert lit - dimmed >= 15, (lit, dimmed)
    finally:
        window.view_menu.high_contrast_action.trigger()


def text_room(box: QComboBox) -> float:
    """How wide the combo box's text field is, as the style lays it out."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                       QStyle.SubControl.SC_ComboBoxEditField, box)
    return field.width()


def test_the_receiver_box_grows_with_longer_token_labels(qtbot: QtBot,
                                                         window: StudioWindow) -> None:
    box = window.controls.receiver_box
    assert window.state.apply(SetLabel("tokens", 1, "过滤"))
    window.state.set_receiver(1)
    QApplication.processEvents()
    assert box.currentText() == "1: 过滤"
    assert text_room(box) >= box.fontMetrics().horizontalAdvance("1: 过滤"), "clipped"
    assert window.state.apply(SetLabel("tokens", 1, "slept soundly"))
    QApplication.processEvents()
    assert text_room(box) >= box.fontMetrics().horizontalAdvance("1: slept soundly")


def test_a_refusal_banner_does_not_push_the_grids_down(qtbot: QtBot,
                                                       window: StudioWindow) -> None:
    editor = window.editor
    table = editor.tables["attention.Wq"]
    body = editor.widget()

    def grid_top() -> int:
        QApplication.processEvents()
        return table.mapTo(body, table.rect().topLeft()).y()

    before = grid_top()
    model = table.model()
    assert not model.setData(model.index(0, 0), "abc")
    assert editor.error_label.isVisible() and "abc" in editor.error_label.text()
    assert grid_top() == before
    assert model.setData(model.index(0, 0), "2")  # an accepted edit hides the banner again
    assert not editor.error_label.isVisible() and grid_top() == before


@pytest.mark.parametrize("example", ["f11", "g01"])
def test_the_timeline_buttons_stay_put_from_step_to_step(qtbot: QtBot, example: str) -> None:
    window = open_window(qtbot, example)
    try:
        window.resize(1280, 800)
        timeline = window.timeline
        buttons = {"previous": timeline.previous_button, "play": timeline.play_button,
                   "step 1": timeline.step_group.button(0)}
        heights: dict[str, set[int]] = {name: set() for name in buttons}
        for k in range(len(window.state.trace.steps)):
            window.state.set_step(k)
            QApplication.processEvents()
            for name, button in buttons.items():
                assert button is not None
                heights[name].add(button.mapTo(window, button.rect().topLeft()).y())
        assert all(len(ys) == 1 for ys in heights.values()), heights
    finally:
        close_window(window)
