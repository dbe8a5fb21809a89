"""The editor follows the tree: a stack shown one part at a time, layers added, duplicated,
moved and removed from the Edit menu and the editor's buttons, an encoder–decoder's source
tokens and cross-attention, saving and opening every number bit for bit — all through the real
window."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import Scenario, compute, load_scenario
from engine.format.numbers import format_exact
from engine.format.writer import to_document
from tests.app.documents_support import patch_save_dialog
from tests.app.driving import close_window, open_window, type_into


def shown_grids(window: StudioWindow) -> list[str]:
    """The paths of the grids the editor shows now."""
    return [path for path, table in window.editor.tables.items() if table.isVisibleTo(window)]


def menu_action(window: StudioWindow, text: str) -> None:
    """Trigger the Edit menu's entry ``text`` (ampersands left out), as a click would."""
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    found = [a for a in edit.actions() if a.text().replace("&", "") == text]
    assert len(found) == 1, f"no Edit menu entry {text!r}"
    assert found[0].isEnabled(), f"{text!r} is disabled"
    found[0].trigger()


def choose_part(qtbot: QtBot, window: StudioWindow, title: str) -> None:
    """Pick ``title`` in the editor's Show box with the keyboard."""
    box = window.editor.layer_bar.part_box
    box.setFocus()
    target = box.findText(title)
    assert target >= 0, f"no part {title!r} in {[box.itemText(k) for k in range(box.count())]}"
    key = Qt.Key.Key_Down if target > box.currentIndex() else Qt.Key.Key_Up
    while box.currentIndex() != target:
        qtbot.keyClick(box, key)
    assert window.editor.part == window.editor.layer_bar.parts[target]


def same_numbers(a: Scenario, b: Scenario) -> None:
    assert a.parameter_paths() == b.parameter_paths()
    for path in a.parameter_paths():
        assert a.parameter(path).tobytes() == b.parameter(path).tobytes(), path
    assert to_document(a) == to_document(b)


# -- a stack, one part at a time ---------------------------------------------------------------
def test_a_stack_is_shown_one_layer_at_a_time(qtbot: QtBot, stack: StudioWindow) -> None:
    editor = stack.editor
    box = editor.layer_bar.part_box
    assert [box.itemText(k) for k in range(box.count())] == [
        "Inputs and positions", "Layer 1", "Layer 2", "Layer 3",
        "Head: final norm and vocabulary"]
    assert box.isVisibleTo(stack)
    choose_part(qtbot, stack, "Layer 2")
    grids = shown_grids(stack)
    assert grids and all(path.startswith("layers.1.") for path in grids)
    assert "layers.1.attention.Wq" in grids and "layers.1.block.ffn.W2" in grids
    assert editor.titles["layers.1.attention.Wq"].text() == "L2.Wq"
    assert not editor.positions_editor.isVisibleTo(stack)
    choose_part(qtbot, stack, "Head: final norm and vocabulary")
    assert shown_grids(stack) == ["head.gamma_f", "head.beta_f", "head.unembed"]
    assert editor.block_editor.vocab_table.isVisibleTo(stack)
    choose_part(qtbot, stack, "Inputs and positions")
    assert shown_grids(stack) == ["X"]
    assert editor.positions_editor.isVisibleTo(stack) and editor.token_table.isVisibleTo(stack)


def test_typing_into_layer_two_changes_layer_two_and_after_only(
        qtbot: QtBot, stack: StudioWindow) -> None:
    before = stack.state.trace
    choose_part(qtbot, stack, "Layer 2")
    type_into(qtbot, stack.editor.tables["layers.1.attention.Wq"], 0, 1, "2.5")
    scenario = stack.state.scenario
    assert scenario.parameter("layers.1.attention.Wq")[0, 1] == 2.5
    assert stack.state.undo_stack.undoText() == "L2.Wq[0,1] = 2.5"
    after = stack.state.trace
    changed = {name for name in before.arrays
               if not np.array_equal(before.arrays[name], after.arrays[name])}
    assert not any(name.startswith("L1.") for name in changed)
    assert "X" not in changed and "L2.norm1" not in changed and "L2.K" not in changed
    assert {"L2.Q", "L2.scores", "L2.weights", "L3.weights", "probs"} <= changed
    np.testing.assert_array_equal(after.arrays["L2.Q"],
                                  after.arrays["L2.norm1"] @ scenario.parameter(
                                      "layers.1.attention.Wq"))


