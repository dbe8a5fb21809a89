"""Head ablation in the window: the editor's per-head switch is one undo step, and the mix
frame says which head is ablated in words (not by colour alone), in English and Chinese."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.heads import HeadBands
from app.canvas.layout import TextItem
from app.canvas.side_by_side import CompareFrameItem
from app.i18n import set_language
from app.model.edits import AblateHead
from app.model.layer_edits import AddLayer
from app.texts.titles import step_title
from app.window.studio import StudioWindow
from engine import compute, parse_scenario
from engine.arithmetic.differences import compare
from tests.app.test_editor_stacks import choose_part
from tests.engine import reference_v2
from tests.engine.test_engine_ablation import example


def test_the_head_switch_ablates_one_head_in_one_undo_step(qtbot: QtBot,
                                                          stack: StudioWindow) -> None:
    before = stack.state.trace
    choose_part(qtbot, stack, "Layer 2")
    boxes = stack.editor.ablate_boxes
    assert [box.text() for box in boxes] == ["Head 1", "Head 2"]
    assert [box.accessibleName() for box in boxes] == ["Ablate head 1", "Ablate head 2"]
    assert not any(box.isChecked() for box in boxes)
    qtbot.waitUntil(boxes[1].isVisible, timeout=2000)
    qtbot.mouseClick(boxes[1], Qt.MouseButton.LeftButton, pos=QPoint(8, boxes[1].height() // 2))
    scenario = stack.state.scenario
    assert [layer.attention.ablate_heads for layer in scenario.layers] == [(), (1,), ()]
    assert stack.state.undo_stack.undoText() == "layer 2: head 2 ablated (output 0)"
    after = stack.state.trace
    assert np.array_equal(after.arrays["L2.mixed"][:, 2:], np.zeros((3, 2)))
    assert np.array_equal(after.arrays["L1.attn_out"], before.arrays["L1.attn_out"])
    assert np.abs(after.arrays["probs"] - before.arrays["probs"]).max() > 1e-3
    # The switches follow the layer shown.
    choose_part(qtbot, stack, "Layer 1")
    assert not boxes[1].isChecked()
    choose_part(qtbot, stack, "Layer 2")
    assert boxes[1].isChecked()
    # Switched off again, the head is restored; each undo step takes one click back.
    qtbot.mouseClick(boxes[1], Qt.MouseButton.LeftButton, pos=QPoint(8, boxes[1].height() // 2))
    assert stack.state.scenario.layers[1].attention.ablate_heads == ()
    assert stack.state.undo_stack.undoText() == "layer 2: head 2 restored"
    stack.state.undo_stack.undo()
    assert stack.state.scenario.layers[1].attention.ablate_heads == (1,) and boxes[1].isChecked()
    stack.state.undo_stack.undo()
    assert stack.state.scenario.layers[1].attention.ablate_heads == ()
    assert not boxes[1].isChecked()
    np.testing.assert_array_equal(stack.state.trace.arrays["probs"], before.arrays["probs"])


def test_the_undo_steps_are_named_in_chinese() -> None:
    assert (AblateHead("layers.1.attention", 1, True).label("zh")
            == "第 2 层: 消融第 2 个头（输出为 0）")
    assert AblateHead("attention", 0, False).label("zh") == "恢复第 1 个头"
    assert AblateHead("attention", 0, False).label("en") == "head 1 restored"


@pytest.mark.parametrize(("lang", "band", "grid", "note", "title"), [
    ("en", "head 2 ✕", "mixed · head 2 · ablated: 0",
     "ablated, its output set to 0 before Wo: head 2", "; ablated (output 0): head 2"),
    ("zh", "第 2 头 ✕", "混合结果 · 第 2 头 · 已消融：0",
     "已消融、输出在 Wo 之前置为 0 的头：第 2 头", "；已消融（输出为 0）：第 2 个头"),
])
def test_the_mix_frame_names_the_ablated_head_in_words(qtbot: QtBot, lang: str, band: str,
                                                       grid: str, note: str, title: str) -> None:
    del qtbot  # the QApplication the frame's items need
    doc = example("three-layers")
    doc["layers"][1]["attention"]["ablate_heads"] = [1]
    trace = compute(parse_scenario(doc))
    mix = next(k for k, step in enumerate(trace.steps) if step.id == "L2.mix")
    frame = FrameItem(trace, mix, FrameOptions(lang=lang))
    (bands,) = frame.items_of(HeadBands)
    assert bands.labels[1] == band and bands.labels[0] == band.replace("2", "1")[:-2]
    assert grid in [g.spec.title for g in frame.items_of(MatrixGrid)]
    assert note in [item.text for item in frame.items_of(TextItem)]
    assert step_title(trace.steps[mix], trace.scenario, lang).endswith(title)
    first = next(k for k, step in enumerate(trace.steps) if step.id == "L1.mix")
    plain = FrameItem(trace, first, FrameOptions(lang=lang))
    assert not any("✕" in label for bands in plain.items_of(HeadBands) for label in bands.labels)


def test_a_layer_added_after_an_ablated_one_starts_with_every_head() -> None:
    doc = example("three-layers")
    doc["layers"][0]["attention"]["ablate_heads"] = [0, 1]
    grown = AddLayer(1).apply(parse_scenario(doc))
    assert [layer.attention.ablate_heads for layer in grown.layers] == [(0, 1), (), (), ()]


def test_compare_b_ablates_the_chosen_head_down_to_the_probabilities(
        qtbot: QtBot, stack: StudioWindow) -> None:
    mode = stack.compare
    mode.set_preset("ablate")
    mode.action.trigger()
    assert mode.head_chooser.isVisibleTo(stack) and not mode.pair_chooser.isVisibleTo(stack)
    assert [mode.layer_box.itemText(k) for k in range(3)] == ["layer 1", "layer 2", "layer 3"]
    assert [mode.head_box.itemText(k) for k in range(2)] == ["head 1", "head 2"]
    mode.set_ablated(1, 1)
    stack.state.set_step(stack.state.trace.step_index("probs"))
    item = stack.canvas.frame
    assert isinstance(item, CompareFrameItem)
    assert item.labels == ("the document as it is", "layer 2, head 2 ablated")
    # B by itself: layer 2's head 2 zeroed in the reference, everything after recomputed.
    doc = example("three-layers")
    doc["layers"][1]["attention"]["ablate_heads"] = [1]
    expected = reference_v2.forward(doc)
    a = stack.state.trace.arrays
    difference = next(g for g in item.items_of(MatrixGrid) if g.spec.title == "B − A · probs")
    np.testing.assert_allclose(difference.spec.values, expected["probs"] - a["probs"],
                               rtol=0, atol=1e-12)
    assert np.abs(difference.spec.values).max() > 1e-3
    # Nothing differs before layer 2's mix; from there on everything does.
    sides = mode.sides()
    changed = compare(sides.a, sides.b).changed()
    assert not any(name.startswith("L1.") for name in changed) and "L2.weights" not in changed
    assert {"L2.mixed", "L2.attn_out", "L3.weights", "logits", "probs"} <= set(changed)
    set_language("zh")
    assert mode.sides().labels == ("文档原样", "第 2 层第 2 个头已消融")
    set_language("en")
