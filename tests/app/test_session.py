"""The open document without a window (:class:`app.state.session.Session`, no Qt): what an
edit, undo and redo change, told as one :class:`~app.state.change.Change` each; the merge rule,
the memory policy and the big-document policy, with a runner the test runs when it says.

The golden numbers are F11's (X = [[1, 1], [1, −1]], Wq = [[1, 1], [−1, 1]]) and independent
computations written here: the trace of the edited document computed whole by the engine, and
the steps whose operands or results differ in value between the two traces."""

from __future__ import annotations

import ast
import gc
import weakref
from pathlib import Path

import numpy as np
import pytest

import app.state.big
import app.state.change
import app.state.history
import app.state.session
from app.model.edits import AppendToken, SetCell
from app.state.change import Change
from engine import Scenario, ScenarioError, Trace, compute, load_scenario
from engine.generation.grow import grown
from engine.scenario.edit import with_parameter
from tests.app.session_support import session_of
from tests.examples import EXAMPLES

WQ = "attention.Wq"


@pytest.fixture(scope="module")
def f11() -> Scenario:
    return load_scenario(EXAMPLES / "f11.qkv.json")


def differing_steps(before: Trace, after: Trace) -> set[str]:
    """The steps of ``after`` one of whose operands or results differs in value from
    ``before``'s (a parameter is read from the document)."""
    def value(trace: Trace, name: str) -> np.ndarray:
        return trace.arrays[name] if name in trace.arrays else trace.scenario.parameter(name)

    return {step.id for step in after.steps
            if any(not np.array_equal(value(before, name), value(after, name))
                   for name in (*step.reads, *step.writes))}


def test_the_session_imports_no_qt() -> None:
    """Read from the source of the session's modules (the import-linter contract checks the
    same whole, indirect imports included)."""
    imported: set[str] = set()
    for module in (app.state.session, app.state.change, app.state.history, app.state.big):
        tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
        imported.update(node.module.split(".")[0] for node in ast.walk(tree)
                        if isinstance(node, ast.ImportFrom) and node.module)
        imported.update(alias.name.split(".")[0] for node in ast.walk(tree)
                        if isinstance(node, ast.Import) for alias in node.names)
    assert {"app", "engine"} <= imported and "PySide6" not in imported


def test_editing_wq_changes_the_arrays_and_steps_its_lineage_says(f11: Scenario) -> None:
    session, runner, heard = session_of(f11)
    before = session.trace
    change = session.apply(SetCell(WQ, 1, 0, 3.0))
    after = compute(with_parameter(f11, WQ, np.array([[1.0, 1.0], [3.0, 1.0]])))
    assert change == Change("edit", document=True, paths=frozenset({WQ}),
                            steps=frozenset({"inputs", "projections", "scores", "weights",
                                             "mix"}),
                            trace="whole", frame=True)
    assert change.steps == differing_steps(before, after)  # every step reads Wq or its Q
    # Told as the window's views need it: the document, then its trace, computed at once.
    assert [(c.document, c.trace) for c in heard.changes] == [(True, "none"), (False, "whole")]
    assert runner.queue == [] and heard.busy == [] and not session.busy
    assert session.scenario.attention.Wq.tolist() == [[1.0, 1.0], [3.0, 1.0]]
    np.testing.assert_array_equal(session.trace.arrays["Q"], after.arrays["Q"])
    np.testing.assert_array_equal(session.trace.arrays["Q"], [[4.0, 2.0], [-2.0, 0.0]])
    np.testing.assert_array_equal(session.trace.arrays["weights"], after.arrays["weights"])
    assert [step.text("en") for step in session.history.steps] == ["Wq[1,0] = 3"]


def test_an_input_array_changes_every_step_that_reads_it(f11: Scenario) -> None:
    session, _runner, _heard = session_of(f11)
    before = session.trace
    change = session.apply(SetCell("X", 0, 1, 2.0))
    assert change.paths == frozenset({"X"})
    assert change.steps == differing_steps(before, session.trace) == \
        {"inputs", "projections", "scores", "weights", "mix"}


def test_undo_and_redo_bring_the_numbers_back_bit_for_bit(f11: Scenario) -> None:
    session, _runner, heard = session_of(f11)
    original = session.trace
    edited = session.apply(SetCell(WQ, 1, 0, 3.0))
    made = session.trace
    undone = session.undo()
    assert session.scenario is f11 and session.trace is original  # kept, not computed again
    assert undone == Change("undo", document=True, paths=frozenset({WQ}), steps=edited.steps,
                            trace="whole", frame=True)
    assert (session.history.index, len(session.history.steps)) == (0, 1)
    redone = session.redo()
    assert session.trace is made and redone.initiator == "redo" and redone.paths == {WQ}
    assert session.scenario.attention.Wq.tolist() == [[1.0, 1.0], [3.0, 1.0]]
    assert session.redo() == Change("redo")  # nothing left to redo: nothing told
    assert heard.moved == [True, True, True]


