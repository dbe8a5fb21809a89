"""An edit of a weight left in its checkpoint (a Llama-3.2-1B Wq): the editor's grid keeps the
text of every cell it painted but the edited one, read again from the checkpoint only there
(a cell at a time, every cell on screen took 60 ms after each edit), and shows exactly the
numbers of the document after the edit, undo and redo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex
from pytestqt.qtbot import QtBot

import app.editor.model
from app.editor.model import SHOWN_PLACES, MatrixModel
from app.window.studio import StudioWindow
from engine import format_number
from engine.checkpoint import import_checkpoint
from engine.format.mapped_weight import MappedWeight, Weight, edited_between
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.bench.bench_scale import SHAPES, TEXT, write_checkpoint

SMALL = {"vocab_size": 50, "hidden_size": 24, "intermediate_size": 40,
         "num_hidden_layers": 1, "num_attention_heads": 3, "num_key_value_heads": 1,
         "head_dim": 8}
WQ = "layers.0.attention.Wq"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[StudioWindow]:
    write_checkpoint(tmp_path / "small", {**SHAPES["llama-3.2-1b"], **SMALL})
    made = StudioWindow(import_checkpoint(tmp_path / "small", TEXT))
    made.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(made):
        made.show()
    yield made
    close_window(made)


def texts(model: MatrixModel) -> list[list[str]]:
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def printed(weight: Weight) -> list[list[str]]:
    """Every number of the weight as the grid prints it, worked out here from all of them."""
    return [[format_number(float(v), SHOWN_PLACES) for v in row]
            for row in np.asarray(weight, dtype=np.float64)]


def test_an_edit_of_a_mapped_weight_reads_again_only_the_edited_cell(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    state = window.state
    before = state.scenario.weight(WQ)
    assert isinstance(before, MappedWeight)
    model = MatrixModel(state, WQ)
    assert texts(model) == printed(before)
    read: list[tuple[int, ...]] = []
    real = app.editor.model.cell

    def counted(weight: Weight, index: tuple[int, ...]) -> float:
        read.append(index)
        return real(weight, index)

    monkeypatch.setattr(app.editor.model, "cell", counted)
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
    assert read == [(2, 3)]
    assert state.edit_cell(WQ, 2, 3, 0.75)  # typed again into the same cell
    assert texts(model) == printed(state.scenario.weight(WQ))
    state.undo()
    assert texts(model) == printed(before) and model.data(model.index(2, 3)) == \
        format_number(float(np.asarray(before)[2, 3]), SHOWN_PLACES)
    state.redo()
    assert texts(model) == printed(state.scenario.weight(WQ))
    assert read == [(2, 3)] * 4
    assert repainted[-1] == (2, 3, 2, 3)
