"""The block pane's switches for a layer's ``scale_dk``, ``rope_base``, ``rope_scaled`` and
``pre_norms``, driven
through the real widgets: each change one undo step, recomputed as the numbers recomputed here
say; a value the engine refuses is refused naming its place, and the old one stays."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLineEdit
from pytestqt.qtbot import QtBot

from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import parse_scenario
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.app.test_editor_stacks import choose_part
from tests.engine.test_engine_rope_base import _document
from tests.engine.test_engine_rope_scaled import _document as _unscaled_document


def shown(qtbot: QtBot, document: dict[str, object]) -> StudioWindow:
    win = StudioWindow(parse_scenario(document))
    win.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(win):
        win.show()
        win.activateWindow()
    return win


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    """Three pre-norm layers under RoPE of base 10000, one head of 4 columns; layer 2 turns by
    its own base 100."""
    win = shown(qtbot, _document())
    yield win
    close_window(win)


@pytest.fixture
def scaled(qtbot: QtBot) -> Iterator[StudioWindow]:
    """The same under yarn: layer 1 scaled, layer 2 by its own base 100 unscaled, layer 3 by the
    stack's base unscaled."""
    win = shown(qtbot, _unscaled_document())
    yield win
    close_window(win)


def type_number(qtbot: QtBot, edit: QLineEdit, text: str) -> None:
    """Click the field, replace its text by typing, press Enter — as a user would."""
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton, pos=edit.rect().center())
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def click(qtbot: QtBot, box: QCheckBox) -> None:
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())


def scores(window: StudioWindow, layer: str, root: float) -> np.ndarray:
    """q·k / √root of the layer's one head, from its turned rows."""
    arrays = window.state.trace.arrays
    return (arrays[f"{layer}.Q_rot"] @ arrays[f"{layer}.K_rot"].T)[None] / np.sqrt(root)


def test_the_number_under_the_root_is_typed_refused_cleared_and_undone(
        qtbot: QtBot, window: StudioWindow) -> None:
    choose_part(qtbot, window, "Layer 2")
    edit = window.editor.block_editor.scale_dk_edit
    assert edit.isVisibleTo(window) and edit.text() == "" and edit.placeholderText() == "dₖ = 4"
    np.testing.assert_allclose(window.state.trace.arrays["L2.scores"], scores(window, "L2", 4),
                               rtol=1e-14)
    type_number(qtbot, edit, "9")
    assert [layer.attention.scale_dk for layer in window.state.scenario.layers] == \
        [None, 9.0, None]
    np.testing.assert_allclose(window.state.trace.arrays["L2.scores"], scores(window, "L2", 9),
                               rtol=1e-14)
    assert window.state.undo_stack.undoText() == "layer 2: scores ÷ √9"
    for typed, shown in (("abc", "⚠ L2.scale_dk: “abc” is not a number; kept 9"),
                         ("-1", "⚠ layer 2: scores ÷ √−1: layers.1.attention.scale_dk: "
                                "expected a number above 0, got -1.0")):
        type_number(qtbot, edit, typed)
        assert window.editor.error_label.text() == shown
        assert window.state.scenario.layers[1].attention.scale_dk == 9.0 and edit.text() == "9"
    assert window.state.undo_stack.count() == 1
    type_number(qtbot, edit, "")  # blank: d_k again
    assert window.state.scenario.layers[1].attention.scale_dk is None
    assert window.state.undo_stack.undoText() == "layer 2: scores ÷ √dₖ"
    window.undo_action.trigger()
    assert window.state.scenario.layers[1].attention.scale_dk == 9.0 and edit.text() == "9"
    window.undo_action.trigger()
    assert window.state.scenario.layers[1].attention.scale_dk is None and edit.text() == ""


def test_unticking_the_division_takes_the_number_under_the_root_with_it(
        qtbot: QtBot, window: StudioWindow) -> None:
    choose_part(qtbot, window, "Layer 2")
    type_number(qtbot, window.editor.block_editor.scale_dk_edit, "9")
    click(qtbot, window.editor.scale_box)
    attention = window.state.scenario.layers[1].attention
    assert (attention.scale, attention.scale_dk) == (False, None)
    np.testing.assert_allclose(window.state.trace.arrays["L2.scores"], scores(window, "L2", 1),
                               rtol=1e-14)
    assert window.state.undo_stack.count() == 2
    assert window.state.undo_stack.undoText() == "layer 2: scaling off"
    window.undo_action.trigger()
    attention = window.state.scenario.layers[1].attention
    assert (attention.scale, attention.scale_dk) == (True, 9.0)
    assert window.editor.scale_box.isChecked()


