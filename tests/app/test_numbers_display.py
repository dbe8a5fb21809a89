"""Honest numbers in the window: View → Decimals, huge and tiny values, ε read the same everywhere
(issue 11, item 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas.arrows import AttentionArrows
from app.canvas.grid import GridSpec, MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.theme import SLIDE
from app.export.job import ExportPlan
from app.export.settings import ExportRequest
from app.window.studio import StudioWindow
from engine import explain
from engine.format.writer import to_document
from tests.app.driving import canvas_arrows, close_window, open_window, type_into
from tests.app.test_window_edit import go_to_step


def canvas_grids(window: StudioWindow) -> dict[str, MatrixGrid]:
    frame = window.canvas.frame
    assert frame is not None
    return {grid.spec.title: grid for grid in frame.items_of(MatrixGrid)}


def cell_texts(grid: MatrixGrid) -> list[list[str]]:
    rows, cols = grid.spec.values.shape
    return [[grid.cell_text(r, c) for c in range(cols)] for r in range(rows)]


def test_view_decimals_is_saved_with_the_document_and_undone(qtbot: QtBot,
                                                              window: StudioWindow) -> None:
    go_to_step(qtbot, window, "weights")
    menu = window.decimals_menu
    assert menu.actions[3].isChecked()  # F11 has no display key: today's three decimals
    assert canvas_arrows(window).share_labels == ["0.804", "0.196"]
    menu.actions[4].trigger()
    # 爱 over (我, 爱): 1/(1+e^(−√2)) = 0.80443 → four decimals 0.8044.
    assert canvas_arrows(window).share_labels == ["0.8044", "0.1956"]
    assert to_document(window.state.scenario)["display"] == {"decimals": 4}
    assert menu.actions[4].isChecked() and window.isWindowModified()
    window.state.undo_stack.undo()
    assert canvas_arrows(window).share_labels == ["0.804", "0.196"]
    assert "display" not in to_document(window.state.scenario)
    assert menu.actions[3].isChecked()


def test_a_small_decoder_block_checks_six(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        assert window.decimals_menu.actions[6].isChecked()
    finally:
        close_window(window)


def test_typing_1e300_keeps_the_frame_narrow_and_prints_powers_of_ten(
        qtbot: QtBot, window: StudioWindow) -> None:
    go_to_step(qtbot, window, "scores")
    before = window.canvas.frame.boundingRect().width()
    type_into(qtbot, window.editor.tables["attention.Wq"], 0, 0, "1e300")
    assert window.state.scenario.attention.Wq[0, 0] == 1e300
    scores = next(g for title, g in canvas_grids(window).items() if title.startswith("scores"))
    texts = cell_texts(scores)
    # Q[1] = X[1]·Wq = (1e300 + …, …); its score with key 我 is about 7.07e299 (÷ √2).
    assert texts[1][0] == "7.071×10²⁹⁹", texts
    assert all("×10" in t or t == "0" for row in texts for t in row), texts
    after = window.canvas.frame.boundingRect().width()
    assert after < before * 1.5, (before, after)
    assert "Wq[0,0] = 1×10³⁰⁰" in window.statusBar().currentMessage()


def test_shares_that_are_nearly_0_or_1_never_read_0_or_1() -> None:
    shares = np.array([[9.6e-7, 0.999999, 5e-8], [0.0, 1.0, 0.0]])
    grid = MatrixGrid(GridSpec("weights", shares, ["a", "b"], ["a", "b", "c"]), SLIDE)
    assert cell_texts(grid) == [["9.6×10⁻⁷", "≈1", "5×10⁻⁸"], ["0", "1", "0"]]
    # The cells are sized for the widest of those texts.
    assert grid.cell_width >= 60


def test_eps_reads_the_same_on_canvas_hover_editor_and_status_line(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        go_to_step(qtbot, window, "norm1")
        edit = window.editor.block_editor.eps_edit
        edit.setFocus()
        edit.selectAll()
        qtbot.keyClicks(edit, "1.5e-12")
        edit.editingFinished.emit()
        shown = "1.5×10⁻¹²"
        assert window.state.scenario.block.eps == 1.5e-12
        assert edit.text() == shown
        assert f"ε = {shown}" in window.statusBar().currentMessage()
        frame = window.canvas.frame
        assert any(shown in item.text for item in frame.items_of(TextItem))
        assert shown in explain(window.state.trace, "norm1", (0, 0)).text()
        assert "2e−12" not in " ".join(item.text for item in frame.items_of(TextItem))
    finally:
        close_window(window)


def test_an_export_request_overrides_the_document_decimals(window: StudioWindow,
                                                           tmp_path: Path) -> None:
    trace = window.state.trace
    step = [s.id for s in trace.steps].index("weights")
    request = ExportRequest(format="png", steps=(step,), destination=tmp_path, decimals=6)
    plan = ExportPlan(trace, request, window.frame_options())
    frame = plan.frame(plan.pages[0])
    arrows = [a for a in frame.scene.items() if isinstance(a, AttentionArrows)]
    assert [a.share_labels for a in arrows] == [["0.80443", "0.19557"]]  # 0.804430 trimmed


def test_the_cli_refuses_a_precision_it_does_not_offer(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    from app.cli import main

    code = main(["export", "f11", "--format", "png", "--out", str(tmp_path), "--decimals", "5"])
    assert code == 2
    assert capsys.readouterr().err == "qkv-studio: --decimals: expected one of 2, 3, 4, 6, got 5\n"
    assert not any(tmp_path.iterdir())


def test_the_probability_bars_follow_the_decimals(qtbot: QtBot) -> None:
    from app.canvas.bars import ProbabilityBars

    window = open_window(qtbot, "g01")
    try:
        window.state.set_step(window.state.trace.step_index("probs"))
        probs = window.state.trace.arrays["probs"]

        def printed() -> dict[tuple[int, int], str]:
            frame = window.canvas.frame
            assert frame is not None
            [bars] = frame.items_of(ProbabilityBars)
            return bars.values

        assert printed()[(1, 2)] == f"{probs[1, 2]:.6f}"  # G01 prints the chapter's six
        window.decimals_menu.actions[3].trigger()
        assert printed()[(1, 2)] == f"{probs[1, 2]:.3f}"
    finally:
        close_window(window)
