"""The status bar prints the shares with the frame's decimals: six for g01, a small decoder
block (``0.05581 / 0.94419``, not ``0.056 / 0.944``), as its arrows and grids print them."""

from __future__ import annotations

import math

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas.grid import MatrixGrid
from app.window.studio import StudioWindow
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
