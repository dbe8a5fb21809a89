"""A student's answers (issue 26): File → Save answers as… writes a copy of the whole document
with each exercise's answers as typed, never the open document; the copy opens in exercise
mode with its blanks filled; after Check the canvas marks each blank ✓ or ✗ (and its export,
and the words a screen reader reads), until Try again or an edit of that answer."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.verdict_marks import GLYPHS
from app.export.render import build_frame, pdf_bytes
from app.window.studio import StudioWindow
from tests.app.documents_support import patch_save_dialog
from tests.app.driving import Dialogs
from tests.app.test_exercise_mode import F11_WK, shares_for_love, shares_grid, start_row_exercise

ROW = 7
"""The index of the exercise start_row_exercise adds (F11 has seven of its own)."""


def answer_the_row(window: StudioWindow, qtbot: QtBot, first: str, second: str) -> None:
    """The student types two predictions into the blanks of 爱's shares and checks them."""
    panel = window.exercise.panel
    for blank, typed in zip(panel.blanks, (first, second), strict=True):
        blank.entry.setFocus()
        qtbot.keyClicks(blank.entry, typed)
    panel.check_button.click()
    QApplication.processEvents()
    window.refresh_canvas(fit=False)


def marks_of(window: StudioWindow, title: str = "shares") -> dict[tuple[int, int], str]:
    """The ✓ and ✗ on the shares grid, by the cell whose box holds them."""
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem)
    grid = next(g for g in frame.items_of(MatrixGrid) if g.spec.title == title)
    rows, cols = grid.spec.values.shape
    found = {}
    for item in grid.childItems():
        if isinstance(item, TextItem) and item.text in GLYPHS.values():
            centre = item.mapToParent(item.boundingRect().center())
            (cell,) = [(r, c) for r in range(rows) for c in range(cols)
                       if grid.cell_rect(r, c).contains(centre)]
            found[cell] = item.text
    return found


@pytest.fixture
def lesson(window: StudioWindow, tmp_path: Path) -> Path:
    """The teacher's document: F11 with a row of 爱's shares to predict, saved."""
    start_row_exercise(window)
    path = tmp_path / "lesson.qkv.json"
    window.state.path = path
    assert window.save()
    return path


def without_answers(doc: dict[str, Any]) -> dict[str, Any]:
    exercises = [{k: v for k, v in e.items() if k not in ("answers", "checked")}
                 for e in doc["exercises"]]
    return {**doc, "exercises": exercises}


