"""Edit → Swap tokens… and compare mode with rows paired by token, through the window: without
positions (and without a causal mask) a swap only permutes the rows of every array, so the
comparison paired by token shows nothing changed; with RoPE the shares themselves change. And
the positions editor: each choice one named undo step, a refusal naming its place."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from app.canvas.arrows import AttentionArrows
from app.canvas.context import FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.position_pictures import RotationDial
from app.canvas.side_by_side import CompareFrameItem
from app.editor.positions_pane import scaling_text
from app.i18n import set_language
from app.model.edits import SetLabel
from app.model.examples import example_path
from app.window.compare_mode import PRESETS
from app.window.studio import StudioWindow
from engine import compute, explain, load_scenario, parse_scenario
from engine.arithmetic.differences import compare
from engine.format.writer import to_document
from engine.forward.rope_scaling import RopeScaling
from engine.scenario.swap import swap_order, swap_tokens
from tests.app.driving import DEFAULT_SIZE, Dialogs, close_window, open_window, type_into
from tests.app.test_editor_stacks import menu_action, shown_grids

SWAP = [0, 3, 2, 1]  # positions 1 and 3 trade places


@pytest.fixture
def order(qtbot: QtBot) -> Iterator[StudioWindow]:
    """排除 A 保留 B with RoPE and no causal mask (the positions helper's example)."""
    window = open_window(qtbot, "order")
    yield window
    close_window(window)


def choose(_qtbot: QtBot, combo: QComboBox, data: object) -> None:
    """Pick the entry holding ``data`` at once, as a click in the open list does (arrow keys
    on a closed box would choose every entry on the way)."""
    combo.setCurrentIndex(combo.findData(data))
    combo.activated.emit(combo.currentIndex())


def swap_in_dialog(qtbot: QtBot, window: StudioWindow, i: int, j: int) -> None:
    menu_action(window, "Swap tokens…")
    dialog = window.swap_tokens.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.first_box.setCurrentIndex(i)
    dialog.second_box.setCurrentIndex(j)
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)