def test_a_layers_own_rope_base_is_typed_refused_and_cleared_to_the_stacks(
        qtbot: QtBot, window: StudioWindow) -> None:
    choose_part(qtbot, window, "Layer 2")
    edit = window.editor.block_editor.rope_base_edit
    assert edit.text() == "100" and edit.placeholderText() == "the stack's: 10000"
    type_number(qtbot, edit, "1000")
    p = np.arange(3, dtype=np.float64)[:, None]
    np.testing.assert_allclose(window.state.trace.arrays["L2.rope_angles"],
                               p * 1000.0 ** (-np.arange(0, 4, 2) / 4), rtol=0, atol=1e-15)
    assert window.state.undo_stack.undoText() == "layer 2: own RoPE base 1000"
    type_number(qtbot, edit, "0")
    assert window.editor.error_label.text() == "⚠ layer 2: own RoPE base 0: " \
        "layers.1.attention.rope_base: expected a number above 0, got 0.0"
    assert window.state.scenario.layers[1].attention.rope_base == 1000.0 and edit.text() == "1000"
    type_number(qtbot, edit, "")
    assert window.state.scenario.layers[1].attention.rope_base is None
    assert "L2.rope_angles" not in window.state.trace.arrays
    assert window.state.trace.steps[window.state.trace.step_index("L2.rope")].reads[2] == \
        "rope_angles"
    assert window.state.undo_stack.undoText() == "layer 2: the stack's RoPE base"
    choose_part(qtbot, window, "Layer 1")
    assert edit.text() == "" and window.state.undo_stack.count() == 2


def test_a_document_without_rope_offers_no_rope_base(qtbot: QtBot) -> None:
    """F11 (no positions): its one attention's RoPE base field is greyed out, as a base there is
    refused; its number under the root stays open."""
    win = shown(qtbot, json.loads(example_path("f11").read_text(encoding="utf-8")))
    try:
        pane = win.editor.block_editor
        assert win.state.scenario.positions is None
        assert pane.rope_base_edit.isVisibleTo(win) and not pane.rope_base_edit.isEnabled()
        assert pane.scale_dk_edit.isEnabled() and pane.scale_dk_edit.placeholderText() == "dₖ = 2"
    finally:
        close_window(win)


def test_the_norms_before_the_sub_layers_switch_off_and_back_with_their_rows(
        qtbot: QtBot, window: StudioWindow) -> None:
    choose_part(qtbot, window, "Layer 1")
    box = window.editor.block_editor.pre_norms_box
    gamma1 = window.state.scenario.parameter("layers.0.block.gamma1").copy()
    assert box.isVisibleTo(window) and box.isChecked()
    click(qtbot, box)
    block = window.state.scenario.layers[0].block
    assert block is not None and not block.pre_norms
    arrays = window.state.trace.arrays
    attention = window.state.scenario.layers[0].attention
    np.testing.assert_allclose(arrays["L1.Q"], window.state.scenario.X @ attention.Wq,
                               rtol=1e-14)  # the stream itself, no norm before
    assert window.state.undo_stack.undoText() == "layer 1: norms before the sub-layers off"
    window.undo_action.trigger()
    assert box.isChecked()
    assert window.state.scenario.parameter("layers.0.block.gamma1").tobytes() == gamma1.tobytes()
    placement = window.editor.block_editor.placement_box
    placement.setCurrentIndex(placement.findData("post"))
    placement.activated.emit(placement.currentIndex())
    click(qtbot, box)  # a post-norm block has no sub-layer to put a norm before
    assert window.editor.error_label.text().startswith(
        "⚠ layer 1: norms before the sub-layers off: ")
    assert box.isChecked() and window.state.scenario.layers[0].block is not None
    assert window.state.scenario.layers[0].block.pre_norms


def test_a_layer_takes_the_stacks_rope_scaling_or_leaves_it_out(
        qtbot: QtBot, scaled: StudioWindow, window: StudioWindow) -> None:
    choose_part(qtbot, scaled, "Layer 3")
    box = scaled.editor.block_editor.rope_scaled_box
    assert box.isVisibleTo(scaled) and box.isEnabled() and not box.isChecked()
    click(qtbot, box)
    assert [layer.attention.rope_scaled for layer in scaled.state.scenario.layers] == \
        [True, False, True]
    trace = scaled.state.trace
    assert "L3.rope_angles" not in trace.arrays
    assert trace.steps[trace.step_index("L3.rope")].reads[2] == "rope_angles"
    p = np.arange(3, dtype=np.float64)[:, None]
    np.testing.assert_allclose(trace.arrays["rope_angles"],
                               p * 10000.0 ** (-np.arange(0, 4, 2) / 4) * [1.0, 0.25],
                               rtol=0, atol=1e-15)  # yarn: pair 1 divided by 4
    assert scaled.state.undo_stack.undoText() == "layer 3: the stack's RoPE scaling taken"
    scaled.undo_action.trigger()
    assert not scaled.state.scenario.layers[2].attention.rope_scaled and not box.isChecked()
    choose_part(qtbot, scaled, "Layer 2")
    click(qtbot, box)  # its own base beside the scaling it would take: refused
    assert scaled.editor.error_label.text().startswith(
        "⚠ layer 2: the stack's RoPE scaling taken: layers.1.attention.rope_base: ")
    assert not box.isChecked() and scaled.state.undo_stack.count() == 1
    choose_part(qtbot, window, "Layer 1")  # no scaling to take or leave out
    assert not window.editor.block_editor.rope_scaled_box.isEnabled()
    assert window.editor.block_editor.rope_scaled_box.isChecked()