def test_save_answers_as_writes_a_copy_with_each_exercises_answers(
        window: StudioWindow, qtbot: QtBot, lesson: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    taught = lesson.read_bytes()
    assert not window.answers_copy.action.isEnabled() or window.exercise.active
    answer_the_row(window, qtbot, "0.804", " 0,3")
    window.exercise.choose(0)  # the six projection rows: one typed, not checked
    panel = window.exercise.panel
    qtbot.keyClicks(panel.blanks[1].entry, "2")
    window.exercise.choose(ROW)  # back: what was typed is still there
    assert [b.entry.text() for b in panel.blanks] == ["0.804", " 0,3"]
    copy = tmp_path / "mine"
    patch_save_dialog(monkeypatch, copy)
    window.answers_copy.action.trigger()
    written = tmp_path / "mine.qkv.json"
    assert window.statusBar().currentMessage() == \
        f"Answers saved in {written} (this document is unchanged)"
    doc = json.loads(written.read_text("utf-8"))
    exercises = doc["exercises"]
    assert (exercises[ROW]["answers"], exercises[ROW]["checked"]) == (
        {"weights[0,1,0]": "0.804", "weights[0,1,1]": " 0,3"}, True)
    assert (exercises[0]["answers"], exercises[0]["checked"]) == ({"Q[0,1]": "2"}, False)
    assert all("answers" not in e and "checked" not in e for e in exercises[1:ROW])
    assert without_answers(doc) == json.loads(taught)  # the whole document, as the teacher's
    assert lesson.read_bytes() == taught and window.state.path == lesson
    assert window.state.undo_stack.isClean()
    assert window.save() and lesson.read_bytes() == taught, "Save never writes answers"


def test_save_answers_as_refuses_the_open_document(
        window: StudioWindow, qtbot: QtBot, lesson: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    taught = lesson.read_bytes()
    answer_the_row(window, qtbot, "0.804", "0.3")
    patch_save_dialog(monkeypatch, lesson.with_name("lesson"))  # .qkv.json is added
    assert not window.answers_copy.save()
    said = (f"Not saved: {lesson} is the document that is open. Your answers are saved as a "
            "copy: choose another name.")
    assert dialogs.shown == [("warning", "Answers not saved", said)]
    assert window.statusBar().currentMessage() == f"⚠ {said}"
    assert lesson.read_bytes() == taught
    window.exercise.action.trigger()  # out of exercise mode: nothing to save
    assert not window.answers_copy.action.isEnabled()


def test_an_answers_copy_opens_with_its_blanks_filled_and_checked(
        window: StudioWindow, qtbot: QtBot, lesson: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    answer_the_row(window, qtbot, "0.804", "0.3")
    copy = tmp_path / "mine.qkv.json"
    patch_save_dialog(monkeypatch, copy)
    assert window.answers_copy.save()
    window.exercise.action.trigger()  # the student closes the panel …
    assert window.open_path(lesson)  # … and the teacher's document opens without answers
    assert not window.exercise.active
    assert window.open_path(copy)
    QApplication.processEvents()
    window.refresh_canvas(fit=False)
    mode, panel = window.exercise, window.exercise.panel
    assert mode.active and mode.current == ROW and panel.checked
    said = window.statusBar().currentMessage()
    assert said == "Opened mine.qkv.json", "the status line quotes no share to predict"
    assert [b.entry.text() for b in panel.blanks] == ["0.804", "0.3"]
    share = shares_for_love(F11_WK)[1]
    assert panel.blanks[0].verdict.text() == "✓ right: 0.804"
    assert panel.blanks[1].verdict.text().startswith(
        f"✗ wrong: you wrote 0.3, the answer is {share:.3f}")
    assert marks_of(window) == {(1, 0): "✓", (1, 1): "✗"}
    assert window.state.undo_stack.isClean()


def test_check_marks_the_blanks_on_the_canvas_until_edited_or_tried_again(
        window: StudioWindow, qtbot: QtBot, tmp_path: Path) -> None:
    start_row_exercise(window)
    assert marks_of(window) == {}
    answer_the_row(window, qtbot, "0.804", "0.3")
    assert marks_of(window) == {(1, 0): "✓", (1, 1): "✗"}
    grid = shares_grid(window)
    assert [grid.cell_text(1, 0), grid.cell_text(1, 1)] == ["", ""], "still blanks"
    window._describe_canvas()
    said = window.canvas.accessibleDescription()
    assert "share from 爱 to 我: blank, checked ✓ right" in said
    assert "share from 爱 to 爱: blank, checked ✗ wrong" in said
    frame = build_frame(window.state.trace, window.state.step, window.frame_options())
    pdf = tmp_path / "frame.pdf"
    pdf.write_bytes(pdf_bytes([frame], QSize(1920, 1080)))
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert text.count("✓") == 1 and text.count("✗") == 1 and "0.196" not in text
    panel = window.exercise.panel
    qtbot.keyClicks(panel.blanks[1].entry, "5")  # the wrong one edited: its ✗ goes
    QApplication.processEvents()
    window.refresh_canvas(fit=False)
    assert marks_of(window) == {(1, 0): "✓"}
    assert panel.blanks[1].verdict.text() == "" and not panel.checked
    panel.again_button.click()
    QApplication.processEvents()
    window.refresh_canvas(fit=False)
    assert marks_of(window) == {}


def test_the_marks_speak_chinese(window: StudioWindow, qtbot: QtBot) -> None:
    from app import i18n

    i18n.set_language("zh")
    QApplication.processEvents()
    start_row_exercise(window)
    answer_the_row(window, qtbot, "0.804", "0.3")
    assert marks_of(window, "份额") == {(1, 0): "✓", (1, 1): "✗"}
    window._describe_canvas()
    said = window.canvas.accessibleDescription()
    assert "空格，已检查 ✓ 正确" in said and "空格，已检查 ✗ 错误" in said
    assert window.answers_copy.action.text() == "把答案另存为(&N)…"


def test_answers_to_questions_about_change_are_kept_in_the_copy(
        window: StudioWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mode, panel = window.exercise, window.exercise.panel
    mode.action.trigger()
    mode.choose(4)  # F11: which edit leaves the shares? (Wq, Wk, Wv: only Wv)
    assert [b.text() for b in panel.choices] == ["Wq[0, 0] + 1", "Wk[1, 0] + 0.5",
                                                 "Wv[0, 0] + 1"]
    panel.choices[2].setChecked(True)
    panel.check_button.click()
    assert panel.score.text() == "✓ right: exactly these leave shares unchanged: Wv[0, 0] + 1"
    mode.choose(5)  # a single visible key: the share 我 gives itself stays 1
    panel.choices[2].setChecked(True)  # “stays the same”, not checked
    copy = tmp_path / "mine.qkv.json"
    patch_save_dialog(monkeypatch, copy)
    assert window.answers_copy.save()
    exercises = json.loads(copy.read_text("utf-8"))["exercises"]
    assert (exercises[4]["answers"], exercises[4]["checked"]) == (
        {"choices[0]": False, "choices[1]": False, "choices[2]": True}, True)
    assert (exercises[5]["answers"], exercises[5]["checked"]) == ({"direction": "same"}, False)
    mode.action.trigger()
    assert window.open_path(copy)
    assert mode.active and mode.current == 4
    assert [b.isChecked() for b in panel.choices] == [False, False, True]
    assert panel.score.text() == "✓ right: exactly these leave shares unchanged: Wv[0, 0] + 1"
    mode.choose(5)
    assert [b.isChecked() for b in panel.choices] == [False, False, True]
    assert panel.score.text() == "" and not panel.checked