def test_typing_into_one_cell_again_is_one_step_unless_saved_or_undone_between(
        f11: Scenario) -> None:
    session, _runner, _heard = session_of(f11)
    for value in (2.0, 3.0):
        session.apply(SetCell(WQ, 1, 0, value))
    assert [step.text("en") for step in session.history.steps] == ["Wq[1,0] = 3"]
    session.apply(SetCell(WQ, 0, 0, 5.0))  # another cell: a step of its own
    session.set_clean(True)
    session.apply(SetCell(WQ, 0, 0, 6.0))  # the saved step stays as it was saved
    assert [step.text("en") for step in session.history.steps] == \
        ["Wq[1,0] = 3", "Wq[0,0] = 5", "Wq[0,0] = 6"]
    session.undo()
    assert session.history.is_clean
    session.apply(SetCell(WQ, 0, 0, 7.0))  # after an undo: no merge, the redo step is dropped
    assert [step.text("en") for step in session.history.steps] == \
        ["Wq[1,0] = 3", "Wq[0,0] = 5", "Wq[0,0] = 7"]
    assert (session.history.clean, session.history.is_clean) == (2, False)
    session.undo()
    session.undo()
    assert session.scenario.attention.Wq.tolist() == [[1.0, 1.0], [3.0, 1.0]]
    session.apply(SetCell(WQ, 1, 1, 4.0))  # drops the saved step: no step is saved any more
    assert [step.text("en") for step in session.history.steps] == ["Wq[1,0] = 3", "Wq[1,1] = 4"]
    assert session.history.clean == -1


def test_a_refused_edit_changes_nothing(f11: Scenario) -> None:
    session, _runner, heard = session_of(f11)
    with pytest.raises(ScenarioError):
        session.apply(SetCell(WQ, 1, 0, float("nan")))
    assert session.scenario is f11 and session.history.steps == [] and heard.changes == []


def test_focus_changes_are_told_once_with_what_moved(f11: Scenario) -> None:
    session, _runner, heard = session_of(f11)
    change = session.set_focus(step=2, receiver=0, head=None)
    assert change == Change("focus", focus=frozenset({"step", "receiver"}))
    assert (session.step, session.receiver, session.head) == (2, 0, None)
    assert session.set_focus(step=99).focus == {"step"} and session.step == 4  # the last step
    assert session.set_focus(step=4, receiver=0) == Change("focus")  # nothing moved
    assert heard.changes == [change, Change("focus", focus=frozenset({"step"}))]
    session.apply(SetCell(WQ, 1, 0, 3.0))
    assert session.step == 4 and session.trace.steps[4].id == "mix"  # the same step stays


def test_old_cell_edits_keep_only_their_numbers(f11: Scenario,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.history, "UNDO_BYTES", 0)
    session, _runner, _heard = session_of(f11)
    for row, col, value in [(0, 0, 0.25), (0, 1, -1.5), (1, 0, 2.0), (1, 1, 0.125)]:
        session.apply(SetCell(WQ, row, col, value))
    # The newest two steps keep their documents; below them a step's array (32 bytes) is more
    # than UNDO_BYTES, so it keeps the cell's two numbers only.
    assert [step.edit is None for step in session.history.steps] == [True, True, False, False]
    for _ in range(4):
        session.undo()
    assert session.scenario.attention.Wq.tobytes() == f11.attention.Wq.tobytes()
    for _ in range(4):
        session.redo()
    assert session.scenario.attention.Wq.tolist() == [[0.25, -1.5], [2.0, 0.125]]


