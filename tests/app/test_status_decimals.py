"""The status bar prints the shares with the frame's decimals: six for g01, a small decoder
block (``0.05581 / 0.94419``, not ``0.056 / 0.944``), as its arrows and grids print them; a
grid's hover prints its arithmetic with the grid's decimals too (``0.123``, not ``0.123457``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import compute, format_number, load_scenario
from tests.app.driving import canvas_arrows, type_into


def last_row_shares(scores: list[float]) -> list[str]:
    """Softmax by hand, printed with six decimals and the trailing zeros trimmed."""
    exps = [math.exp(s - max(scores)) for s in scores]
    return [f"{e / sum(exps):.6f}".rstrip("0") for e in exps]


def test_the_status_bar_prints_the_shares_as_the_frame_does(qtbot: QtBot,
                                                          g01: StudioWindow) -> None:
    window, state = g01, g01.state
    state.set_step(state.trace.step_index("weights"))
    window.refresh_canvas(fit=True)
    scores = state.trace.arrays["scores"][0, 1]  # p2 reads p1 and itself: nothing masked
    expected = last_row_shares([float(s) for s in scores])
    assert expected == ["0.05581", "0.94419"]
    opened = window.statusBar().currentMessage()
    assert opened.endswith(f"→ shares for p2: {expected[0]} / {expected[1]}"), opened
    assert canvas_arrows(window).share_labels == expected
    frame = window.canvas.frame
    assert frame is not None
    weights = next(g for g in frame.items_of(MatrixGrid) if g.spec.title == "shares")
    assert [weights.cell_text(1, 0), weights.cell_text(1, 1)] == expected

    type_into(qtbot, window.editor.tables["attention.Wq"], 0, 0, "0.5")
    scores = state.trace.arrays["scores"][0, 1]
    edited = last_row_shares([float(s) for s in scores])
    assert edited != expected and not np.isclose(float(edited[0]), float(expected[0]))
    status = window.statusBar().currentMessage()
    assert status == f"Wq[0,0] = 0.5 → shares for p2: {edited[0]} / {edited[1]}"
    assert canvas_arrows(window).share_labels == edited


def grid_titled(frame: FrameItem, title: str) -> MatrixGrid:
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title == title)


def test_a_hover_prints_the_cell_as_its_grid_does(qtbot: QtBot, tmp_path: Path) -> None:
    f11 = json.loads(example_path("f11").read_text(encoding="utf-8"))
    f11["attention"]["Wk"][1][0] = 0.123456789  # prints 0.123 in the grid, 0.123457 at six
    document = tmp_path / "f11.qkv.json"
    document.write_text(json.dumps(f11), encoding="utf-8")
    trace = compute(load_scenario(document))
    inputs = FrameItem(trace, 0, FrameOptions(lang="en"))
    wk = grid_titled(inputs, "Wk")
    assert wk.cell_text(1, 0) == "0.123"
    assert wk.spec.explain is not None
    assert wk.spec.explain(1, 0) == "Wk[1,0] = 0.123: a parameter you can edit"

    weights = FrameItem(trace, trace.step_index("weights"), FrameOptions(lang="en"))
    shares = grid_titled(weights, "shares")
    scores = [float(s) for s in trace.arrays["scores"][0, 1]]
    exps = [math.exp(s - max(scores)) for s in scores]
    by_hand = f"{exps[0] / sum(exps):.3f}".rstrip("0")
    assert shares.cell_text(1, 0) == by_hand
    assert shares.spec.explain is not None
    formula = shares.spec.explain(1, 0).splitlines()[0]
    assert formula.endswith(f" = {by_hand}"), formula
    assert f"exp({format_number(scores[1] - max(scores), 3)})" in formula