def test_a_layers_options_change_that_layer_only(qtbot: QtBot, stack: StudioWindow) -> None:
    choose_part(qtbot, stack, "Layer 3")
    causal = stack.editor.causal_box
    assert causal.isVisibleTo(stack) and causal.isChecked()
    qtbot.mouseClick(causal, Qt.MouseButton.LeftButton, pos=causal.rect().center())
    layers = stack.state.scenario.layers
    assert [layer.attention.causal for layer in layers] == [True, True, False]
    assert stack.state.undo_stack.undoText() == "layer 3: causal mask off"
    weights = stack.state.trace.arrays["L3.weights"]
    assert weights[0, 0, 2] > 0  # the first token now reads the last
    placement = stack.editor.block_editor.placement_box
    placement.setCurrentIndex(placement.findData("post"))
    placement.activated.emit(placement.currentIndex())
    assert [layer.block.placement for layer in stack.state.scenario.layers  # type: ignore[union-attr]
            ] == ["pre", "pre", "post"]
    assert stack.state.undo_stack.undoText() == "layer 3: post-norm"


def test_a_refused_cell_names_its_layer_and_keeps_its_value(
        qtbot: QtBot, stack: StudioWindow) -> None:
    choose_part(qtbot, stack, "Layer 2")
    old = stack.state.scenario.parameter("layers.1.block.ffn.W1")[1, 2]
    type_into(qtbot, stack.editor.tables["layers.1.block.ffn.W1"], 1, 2, "abc")
    assert stack.editor.error_label.text() == \
        f"⚠ L2.W1[1,2]: “abc” is not a number; kept {format_exact(old)}"
    assert stack.state.scenario.parameter("layers.1.block.ffn.W1")[1, 2] == old
    assert stack.state.undo_stack.count() == 0


# -- layer operations ------------------------------------------------------------------------
def test_adding_a_second_layer_to_the_shorthand_is_one_step_and_undo_gives_it_back(
        qtbot: QtBot, g01: StudioWindow) -> None:
    original = g01.state.scenario
    editor = g01.editor
    assert not editor.layer_bar.part_box.isVisibleTo(g01)  # the shorthand is one part
    assert "attention.Wq" in editor.tables
    menu_action(g01, "Add layer")
    scenario = g01.state.scenario
    assert len(scenario.layers) == 2 and not scenario.shorthand
    assert g01.state.undo_stack.count() == 1
    assert g01.state.undo_stack.undoText() == "add layer 2"
    assert editor.part == "layers.1", "the editor shows the new layer"
    assert editor.layer_bar.part_box.isVisibleTo(g01)
    assert "attention.Wq" not in editor.tables
    assert all(path.startswith("layers.1.") for path in shown_grids(g01))
    trace = g01.state.trace
    assert "L1.Q" in trace.arrays and "L2.Q" in trace.arrays and "Q" not in trace.arrays
    np.testing.assert_array_equal(trace.arrays["L1.weights"], compute(original).arrays["weights"])
    g01.undo_action.trigger()
    same_numbers(g01.state.scenario, original)
    assert g01.state.scenario.shorthand and "attention.Wq" in editor.tables
    assert not editor.layer_bar.part_box.isVisibleTo(g01)
    assert "Q" in g01.state.trace.arrays
    g01.redo_action.trigger()
    assert len(g01.state.scenario.layers) == 2


def test_layer_buttons_duplicate_move_and_remove(qtbot: QtBot, stack: StudioWindow) -> None:
    original = stack.state.scenario
    bar = stack.editor.layer_bar
    buttons = {button.text(): button for button in bar.buttons}
    assert list(buttons) == ["+ Add", "Duplicate", "Remove", "↑", "↓"]
    choose_part(qtbot, stack, "Layer 1")
    assert not buttons["↑"].isEnabled() and buttons["↓"].isEnabled()
    qtbot.mouseClick(buttons["Duplicate"], Qt.MouseButton.LeftButton)
    scenario = stack.state.scenario
    assert len(scenario.layers) == 4 and stack.editor.part == "layers.1"
    assert scenario.parameter("layers.1.attention.Wv").tobytes() == \
        original.parameter("layers.0.attention.Wv").tobytes()
    qtbot.mouseClick(buttons["↓"], Qt.MouseButton.LeftButton)
    assert stack.editor.part == "layers.2", "the editor follows the moved layer"
    scenario = stack.state.scenario
    assert scenario.parameter("layers.2.attention.Wv").tobytes() == \
        original.parameter("layers.0.attention.Wv").tobytes()
    assert scenario.parameter("layers.1.attention.Wv").tobytes() == \
        original.parameter("layers.1.attention.Wv").tobytes()
    qtbot.mouseClick(buttons["Remove"], Qt.MouseButton.LeftButton)
    assert len(stack.state.scenario.layers) == 3
    texts = [stack.state.undo_stack.text(k) for k in range(stack.state.undo_stack.count())]
    assert texts == ["duplicate layer 1", "move layer 2 down", "remove layer 3"]
    for _ in texts:
        stack.undo_action.trigger()
    same_numbers(stack.state.scenario, original)


