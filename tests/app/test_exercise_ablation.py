"""The ablation question in the window (issue 38 item 3): the heads switched off said in words,
rise / fall / same chosen before anything is computed, Check, then the answer with before → after
(checked against a numpy forward pass), in English and Chinese; the teacher's button asks one."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.window.studio import StudioWindow
from engine import format_number
from engine.exercises.document import exercise_document
from tests.app.driving import close_window, open_window
from tests.engine.ablation_reference import reference_probs
from tests.examples import EXAMPLES

DOC = json.loads((EXAMPLES / "three-layers.qkv.json").read_text("utf-8"))


def shown(value: float) -> str:
    return format_number(value, 3)


@pytest.fixture
def three_layers(qtbot: QtBot) -> Iterator[StudioWindow]:
    win = open_window(qtbot, "three-layers")
    yield win
    close_window(win)


def choose(window: StudioWindow, way: str) -> None:
    panel = window.exercise.panel
    next(b for b in panel.choices if b.text() == way).setChecked(True)
    panel.check_button.click()


def test_the_ablation_is_predicted_then_checked_in_english(three_layers: StudioWindow) -> None:
    window = three_layers
    window.exercise.action.trigger()
    window.exercise.choose(2)
    panel = window.exercise.panel
    before, after = reference_probs(DOC, {})[2, 0], reference_probs(DOC, {0: {0}})[2, 0]
    assert (shown(before), shown(after)) == ("0.674", "0.819")
    assert panel.question.text() == \
        "Head 1 of layer 1 is switched off. What does probs of 你, column 0 do?"
    assert [b.text() for b in panel.choices] == ["rises", "falls", "stays the same"]
    assert panel.score.text() == ""  # nothing computed or shown before the student commits
    choose(window, "falls")
    assert panel.score.text() == ("✗ wrong: probs of 你, column 0 rises (computed with the heads "
                                  f"switched off): {shown(before)} → {shown(after)}")
    choose(window, "rises")
    assert panel.score.text() == \
        f"✓ right: probs of 你, column 0 rises: {shown(before)} → {shown(after)}"
    assert panel.answers() == (("direction", "rise"),)
    # The document itself is not ablated: the canvas still shows the probabilities before.
    assert window.state.trace.arrays["probs"][2, 0] == pytest.approx(before, abs=1e-12)


def test_the_ablation_speaks_chinese(three_layers: StudioWindow) -> None:
    from app import i18n

    i18n.set_language("zh")
    QApplication.processEvents()
    window = three_layers
    window.exercise.action.trigger()
    window.exercise.choose(2)
    panel = window.exercise.panel
    assert panel.title.text() == "没有第 1 层的第一个头"
    assert panel.question.text() == "关闭第 1 层的第 1 个头，probs 中 你 一行第 0 列 会怎样？"
    choose(window, "不变")
    assert panel.score.text() == \
        "✗ 错误：probs 中 你 一行第 0 列变大（关闭这些头后算出）：0.674 → 0.819"
    choose(window, "变大")
    assert panel.score.text() == "✓ 正确：probs 中 你 一行第 0 列变大：0.674 → 0.819"


def test_the_teacher_asks_about_a_head_of_this_layer(three_layers: StudioWindow) -> None:
    window = three_layers
    window.exercise.action.trigger()
    window.state.set_step(window.state.trace.step_index("L2.weights"))
    window.exercise.teacher.ablation_button.click()
    panel = window.exercise.panel
    assert panel.chooser.currentIndex() == 3
    assert panel.question.text() == \
        "Head 1 of layer 2 is switched off. What does probs of 你, column 0 do?"
    before, after = reference_probs(DOC, {})[2, 0], reference_probs(DOC, {1: {0}})[2, 0]
    way = "rises" if after > before else "falls"
    choose(window, way)
    assert panel.score.text() == \
        f"✓ right: probs of 你, column 0 {way}: {shown(before)} → {shown(after)}"
    window.state.undo_stack.undo()
    assert len(window.state.scenario.exercises) == 3


def test_the_answers_copy_keeps_the_way_chosen(three_layers: StudioWindow) -> None:
    window = three_layers
    window.exercise.action.trigger()
    window.exercise.choose(2)
    choose(window, "rises")
    answered = window.exercise.answered_scenario().exercises[2]
    assert exercise_document(answered)["answers"] == {"direction": "rise"}
    assert answered.checked
    panel = window.exercise.panel
    panel.start_again()
    assert panel.score.text() == "" and not any(b.isChecked() for b in panel.choices)
    panel.restore(dict(answered.answers or ()), answered.checked)
    assert panel.choices[0].isChecked()
    assert panel.score.text() == "✓ right: probs of 你, column 0 rises: 0.674 → 0.819"