def test_without_positions_a_swap_only_permutes_the_rows(qtbot: QtBot,
                                                          order: StudioWindow) -> None:
    choose(qtbot, order.editor.positions_editor.kind_box, "none")
    assert order.state.undo_stack.undoText() == "positions: none"
    before = order.state.scenario, order.state.trace
    swap_in_dialog(qtbot, order, 1, 3)
    scenario, trace = order.state.scenario, order.state.trace
    assert scenario.tokens == ("排除", "B", "保留", "A")
    assert order.state.undo_stack.count() == 2
    assert order.state.undo_stack.undoText() == "swap tokens 1 “A” and 3 “B”"
    old = before[1].arrays
    for name in ("X", "Q", "K", "V"):  # row by row: exactly the old rows, permuted
        np.testing.assert_array_equal(trace.arrays[name], old[name][SWAP], err_msg=name)
    np.testing.assert_allclose(trace.arrays["weights"], old["weights"][:, SWAP][:, :, SWAP],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(trace.arrays["mixed"], old["mixed"][SWAP], rtol=0, atol=1e-15)
    order.undo_action.trigger()
    assert to_document(order.state.scenario) == to_document(before[0])
    assert order.state.scenario.X.tobytes() == before[0].X.tobytes()


def test_compare_pairs_rows_by_token_zero_without_positions_shares_move_with_rope(
        qtbot: QtBot, order: StudioWindow) -> None:
    mode = order.compare
    mode.action.trigger()
    mode.set_preset("swap")
    assert mode.pair_chooser.isVisibleTo(order)
    mode.set_pair(1, 3)
    assert (mode.first_box.currentText(), mode.second_box.currentText()) == ("1 · A", "3 · B")
    weights_step = next(k for k, s in enumerate(order.state.trace.steps) if s.op == "weights")
    order.state.set_step(weights_step)
    item = mode.item
    assert item is not None and "weights" in item.changed, "RoPE: the shares change"
    sides = mode.sides()
    by_token = compare(sides.a, sides.b, order=sides.order)
    assert by_token.common["weights"].max_abs > 0.05
    # Positions none: every array of every step, paired by token, is unchanged.
    choose(qtbot, order.editor.positions_editor.kind_box, "none")
    sides = mode.sides()
    assert sides.order == tuple(SWAP)
    by_token = compare(sides.a, sides.b, order=sides.order)
    assert by_token.changed(1e-12) == []
    assert "weights" in by_token.common and "X" in by_token.common
    assert "X" in compare(sides.a, sides.b).changed(), "paired by position the rows differ"
    for k in range(len(order.state.trace.steps)):
        order.state.set_step(k)
        assert mode.item is not None and mode.item.changed == [], order.state.trace.steps[k].id


def test_compare_swaps_the_two_positions_chosen_refuses_one_and_keeps_the_pair(
        qtbot: QtBot, order: StudioWindow, dialogs: Dialogs) -> None:
    mode = order.compare
    mode.action.trigger()
    mode.preset_box.setCurrentIndex(PRESETS.index("swap"))
    mode.preset_box.activated.emit(mode.preset_box.currentIndex())
    listed = ["0 · 排除", "1 · A", "2 · 保留", "3 · B"]
    for box in (mode.first_box, mode.second_box):
        assert box.isVisibleTo(order) and box.accessibleName()
        assert [box.itemText(k) for k in range(box.count())] == listed
    # The pair the example's note describes (“Swap A and B”): the two tokens asking the same
    # question (equal rows of Q = X·Wq: A and B both [3, 0]).
    assert (mode.first_box.currentIndex(), mode.second_box.currentIndex()) == (1, 3)
    assert "Swap A and B" in order.state.scenario.note
    assert mode.item is not None and mode.problem_label.text() == ""
    assert mode.sides().order == tuple(SWAP)
    assert mode.sides().labels[1] == "A ↔ B swapped"
    qtbot.keyClick(mode.second_box, Qt.Key.Key_Home)
    qtbot.keyClick(mode.second_box, Qt.Key.Key_Down)  # the same position twice: said, no B
    assert mode.item is None
    assert mode.problem_label.text() == "⚠ tokens: the same position twice"
    assert mode.problem_label.wordWrap()  # wrapped in the row, never cut
    qtbot.keyClick(mode.second_box, Qt.Key.Key_End)
    assert mode.item is not None and mode.problem_label.text() == ""
    # Editing a number leaves both lists alone; renaming a token renames its entries only.
    changes: list[str] = []
    for box in (mode.first_box, mode.second_box):
        model = box.model()
        model.modelReset.connect(lambda: changes.append("reset"))
        model.rowsInserted.connect(lambda *_: changes.append("inserted"))
        model.dataChanged.connect(lambda *_: changes.append("renamed"))
    type_into(qtbot, order.editor.tables["attention.Wq"], 0, 0, "0.25")
    assert order.state.scenario.parameter("attention.Wq")[0, 0] == 0.25
    assert changes == []
    assert order.state.apply(SetLabel("tokens", 3, "C"))
    assert changes == ["renamed", "renamed"]
    assert mode.second_box.currentText() == "3 · C" and mode.sides().order == tuple(SWAP)
    # The pair stays while the document has both positions, else the first two are proposed.
    order.editor.size_boxes["n"].setValue(5)
    assert mode.first_box.count() == 5 and mode.sides().order[:4] == tuple(SWAP)
    dialogs.answer = QMessageBox.StandardButton.Yes  # shrinking drops numbers
    order.editor.size_boxes["n"].setValue(3)
    assert order.state.scenario.n == 3
    assert [mode.second_box.itemText(k) for k in range(3)] == listed[:3]
    assert mode.sides().order == (1, 0, 2)


def test_the_positions_editor_names_each_change_and_refuses_in_place(
        qtbot: QtBot, order: StudioWindow) -> None:
    pane = order.editor.positions_editor
    assert pane.kind_box.currentData() == "rope"
    assert pane.rotary_spin.isVisibleTo(order) and pane.pairing_box.isVisibleTo(order)
    choose(qtbot, pane.pairing_box, "interleaved")
    positions = order.state.scenario.positions
    assert positions.pairing == "interleaved"  # type: ignore[attr-defined]
    assert order.state.undo_stack.undoText() == "pairing = interleaved"
    pane.base_edit.setFocus()
    pane.base_edit.selectAll()
    qtbot.keyClicks(pane.base_edit, "ten")
    qtbot.keyClick(pane.base_edit, Qt.Key.Key_Return)
    assert order.editor.error_label.text().startswith("⚠ positions.base: ")
    assert "kept 10000" in order.editor.error_label.text()
    assert pane.base_edit.text() == "10000"
    assert order.state.undo_stack.count() == 1
    pane.base_edit.selectAll()
    qtbot.keyClicks(pane.base_edit, "100")
    qtbot.keyClick(pane.base_edit, Qt.Key.Key_Return)
    assert order.state.scenario.positions.base == 100.0  # type: ignore[attr-defined]
    angles = order.state.trace.arrays["rope_angles"]
    np.testing.assert_allclose(angles[:, 0], np.arange(4) * 1.0, rtol=1e-15)  # θ_0 = 1
    choose(qtbot, pane.kind_box, "alibi")
    assert order.state.undo_stack.undoText() == "positions: ALiBi"
    assert not pane.rotary_spin.isVisibleTo(order)
    assert "positions.slopes" in shown_grids(order)
    np.testing.assert_array_equal(order.state.scenario.parameter("positions.slopes"),
                                  [2.0 ** -8])
    type_into(qtbot, order.editor.tables["positions.slopes"], 0, 0, "0.5")
    trace = order.state.trace
    n = 4
    distance = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :])
    np.testing.assert_array_equal(trace.arrays["alibi"][0], -0.5 * distance)
    choose(qtbot, pane.kind_box, "learned")
    assert "positions.table" in shown_grids(order)
    type_into(qtbot, order.editor.tables["positions.table"], 2, 1, "3")
    trace = order.state.trace
    added = np.zeros((4, 4))
    added[2, 1] = 3.0
    np.testing.assert_array_equal(trace.arrays["X"], trace.arrays["embedded"] + added)
    assert order.state.undo_stack.count() == 6


