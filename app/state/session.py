"""The open document without a window (no Qt): its scenario and trace, the undo history, the
step, receiver and head in focus, the run token whose steps are shown, and where a big document
is computed.

A big scenario (:func:`app.state.big.is_big`) is computed by the injected :data:`Runner` (the
window's runs it in a worker thread, a test's when the test says): the edit is in the document
and the history at once, its trace follows. Meanwhile :attr:`Session.scenario` is the newest
document and :attr:`Session.trace` the last one computed (``trace.scenario`` is older); a
trace that arrives for a document that is no longer current is dropped, never shown.

Every move is told to the :class:`Listener` as a :class:`~app.state.change.Change`, in the
order the window's views need them; :meth:`Session.apply`, :meth:`Session.undo` and
:meth:`Session.redo` also return the moves they made as one record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Protocol

from app.model.edits import Document, Edit, Operation, SetCell, changed_array
from app.model.outline import parameter_paths
from app.model.run import RunPlace, prefix, run_place
from app.state.big import is_big
from app.state.change import Change, Focus, Initiator, changed_paths, changed_steps
from app.state.history import EditStep, History
from engine import Scenario, Trace, compute
from engine.forward.retrace import first_reader, retraced


class Runner(Protocol):
    """Runs ``work`` elsewhere and later calls ``done`` with its trace or ``failed`` with its
    error (never before returning); returns what cancels it (then neither is called).
    ``whole``: the trace is the document's whole one (the window's runner makes what it reads
    of a big one ready to draw with it); False: a preview, handed back as it is."""

    def __call__(self, work: Callable[[], Trace], done: Callable[[Trace], None],
                 failed: Callable[[BaseException], None], whole: bool = True,
                 ) -> Callable[[], None]: ...


class Keep(Enum):
    """A focus :meth:`Session.set_focus` is not given: it stays."""

    KEEP = "keep"


KEEP = Keep.KEEP


class Listener(Protocol):
    """Who hears the session's moves (the Qt adapter, or a test)."""

    def session_changed(self, change: Change) -> None:
        """The document, a trace or the focus changed."""

    def session_busy(self, busy: bool) -> None:
        """A computation by the runner started or ended."""

    def session_moved(self, index: bool) -> None:
        """The history changed (``index``: its index was set, if to the same number, as
        after a merge), or only its clean mark."""

    def session_computed(self, label: str) -> None:
        """The trace of the edit called ``label`` arrived from the runner."""

    def session_failed(self, label: str, error: BaseException) -> None:
        """The trace of the edit called ``label`` (``""``: none pending) cannot be computed;
        the edit is taken back."""


@dataclass(frozen=True)
class HeadStart:
    """How the runner computes ``scenario``: its first ``start`` steps are those of ``base``
    (:func:`engine.forward.retrace.retraced`), the trace of a document one cell away, or with
    ``preview`` ``scenario``'s own trace worked through the step on screen, which the frame
    shows meanwhile."""

    scenario: Scenario
    base: Trace
    start: int
    preview: bool = False
    through: int | None = None
    """The step on screen, worked first by the runner (a job of its own) and shown while the
    rest computes from it (None: nothing worked first)."""


def same_step(step_id: str, ids: list[str], index: int) -> int:
    """Where the step ``step_id`` is in a new trace with steps ``ids``: the same id, or the
    same step of the first layer when a version-1 shorthand document became a stack (``scores``
    and ``L1.scores``) or back; else the same index, within the new trace."""
    for candidate in (step_id, f"L1.{step_id}", step_id.removeprefix("L1.")):
        if candidate in ids:
            return ids.index(candidate)
    return min(index, len(ids) - 1)


def worked(head: HeadStart) -> Trace:
    """``head.scenario``'s whole trace, worked on from ``head.base`` (computed whole where
    that cannot be done)."""
    return retraced(head.base, head.scenario, head.start) or compute(head.scenario)


