"""Editing the decoder block with the real widgets: each change one undo step, recomputed live,
the trace equal to what the engine computes for the same document."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.window.studio import StudioWindow
from engine import Trace, compute, parse_scenario
from engine.format.writer import to_document
from tests.app.driving import close_window, open_window, type_into


def assert_same_trace(got: Trace, expected: Trace) -> None:
    assert [s.id for s in got.steps] == [s.id for s in expected.steps]
    assert list(got.arrays) == list(expected.arrays)
    for name, values in expected.arrays.items():
        np.testing.assert_array_equal(got.arrays[name], values, err_msg=name)


def choose(qtbot: QtBot, combo: QComboBox, data: str) -> None:
    """Pick the entry holding ``data`` with the arrow keys, as a user would."""
    combo.setFocus()
    key = Qt.Key.Key_Down if combo.findData(data) > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentData() != data:
        before = combo.currentIndex()
        qtbot.keyClick(combo, key)
        assert combo.currentIndex() != before, f"{data!r} cannot be reached"


def test_typing_into_the_vocabulary_head_changes_only_logits_and_probs(
        qtbot: QtBot, g01: StudioWindow) -> None:
    before = g01.state.trace
    type_into(qtbot, g01.editor.tables["block.unembed"], 0, 0, "3")
    after = g01.state.trace
    assert after.scenario.parameter("block.unembed")[0, 0] == 3.0
    changed = [name for name in before.arrays
               if not np.array_equal(before.arrays[name], after.arrays[name])]
    assert changed == ["logits", "probs"]
    final = before.arrays["final_norm"]
    expected = final @ np.array([[3.0, 0.0, -1.0], [0.0, 1.0, 0.5]])
    np.testing.assert_allclose(after.arrays["logits"], expected, rtol=1e-15)
    exps = np.exp(expected - expected.max(axis=1, keepdims=True))
    np.testing.assert_allclose(after.arrays["probs"], exps / exps.sum(axis=1, keepdims=True),
                               rtol=1e-14)
    assert g01.state.undo_stack.count() == 1


def test_switching_pre_to_post_with_the_placement_box_recomputes_like_the_engine(
        qtbot: QtBot, g01: StudioWindow) -> None:
    box = g01.editor.block_editor.placement_box
    document = to_document(g01.state.scenario)
    choose(qtbot, box, "post")
    assert g01.state.scenario.block is not None and g01.state.scenario.block.placement == "post"
    document["block"]["placement"] = "post"
    assert_same_trace(g01.state.trace, compute(parse_scenario(document)))
    ids = [s.id for s in g01.state.trace.steps]
    assert ids[:6] == ["projections", "scores", "weights", "mix", "resid1", "norm1"]
    assert g01.state.undo_stack.count() == 1
    assert g01.state.undo_stack.undoText() == "post-norm"
    g01.undo_action.trigger()
    assert g01.state.scenario.block is not None and g01.state.scenario.block.placement == "pre"
    assert box.currentData() == "pre", "the box follows undo"


def test_rmsnorm_and_epsilon_give_the_chapters_one_three_row(qtbot: QtBot) -> None:
    window = open_window(qtbot, "norms")
    try:
        editor = window.editor.block_editor
        np.testing.assert_allclose(window.state.trace.arrays["norm1"], [[-1.0, 1.0]], atol=0)
        choose(qtbot, editor.norm_box, "rmsnorm")
        np.testing.assert_allclose(window.state.trace.arrays["norm1"],
                                   [[1 / math.sqrt(5), 3 / math.sqrt(5)]], rtol=1e-15)
        editor.eps_edit.setFocus()
        editor.eps_edit.selectAll()
        qtbot.keyClicks(editor.eps_edit, "1")
        qtbot.keyClick(editor.eps_edit, Qt.Key.Key_Return)
        assert window.state.scenario.block is not None and window.state.scenario.block.eps == 1.0
        # x / √(mean(x²) + ε) with mean(x²) = 5 and ε = 1: [1, 3] / √6.
        np.testing.assert_allclose(window.state.trace.arrays["norm1"],
                                   [[1 / math.sqrt(6), 3 / math.sqrt(6)]], rtol=1e-15)
        editor.eps_edit.selectAll()
        qtbot.keyClicks(editor.eps_edit, "-1")
        qtbot.keyClick(editor.eps_edit, Qt.Key.Key_Return)
        assert window.state.scenario.block.eps == 1.0
        assert "ε must not be negative" in window.editor.error_label.text()
        assert editor.eps_edit.text() == "1"
        assert window.state.undo_stack.count() == 2
    finally:
        close_window(window)


def test_norm_none_and_identity_activation(qtbot: QtBot, g01: StudioWindow) -> None:
    editor = g01.editor.block_editor
    choose(qtbot, editor.norm_box, "none")
    trace = g01.state.trace
    np.testing.assert_array_equal(trace.arrays["norm1"], trace.arrays["X"])
    choose(qtbot, editor.activation_box, "identity")
    trace = g01.state.trace
    np.testing.assert_array_equal(trace.arrays["ffn_hidden"], trace.arrays["norm2"])
    assert [s.title for s in trace.steps if s.id == "ffn"] == \
        ["Feed-forward: identity hidden units, then back to d"]
    editor.final_norm_box.click()
    assert "final_norm" not in g01.state.trace.arrays
    # Each arrow key chose an entry: layernorm → rmsnorm → none, relu → gelu → silu → identity.
    assert g01.state.undo_stack.count() == 2 + 3 + 1
    assert g01.state.undo_stack.undoText() == "final norm off"


def test_adding_a_block_to_f11_and_a_vocabulary_head_then_labels(
        qtbot: QtBot, window: StudioWindow) -> None:
    editor = window.editor.block_editor
    assert not editor.norm_box.isEnabled() and not editor.block_box.isChecked()
    editor.block_box.click()
    scenario = window.state.scenario
    assert scenario.block is not None
    np.testing.assert_array_equal(scenario.block.ffn.W1, np.eye(2))
    np.testing.assert_array_equal(scenario.block.ffn.W2, np.eye(2))
    assert scenario.block.unembed is None
    assert [s.id for s in window.state.trace.steps] == [
        "norm1", "projections", "scores", "weights", "mix", "resid1", "norm2", "ffn",
        "resid2", "final_norm"]
    assert "block.ffn.W1" in window.editor.tables, "the block's arrays get grids"
    assert editor.norm_box.isEnabled() and editor.vocab_table.isHidden()
    editor.head_box.click()
    assert [s.id for s in window.state.trace.steps][-2:] == ["logits", "probs"]
    qtbot.waitUntil(lambda: not editor.vocab_table.isHidden(), timeout=2000)
    type_into(qtbot, editor.vocab_table, 0, 1, "cat")
    assert window.state.scenario.block is not None
    assert window.state.scenario.block.vocab == ("v1", "cat")
    assert window.state.undo_stack.undoText() == "vocabulary 1 = cat"
    type_into(qtbot, editor.vocab_table, 0, 0, "")
    assert "block.vocab[0]: a label cannot be empty" in window.editor.error_label.text()
    window.state.set_step(window.state.trace.step_index("logits"))
    assert window.canvas.frame is not None
    from app.canvas.grid import MatrixGrid

    logits = [g for g in window.canvas.frame.items_of(MatrixGrid)
              if g.spec.title.startswith("logits")]
    assert list(logits[0].spec.col_labels) == ["v1", "cat"]
    for _ in range(3):
        window.undo_action.trigger()
    assert window.state.scenario.block is None
    assert not editor.block_box.isChecked()


def test_removing_the_block_is_one_undo_step(g01: StudioWindow) -> None:
    g01.editor.block_editor.block_box.click()
    assert g01.state.scenario.block is None
    assert g01.state.trace.steps[0].id == "inputs"
    assert g01.state.undo_stack.undoText() == "remove decoder block"
    g01.undo_action.trigger()
    assert g01.state.scenario.block is not None
    assert len(g01.state.trace.steps) == 12


def test_every_block_control_has_a_name_and_a_label(g01: StudioWindow) -> None:
    editor = g01.editor.block_editor
    labelled = {label.buddy() for label in editor.findChildren(QLabel) if label.buddy()}
    controls: list[QWidget] = [*editor.findChildren(QComboBox), *editor.findChildren(QLineEdit),
                               *editor.findChildren(QCheckBox)]
    assert len(controls) == 11  # with scale_dk, rope_base, pre_norms and rope_scaled
    for control in controls:
        assert control.accessibleName(), control
        assert control in labelled or (isinstance(control, QCheckBox) and control.text())
    assert editor.vocab_table.accessibleName() == "Vocabulary labels"
    assert editor.vocab_table in labelled


def test_names_agree_across_editor_engine_and_canvas(qtbot: QtBot, g01: StudioWindow) -> None:
    """One table of names: the γ grid, its undo label and the canvas's grid all say "γ1"; the
    norm box, the step title and the variant label all say "no norm"."""
    from app.i18n import set_language
    from engine.scenario.variants import variant

    table = g01.editor.tables["block.gamma1"]
    assert table.accessibleName() == "γ1 grid"
    type_into(qtbot, table, 0, 1, "3")
    assert g01.state.undo_stack.undoText() == "γ1[1] = 3"
    g01.state.set_step(g01.state.trace.step_index("norm1"))
    frame = g01.canvas.frame
    assert isinstance(frame, FrameItem)
    assert "γ1" in {grid.spec.title for grid in frame.items_of(MatrixGrid)}
    editor = g01.editor.block_editor
    choose(qtbot, editor.norm_box, "none")
    assert editor.norm_box.currentText() == "no norm"
    titles = [s.title for s in g01.state.trace.steps if s.id == "norm1"]
    assert titles == ["Input norm (no norm), row by row"]
    assert variant(g01.state.scenario, "norm").label_a == "no norm"
    set_language("zh")
    qtbot.waitUntil(lambda: editor.norm_box.currentText() == "关闭", timeout=2000)