def test_compare_swap_draws_b_by_token_each_row_naming_where_it_sits(
        qtbot: QtBot, order: StudioWindow) -> None:
    """B's rows and key columns follow the token: "B" is row 3 on both sides (at position 3
    as typed, 1 once A and B swap), so the shares of B are compared row by row."""
    order.state.set_receiver(3)  # 3 · B
    mode = order.compare
    mode.action.trigger()
    mode.set_preset("swap")
    order.state.set_step(order.state.trace.step_index("weights"))
    item = mode.item
    assert item is not None
    assert item.a_frame.items_of(AttentionArrows) == item.b_frame.items_of(AttentionArrows) \
        == [], "the halves are read grid by grid: no arrows beside them"
    assert item.a_frame.context.receiver == item.b_frame.context.receiver == 3
    a_shares, b_shares = (next(g for g in frame.items_of(MatrixGrid) if g.spec.title == "shares")
                          for frame in (item.a_frame, item.b_frame))
    assert a_shares.spec.row_labels == ["排除 · p0", "A · p1", "保留 · p2", "B · p3"]
    assert b_shares.spec.row_labels == ["排除 · p0", "A · p3", "保留 · p2", "B · p1"]
    assert b_shares.spec.col_labels == b_shares.spec.row_labels
    assert a_shares.spec.highlight_rows == b_shares.spec.highlight_rows == frozenset({3})
    # Row k of B's grid is B's computed row SWAP[k], its key columns reordered alike.
    computed = mode.sides().b.arrays["weights"][0]
    np.testing.assert_array_equal(b_shares.spec.values, computed[np.ix_(SWAP, SWAP)])
    assert not np.allclose(a_shares.spec.values[3], b_shares.spec.values[3]), \
        "RoPE: B reads differently once moved"
    # A cell's arithmetic is the computed cell its row and column hold.
    assert b_shares.spec.explain is not None
    assert b_shares.spec.explain(3, 1) == explain(mode.sides().b, "weights", (0, 1, 3), "en",
                                                  item.b_frame.context.places).text()


