"""A document that can generate and overflows is refused by the window in words, never a crash
(issue 34): at launch F11 shows with the refusal naming the cell, and an edit that overflows is
refused with the same place while the cell keeps its number."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.model.presets import preset, preset_document
from app.window.startup import start_window
from app.window.studio import StudioWindow
from engine import compute
from tests.app.documents_support import example_document, launch_names
from tests.app.driving import Dialogs, close_window, open_window

__all__ = ["launch_names"]
F11_TITLE = example_document()["title"]
HUGE = 1e308
PLACE = "L1.scores[0,0,2]"
"""Where Wq[0,0] = 1e308 first leaves float64 (head 0, query 0, key 2; found independently in
:func:`test_the_place_is_where_the_numbers_leave_float64`)."""


def test_the_place_is_where_the_numbers_leave_float64() -> None:
    """Q and K of the first layer, and head 0's scores q·k/√dₖ, computed here from the
    engine's normed rows: the first score past float64 is query 0's with key 2."""
    scenario = preset("gpt2")
    normed = compute(scenario).arrays["L1.norm1"]
    weights = {name: np.array(scenario.parameter(f"layers.0.attention.{name}"))
               for name in ("Wq", "Wk", "bq", "bk")}
    weights["Wq"][0, 0] = HUGE
    d_k = weights["Wq"].shape[1] // scenario.layers[0].attention.heads
    with np.errstate(over="ignore", invalid="ignore"):
        q = normed @ weights["Wq"] + weights["bq"]
        k = normed @ weights["Wk"] + weights["bk"]
        scores = q[:, :d_k] @ k[:, :d_k].T / np.sqrt(d_k)
    assert np.isfinite(q).all() and np.isfinite(k).all()
    assert tuple(int(i) for i in np.argwhere(~np.isfinite(scores))[0]) == (0, 2)


def overflowing(tmp_path: Path) -> Path:
    document = preset_document("gpt2")
    document["layers"][0]["attention"]["Wq"][0][0] = HUGE
    path = tmp_path / "huge.qkv.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_launch_on_an_overflowing_preset_shows_f11_and_the_refusal(
        qtbot: QtBot, tmp_path: Path, launch_names: None, dialogs: Dialogs,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = overflowing(tmp_path)
    window = start_window(str(path))
    assert isinstance(window, StudioWindow)
    assert window.state.scenario.title == F11_TITLE and window.state.path is None
    problem = (f"{PLACE}: a value overflowed or was divided by zero (overflow encountered in "
               "matmul); look for huge numbers, or ε = 0 with a constant row")
    assert dialogs.shown == [("warning", "Cannot open", f"{path} was not opened:\n{problem}")]
    assert capsys.readouterr().err == f"qkv-studio: {problem}\n"


def test_an_edit_that_overflows_is_refused_and_the_cell_keeps_its_number(
        qtbot: QtBot) -> None:
    window = open_window(qtbot)
    try:
        window.show_document(preset("gpt2"), None)
        state = window.state
        before = float(state.scenario.parameter("layers.0.attention.Wq")[0, 0])
        refusals: list[str] = []
        state.refused.connect(refusals.append)
        assert not state.edit_cell("layers.0.attention.Wq", 0, 0, HUGE)
        assert refusals == [
            "L1.Wq[0,0]: a value overflowed or was divided by zero (overflow encountered in "
            f"matmul); look for huge numbers, or ε = 0 with a constant row; kept {before:g}"]
        assert window.statusBar().currentMessage().endswith(f"kept {before:g}")
        assert float(state.scenario.parameter("layers.0.attention.Wq")[0, 0]) == before
        assert state.undo_stack.count() == 0
    finally:
        close_window(window)
