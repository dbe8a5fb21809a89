"""In the window, a cell of a tied head edits the embedding too: the trace is worked again
from the first step (the looked-up rows changed), both grids show the number, and undo takes
both back."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from engine import compute
from engine.checkpoint import import_checkpoint
from tests.app.driving import close_window, show_window
from tests.engine.hf_reference import FIXTURES


def test_an_edit_of_a_tied_head_is_worked_from_the_embedding(qtbot: QtBot) -> None:
    window = show_window(qtbot, import_checkpoint(FIXTURES / "gemma2", "the cat sat on the hat."))
    try:
        state = window.state
        token = (state.scenario.token_ids or ())[2]  # a row the text looks up
        state.set_step(state.trace.step_index("logits"))
        before = state.trace.arrays["X"].copy()
        assert state.edit_cell("head.unembed", 4, token, 0.5)
        trace, scenario = state.trace, state.scenario
        assert trace.arrays["X"][2, 4] != before[2, 4], "the looked-up row follows the edit"
        whole = compute(scenario)
        assert all(np.array_equal(trace.arrays[name], whole.arrays[name])
                   for name in whole.arrays), "the same as a whole forward pass"
        table = window.editor.tables["embedding"].model()
        assert table.index(token, 4).data(Qt.ItemDataRole.EditRole) == "0.5"
        window.undo_action.trigger()
        assert np.array_equal(state.trace.arrays["X"], before)
        assert state.scenario.parameter("embedding")[token, 4] != 0.5
    finally:
        close_window(window)


def test_an_entry_the_text_does_not_look_up_is_worked_from_the_head(qtbot: QtBot) -> None:
    """A tied cell of an entry no token of the text uses changes no looked-up row: the layers'
    arrays are the trace's before (not worked again), the logits and what follows anew."""
    window = show_window(qtbot, import_checkpoint(FIXTURES / "gemma2", "the cat sat on the hat."))
    try:
        state = window.state
        unused = next(k for k in range(48) if k not in (state.scenario.token_ids or ()))
        before = state.trace
        assert state.edit_cell("embedding", unused, 4, 0.5)
        trace = state.trace
        assert trace.arrays["L1.Q"] is before.arrays["L1.Q"], "the layers are kept"
        assert not np.array_equal(trace.arrays["logits"], before.arrays["logits"])
        whole = compute(state.scenario)
        assert all(np.array_equal(trace.arrays[name], whole.arrays[name])
                   for name in whole.arrays)
    finally:
        close_window(window)
