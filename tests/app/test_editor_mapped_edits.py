"""The editor's grid of a weight left in its checkpoint (a Llama-3.2-1B Wq): its cells are read
from the checkpoint a tile at a time (a cell at a time, each opened the file: 50 ms to paint a
layer's grids), an edit keeps the text of every cell painted but the edited one's, and every
cell shows exactly the number of the document, after an edit, undo and redo too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex
from pytestqt.qtbot import QtBot

from app.editor.model import SHOWN_PLACES, TILE, MatrixModel
from app.window.studio import StudioWindow
from engine import format_number
from engine.format.mapped_weight import MappedWeight, Weight, edited_between
from tests.app.driving import close_window, cut_llama, show_window

WQ = "layers.0.attention.Wq"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[StudioWindow]:
    made = show_window(qtbot, cut_llama(tmp_path / "small", intermediate_size=40))
    yield made
    close_window(made)


PAINTING = [False]
"""Whether the grid's cells are being asked for (the reads counted are the grid's own)."""


def view(model: MatrixModel, rows: range, columns: range) -> list[list[str]]:
    """The texts of the cells a view shows, asked for row by row as a table paints them."""
    PAINTING[0] = True
    try:
        return [[model.data(model.index(r, c)) for c in columns] for r in rows]
    finally:
        PAINTING[0] = False


def texts(model: MatrixModel) -> list[list[str]]:
    return view(model, range(model.rowCount()), range(model.columnCount()))


def printed(weight: Weight) -> list[list[str]]:
    """Every number of the weight as the grid prints it, worked out here from all of them."""
    return [[format_number(float(v), SHOWN_PLACES) for v in row]
            for row in np.asarray(weight, dtype=np.float64)]


def tile_reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """From now on, each block a mapped weight reads from its checkpoint for the grid's cells
    (:func:`view`): columns or rows."""
    reads: list[tuple[str, object]] = []
    columns, rows = MappedWeight.columns, MappedWeight.rows

    def read_columns(self: MappedWeight, start: int, stop: int, room: object = None) -> object:
        if PAINTING[0]:
            reads.append(("columns", (start, stop)))
        return columns(self, start, stop, room)  # type: ignore[arg-type]

    def read_rows(self: MappedWeight, ids: object) -> object:
        if PAINTING[0]:
            reads.append(("rows", tuple(ids)))  # type: ignore[call-overload]
        return rows(self, ids)  # type: ignore[arg-type]

    monkeypatch.setattr(MappedWeight, "columns", read_columns)
    monkeypatch.setattr(MappedWeight, "rows", read_rows)
    return reads


@pytest.mark.parametrize("path", [WQ, "head.unembed", "embedding"])
def test_a_mapped_weights_grid_reads_its_cells_a_tile_at_a_time_and_shows_every_number(
        window: StudioWindow, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """Wq read transposed, the tied unembedding as the embedding's transpose, the embedding as
    stored: a view of 10 rows and 15 columns reads one tile, scrolled across a tile's edge
    one more, and back nothing; every number is the document's."""
    weight = window.state.scenario.weight(path)
    assert isinstance(weight, MappedWeight)
    every = printed(weight)
    assert texts(MatrixModel(window.state, path)) == every
    reads = tile_reads(monkeypatch)
    model = MatrixModel(window.state, path)
    first = range(10), range(15)
    assert view(model, *first) == [row[:15] for row in every[:10]]
    across = range(12, 22), range(10, 24)  # rows and columns across the first tile's edge
    assert view(model, *across) == [row[10:24] for row in every[12:22]]
    assert view(model, *first) == [row[:15] for row in every[:10]]  # both tiles kept
    if weight.transposed:
        edge = min(2 * TILE, weight.shape[1])
        assert reads == [("columns", (0, TILE)), ("columns", (TILE, edge))]
    else:
        assert reads == [("rows", tuple(range(TILE))), ("rows", tuple(range(TILE, 2 * TILE)))]


def test_an_edit_of_a_mapped_weight_reads_again_only_the_edited_cells_tile(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    state = window.state
    before = state.scenario.weight(WQ)
    assert isinstance(before, MappedWeight)
    model = MatrixModel(state, WQ)
    assert texts(model) == printed(before)
    reads = tile_reads(monkeypatch)
    repainted: list[tuple[int, int, int, int]] = []

    def noted(top: QModelIndex, bottom: QModelIndex, *_roles: object) -> None:
        repainted.append((top.row(), top.column(), bottom.row(), bottom.column()))

    model.dataChanged.connect(noted)
    assert state.edit_cell(WQ, 2, 3, 0.5)
    after = state.scenario.weight(WQ)
    assert isinstance(after, MappedWeight)
    assert edited_between(before, after).tolist() == [2 * 24 + 3]
    assert edited_between(after, after).tolist() == []
    assert repainted == [(2, 3, 2, 3)]
    assert texts(model) == printed(after)
    assert model.data(model.index(2, 3)) == "0.5"
    assert reads == [("columns", (0, TILE))]  # the edited cell's tile, for it alone
    assert state.edit_cell(WQ, 2, 3, 0.75)  # typed again into the same cell
    assert texts(model) == printed(state.scenario.weight(WQ))
    state.undo()
    assert texts(model) == printed(before) and model.data(model.index(2, 3)) == \
        format_number(float(np.asarray(before)[2, 3]), SHOWN_PLACES)
    state.redo()
    assert texts(model) == printed(state.scenario.weight(WQ))
    assert reads == [("columns", (0, TILE))] * 4
    assert repainted[-1] == (2, 3, 2, 3)
