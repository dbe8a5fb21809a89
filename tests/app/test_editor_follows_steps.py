"""The editor follows the timeline: stepping into a layer, a cross-attention or the encoder
shows that part with its own sizes, unless the user pinned a part by hand — through the real
window."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.window.studio import StudioWindow
from tests.app.test_editor_stacks import choose_part, shown_grids


def step_to(window: StudioWindow, step_id: str) -> None:
    window.state.set_step(window.state.trace.step_index(step_id))
    QApplication.processEvents()


def in_view(window: StudioWindow, widget: QWidget) -> bool:
    """Whether ``widget`` lies wholly inside the editor's visible area."""
    viewport = window.editor.viewport()
    top = widget.mapTo(viewport, QPoint(0, 0)).y()
    return widget.isVisibleTo(window) and top >= 0 and top + widget.height() <= viewport.height()


def test_stepping_into_layer_two_shows_layer_two(stack: StudioWindow) -> None:
    layer_bar = stack.editor.layer_bar
    assert layer_bar.part_box.currentText() == "Layer 1"
    step_to(stack, "L2.weights")  # step 13 of 30
    assert layer_bar.part_box.currentText() == "Layer 2"
    grids = shown_grids(stack)
    assert "layers.1.attention.Wq" in grids and all(p.startswith("layers.1.") for p in grids)
    assert in_view(stack, stack.editor.tables["layers.1.attention.Wq"])
    assert stack.editor.horizontalScrollBar().value() == 0, "the grids' left edge stays"
    step_to(stack, "final_norm")
    assert layer_bar.part_box.currentText() == "Head: final norm and vocabulary"
    assert shown_grids(stack) == ["head.gamma_f", "head.beta_f", "head.unembed"]


def test_the_encoder_shows_its_own_three_positions(translation: StudioWindow) -> None:
    editor = translation.editor
    step_to(translation, "enc.L1.scores")
    assert editor.layer_bar.part_box.currentText() == "Encoder layer 1"
    n_box = editor.size_boxes["n"]
    assert (n_box.value(), editor.size_labels["n"].text()) == (3, "Source positions n")
    assert len(translation.state.scenario.encoder.tokens) == 3  # type: ignore[union-attr]
    assert not n_box.isEnabled(), "the decoder's n is resized from the decoder's parts"
    step_to(translation, "L1.scores")
    assert editor.layer_bar.part_box.currentText() == "Layer 1"
    assert (n_box.value(), editor.size_labels["n"].text(), n_box.isEnabled()) == (
        2, "Positions n", True)


def test_stepping_into_the_cross_attention_shows_it(translation: StudioWindow) -> None:
    editor = translation.editor
    step_to(translation, "L1.cross.mix")  # from the encoder's first step, straight there
    title = editor.titles["layers.0.cross_attention.Wq"]
    assert in_view(translation, title)
    assert title.mapTo(editor.viewport(), QPoint(0, 0)).y() < title.height(), "at the top"
    step_to(translation, "L1.scores")
    assert in_view(translation, editor.tables["layers.0.attention.Wq"])
    step_to(translation, "L1.cross.weights")  # step 18 of 26
    assert editor.layer_bar.part_box.currentText() == "Layer 1"
    assert editor.cross_scale_box.isVisibleTo(translation)
    title = editor.titles["layers.0.cross_attention.Wq"]
    assert title.text() == "L1.cross.Wq"
    assert in_view(translation, title) and in_view(
        translation, editor.tables["layers.0.cross_attention.Wq"])
    assert editor.size_boxes["n"].value() == 2


def test_a_part_chosen_by_hand_stays_until_unpinned_or_another_document(
        qtbot: QtBot, stack: StudioWindow) -> None:
    layer_bar = stack.editor.layer_bar
    pin = layer_bar.pin_button
    assert (pin.isVisibleTo(stack), pin.isChecked(), pin.text(), pin.accessibleName()) == (
        True, False, "Pin", "Follows the timeline's step")
    choose_part(qtbot, stack, "Layer 3")
    assert (pin.isChecked(), pin.text(), pin.accessibleName()) == (
        True, "Pinned", "Pinned to this part")
    step_to(stack, "L2.weights")
    step_to(stack, "L1.mix")
    assert layer_bar.part_box.currentText() == "Layer 3", "pinned: the part stays"
    pin.click()  # unpin: back to the step's part at once
    assert (pin.isChecked(), layer_bar.part_box.currentText()) == (False, "Layer 1")
    choose_part(qtbot, stack, "Layer 3")
    assert stack.open_example("encoder-decoder")
    QApplication.processEvents()
    assert not pin.isChecked(), "another document: following again"
    step_to(stack, "enc.L1.mix")
    assert layer_bar.part_box.currentText() == "Encoder layer 1"
