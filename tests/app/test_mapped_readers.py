"""The app's readers of a document whose weights stay in their checkpoint (issue 37, item 1)
read what they show: sizes and shapes without widening, identity without widening, one cell or
one column of the unembedding for the texts, the editor and the undo history. Each gives what
it gives for the eagerly imported document, and the embedding and the unembedding (the
vocabulary's matrices: 2.1 GB of float64 each for Llama-3.2-1B) are never widened whole."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

import app.canvas.context
from app.editor.model import SHOWN_PLACES, MatrixModel
from app.files.importing import grid_shape
from app.model.edits import CellChange, Edit, SetCell
from app.model.outline import parameter_cells
from app.state.change import changed_paths
from app.state.document import DocumentState
from app.texts.facts import facts_for
from engine import compute, format_number
from engine.checkpoint import import_checkpoint
from engine.format.mapped_weight import MappedWeight, cell, held_bytes
from engine.format.numbers import format_exact
from engine.scenario.edit import with_cell
from tests.app.generated_checks import draw_every_step
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat on the mat"
VOCABULARY = ("model.embed_tokens.weight", "lm_head.weight")
WQ = "layers.0.attention.Wq"


def test_the_readers_read_cells_and_sizes_without_widening_the_vocabulary(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    eager = import_checkpoint(FIXTURES / "llama", TEXT, mapped=False)
    mapped = import_checkpoint(FIXTURES / "llama", TEXT)
    ours, theirs = compute(mapped), compute(eager)
    names: list[str] = []
    real = MappedWeight.widened

    def counted(weight: MappedWeight, room: Any = None) -> Any:
        names.append(weight.name)
        return real(weight, room)

    monkeypatch.setattr(MappedWeight, "widened", counted)
    embedding, unembed = eager.parameter("embedding"), eager.parameter("head.unembed")
    assert isinstance(mapped.weight("embedding"), MappedWeight)
    # sizes and shapes
    assert parameter_cells(mapped) == parameter_cells(eager) == sum(
        eager.parameter(path).size for path in eager.parameter_paths())
    state = DocumentState(mapped, trace=ours)
    assert grid_shape(state, "embedding") == embedding.shape
    assert grid_shape(state, "head.unembed") == unembed.shape
    # cells, as the eager document holds them
    for path, values in (("embedding", embedding), ("head.unembed", unembed)):
        for index in ((0, 0), (3, 5), (values.shape[0] - 1, values.shape[1] - 1)):
            assert cell(mapped.weight(path), index) == values[index]
    model = MatrixModel(state, "embedding")
    assert (model.rowCount(), model.columnCount()) == embedding.shape
    assert model.data(model.index(7, 3)) == format_number(float(embedding[7, 3]), SHOWN_PLACES)
    tip = model.data(model.index(7, 3), 3)  # ToolTipRole
    assert format_exact(float(embedding[7, 3])) in tip
    # the texts: a logit's terms and the logits without the final norm
    logits = next(k for k, step in enumerate(ours.steps) if step.op == "logits")
    for entry in (0, 17, unembed.shape[1] - 1):
        assert facts_for(ours, logits).logit_terms(entry) == \
            facts_for(theirs, logits).logit_terms(entry)
    final_norm = next(k for k, step in enumerate(ours.steps) if step.id == "final_norm")
    without = facts_for(ours, final_norm).logits_without_final_norm
    assert np.array_equal(without, facts_for(theirs, final_norm).logits_without_final_norm)
    last = len(mapped.tokens) - 1  # the receiver: the last row
    by_hand = theirs.arrays["logits"][last] + (
        theirs.arrays["L2.resid2"][last] - theirs.arrays["final_norm"][last]) @ unembed
    np.testing.assert_allclose(without, by_hand, rtol=1e-12, atol=1e-12)
    # an edit: which arrays it made anew, its old number, the bytes its undo step holds
    edited = with_cell(mapped, WQ, (0, 1), 0.5)
    assert changed_paths(mapped, edited, mapped.parameter_paths()) == {WQ}
    assert changed_paths(eager, with_cell(eager, WQ, (0, 1), 0.5),
                         eager.parameter_paths()) == {WQ}
    change = CellChange.of(Edit(SetCell(WQ, 0, 1, 0.5), mapped, edited))
    assert change is not None and change.undo.value == eager.parameter(WQ)[0, 1]
    assert held_bytes(edited.weight(WQ)) == 16  # one int64 index, one float64 number
    assert held_bytes(with_cell(eager, WQ, (0, 1), 0.5).weight(WQ)) == eager.parameter(WQ).nbytes
    assert state.edit_cell(WQ, 0, 1, 0.5)
    assert cell(state.scenario.weight(WQ), (0, 1)) == 0.5
    assert not set(VOCABULARY) & set(names), names


def test_every_frame_widens_each_drawn_mapped_matrix_once(
        qapp: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame's layout measures its grids several times, Wq, Wk and Wv in turn: each mapped
    matrix is widened once while the few drawn last stay (here all of them: a small model)."""
    trace = compute(import_checkpoint(FIXTURES / "llama", TEXT))
    drawn_names: list[str] = []
    real = MappedWeight.widened

    def counted(weight: MappedWeight, room: Any = None) -> Any:
        drawn_names.append(weight.name)
        return real(weight, room)

    monkeypatch.setattr(app.canvas.context, "_DRAWN", [])
    monkeypatch.setattr(MappedWeight, "widened", counted)
    draw_every_step(trace)
    assert "model.layers.0.self_attn.q_proj.weight" in drawn_names
    assert len(drawn_names) == len(set(drawn_names)), sorted(drawn_names)
