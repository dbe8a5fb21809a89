"""Exercise mode in the window, driven through its real widgets: blanks on the canvas, Check
and Reveal, keyboard alone, the teacher's undoable edits, answers kept out of the document."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from app.canvas.frame import FrameItem
from app.canvas.grid import ASKED, MatrixGrid
from app.model.exercise_edits import SetExercises
from app.window.studio import StudioWindow
from engine.exercises.document import exercise_document

F11_X = np.array([[1.0, 1.0], [1.0, -1.0]])
F11_WQ = np.array([[1.0, 1.0], [-1.0, 1.0]])
F11_WK = np.array([[0.5, 0.5], [0.5, -0.5]])


def shares_for_love(wk: np.ndarray) -> np.ndarray:
    """The shares of 我 and 爱 for the query 爱 (row 1 of F11), worked by hand from X, Wq and
    Wk: scaled dot products, then softmax (the chapter: 0.804 and 0.196)."""
    q, k = F11_X @ F11_WQ, F11_X @ wk
    scores = k @ q[1] / math.sqrt(2)
    e = np.exp(scores - scores.max())
    return e / e.sum()


def shares_grid(window: StudioWindow) -> MatrixGrid:
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem)
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title == "shares")


def start_row_exercise(window: StudioWindow) -> None:
    """The teacher, at the shares step, hides the receiver's row (爱's) in a new exercise."""
    window.exercise.action.trigger()  # shows the document's first exercise, at its step
    window.state.set_step(window.state.trace.step_index("weights"))
    teacher = window.exercise.teacher
    teacher.hide_box.setCurrentIndex(teacher.hide_box.findData("row"))
    teacher.add_button.click()
    QApplication.processEvents()
    window.refresh_canvas(fit=False)


def test_the_canvas_blanks_exactly_the_hidden_row(window: StudioWindow) -> None:
    start_row_exercise(window)
    grid = shares_grid(window)
    assert window.exercise.toggle.isChecked() and window.exercise.dock.isVisible()
    assert [grid.cell_text(1, 0), grid.cell_text(1, 1)] == ["", ""]
    assert [w for run in grid._words() for _r, w in run[4]].count(ASKED) == 2
    assert grid.cell_text(0, 0) == "1", "the row of 我 keeps its number"
    words = [text for run in grid._words() for _rect, text in run[4]]
    assert "0.804" not in words and "0.196" not in words
    blanks = window.exercise.panel.blanks
    assert [b.entry.accessibleName() for b in blanks] == [
        "share of 我 for 爱, blank", "share of 爱 for 爱, blank"]
    timeline = window.timeline  # its texts quote the shares (“0.804 + 0.196 = 1”)
    assert "0.804" in timeline.check_label.text()
    assert timeline.check_label.isHidden() and timeline.summary_label.isHidden()
    window.exercise.action.trigger()  # leaving exercise mode shows the numbers again
    QApplication.processEvents()
    window.refresh_canvas(fit=False)
    assert shares_grid(window).cell_text(1, 0) == "0.804"
    assert not timeline.check_label.isHidden() and not timeline.summary_label.isHidden()


def test_check_marks_a_close_prediction_right_and_a_far_one_wrong(window: StudioWindow) -> None:
    start_row_exercise(window)
    panel = window.exercise.panel
    expected = shares_for_love(F11_WK)
    assert abs(expected[0] - 0.804) < 5e-4  # the chapter's share
    first, second = panel.blanks
    first.entry.setText("0.804")  # 0.80443: within half a unit of the third decimal
    second.entry.setText("0.3")
    panel.check_button.click()
    assert first.verdict.text() == "✓ right: 0.804"
    said = second.verdict.text()
    assert said.startswith("✗ wrong: you wrote 0.3, the answer is 0.196")
    assert "weights[0,1,1] = exp(s1 − max)" in said, "the arithmetic names the cell"
    assert second.entry.accessibleDescription() == f"share of 爱 for 爱: {said}"
    assert panel.score.text() == "1 of 2 right"
    second.entry.setText("0.197")  # 0.19557 is 0.00143 away: outside the tolerance
    panel.check_button.click()
    assert second.verdict.text().startswith("✗ wrong: you wrote 0.197")
    second.entry.setText("0.1956")
    panel.check_button.click()
    assert second.verdict.text() == "✓ right: 0.196" and panel.score.text() == "2 of 2 right"


def test_reveal_fills_every_blank_and_the_canvas(window: StudioWindow) -> None:
    start_row_exercise(window)
    panel = window.exercise.panel
    panel.reveal_button.click()
    QApplication.processEvents()
    window.refresh_canvas(fit=False)
    assert [b.entry.text() for b in panel.blanks] == ["0.804", "0.196"]
    assert shares_grid(window).cell_text(1, 0) == "0.804"
    panel.again_button.click()
    QApplication.processEvents()
    window.refresh_canvas(fit=False)
    assert shares_grid(window).cell_text(1, 0) == ""
    assert [b.entry.text() for b in panel.blanks] == ["", ""]


def test_an_exercise_is_done_with_the_keyboard_alone(window: StudioWindow, qtbot: QtBot) -> None:
    start_row_exercise(window)
    panel = window.exercise.panel
    panel.chooser.setFocus()
    qtbot.keyClick(panel.chooser, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is panel.blanks[0].entry
    qtbot.keyClicks(QApplication.focusWidget(), "0.804")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    focused = QApplication.focusWidget()
    assert isinstance(focused, QLineEdit) and focused is panel.blanks[1].entry
    qtbot.keyClicks(focused, "0.196")
    qtbot.keyClick(focused, Qt.Key.Key_Return)
    assert panel.score.text() == "2 of 2 right"
    assert [b.verdict.text() for b in panel.blanks] == ["✓ right: 0.804", "✓ right: 0.196"]


def test_exercise_edits_are_undone_like_any_edit(window: StudioWindow) -> None:
    state = window.state
    built_in = state.scenario.exercises  # F11 comes with the chapter's checks
    start_row_exercise(window)
    assert len(state.scenario.exercises) == len(built_in) + 1
    mine = len(built_in)
    assert window.undo_action.text() == \
        "&Undo new exercise “Predict: Causal mask and softmax shares”"
    teacher = window.exercise.teacher
    teacher.hide_box.setCurrentIndex(teacher.hide_box.findData("cells"))
    window.canvas.cellClicked.emit("weights", (0, 0, 0))  # the teacher clicks 我's own share
    (hide,) = [h for h in state.scenario.exercises[mine].hide if h.cells]
    assert hide.cells == ((0, 0, 0),)
    window.refresh_canvas(fit=False)
    assert shares_grid(window).cell_text(0, 0) == ""
    window.undo_action.trigger()
    assert all(h.cells is None for h in state.scenario.exercises[mine].hide)
    window.undo_action.trigger()
    assert state.scenario.exercises == built_in
    assert state.undo_stack.isClean()
    window.redo_action.trigger()
    assert len(state.scenario.exercises) == len(built_in) + 1


def test_a_students_answers_are_never_saved_into_the_document(
        window: StudioWindow, tmp_path: Path) -> None:
    start_row_exercise(window)
    stored = [exercise_document(e) for e in window.state.scenario.exercises]
    panel = window.exercise.panel
    panel.blanks[0].entry.setText("0.777")
    panel.blanks[1].entry.setText("0.222")
    panel.check_button.click()
    path = tmp_path / "lesson.qkv.json"
    window.state.path = path
    assert window.save()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["exercises"] == stored
    text = path.read_text(encoding="utf-8")
    assert "0.777" not in text and "0.222" not in text
    assert window.state.undo_stack.isClean(), "typing a prediction is no edit"


def test_questions_about_change_are_answered_on_the_edited_document(
        window: StudioWindow) -> None:
    window.state.set_step(window.state.trace.step_index("weights"))
    window.exercise.action.trigger()
    grown = F11_WK.copy()
    grown[1, 0] += 0.5  # K of 我 gains 0.5 on column 0, K of 爱 loses it: s0 − s1 grows by √2
    before, after = shares_for_love(F11_WK), shares_for_love(grown)
    assert abs(after[0] - before[0]) > 0.1
    way = "rises" if after[0] > before[0] else "falls"
    question = {"title": {"en": "Rise or fall?", "zh": "变大还是变小？"},
                "prompt": {"en": "Think first.", "zh": "先想一想。"}, "kind": "direction",
                "step": "weights", "edit": {"array": "attention.Wk", "cell": [1, 0], "by": 0.5},
                "watch": {"array": "weights", "cell": [1, 0]}}
    assert window.state.apply(SetExercises((question,), "edit_add", "Rise or fall?"))
    window.exercise.choose(0)
    panel = window.exercise.panel
    assert panel.question.text() == \
        "If Wk[1, 0] grows by 0.5, what does share of 我 for 爱 do?"
    wrong = next(b for b in panel.choices if b.text() != way)
    wrong.setChecked(True)
    panel.check_button.click()
    assert panel.score.text().startswith(f"✗ wrong: share of 我 for 爱 {way}")
    next(b for b in panel.choices if b.text() == way).setChecked(True)
    panel.check_button.click()
    assert panel.score.text() == f"✓ right: share of 我 for 爱 {way}"
    window.exercise.teacher.unchanged_button.click()
    assert panel.chooser.currentIndex() == 1
    # Wk[0, 0] shifts both keys alike and Wk[0, 1] a column 爱’s query [2, 0] ignores:
    # neither moves a share of F11, so the question offers Wk[1, 0], the first that does.
    assert [b.text() for b in panel.choices] == ["Wq[0, 0] + 0.5", "Wk[1, 0] + 0.5",
                                                 "Wv[0, 0] + 0.5"]
    panel.choices[2].setChecked(True)  # the values never reach the shares
    panel.check_button.click()
    assert panel.score.text() == \
        "✓ right: exactly these leave shares unchanged: Wv[0, 0] + 0.5"
    # The step's check line says “Edit Wv: the shares must not move”: hidden until revealed.
    timeline = window.timeline
    assert "Wv" in timeline.check_label.text() and timeline.check_label.isHidden()
    panel.reveal_button.click()
    assert not timeline.check_label.isHidden()


def test_the_canvas_description_says_blank_where_the_frame_does(window: StudioWindow) -> None:
    start_row_exercise(window)
    window._describe_canvas()
    said = window.canvas.accessibleDescription()
    assert "share from 爱 to 我: blank" in said and "share from 爱 to 爱: blank" in said
    assert "0.804" not in said and "0.196" not in said


def test_the_exercise_speaks_chinese(window: StudioWindow) -> None:
    from app import i18n

    i18n.set_language("zh")
    QApplication.processEvents()
    start_row_exercise(window)
    panel = window.exercise.panel
    assert panel.title.text() == "预测：因果掩码与 softmax 份额"
    assert [b.entry.accessibleName() for b in panel.blanks] == [
        "爱 给 我 的份额，空格", "爱 给 爱 的份额，空格"]
    panel.blanks[0].entry.setText("0.804")
    panel.blanks[1].entry.setText("0.3")
    panel.check_button.click()
    assert panel.blanks[0].verdict.text() == "✓ 正确：0.804"
    assert panel.blanks[1].verdict.text().startswith("✗ 错误：你写的是 0.3，答案是 0.196")
    assert panel.score.text() == "2 个中对了 1 个"


def test_a_wrong_share_names_the_wrong_score_it_was_worked_from(window: StudioWindow) -> None:
    """Scores and shares of 爱 hidden: a wrong score makes the share's first differing term."""
    lesson = {"title": {"en": "Scores then shares", "zh": "先分数后份额"},
              "prompt": {"en": "Both rows of 爱.", "zh": "爱 的两行。"}, "kind": "fill",
              "step": "weights", "hide": [{"array": "scores", "rows": [1]},
                                          {"array": "weights", "rows": [1]}]}
    window.exercise.action.trigger()
    assert window.state.apply(SetExercises((lesson,), "edit_add", "Scores then shares"))
    window.exercise.choose(0)
    panel = window.exercise.panel
    # scores of 爱: 2/√2 = 1.414 and 0; shares 0.804 and 0.196 (the chapter)
    assert [b.what for b in panel.blanks] == ["scores of 爱, column 0", "scores of 爱, column 1",
                                              "share of 我 for 爱", "share of 爱 for 爱"]
    for blank, typed in zip(panel.blanks, ("1.5", "0", "0.7", "0.196"), strict=True):
        blank.entry.setText(typed)
    panel.check_button.click()
    first, _second, share, _other = (b.verdict.text() for b in panel.blanks)
    assert first.startswith("✗ wrong: you wrote 1.5, the answer is 1.414")
    assert share.endswith("first term that differs: scores[0,1,0]")
    assert panel.score.text() == "2 of 4 right"