class Session:
    """Owns the open document; views hear its moves and never change it behind its back."""

    def __init__(self, scenario: Scenario, runner: Runner, listener: Listener,
                 path: Path | None = None, trace: Trace | None = None) -> None:
        self.document = Document(scenario, path)
        self.history = History()
        self._runner = runner
        self._listener = listener
        self._trace = trace if trace is not None and trace.scenario is scenario \
            else compute(scenario)
        """``trace``, when given, is the scenario's already computed (the file was checked by
        computing it)."""
        self._cancel: Callable[[], None] | None = None
        """Cancels the runner's computation of the current document (None: none runs)."""
        self._head_start: HeadStart | None = None
        """How the next computation of a cell edit of a big document starts (set by the edit)."""
        self._grown: tuple[Scenario, Callable[[], Trace | None]] | None = None
        """A big document's trace worked from the one before by its edit (a token grown with
        the KV cache), for the runner to work (set by the edit)."""
        self._preview: Trace | None = None
        """The current document's trace through the step on screen, while the rest computes:
        its first :attr:`_fresh` steps hold the current document's numbers, the others the
        previous document's (never shown)."""
        self._fresh = 0
        self.pending_label = ""
        """What the runner computes the trace for, by name (an edit, an undo): said when it
        arrives, or with the reason it cannot be computed; set by whoever says it."""
        self._step = 0
        self.receiver: int | None = None
        self.head: int | None = None
        self.show_all_arrows = False
        self.editing = False
        """Whether the top history step was just made: a next edit of its cell may merge."""
        self.token: int | None = None
        """The token of the document's run whose own steps are on screen, read-only (the
        trace of the document that drew it); None: the whole document's steps."""
        self._whole: Trace | None = None
        """The whole document's trace while a token's is on screen."""
        self._made: list[Change] = []

    # -- reading ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self.document.scenario

    @property
    def trace(self) -> Trace:
        return self._trace

    @property
    def frame_trace(self) -> Trace:
        """What the frame of the current step shows: the edited document's trace once the step
        on screen is computed (:attr:`trace` is the last whole one), else :attr:`trace`."""
        if self._preview is not None and self._step < self._fresh:
            return self._preview
        return self._trace

    @property
    def step(self) -> int:
        return self._step

    @property
    def busy(self) -> bool:
        """Whether the trace of the current document is still being computed."""
        return self._cancel is not None

    @property
    def whole_trace(self) -> Trace:
        """The whole document's trace, also while a token's steps are on screen."""
        return self._whole or self._trace

    def run_place(self) -> RunPlace | None:
        """Where the steps on screen are in the document's run; None: the whole document's."""
        return None if self.token is None else run_place(self.scenario, self.token)

    def focused_receiver(self) -> int:
        """The query row in focus (the last one by default), in the trace on screen."""
        last = self._trace.scenario.n - 1
        return last if self.receiver is None else min(self.receiver, last)

    def kept_focus(self, scenario: Scenario) -> tuple[int | None, int | None]:
        """The receiver and head kept when ``scenario`` becomes current: each one it lacks
        goes back to None (the last position, all heads)."""
        receiver = None if self.receiver is not None and self.receiver >= scenario.n \
            else self.receiver
        head = None if self.head is not None and self.head >= scenario.most_heads else self.head
        return receiver, head

    # -- telling ---------------------------------------------------------------------------
    def _tell(self, change: Change) -> None:
        self._made.append(change)
        self._listener.session_changed(change)

    def _told(self, initiator: Initiator, start: int) -> Change:
        """The moves told since ``start`` (an index of :attr:`_made`) as one record."""
        made, self._made = self._made[start:], self._made[:start]
        return Change.joined(initiator, made)

    # -- showing a document ----------------------------------------------------------------
    def show(self, scenario: Scenario, trace: Trace | None) -> Change:
        """Make ``scenario`` current with its trace (None: computed now or, big, by the
        runner), as a document opened."""
        start = len(self._made)
        self._show(scenario, trace)
        return self._told("open", start)

    def _show(self, scenario: Scenario, trace: Trace | None, changed: str | None = None,
              initiator: Initiator = "open") -> None:
        """Make ``scenario`` current with its trace, computed now or (big) by the runner.
        ``changed``: the one array whose cell ``scenario`` sets anew in the current document,
        whose trace is then worked again from the first step it feeds."""
        self._leave_token(initiator)
        base = self._worked_so_far()
        before = self.document.scenario
        self.document.scenario = scenario
        if trace is None and self._trace.scenario is scenario:
            trace = self._trace
        if trace is None and base is not None and changed is not None:
            head = self._head_start
            if head is None or head.scenario is not scenario:
                head = self._head_start = HeadStart(
                    scenario, base[0], min(first_reader(base[0], changed), base[1]))
            if not is_big(scenario):
                trace = worked(head)
        if trace is None and not is_big(scenario):
            trace = compute(scenario)  # a small document: computed here, at once
        self._stop_job(initiator)
        paths = None if changed is None else changed_paths(before, scenario,
                                                           parameter_paths(scenario))
        steps = None if paths is None else changed_steps(self._trace, paths)
        self._tell(Change(initiator, document=True, paths=paths, steps=steps))
        if trace is None:
            self._start_job(scenario, initiator)
        else:
            self._show_trace(trace, initiator, paths, steps)

    def _show_trace(self, trace: Trace, initiator: Initiator,
                    paths: frozenset[str] | None = None,
                    steps: frozenset[str] | None = None) -> None:
        frame, step = self.frame_trace, self._step
        step_id = self._trace.steps[self._step].id
        self._trace, self._preview, self._head_start = trace, None, None
        ids = [s.id for s in trace.steps]
        self._step = same_step(step_id, ids, self._step)
        self.receiver, self.head = self.kept_focus(trace.scenario)
        self._tell(Change(initiator, paths=paths, steps=steps, trace="whole",
                          frame=trace is not frame or self._step != step))

    # -- computing with the runner ---------------------------------------------------------
    def _start_job(self, scenario: Scenario, initiator: Initiator) -> None:
        head, self._head_start = self._head_start, None
        if head is not None and head.scenario is not scenario:
            head = None
        if head is not None and head.through is not None:
            self._start_preview(head, initiator)
            return
        grown, self._grown = self._grown, None
        quick = grown[1] if grown is not None and grown[0] is scenario else None

        def work() -> Trace:  # the scenario and traces are frozen: safe to read elsewhere
            trace = None if quick is None else quick()
            if trace is not None:
                return trace
            return compute(scenario) if head is None else worked(head)

        running = self._cancel is not None  # after the step on screen's preview: still busy
        self._cancel = self._runner(work, self._on_computed,
                                    lambda error: self._on_failed(scenario, error))
        if not running:
            self._listener.session_busy(True)
        if head is not None and head.preview:
            self._show_preview(head.base, head.start, initiator)

    def _show_preview(self, preview: Trace, fresh: int, initiator: Initiator) -> None:
        frame = self.frame_trace
        self._preview, self._fresh = preview, fresh
        self._tell(Change(initiator, trace="preview", frame=self.frame_trace is not frame))

    def _start_preview(self, head: HeadStart, initiator: Initiator) -> None:
        """A big document's cell edit: the step on screen worked by the runner first (the steps
        before the edit's first shown as they are meanwhile), then the rest from it. Worked on
        the interface thread, widening Llama-3.2-1B's Wq, Wk and Wv for the projections froze
        the window for about 0.1 s."""
        scenario, through = head.scenario, head.through
        assert through is not None
        unworked = replace(head.base, scenario=scenario)

        def work() -> Trace:  # the scenario and traces are frozen: safe to read elsewhere
            return retraced(head.base, scenario, head.start, through=through) or unworked

        def done(preview: Trace) -> None:
            if scenario is not self.document.scenario:
                return  # a stale preview: a newer edit is computing
            rest = HeadStart(scenario, preview, through + 1, preview=True) \
                if preview is not unworked else replace(head, through=None)
            self._head_start = rest
            self._start_job(scenario, "worker")

        self._cancel = self._runner(work, done, lambda error: self._on_failed(scenario, error),
                                    whole=False)
        self._listener.session_busy(True)
        if head.start > 0:
            self._show_preview(unworked, head.start, initiator)

    def _stop_job(self, initiator: Initiator) -> None:
        """Drop the running computation: its document is no longer current."""
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
            self._listener.session_busy(False)
        if self._preview is not None:
            frame = self.frame_trace
            self._preview = None
            self._tell(Change(initiator, trace="preview", frame=frame is not self._trace))

    def _on_computed(self, trace: Trace) -> None:
        if trace.scenario is not self.document.scenario:
            return  # a stale result: a newer edit is computing
        self._cancel = None
        self._listener.session_busy(False)
        self._show_trace(trace, "worker")
        self._made.clear()
        for step in (self.history.to_undo(), self.history.to_redo()):  # redone, undone
            if step is not None:
                step.keep(trace)
        self.history.forget_old_steps()
        if self.pending_label:
            label, self.pending_label = self.pending_label, ""
            self._listener.session_computed(label)

    def _on_failed(self, scenario: Scenario, error: BaseException) -> None:
        """The current document cannot be computed: say why and take the edit back."""
        if scenario is not self.document.scenario:
            return
        self._cancel = None
        self._listener.session_busy(False)
        label, self.pending_label = self.pending_label, ""
        self.editing = False
        top = self.history.to_undo()
        if top is not None and top.edit is not None and top.edit.after is scenario:
            top.obsolete = True  # undoing it removes it: a refused edit is not redone
        self._listener.session_failed(label, error)
        self._take_back("worker")
        self._made.clear()

    def cancel_compute(self) -> Change:
        """Cancel: back to the last document whose trace is on screen (Redo brings edits
        back)."""
        start = len(self._made)
        self._take_back("cancel")
        self.pending_label = ""
        return self._told("cancel", start)

    def _take_back(self, initiator: Initiator) -> None:
        shown = self._trace.scenario
        while self.document.scenario is not shown and self.history.to_undo() is not None:
            self._stop_job(initiator)
            self._undo_one(initiator)
        if self.document.scenario is not shown:  # no step leads there (a document just opened)
            self._show(shown, self._trace, initiator=initiator)

    def _current_trace(self) -> Trace | None:
        """The current document's trace, if computed: what an undo step goes back to."""
        return self._trace if self._trace.scenario is self.document.scenario else None

    def _worked_so_far(self) -> tuple[Trace, int] | None:
        """A trace whose first steps (how many: the number) are the current document's: its
        whole trace, or while that computes the frame's (:attr:`frame_trace`); a cell edit's
        trace is worked on from it."""
        current = self._current_trace()
        if current is not None:
            return current, len(current.steps)
        if self._preview is not None and self._preview.scenario is self.document.scenario:
            return self._preview, self._fresh
        return None

    # -- changing the document -------------------------------------------------------------
    def apply(self, operation: Operation) -> Change:
        """Make ``operation`` on the document as one history step (typing into one cell again
        joins the step before).

        Raises
        ------
        ScenarioError
            If the engine refuses it; nothing changed.
        """
        edit = self.document.edit(operation)
        after = self._traced(edit)
        top = self.history.to_undo()
        merge = self.editing and top is not None and top.operation.merges_with(operation)
        start = len(self._made)
        step = EditStep(edit, (self._current_trace(), after), merge=merge)
        self._show(edit.after, after, changed_array(operation, edit.after), initiator="edit")
        self.history.push(step)
        self._listener.session_moved(True)
        self.editing = True
        if not self.busy:
            self.history.forget_old_steps()
        return self._told("edit", start)

    def _traced(self, edit: Edit) -> Trace | None:
        """The trace of the edit's document: worked from the trace on screen where the edit
        allows it (a new draw, a token grown with the KV cache), else computed now, or None for
        a big document (computed by the runner)."""
        current = self._current_trace()
        operation, after = edit.operation, edit.after
        if current is not None and operation.traced_is_a_pass and is_big(after):
            self._grown = (after, lambda: operation.traced(current, after))
            return None  # a forward pass of its own: in the runner
        quick = None if current is None else operation.traced(current, after)
        if quick is not None:
            return quick
        base = self._worked_so_far()
        if base is not None and isinstance(edit.operation, SetCell):
            changed = changed_array(edit.operation, edit.after)
            assert changed is not None
            head = HeadStart(edit.after, base[0], min(first_reader(base[0], changed), base[1]))
            if not is_big(edit.after):
                return worked(head)
            self._head_start = self._previewed(head)
            return None
        return None if is_big(edit.after) else compute(edit.after)

    def _previewed(self, head: HeadStart) -> HeadStart:
        """A cell edit of a big document: the step on screen worked first by the runner when
        the edit feeds it within its own layer (the frame shows it while the runner does the
        rest); the steps before the edit's first are the edited document's as they are."""
        steps = head.base.steps
        first, shown = steps[min(head.start, len(steps) - 1)], steps[self._step]
        if self._step >= head.start and (shown.stack, shown.layer) == (first.stack, first.layer):
            return replace(head, through=self._step)
        if head.start == 0:
            return head
        return HeadStart(head.scenario, replace(head.base, scenario=head.scenario), head.start,
                         preview=True)

    # -- undo and redo ---------------------------------------------------------------------
    def undo(self) -> Change:
        """Take the top done step back (nothing when none is done)."""
        start = len(self._made)
        if self.history.to_undo() is not None:
            self._undo_one("undo")
        return self._told("undo", start)

    def _undo_one(self, initiator: Initiator) -> None:
        step = self.history.to_undo()
        assert step is not None
        shown = None if step.obsolete else step.undone(self.document.scenario)
        if shown is not None:
            self._show(shown.scenario, shown.trace, shown.changed, initiator)
        self.history.undone()
        self.editing = False
        self._listener.session_moved(True)

    def redo(self) -> Change:
        """Make the next undone step again (nothing when none is undone)."""
        start = len(self._made)
        step = self.history.to_redo()
        if step is not None:
            shown = None if step.obsolete else step.redone(self.document.scenario)
            if shown is not None:
                self._show(shown.scenario, shown.trace, shown.changed, "redo")
            self.history.redone()
            self.editing = False
            self._listener.session_moved(not step.obsolete)
        return self._told("redo", start)

    def forget_history(self) -> None:
        """No undo steps: the document as it is now is the saved one (a history without
        steps stays as it is, as :class:`QUndoStack` leaves it)."""
        if not self.history.steps:
            return
        self.history.clear()
        self.editing = False
        self._listener.session_moved(True)

    def set_clean(self, clean: bool) -> None:
        """Mark the document as saved as it is now, or (False) as saved at no step."""
        self.history.clean = self.history.index if clean else -1
        self._listener.session_moved(False)

    # -- focus -----------------------------------------------------------------------------
    def set_focus(self, *, step: int | Keep = KEEP, receiver: int | Keep | None = KEEP,
                  head: int | Keep | None = KEEP, show_all_arrows: bool | Keep = KEEP) -> Change:
        """Make step ``step`` current (held within the trace), focus on ``receiver`` and
        ``head`` (None: the last position, all heads), show all arrows or not; what is not
        given stays."""
        frame, moved = self.frame_trace, set[Focus]()
        if not isinstance(step, Keep):
            step = max(0, min(len(self._trace.steps) - 1, step))
            if step != self._step:
                self._step = step
                moved.add("step")
        if not isinstance(receiver, Keep) and receiver != self.receiver:
            self.receiver = receiver
            moved.add("receiver")
        if not isinstance(head, Keep) and head != self.head:
            self.head = head
            moved.add("head")
        if not isinstance(show_all_arrows, Keep) and show_all_arrows != self.show_all_arrows:
            self.show_all_arrows = show_all_arrows
            moved.add("arrows")
        change = Change("focus", focus=frozenset(moved), frame=frame is not self.frame_trace)
        if moved:
            self._listener.session_changed(change)
        return change

    # -- a generation run, token by token ---------------------------------------------------
    def view_token(self, t: int | None) -> Change:
        """Show token ``t``'s own steps (its draw step current), or with None the whole
        document's again; any edit goes back to the whole document first."""
        start = len(self._made)
        if t == self.token or self.busy:
            return Change("token")
        if t is None:
            trace, self._whole = self._whole or self._trace, None
        else:
            self._whole = self._whole or self._trace
            trace = compute(prefix(self.scenario, t))
        self.token = t
        self._tell(Change("token", focus=frozenset({"token"})))
        self._show_trace(trace, "token")
        if t is not None:
            self._made.append(self.set_focus(step=len(trace.steps) - 1))
        return self._told("token", start)

    def _leave_token(self, initiator: Initiator) -> None:
        """Back to the whole document's trace, without a word: an edit or undo follows."""
        if self._whole is not None:
            self._trace, self._whole, self.token = self._whole, None, None
            self._tell(Change(initiator, focus=frozenset({"token"})))


__all__ = ["KEEP", "HeadStart", "Keep", "Listener", "Runner", "Session", "same_step"]
