"""The editor shows and edits what happens to the rows before the first layer: the type table,
the embedding norm's γ and β (titled in both languages), and a sinusoid's layout."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.window.studio import StudioWindow
from engine import load_scenario
from tests.app.driving import DEFAULT_SIZE, close_window, type_into
from tests.app.test_editor_stacks import shown_grids
from tests.app.test_editor_swap import choose
from tests.engine.test_engine_embedding_constructs import bert


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[StudioWindow]:
    path = tmp_path / "bert.qkv.json"
    path.write_text(json.dumps(bert()), encoding="utf-8")
    studio = StudioWindow(load_scenario(path))
    studio.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(studio):
        studio.show()
    yield studio
    close_window(studio)


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def test_the_type_table_and_the_embedding_norm_are_grids_that_recompute_x(
        qtbot: QtBot, window: StudioWindow) -> None:
    shown = shown_grids(window)
    assert {"type_table", "embedding_norm.gamma", "embedding_norm.beta"} <= set(shown)
    titles = window.editor.findChildren(type(window.editor.error_label))
    texts = {label.text() for label in titles}
    assert "T · type rows (one per token type)" in texts and "β of the embedding norm" in texts
    type_into(qtbot, window.editor.tables["type_table"], 1, 2, "5")
    scenario = window.state.scenario
    assert scenario.type_table is not None and scenario.type_table[1, 2] == 5.0
    arrays = window.state.trace.arrays
    assert arrays["type_rows"][3, 2] == 5.0 and arrays["type_rows"][0, 2] != 5.0  # type 1 only
    norm = scenario.embedding_norm
    assert norm is not None
    expected = _layer_norm(arrays["embedded"] + arrays["positions"] + arrays["type_rows"],
                           norm.gamma, norm.beta, norm.eps)
    np.testing.assert_allclose(arrays["X"], expected, rtol=1e-12, atol=1e-12)
    type_into(qtbot, window.editor.tables["embedding_norm.beta"], 0, 0, "2")
    x = window.state.trace.arrays["X"]
    np.testing.assert_allclose(x[:, 0] - expected[:, 0], 2 - norm.beta[0], rtol=0, atol=1e-12)
    assert window.state.undo_stack.count() == 2


def test_a_sinusoids_layout_is_chosen_in_the_positions_editor(
        qtbot: QtBot, window: StudioWindow) -> None:
    pane = window.editor.positions_editor
    assert not pane.layout_box.isVisibleTo(window)  # learned positions: no layout
    choose(qtbot, pane.kind_box, "sinusoidal")
    assert pane.layout_box.isVisibleTo(window) and pane.layout_box.currentData() == "interleaved"
    choose(qtbot, pane.layout_box, "halves")
    positions = window.state.scenario.positions
    assert positions is not None and positions.layout == "halves"
    assert window.state.undo_stack.undoText() == "layout = halves"
    table = window.state.trace.arrays["positions"]
    np.testing.assert_array_equal(table[1, :2], np.sin([1.0, 1 / 100]))  # sines first (d = 4)
    np.testing.assert_array_equal(table[1, 2:], np.cos([1.0, 1 / 100]))
    window.state.undo_stack.undo()
    assert window.state.scenario.positions.layout == "interleaved"  # type: ignore[union-attr]
    assert pane.layout_box.currentData() == "interleaved"
