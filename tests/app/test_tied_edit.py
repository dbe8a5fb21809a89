"""In the window, a cell of a tied head edits the embedding too: the trace is worked again
from the first step (the looked-up rows changed), both grids show the number, and undo takes
both back."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.model.edits import Operation, SetBlock
from app.model.layer_edits import AddLayer, DuplicateLayer, MoveLayer, RemoveLayer
from engine import compute
from engine.checkpoint import import_checkpoint
from engine.scenario.edit import tied_to, with_cell
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


@pytest.mark.parametrize("operation", [RemoveLayer(1), DuplicateLayer(0), MoveLayer(0, by=1),
                                       AddLayer(2), SetBlock(False, "layers.0")],
                         ids=lambda operation: type(operation).__name__)
def test_a_layer_edit_of_a_tied_checkpoint_read_in_place_keeps_the_tie(
        operation: Operation) -> None:
    """The default import reads GPT-2's tied embedding and head from the checkpoint; a layer
    added, removed, duplicated or moved, or a block taken out, rewrites the document, and the
    head is still the embedding's transpose: an edit of the embedding then moves it."""
    document = import_checkpoint(FIXTURES / "gpt2", "the cat sat")
    changed = operation.apply(document)
    assert tied_to(changed, "embedding") == "head.unembed"
    edited = with_cell(changed, "embedding", (31, 0), 5.0)
    assert edited.parameter("head.unembed")[0, 31] == 5.0