def test_a_big_document_is_computed_by_the_runner_and_a_stale_result_dropped(
        f11: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    session, runner, heard = session_of(f11)
    shown = session.trace
    session.set_focus(step=1)
    first = session.apply(SetCell("X", 0, 0, 3.0))
    # The step on screen (the projections, which read X) is worked first by the runner, for the
    # frame, then the rest (on the interface thread, a Llama-3.2-1B layer's froze it 0.1 s).
    assert (first.document, first.trace, first.frame, session.busy) == (True, "none", False,
                                                                        True)
    assert session.trace is shown and session.scenario.X.tolist() == [[3.0, 1.0], [1.0, -1.0]]
    assert session.frame_trace is shown and runner.previews == 1 and len(runner.queue) == 1
    runner.finish_one_round()
    edited = compute(session.scenario)
    assert heard.changes[-1] == Change("worker", trace="preview", frame=True)
    assert session.frame_trace.scenario is session.scenario and session.trace is shown
    for name in ("Q", "K", "V"):
        np.testing.assert_array_equal(session.frame_trace.arrays[name], edited.arrays[name])
    assert len(runner.queue) == 1 and runner.previews == 1 and heard.busy == [True]
    session.pending_label = "X[1,1] = 7"
    session.apply(SetCell("X", 1, 1, 7.0))  # the first computation is cancelled
    runner.finish()
    final = session.scenario
    assert heard.busy == [True, False, True, False] and not session.busy
    assert session.trace.scenario is final and heard.computed == ["X[1,1] = 7"]
    np.testing.assert_array_equal(session.trace.arrays["Q"], compute(final).arrays["Q"])
    np.testing.assert_array_equal(session.trace.arrays["Q"],
                                  np.array([[3.0, 1.0], [1.0, 7.0]]) @ f11.attention.Wq)
    assert heard.changes[-1] == Change("worker", paths=None, steps=None, trace="whole", frame=True)
    assert len(session.history.steps) == 2


def test_a_failure_on_the_runner_takes_the_edit_back_for_good(
        f11: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    session, runner, heard = session_of(f11)
    session.pending_label = "X[0,0] = 1e300"
    session.apply(SetCell("X", 0, 0, 1e300))  # a finite number whose q·k overflows
    runner.finish()
    assert session.scenario is f11 and session.trace.scenario is f11
    assert [label for label, _why in heard.failed] == ["X[0,0] = 1e300"]
    assert "scores[0,0,0]: a value overflowed or was divided by zero" in heard.failed[0][1]
    assert session.history.steps == [] and not session.busy  # not left to redo


def test_typing_into_one_cell_again_keeps_no_document_in_between(f11: Scenario) -> None:
    """The step merged into the one below lets go of its documents: only the first edit's
    document before and the last one's after are held."""
    session, _runner, _heard = session_of(f11)
    between: list[weakref.ref[Scenario]] = []
    for value in (1.5, 2.5, 3.5):
        session.apply(SetCell("attention.Wk", 1, 0, value))
        between.append(weakref.ref(session.scenario))
    gc.collect()
    assert [step.text("en") for step in session.history.steps] == ["Wk[1,0] = 3.5"]
    assert [ref() is None for ref in between] == [True, True, False]
    session.undo()
    assert float(session.scenario.attention.Wk[1, 0]) == 0.5  # F11's Wk[1,0]


def test_showing_another_document_says_anything_may_have_changed(f11: Scenario) -> None:
    session, _runner, _heard = session_of(f11)
    session.apply(SetCell(WQ, 1, 0, 3.0))
    g01 = load_scenario(EXAMPLES / "g01.qkv.json")
    change = session.show(g01, None)
    assert change == Change("open", document=True, paths=None, steps=None, trace="whole",
                            frame=True)
    assert session.scenario is g01 and session.trace.scenario is g01
    np.testing.assert_array_equal(session.trace.arrays["Q"], compute(g01).arrays["Q"])
    assert len(session.history.steps) == 1  # the window clears the history itself


def test_a_big_documents_token_is_grown_by_the_runner_not_on_the_interface_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Generate next on a Llama-3.2-1B-sized document froze the window for 12 s: the new
    # position went through every layer here. A big document's grows in the runner.
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    before = load_scenario(EXAMPLES / "continue.qkv.json")
    session, runner, heard = session_of(before)
    shown = session.trace
    session.apply(AppendToken(1, "b"))
    after = session.scenario
    assert after.n == before.n + 1 and session.busy and len(runner.queue) == 1
    assert session.trace is shown  # nothing computed yet
    runner.finish()
    assert heard.busy == [True, False] and session.trace.scenario is after
    grown_here = grown(shown, after)
    whole = compute(after)
    assert grown_here is not None and set(session.trace.arrays) == set(grown_here.arrays)
    for name, values in grown_here.arrays.items():  # the KV cache's trace, the same numbers
        np.testing.assert_array_equal(session.trace.arrays[name], values, err_msg=name)
        np.testing.assert_allclose(values, whole.arrays[name], rtol=0, atol=1e-12,
                                   err_msg=name)
    session.undo()
    assert session.scenario is before and session.trace is shown


def test_a_small_documents_token_is_grown_at_once() -> None:
    session, runner, _heard = session_of(load_scenario(EXAMPLES / "continue.qkv.json"))
    session.apply(AppendToken(1, "b"))
    assert not session.busy and runner.queue == []
    assert session.trace.scenario is session.scenario
