"""File → Import matrix… and paste: numbers into the selected grid, as one undo step."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QInputDialog
from pytestqt.qtbot import QtBot

from app.window.studio import StudioWindow
from tests.app.documents_support import patch_open_dialog
from tests.app.driving import Dialogs, type_into
from tests.app.hostile_files import hostile_matrix_files

WQ = [[1.0, 1.0], [-1.0, 1.0]]


def select(qtbot: QtBot, window: StudioWindow, path: str) -> None:
    """Click into a grid, as a user does before File → Import matrix…."""
    table = window.editor.tables[path]
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(table.model().index(0, 0)).center())
    assert window.selected_grid() == path


@pytest.mark.parametrize("form", ["npy", "csv", "tsv", "txt"])
def test_a_file_is_imported_into_the_selected_grid_as_one_undo_step(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    values = np.array([[0.5, -2.0], [3.0, 4.25]])
    path = tmp_path / f"wk.{form}"
    if form == "npy":
        np.save(path, values)
    elif form == "csv":
        path.write_text("a,b\n0.5,-2\n3,4.25\n", encoding="utf-8")
    elif form == "tsv":
        path.write_text("0.5\t-2\n3\t4.25\n", encoding="utf-8")
    else:
        path.write_text("[[0.5 -2.]\n [3. 4.25]]", encoding="utf-8")
    select(qtbot, window, "attention.Wk")
    asked = patch_open_dialog(monkeypatch, path)
    count = window.state.undo_stack.count()
    window.import_action.trigger()
    assert asked == ["Import a matrix into Wk"]
    np.testing.assert_array_equal(window.state.scenario.attention.Wk, values)
    assert window.editor.tables["attention.Wk"].model().index(1, 1).data() == "4.25"
    assert window.state.undo_stack.count() == count + 1
    assert window.state.undo_stack.undoText() == f"import wk.{form} into Wk"
    assert window.isWindowModified() and dialogs.shown == []
    window.undo_action.trigger()
    np.testing.assert_array_equal(window.state.scenario.attention.Wk, [[0.5, 0.5], [0.5, -0.5]])


def test_a_block_of_the_wrong_shape_is_explained_never_cropped(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    np.save(tmp_path / "big.npy", np.ones((3, 2)))
    select(qtbot, window, "attention.Wq")
    patch_open_dialog(monkeypatch, tmp_path / "big.npy")
    trace = window.state.trace
    window.import_action.trigger()
    kind, title, text = dialogs.shown[-1]
    assert (kind, title) == ("warning", "Cannot import")
    assert "a 3×2 block does not fit Wq, which is 2×2 at the current sizes" in text
    assert window.state.trace is trace and window.state.undo_stack.count() == 0
    assert "a 3×2 block does not fit Wq" in window.editor.error_label.text()
    np.save(tmp_path / "small.npy", np.ones((1, 2)))
    patch_open_dialog(monkeypatch, tmp_path / "small.npy")
    window.import_action.trigger()
    assert "a 1×2 block does not fill Wq, which is 2×2" in dialogs.shown[-1][2]
    assert window.state.trace is trace


def test_a_vector_grid_takes_a_1d_array(qtbot: QtBot, tmp_path: Path, dialogs: Dialogs,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.app.driving import close_window, open_window

    window = open_window(qtbot, "norms")
    try:
        path = next(p for p in window.editor.tables if p.endswith("gamma1"))
        d = window.state.scenario.d
        np.save(tmp_path / "gamma.npy", np.arange(1, d + 1, dtype=np.float32))
        select(qtbot, window, path)
        patch_open_dialog(monkeypatch, tmp_path / "gamma.npy")
        window.import_action.trigger()
        np.testing.assert_array_equal(window.state.scenario.parameter(path), np.arange(1, d + 1))
        assert dialogs.shown == []
    finally:
        close_window(window)


def test_without_a_selected_grid_the_user_picks_one(window: StudioWindow, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    offered: list[list[str]] = []

    def pick(_parent: object, _title: str, _label: str, items: list[str], *_args: object,
             **_kwargs: object) -> tuple[str, bool]:
        offered.append(list(items))
        return "Wv (2×2)", True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(pick))
    (tmp_path / "wv.csv").write_text("1,2\n3,4", encoding="utf-8")
    patch_open_dialog(monkeypatch, tmp_path / "wv.csv")
    assert window.selected_grid() is None  # no grid was clicked
    window.import_action.trigger()
    assert offered == [["X (2×2)", "Wq (2×2)", "Wk (2×2)", "Wv (2×2)"]]
    np.testing.assert_array_equal(window.state.scenario.attention.Wv, [[1, 2], [3, 4]])


def test_hostile_matrix_files_are_refused_and_nothing_changes(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    select(qtbot, window, "attention.Wq")
    trace = window.state.trace
    for key, (path, words) in hostile_matrix_files(tmp_path).items():
        dialogs.shown.clear()
        patch_open_dialog(monkeypatch, path)
        window.import_action.trigger()
        assert len(dialogs.shown) == 1, key
        kind, title, text = dialogs.shown[0]
        assert (kind, title) == ("warning", "Cannot import"), key
        assert str(path) in text and words in text, (key, text)
        assert window.state.trace is trace, key
    assert window.state.undo_stack.count() == 0
    assert not (tmp_path / "unpickled").exists()


# -- paste -----------------------------------------------------------------------------------
def paste(qtbot: QtBot, window: StudioWindow, path: str, text: str, row: int = 0,
          col: int = 0) -> None:
    table = window.editor.tables[path]
    table.setFocus()
    table.setCurrentIndex(table.model().index(row, col))
    QGuiApplication.clipboard().setText(text)
    qtbot.keyClick(table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


@pytest.mark.parametrize("text", ["[[2, 3], [4, 5]]", "[[2. 3.]\n [4. 5.]]",
                                  "array([[2., 3.],\n       [4., 5.]])", "2\t3\n4\t5\n"])
def test_pasting_a_whole_matrix_in_any_common_shape_fills_the_grid(
        qtbot: QtBot, window: StudioWindow, text: str) -> None:
    paste(qtbot, window, "attention.Wq", text, 1, 1)  # a full-size block fills from the top
    np.testing.assert_array_equal(window.state.scenario.attention.Wq, [[2, 3], [4, 5]])
    assert window.state.undo_stack.count() == 1
    assert window.state.undo_stack.undoText() == "paste 2×2 into Wq"


def test_pasting_part_of_a_grid_starts_at_the_current_cell(qtbot: QtBot,
                                                          window: StudioWindow) -> None:
    paste(qtbot, window, "attention.Wq", "[7, 8]", 1, 0)
    np.testing.assert_array_equal(window.state.scenario.attention.Wq, [[1, 1], [7, 8]])
    paste(qtbot, window, "attention.Wq", "[7, 8]", 1, 1)
    assert ("paste into Wq: a 1×2 block pasted at Wq[1,1] does not fit Wq, which is 2×2 at "
            "the current sizes; nothing changed") in window.editor.error_label.text()


@pytest.mark.parametrize(("text", "words"), [
    ("1\tabc", "line 1, cell 2: “abc” is not a number"),
    ("[[1, 2], [3]]", "row 2 has 1 number but row 1 has 2"),
    ("", "there are no numbers to read"),
])
def test_bad_pasted_text_changes_nothing_and_says_why(qtbot: QtBot, window: StudioWindow,
                                                      text: str, words: str) -> None:
    trace = window.state.trace
    paste(qtbot, window, "X", text)
    assert window.state.trace is trace
    assert words in window.editor.error_label.text()
    assert window.editor.error_label.text().endswith("nothing changed")


def test_import_then_typing_are_separate_undo_steps(qtbot: QtBot, window: StudioWindow) -> None:
    paste(qtbot, window, "attention.Wq", "[[2, 3], [4, 5]]")
    type_into(qtbot, window.editor.tables["attention.Wq"], 0, 0, "9")
    assert window.state.undo_stack.count() == 2
    window.undo_action.trigger()
    np.testing.assert_array_equal(window.state.scenario.attention.Wq, [[2, 3], [4, 5]])
    window.undo_action.trigger()
    np.testing.assert_array_equal(window.state.scenario.attention.Wq, WQ)