def test_remove_is_disabled_on_the_last_layer_and_layer_actions_on_other_parts(
        qtbot: QtBot, g01: StudioWindow) -> None:
    bar = g01.editor.layer_bar
    assert not bar.remove_action.isEnabled() and not bar.up_action.isEnabled()
    assert not bar.down_action.isEnabled() and bar.add_action.isEnabled()
    menu_action(g01, "Add layer")
    choose_part(qtbot, g01, "Head: final norm and vocabulary")
    assert not bar.remove_action.isEnabled() and not bar.duplicate_action.isEnabled()
    menu_action(g01, "Add layer")  # from another part: after the last layer
    assert len(g01.state.scenario.layers) == 3 and g01.editor.part == "layers.2"


def test_the_undo_steps_are_named_in_chinese(qtbot: QtBot, stack: StudioWindow) -> None:
    from app import i18n

    choose_part(qtbot, stack, "Layer 2")
    menu_action(stack, "Duplicate layer")
    i18n.set_language("zh")
    QApplication.processEvents()
    assert stack.state.undo_stack.undoText() == "复制第 2 层"
    assert stack.editor.layer_bar.part_box.itemText(2) == "第 2 层"


# -- encoder–decoder -------------------------------------------------------------------------
def test_the_encoder_decoder_shows_the_source_the_encoder_layers_and_cross_attention(
        qtbot: QtBot, translation: StudioWindow) -> None:
    editor = translation.editor
    box = editor.layer_bar.part_box
    assert [box.itemText(k) for k in range(box.count())] == [
        "Inputs and positions", "Encoder: source tokens", "Encoder layer 1", "Layer 1",
        "Head: final norm and vocabulary"]
    choose_part(qtbot, translation, "Encoder: source tokens")
    assert shown_grids(translation) == ["encoder.X", "encoder.gamma_f", "encoder.beta_f"]
    assert editor.source_table.isVisibleTo(translation)
    assert editor.tables["encoder.X"].model().headerData(
        1, Qt.Orientation.Vertical) == "love"
    choose_part(qtbot, translation, "Encoder layer 1")
    assert not editor.causal_box.isVisibleTo(translation), "an encoder is never causal"
    choose_part(qtbot, translation, "Layer 1")
    grids = shown_grids(translation)
    assert "layers.0.cross_attention.Wk" in grids and "layers.0.block.gamma_c" in grids
    assert editor.titles["layers.0.cross_attention.Wk"].text() == "L1.cross.Wk"
    assert editor.cross_scale_box.isVisibleTo(translation)
    # The source rows are 3 wide in the keys: the cross-attention shares are 2 × 3.
    assert translation.state.trace.arrays["L1.cross.weights"].shape == (1, 2, 3)
    type_into(qtbot, editor.tables["layers.0.cross_attention.Wk"], 1, 0, "0")
    assert translation.state.undo_stack.undoText() == "L1.cross.Wk[1,0] = 0"
    weights = translation.state.trace.arrays["L1.cross.weights"][0]
    # "我" no longer finds "love": its query row meets three equal keys but "I"'s.
    assert weights[1, 1] < 0.5


def test_renaming_a_source_token_is_one_step(qtbot: QtBot, translation: StudioWindow) -> None:
    choose_part(qtbot, translation, "Encoder: source tokens")
    type_into(qtbot, translation.editor.source_table, 0, 2, "them")
    encoder = translation.state.scenario.encoder
    assert encoder is not None and encoder.tokens == ("I", "love", "them")
    assert translation.state.undo_stack.undoText() == "source token 2 = them"


