"""A cell edit of a big weight made ready (issue 37 item 4): the edited weight is made ready by
the worker from the one it was edited from (its numbers copied, not widened from the checkpoint
again; on the interface thread the copy alone froze the window 50-190 ms), and every result its
grid reads is the one
worked out from all its numbers: the spread, the count rounding to 0, the heat map's block
means and its colours, the heat map's image brought up to date from the cell set when the colour
scale stays. A cell of Llama-3.2-1B's Wq froze the window for 0.4 s; its heat map's image made
again from its million blocks, 50-150 ms."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

import app.canvas.grid
import app.canvas.heat
import app.canvas.prepared_drawing
import app.state.big
import app.window.step_weights
from app.canvas.grid import MatrixGrid
from app.canvas.heat import block_means, block_shape
from app.canvas.prepared_drawing import is_prepared, prepared_values
from app.canvas.rare_cells import remembered_rounding, rounding_to_zero
from app.canvas.remember import means_of, spread
from app.texts.printed import printed_places
from engine.format.mapped_weight import MappedWeight
from engine.format.numbers import Spread
from engine.forward import lineage
from tests.app.driving import asked_to_prepare, close_window, cut_llama, show_window
from tests.app.test_large_grid_edits import painted_colours
from tests.app.test_step_weights import step_button

WQ = "layers.0.attention.Wq"


def test_an_edited_weight_is_made_ready_from_the_one_it_was_edited_from(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(app.window.step_weights, "AHEAD", 0)
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 256 * 256)
    monkeypatch.setattr(app.canvas.heat, "HEAT_BLOCKS", 64)  # blocks of 4 × 4 cells
    window = show_window(qtbot, cut_llama(tmp_path / "wide", hidden_size=256,
                                          num_attention_heads=4, head_dim=64,
                                          intermediate_size=32))
    index = step_button(window, "L1.projections")
    qtbot.mouseClick(window.timeline.step_group.button(index), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.canvas.frame is not None
                    and window.canvas.frame.step_index == index)
    assert is_prepared(window.state.scenario.weight(WQ))
    by_worker = asked_to_prepare(monkeypatch)
    updated: list[np.ndarray] = []  # the arrays whose heat map was brought up to date
    real_after = app.canvas.grid._blocks_after
    monkeypatch.setattr(app.canvas.grid, "_blocks_after", lambda before, values, *rest: (
        updated.append(values), real_after(before, values, *rest))[1])
    copied: list[bool] = []  # per weight made ready from another: on the interface thread?
    real_edited = app.canvas.prepared_drawing._edited
    monkeypatch.setattr(app.canvas.prepared_drawing, "_edited", lambda *args: (
        copied.append(threading.current_thread() is threading.main_thread()),
        real_edited(*args))[1])
    state = window.state
    before = [prepared_values(state.scenario.weight(WQ))]
    for k, edit in enumerate((lambda: state.edit_cell(WQ, 5, 9, 0.75),
                              lambda: state.edit_cell(WQ, 130, 0, 1e-9), state.undo_stack.undo)):
        updated.clear()
        edit()
        qtbot.waitUntil(lambda: not state.busy and window.canvas.frame is not None
                        and window.canvas.frame.trace is state.trace)
        weight = state.scenario.weight(WQ)
        assert isinstance(weight, MappedWeight) and is_prepared(weight)
        values = prepared_values(weight)
        assert values is not None
        if k == 1:  # a number inside the colour scale: the image updated from its one cell
            descent = lineage.parent_of(values)  # made from a weight made ready before
            assert descent is not None and any(descent[0] is made for made in before)
            assert np.flatnonzero(descent[0] != values).tolist() == descent[1].tolist()
            qtbot.waitUntil(lambda made=values: any(array is made for array in updated))  # painted
        before.append(values)
        whole = np.asarray(weight, dtype=np.float64)
        assert np.array_equal(values, whole) and values.strides == whole.strides
        assert spread(values) == Spread.of(whole)
        places = printed_places(state.trace)
        assert remembered_rounding(values, places) == rounding_to_zero(whole, places)
        block = block_shape(*whole.shape)
        assert block == (4, 4)
        assert np.array_equal(means_of(values, None, block), block_means(whole, None, block))
        grid = next(g for g in window.canvas.frame.items_of(MatrixGrid)
                    if g.spec.values is values)
        fresh = MatrixGrid(dataclasses.replace(grid.spec, values=whole), grid.theme)
        assert np.array_equal(painted_colours(grid), painted_colours(fresh))
    assert copied == [False, False] and len(by_worker) == 2  # undone: the first, still kept
    assert set(by_worker) == {state.scenario.weight(WQ).name}
    close_window(window)
