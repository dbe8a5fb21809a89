"""No leak through later steps (issue 26): while an exercise hides cells of an array, those
cells are blank wherever the array is drawn — the output of its step, the input of later
steps, the joined heads — and a shown cell worked from them explains itself by name only;
arrays computed from them stay shown."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QGraphicsSceneHoverEvent

from app.canvas import FrameItem
from app.canvas.grid import MatrixGrid
from app.model.exercise_edits import SetExercises
from app.window.studio import StudioWindow


def grid_titled(window: StudioWindow, title: str) -> MatrixGrid:
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem)
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title.startswith(title))


def hover(grid: MatrixGrid, row: int, col: int) -> str:
    event = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverMove)
    event.setPos(grid.cell_rect(row, col).center())
    grid.hoverMoveEvent(event)
    return grid.toolTip()


def hide(window: StudioWindow, step: str, *hidden: dict[str, Any]) -> None:
    """The teacher stores one fill exercise; exercise mode is on and answering it."""
    lesson = {"title": {"en": "Later steps", "zh": "后面的步骤"},
              "prompt": {"en": "Predict.", "zh": "预测。"}, "kind": "fill", "step": step,
              "hide": list(hidden)}
    window.exercise.action.trigger()
    assert window.state.apply(SetExercises((lesson,), "edit_add", "Later steps"))
    window.exercise.choose(0)


def show_step(window: StudioWindow, step: str) -> None:
    window.state.set_step(window.state.trace.step_index(step))
    QApplication.processEvents()
    window.refresh_canvas(fit=False)


def test_hidden_q_cells_stay_blank_in_the_scores_frame(window: StudioWindow) -> None:
    # F11: Q = X·Wq = [[0, 2], [2, 0]], K = [[1, 0], [0, 1]]; scores of 爱 = [2, 0] / √2.
    hide(window, "projections", {"array": "Q", "cells": [[1, 0]]})
    for step in ("projections", "scores"):
        show_step(window, step)
        q = grid_titled(window, "Q")
        assert [[q.cell_text(r, c) for c in range(2)] for r in range(2)] == [["0", "2"],
                                                                              ["", "0"]], step
        assert hover(q, 1, 0) == "", step
    scores = grid_titled(window, "scores")
    assert scores.cell_text(1, 0) == "1.414", "computed from Q: shown"
    assert hover(scores, 1, 0) == ("scores[0,1,0] = (Q[1,0]·K[0,0] + Q[1,1]·K[0,1]) / √2 = "
                                   "1.414\nquery “爱” against key “我”, head 1")
    assert hover(scores, 0, 0) == ("scores[0,0,0] = (Q[0,0]·K[0,0] + Q[0,1]·K[0,1]) / √2 = "
                                   "(0·1 + 2·0) / 1.414 = 0 / 1.414 = 0\n"
                                   "query “我” against key “我”, head 1"), "no blank named"
    window.exercise.panel.reveal_button.click()  # revealed: the whole arithmetic again
    window.refresh_canvas(fit=False)
    assert hover(grid_titled(window, "scores"), 1, 0).startswith(
        "scores[0,1,0] = (Q[1,0]·K[0,0] + Q[1,1]·K[0,1]) / √2 = (2·1 + 0·0) / 1.414")


def test_a_hidden_share_row_names_its_scores_without_their_numbers(
        window: StudioWindow) -> None:
    hide(window, "scores", {"array": "scores", "rows": [1]})
    show_step(window, "weights")
    shares = grid_titled(window, "shares")
    assert shares.cell_text(1, 0) == "0.804"
    assert grid_titled(window, "scores").cell_text(1, 0) == ""
    assert hover(shares, 1, 0) == ("weights[0,1,0] = exp(s0 − max) / (exp(s0 − max) + "
                                   "exp(s1 − max)) = 0.804\nno key is masked in this row")


def test_the_joined_heads_leave_the_hidden_outputs_blank(qtbot: Any) -> None:
    from tests.app.driving import close_window, open_window

    window = open_window(qtbot, "multihead")
    try:
        hide(window, "mix", {"array": "mixed", "rows": [0]})
        show_step(window, "mix")
        joined = grid_titled(window, "concatenate")
        values = window.state.trace.arrays["mixed"]
        rows, cols = values.shape
        assert [joined.cell_text(0, c) for c in range(cols)] == [""] * cols
        assert [joined.cell_text(1, c) for c in range(cols)] == \
            [grid_titled(window, "mixed · head 1").cell_text(1, c) for c in range(2)] + \
            [grid_titled(window, "mixed · head 2").cell_text(1, c) for c in range(2)]
        assert all(joined.cell_text(r, c) != "" for r in range(1, rows) for c in range(cols))
        said = hover(grid_titled(window, "output"), 0, 0)
        assert said.startswith("attn_out[0,0] = mixed[0,0]·Wo[0,0] + ") and \
            said.count(" = ") == 2, said
    finally:
        close_window(window)


def test_the_rule_is_same_array_same_cell() -> None:
    """Guarded hover text names a blank by its full index, a row by ``·``, a one-head array's
    cell by [i, j]; other cells of the same array are not blanks."""
    import numpy as np

    from app.canvas.hidden_terms import names_hidden

    masks = {"weights": np.zeros((1, 2, 2), bool), "Q": np.zeros((2, 2), bool)}
    masks["weights"][0, 1, 0] = True
    masks["Q"][1, 1] = True
    assert names_hidden("weights[0,1,0]·V[0,0]", masks)
    assert names_hidden("weights[1,0]", masks)
    assert names_hidden("s = weights[0,1,·]", masks)
    assert not names_hidden("weights[0,1,1]·V[1,0] + Q[1,0]", masks)
    assert names_hidden("L1.Q[1,1]", {"L1.Q": masks["Q"]})
    assert not names_hidden("Q[1,1]", {"L1.Q": masks["Q"]})


def test_the_status_line_quotes_no_share_while_an_exercise_is_answered(
        window: StudioWindow) -> None:
    hide(window, "weights", {"array": "weights", "rows": [1]})
    assert window.state.edit_cell("X", 0, 0, 2.0)  # an edit says what it did, not the shares
    said = window.statusBar().currentMessage()
    assert said.startswith("X[0,0]") and "shares" not in said and "→" not in said, said
    window.exercise.panel.reveal_button.click()  # revealed: the shares are said again
    assert window.state.edit_cell("X", 0, 1, 2.0)
    assert "→ shares for 爱: " in window.statusBar().currentMessage()
