"""Typing a number repaints only what changed: the grid typed into tells its views about the
changed cells alone, the grids whose arrays did not change say nothing, and the next paint
asks the model about the edited cell only (issue 22: an edit repaints no slower than before)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.editor import model as model_module
from app.editor.model import MatrixModel
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window

Changed = tuple[str, tuple[int, int], tuple[int, int]]


def on_weights(qtbot: QtBot) -> StudioWindow:
    """The two-head example on its weights step: Wq (6 × 4) is on screen in the editor."""
    window = open_window(qtbot, "multihead")
    window.state.set_step(window.state.trace.step_index("weights"))
    QApplication.processEvents()
    return window


@pytest.fixture
def multihead(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = on_weights(qtbot)
    yield window
    close_window(window)


def record_changes(window: StudioWindow) -> list[Changed]:
    """Every dataChanged of every grid from now on: the path and the corners of the range."""
    seen: list[Changed] = []
    for path, table in window.editor.tables.items():
        def note(top: QModelIndex, bottom: QModelIndex, *_roles: object,
                 path: str = path) -> None:
            seen.append((path, (top.row(), top.column()), (bottom.row(), bottom.column())))
        table.model().dataChanged.connect(note)
    return seen


def wq(window: StudioWindow) -> MatrixModel:
    model = window.editor.tables["attention.Wq"].model()
    assert isinstance(model, MatrixModel)
    return model


def test_an_edit_marks_the_edited_cell_alone_changed(multihead: StudioWindow) -> None:
    seen = record_changes(multihead)
    model = wq(multihead)
    assert model.setData(model.index(1, 2), "0.75")
    assert seen == [("attention.Wq", (1, 2), (1, 2))], "Wk, Wv and X did not change"
    multihead.state.undo_stack.undo()
    assert seen[1:] == [("attention.Wq", (1, 2), (1, 2))]
    assert model.paste_block(2, 1, "1\t2\n3\t4")
    assert seen[2:] == [("attention.Wq", (2, 1), (3, 2))], "the pasted block's corners"


def test_a_large_array_is_not_compared_all_of_it_is_marked(
        multihead: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_module, "COMPARED_CELLS", 23)  # Wq has 24 cells
    seen = record_changes(multihead)
    model = wq(multihead)
    assert model.setData(model.index(1, 2), "0.75")
    assert seen == [("attention.Wq", (0, 0), (5, 3))]
    assert model.data(model.index(1, 2)) == "0.75"


def test_the_repaint_after_an_edit_asks_for_the_edited_cell_alone(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: set[tuple[int, int]] = set()
    data = MatrixModel.data

    def counted(model: MatrixModel, index: QModelIndex | QPersistentModelIndex,
                role: int = Qt.ItemDataRole.DisplayRole) -> object:
        asked.add((index.row(), index.column()))
        return data(model, index, role)

    # Before the window is made: PySide looks a model's data() up once.
    monkeypatch.setattr(MatrixModel, "data", counted)
    window = on_weights(qtbot)
    try:
        table = window.editor.tables["attention.Wq"]
        shown = table.viewport().visibleRegion()  # inside the grid and the editor's scroll
        on_screen = {(row, col) for row in range(6) for col in range(4)
                     if shown.intersects(table.visualRect(table.model().index(row, col)))}
        assert len(on_screen) >= 12, "most of Wq is on screen"
        assert asked >= on_screen, "the first paint asked for every cell on screen"
        asked.clear()
        model = wq(window)
        with qtbot.waitSignal(window.canvas.repainted):
            assert model.setData(model.index(1, 2), "0.75")
        QApplication.processEvents()
        assert asked == {(1, 2)}, f"{len(asked)} cells asked for, of {len(on_screen)} on screen"
    finally:
        close_window(window)


def test_the_shown_number_follows_the_edit(multihead: StudioWindow) -> None:
    model = wq(multihead)
    index = model.index(1, 2)
    before = multihead.state.scenario.parameter("attention.Wq")
    neighbour = model.data(model.index(1, 1))
    model.data(index)  # remembered for the next paint …
    assert model.setData(index, "0.123456789")
    assert model.data(index) == "0.123457", "… and forgotten when the number changes"
    assert model.data(index, Qt.ItemDataRole.EditRole) == "0.123456789"
    assert model.data(model.index(1, 1)) == neighbour == f"{before[1, 1]:g}"
    multihead.state.undo_stack.undo()
    assert model.data(index) == f"{before[1, 2]:g}"
    assert model.data(index, Qt.ItemDataRole.FontRole) is None
    assert model.data(index, Qt.ItemDataRole.TextAlignmentRole) == int(
        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    assert model.data(index, Qt.ItemDataRole.ToolTipRole) == (
        f"Wq, row 1, column 2: {before[1, 2]:g}")
