"""View → Model view on the real window: every layer × head, a cell's share on hover, a click
opening that layer's shares step on that head; the words in Chinese too."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.model_view import ModelViewItem, ModelViewOptions
from app.model.examples import resolve_document
from app.window.studio import StudioWindow
from engine import compute, load_scenario


def test_a_click_on_a_head_opens_its_layers_shares_step_on_that_head(
        stack: StudioWindow, qtbot: QtBot) -> None:
    window = stack
    window.view_menu.model_view_action.trigger()
    shown = window.view_menu.model_view
    assert shown is not None
    qtbot.waitExposed(shown)
    item = shown.item
    assert [item.head_label(row, head) for row in range(3) for head in range(2)] == \
        ["L1 h1", "L1 h2", "L2 h1", "L2 h2", "L3 h1", "L3 h2"]
    weights = window.state.trace.arrays["L2.weights"]
    cell = item.thumb_rect(1, 1)
    # the receiver's row (2) at key 1: a third of the way across, five sixths down
    inside = cell.topLeft() + (cell.bottomRight() - cell.topLeft()) * 0.5
    inside.setY(cell.top() + cell.height() * 5 / 6)
    assert item.hover_text(inside) == f"L2 h2: “你” (2) → “爱” (1): share {weights[1, 2, 1]:.6f}"
    at = shown.view.mapFromScene(inside)
    QTest.mouseClick(shown.view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert window.state.step == window.state.trace.step_index("L2.weights")
    assert window.state.head == 1
    assert window.state.trace.steps[window.state.step].id == "L2.weights"
    QTest.mouseClick(shown.view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(2, 2))
    assert (window.state.step, window.state.head) == (window.state.trace.step_index(
        "L2.weights"), 1), "a click off the heads opens nothing"


def test_the_model_view_speaks_chinese(qapp: QApplication) -> None:
    trace = compute(load_scenario(resolve_document("three-layers")))
    item = ModelViewItem(trace, ModelViewOptions(receiver=1, lang="zh"))
    assert item.title() == "模型总览：3 × 2 个头，接收者“爱”（位置 1）"
    lines = [line for line, _bold in item.panel_lines]
    assert lines[0] == "注意力汇聚（attention sink）"
    assert any(line.startswith("去掉后：  [–, ") for line in lines)