def test_drawn_by_token_the_rope_pictures_speak_of_positions_held(qtbot: QtBot) -> None:
    """B's angle for "B" (row 3, at position 1 once swapped) is 1·θ₀ = 1 rad; A's 3 rad.
    The equal-distance pair (about positions one apart) is named on A only: B's rows are
    tokens, not positions in order."""
    scenario = load_scenario(example_path("order"))
    a, b = compute(scenario), compute(swap_tokens(scenario, 1, 3))
    order_b = swap_order(4, 1, 3)
    options = FrameOptions(receiver=3)

    def item(step: str) -> CompareFrameItem:
        return CompareFrameItem(a, b, compare(a, b, order=order_b), a.step_index(step),
                                options, order=order_b)

    rope = item("rope")
    # the halves are read grid by grid (no dials): row "B" of the angles, at the position held
    angles = [next(g for g in side.items_of(MatrixGrid) if g.spec.title.startswith("angles"))
              for side in (rope.a_frame, rope.b_frame)]
    assert [grid.spec.row_labels[3] for grid in angles] == ["B · p3", "B · p1"]
    assert [grid.spec.values[3, 0] for grid in angles] == [3.0, 1.0]
    assert not any(side.items_of(RotationDial) for side in (rope.a_frame, rope.b_frame))
    scores = item("scores")
    noted = [[t.text for t in side.items_of(TextItem) if t.text.startswith("scores[0,1]")]
             for side in (scores.a_frame, scores.b_frame)]
    assert len(noted[0]) == 1 and noted[1] == []


def test_the_positions_editor_shows_a_scaling_and_keeps_it_through_an_edit(
        qtbot: QtBot) -> None:
    doc = json.loads(example_path("order").read_text("utf-8"))
    doc["positions"]["scaling"] = {"type": "linear", "factor": 4}
    window = StudioWindow(parse_scenario(doc))
    window.resize(*DEFAULT_SIZE)
    window.show()
    try:
        pane = window.editor.positions_editor
        assert pane.scaling_label.isVisibleTo(window)
        # the canvas's sentence for θᵢ, then the settings as the document writes them
        assert pane.scaling_label.text() == "θᵢ scaled (linear): each divided by 4\nfactor = 4"
        assert pane.scaling_label.accessibleName() == "RoPE scaling of the frequencies"
        pane.base_edit.setFocus()
        pane.base_edit.selectAll()
        qtbot.keyClicks(pane.base_edit, "100")
        qtbot.keyClick(pane.base_edit, Qt.Key.Key_Return)
        # θ₀ = 1 divided by the factor 4: the scaling stays through the edit of the base
        angles = window.state.trace.arrays["rope_angles"]
        np.testing.assert_allclose(angles[:, 0], np.arange(4) / 4, rtol=1e-15)
        choose(qtbot, pane.kind_box, "alibi")
        assert not pane.scaling_label.isVisibleTo(window)
    finally:
        close_window(window)


def test_the_positions_editor_tells_a_llama3_scaling_in_chinese(qtbot: QtBot) -> None:
    doc = json.loads(example_path("order").read_text("utf-8"))
    doc["positions"]["scaling"] = {"type": "llama3", "factor": 8, "low_freq_factor": 1,
                                   "high_freq_factor": 4,
                                   "original_max_position_embeddings": 64}
    window = StudioWindow(parse_scenario(doc))
    try:
        set_language("zh")
        label = window.editor.positions_editor.scaling_label
        qtbot.waitUntil(lambda: not label.text().startswith("θᵢ scaled"))
        # wavelengths kept below 64/4 = 16, divided by 8 above 64/1 = 64
        assert label.text() == (
            "θᵢ 经过缩放（llama3）：波长 2π/θᵢ 小于 16 的不变，大于 64 的除以 8，两者之间平滑过渡\n"
            "factor = 8, low_freq_factor = 1, high_freq_factor = 4, "
            "original_max_position_embeddings = 64")
    finally:
        set_language("en")
        close_window(window)


def test_a_longrope_scaling_shows_its_first_three_short_factors_and_their_count() -> None:
    scaling = RopeScaling("longrope", short_factor=(1.0, 1.25, 1.5, 2.0, 3.0),
                          attention_factor=1.1)
    assert scaling_text(scaling, 10, 10000.0).split("\n") == [
        "θᵢ scaled (longrope): each divided by its pair's short factor; cos and sin × 1.1",
        "short_factor = [1, 1.25, 1.5, …] (5), attention_factor = 1.1"]