# -- save and open ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["three-layers", "encoder-decoder"])
def test_an_edited_stack_saves_and_opens_bit_for_bit(
        qtbot: QtBot, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(qtbot, name)
    try:
        choose_part(qtbot, window, "Layer 1")
        # Numbers whose shortest text is long, and one near the bottom of the float range.
        type_into(qtbot, window.editor.tables["layers.0.attention.Wq"], 0, 0,
                  "0.30000000000000004")
        type_into(qtbot, window.editor.tables["layers.0.attention.Wk"], 1, 1, "1e-300")
        menu_action(window, "Duplicate layer")
        edited = window.state.scenario
        assert edited.parameter("layers.1.attention.Wq")[0, 0] == 0.1 + 0.2
        target = tmp_path / f"{name}.qkv.json"
        patch_save_dialog(monkeypatch, target)
        assert window.save_as()
        assert window.open_path(example_path("f11"))
        assert window.open_path(target)
        same_numbers(window.state.scenario, edited)
        trace = window.state.trace
        for key, values in compute(edited).arrays.items():
            assert trace.arrays[key].tobytes() == values.tobytes(), key
    finally:
        close_window(window)


def test_the_timeline_stays_on_the_same_step_when_the_shorthand_becomes_a_stack(
        qtbot: QtBot, g01: StudioWindow) -> None:
    ids = [s.id for s in g01.state.trace.steps]
    g01.state.set_step(ids.index("weights"))
    menu_action(g01, "Add layer")
    assert g01.state.trace.steps[g01.state.step].id == "L1.weights"
    g01.undo_action.trigger()
    assert g01.state.trace.steps[g01.state.step].id == "weights"


def test_at_1024_by_768_the_editor_keeps_its_width_beside_a_long_step_title(
        qtbot: QtBot, translation: StudioWindow) -> None:
    translation.resize(1024, 768)
    QApplication.processEvents()
    title = translation.timeline.position_label
    assert "Encoder" in title.text() and title.toolTip() == title.text()
    assert translation.editor.width() >= 300
    choose_part(qtbot, translation, "Layer 1")
    assert not translation.editor.block_editor.vocab_table.isVisibleTo(translation), \
        "a layer's block shows no vocabulary"


def test_a_layers_block_and_the_head_switch_on_and_off(qtbot: QtBot,
                                                       stack: StudioWindow) -> None:
    choose_part(qtbot, stack, "Layer 2")
    block_box = stack.editor.block_editor.block_box
    assert block_box.isChecked()
    qtbot.mouseClick(block_box, Qt.MouseButton.LeftButton, pos=block_box.rect().center())
    layers = stack.state.scenario.layers
    assert [layer.block is not None for layer in layers] == [True, False, True]
    assert stack.state.undo_stack.undoText() == "layer 2: remove decoder block"
    ids = [s.id for s in stack.state.trace.steps]
    assert "L2.weights" in ids and "L2.ffn" not in ids and "L1.ffn" in ids
    assert not stack.editor.block_editor.norm_box.isEnabled()
    choose_part(qtbot, stack, "Head: final norm and vocabulary")
    head_box = stack.editor.block_editor.head_box
    assert head_box.isVisibleTo(stack) and head_box.isChecked()
    qtbot.mouseClick(head_box, Qt.MouseButton.LeftButton, pos=head_box.rect().center())
    head = stack.state.scenario.head
    assert head is not None and head.unembed is None and head.final_norm
    assert "probs" not in stack.state.trace.arrays
    assert "head.unembed" not in stack.editor.tables
    assert stack.state.undo_stack.undoText() == "remove vocabulary head"


def test_another_document_leaves_no_old_grid_on_screen(qtbot: QtBot) -> None:
    """Opening G01 over F11 rebuilds the grids at once: F11's grids and their titles leave the
    screen before Qt gets round to deleting them (they stood over the token labels); one X
    title remains, G01's own."""
    window = open_window(qtbot, "f11")
    try:
        old = set(window.editor.tables.values())
        window.show_document(load_scenario(example_path("g01")), None)
        QApplication.processEvents()
        body = window.editor.widget()
        titles = [label for label in body.findChildren(QLabel)
                  if label.isVisibleTo(window) and label.text() == "X · input rows (one per token)"]
        assert len(titles) == 1
        assert [table for table in old if table.isVisibleTo(window)] == []
    finally:
        close_window(window)
