"""The Qt view state of the open document: its trace, undo stack, current step and what the
canvas focuses on, around the Qt-free :class:`app.model.edits.Document` and its named edits."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.i18n import current_language
from app.model.edits import Document, Edit, Operation, SetCell
from app.model.operands import shares_step, tokens_of, visible_of
from app.model.run import RunPlace, prefix, run_place
from app.state.history import EditCommand
from app.state.jobs import Job, is_big
from app.texts.bidi import isolate
from app.texts.printed import printed_places
from app.texts.problems import problem_words
from engine import Scenario, ScenarioError, Trace, compute, format_number
from engine.numbers import format_exact
from engine.resize import Sizes, resize
from engine.retrace import first_reader, retraced

UNDO_BYTES = 256 * 1024 * 1024
"""Bytes of arrays the older undo steps of cell edits may hold whole; beyond them a step keeps
only the cell's two numbers (:meth:`app.state.history.EditCommand.forget_documents`)."""
KEPT_STEPS = 2
"""The newest undo steps always keep their documents (the top one may still merge)."""
SHARES_SHOWN = 8
"""Shares the status line lists per head: a line of 512 numbers is read by no one."""


@dataclass(frozen=True)
class HeadStart:
    """How the worker computes ``scenario``: its first ``start`` steps are those of ``base``
    (:func:`engine.retrace.retraced`), the trace of a document one cell away, or with
    ``preview`` ``scenario``'s own trace worked through the step on screen, which the frame
    shows meanwhile."""

    scenario: Scenario
    base: Trace
    start: int
    preview: bool = False


def same_step(step_id: str, ids: list[str], index: int) -> int:
    """Where the step ``step_id`` is in a new trace with steps ``ids``: the same id, or the
    same step of the first layer when a version-1 shorthand document became a stack (``scores``
    and ``L1.scores``) or back; else the same index, within the new trace."""
    for candidate in (step_id, f"L1.{step_id}", step_id.removeprefix("L1.")):
        if candidate in ids:
            return ids.index(candidate)
    return min(index, len(ids) - 1)


class DocumentState(QObject):
    """Owns the document; views listen to its signals and never change it behind its back.

    A big scenario (:func:`app.state.jobs.is_big`) is computed in a worker: the edit is in the
    document (and the undo stack) at once, its trace follows. Meanwhile :attr:`scenario` is the
    newest document and :attr:`trace` the last one computed (``trace.scenario`` is older);
    a trace that arrives for a document that is no longer current is dropped, never shown.

    Signals
    -------
    documentChanged
        A new scenario is current; its trace may still be computing.
    traceChanged
        A new trace is current (an edit, undo, redo or open), for :attr:`scenario`.
    busyChanged(bool)
        A computation in a worker started or ended.
    previewChanged
        The frame's trace (:attr:`frame_trace`) changed while the whole trace still computes.
    stepChanged(int)
        The current step index changed.
    viewChanged
        Receiver, head or arrow filter changed.
    message(str)
        A line for the status bar: what just happened, or why an edit was refused.
    tokenChanged
        The run token whose own steps are shown changed (:meth:`view_token`).
    """

    documentChanged = Signal()
    tokenChanged = Signal()
    traceChanged = Signal()
    busyChanged = Signal(bool)
    previewChanged = Signal()
    stepChanged = Signal(int)
    viewChanged = Signal()
    message = Signal(str)
    refused = Signal(str)

    def __init__(self, scenario: Scenario, path: Path | None = None,
                 parent: QObject | None = None, trace: Trace | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.document = Document(scenario, path)
        self._trace = trace if trace is not None and trace.scenario is scenario \
            else compute(scenario)
        """``trace``, when given, is the scenario's already computed (the file was checked by
        computing it)."""
        self._job: Job | None = None
        self._head_start: HeadStart | None = None
        """How the next worker computes a cell edit of a big document (set by the edit)."""
        self._preview: Trace | None = None
        """The current document's trace through the step on screen, while the rest computes:
        its first :attr:`_fresh` steps hold the current document's numbers, the others the
        previous document's (never shown)."""
        self._fresh = 0
        self._pending_label = ""
        self._step = 0
        self.receiver: int | None = None
        self.head: int | None = None
        self.show_all_arrows = False
        self._editing = False
        """Whether the top undo step was just pushed: a next edit of its cell may merge."""
        self._index = 0
        self._quiet = False
        """Pushing an edit or taking a failed one back: the undo stack moves without a word."""
        self.undo_stack.indexChanged.connect(self._on_index)
        self.refused.connect(self._end_editing)
        self.token: int | None = None
        """The token of the document's run whose own steps are on screen, read-only (the
        trace of the document that drew it); None: the whole document's steps."""
        self._whole: Trace | None = None
        """The whole document's trace while a token's is on screen."""

    # -- reading ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self.document.scenario

    @property
    def path(self) -> Path | None:
        """The document's file (``None``: not saved yet)."""
        return self.document.path

    @path.setter
    def path(self, path: Path | None) -> None:
        self.document.path = path

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
    def modified(self) -> bool:
        """Whether the document holds changes not saved to its file."""
        return not self.undo_stack.isClean()

    @property
    def busy(self) -> bool:
        """Whether the trace of the current document is still being computed."""
        return self._job is not None

    # -- changing the document -------------------------------------------------------------
    def show(self, scenario: Scenario, trace: Trace | None, changed: str | None = None) -> None:
        """Make ``scenario`` current with its trace, computed now or (big) in a worker; used by
        the undo commands. ``changed``: the one array in which ``scenario`` differs from the
        current document, whose trace is then worked again from the first step it feeds."""
        self._leave_token()
        base = self._worked_so_far()
        self.document.scenario = scenario
        if trace is None and self._trace.scenario is scenario:
            trace = self._trace
        if trace is None and base is not None and changed is not None:
            head = self._head_start
            if head is None or head.scenario is not scenario:
                head = self._head_start = HeadStart(
                    scenario, base[0], min(first_reader(base[0], changed), base[1]))
            if not is_big(scenario):
                trace = self._worked(head)
        if trace is None and not is_big(scenario):
            trace = compute(scenario)  # a small document: computed here, at once
        self._stop_job()
        self.documentChanged.emit()
        if trace is None:
            self._start_job(scenario)
        else:
            self._show_trace(trace)

    def _show_trace(self, trace: Trace) -> None:
        step_id = self._trace.steps[self._step].id
        self._trace, self._preview, self._head_start = trace, None, None
        scenario = trace.scenario
        ids = [s.id for s in trace.steps]
        self._step = same_step(step_id, ids, self._step)
        self.receiver, self.head = self.kept_focus(scenario)
        self.traceChanged.emit()

    def kept_focus(self, scenario: Scenario) -> tuple[int | None, int | None]:
        """The receiver and head kept when ``scenario`` becomes current: each one it lacks
        goes back to None (the last position, all heads)."""
        receiver = None if self.receiver is not None and self.receiver >= scenario.n \
            else self.receiver
        head = None if self.head is not None and self.head >= scenario.most_heads else self.head
        return receiver, head

    # -- computing in a worker ---------------------------------------------------------------
    def _start_job(self, scenario: Scenario) -> None:
        head, self._head_start = self._head_start, None
        if head is not None and head.scenario is not scenario:
            head = None

        def work(_cancelled: threading.Event) -> Trace:
            # the scenario and traces are frozen: safe to read from the worker
            return compute(scenario) if head is None else self._worked(head)

        job = Job(work, self)
        job.done.connect(self._on_computed)
        job.failed.connect(lambda error: self._on_failed(scenario, error))
        job.ended.connect(lambda _result, _error: job.deleteLater())  # and its document with it
        self._job = job.start()
        self.busyChanged.emit(True)
        if head is not None and head.preview:
            self._preview, self._fresh = head.base, head.start
            self.previewChanged.emit()

    @staticmethod
    def _worked(head: HeadStart) -> Trace:
        """``head.scenario``'s whole trace, worked on from ``head.base`` (computed whole where
        that cannot be done)."""
        return retraced(head.base, head.scenario, head.start) or compute(head.scenario)

    def _stop_job(self) -> None:
        """Drop the running computation: its document is no longer current."""
        if self._job is not None:
            self._job.cancel()
            self._job = None
            self.busyChanged.emit(False)
        if self._preview is not None:
            self._preview = None
            self.previewChanged.emit()

    def _on_computed(self, trace: Trace) -> None:
        if trace.scenario is not self.document.scenario:
            return  # a stale result: a newer edit is computing
        self._job = None
        self.busyChanged.emit(False)
        self._show_trace(trace)
        for index in (self.undo_stack.index() - 1, self.undo_stack.index()):  # redone, undone
            command = self.undo_stack.command(index)
            if isinstance(command, EditCommand):
                command.keep(trace)
        self._forget_old_steps()
        if self._pending_label:
            self.message.emit(f"{self._pending_label} → {self.shares_summary()}")
            self._pending_label = ""

    def _on_failed(self, scenario: Scenario, error: BaseException) -> None:
        """The current document cannot be computed: say why and take the edit back."""
        if scenario is not self.document.scenario:
            return
        self._job = None
        self.busyChanged.emit(False)
        problem = str(error) if isinstance(error, ScenarioError) else \
            self.tr("the computation failed ({error})").format(error=str(error) or
                                                               type(error).__name__)
        self.refused.emit(f"{self._pending_label or self.tr('edit')}: {problem}")
        self._pending_label = ""
        top = self.undo_stack.command(self.undo_stack.index() - 1)
        if isinstance(top, EditCommand) and top.edit is not None and top.edit.after is scenario:
            top.setObsolete(True)  # undoing it removes it: a refused edit is not redone
        self._take_back()

    def cancel_compute(self) -> None:
        """Cancel: back to the last document whose trace is on screen (Redo brings edits back)."""
        self._take_back()
        self._pending_label = ""

    def _take_back(self) -> None:
        shown = self._trace.scenario
        self._quiet = True  # the refusal stays on the status line, not "Undone: …"
        try:
            while self.document.scenario is not shown and self.undo_stack.canUndo():
                self._stop_job()
                self.undo_stack.undo()
        finally:
            self._quiet = False
        if self.document.scenario is not shown:  # no undo step leads there (a document just opened)
            self.show(shown, self._trace)

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

    def _announce(self, label: str, after: tuple[Scenario, Trace | None]) -> None:
        if after[1] is None:
            self._pending_label = label
            self.message.emit(self.tr("{label} → computing…").format(label=label))
        else:
            self._pending_label = ""
            self.message.emit(f"{label} → {self.shares_summary()}")

    def edit_cell(self, path: str, row: int, col: int, value: float) -> bool:
        """Set one number of the array at ``path``; False (and a message) if refused."""
        current = self.document.scenario.parameter(path)
        operation = SetCell(path, row, col, value, vector=current.ndim == 1)
        old = float(current[col] if operation.vector else current[row, col])
        if old == value:
            return True
        return self.apply(operation, refusal=lambda problem: self.tr(
            "{place}: {problem}; kept {old}").format(place=operation.place, problem=problem,
                                                     old=format_exact(old)))

    def apply(self, operation: Operation,
              refusal: Callable[[str], str] | None = None) -> bool:
        """Make ``operation`` on the document as one undo step (typing into one cell again
        joins the step before); False, and the refusal said, if the engine refuses it."""
        label = operation.label(current_language())
        try:
            edit = self.document.edit(operation)
            after = self._traced(edit)
        except ScenarioError as error:
            problem = problem_words(ScenarioError("", error.refusal or error.problem) if refusal
                                    else error,
                                    current_language())
            self.refused.emit(refusal(problem) if refusal else self.tr(
                "{label}: {problem}").format(label=label, problem=problem))
            return False
        top = self.undo_stack.command(self.undo_stack.index() - 1)
        merge = self._editing and isinstance(top, EditCommand) \
            and top.operation.merges_with(operation)
        self._push(EditCommand(self, edit, (self._current_trace(), after), merge=merge))
        self._editing = True
        self._announce(label, (edit.after, after))
        if not self.busy:
            self._forget_old_steps()
        return True

    def _traced(self, edit: Edit) -> Trace | None:
        """The trace of the edit's document: worked from the trace on screen where the edit
        allows it (a new draw, a token grown with the KV cache), else computed now, or None for
        a big document (computed in a worker)."""
        current = self._current_trace()
        quick = None if current is None else edit.operation.traced(current, edit.after)
        if quick is not None:
            return quick
        base = self._worked_so_far()
        if base is not None and isinstance(edit.operation, SetCell):
            head = HeadStart(edit.after, base[0],
                             min(first_reader(base[0], edit.operation.path), base[1]))
            if not is_big(edit.after):
                return self._worked(head)
            self._head_start = self._previewed(head)
            return None
        return None if is_big(edit.after) else compute(edit.after)

    def _previewed(self, head: HeadStart) -> HeadStart:
        """A cell edit of a big document: the step on screen worked at once when the edit
        feeds it within its own layer (the frame shows it while the worker does the rest);
        the steps before the edit's first are the edited document's as they are."""
        steps = head.base.steps
        first, shown = steps[min(head.start, len(steps) - 1)], steps[self._step]
        if self._step >= head.start and (shown.stack, shown.layer) == (first.stack, first.layer):
            preview = retraced(head.base, head.scenario, head.start, through=self._step)
            if preview is not None:
                return HeadStart(head.scenario, preview, self._step + 1, preview=True)
        if head.start == 0:
            return head
        return HeadStart(head.scenario, replace(head.base, scenario=head.scenario), head.start,
                         preview=True)

    def _push(self, command: EditCommand) -> None:
        self._quiet = True
        try:
            self.undo_stack.push(command)
        finally:
            self._quiet = False
        self._index = self.undo_stack.index()

    def _forget_old_steps(self) -> None:
        """Let old cell edits keep only their two numbers once the newer undo steps hold
        :data:`UNDO_BYTES` of arrays they made (each cell edit of W1 in a GPT-2 layer makes a
        19 MB copy). Only while nothing computes: taking pending edits back finds the document
        on screen among the newest steps, which keep their documents."""
        held = 0
        for index in range(self.undo_stack.index() - 1 - KEPT_STEPS, -1, -1):
            command = self.undo_stack.command(index)
            if isinstance(command, EditCommand):
                held += command.held_bytes()
                if held > UNDO_BYTES:
                    command.forget_documents()

    def _end_editing(self) -> None:
        self._editing = False

    def _on_index(self, index: int) -> None:
        """After an undo or redo: no edit merges across it, and the status line says what was
        undone or redone instead of still showing the edit."""
        self._editing = False
        before, self._index = self._index, index
        if self._quiet:
            return
        if index < before:
            command, words = self.undo_stack.command(index), self.tr("Undone: {what}")
        elif index > before:
            command, words = self.undo_stack.command(index - 1), self.tr("Redone: {what}")
        else:
            return
        if command is not None:
            self._announce(words.format(what=command.text()),
                           (self.document.scenario, None if self.busy else self._trace))

    def dropped_by(self, sizes: Sizes) -> int:
        """How many non-zero numbers resizing the document to ``sizes`` would drop."""
        return resize(self.document.scenario, sizes).dropped

    # -- view state ------------------------------------------------------------------------
    # -- a generation run, token by token ---------------------------------------------------
    def view_token(self, t: int | None) -> None:
        """Show token ``t``'s own steps (its draw step current), or with None the whole
        document's again; any edit goes back to the whole document first."""
        if t == self.token or self.busy:
            return
        if t is None:
            trace, self._whole = self._whole or self._trace, None
        else:
            self._whole = self._whole or self._trace
            trace = compute(prefix(self.scenario, t))
        self.token = t
        self.tokenChanged.emit()
        self._show_trace(trace)
        if t is not None:
            self.set_step(len(trace.steps) - 1)

    @property
    def whole_trace(self) -> Trace:
        """The whole document's trace, also while a token's steps are on screen."""
        return self._whole or self._trace

    def run_place(self) -> RunPlace | None:
        """Where the steps on screen are in the document's run; None: the whole document's."""
        return None if self.token is None else run_place(self.scenario, self.token)

    def _leave_token(self) -> None:
        """Back to the whole document's trace, without a word: an edit or undo follows."""
        if self._whole is not None:
            self._trace, self._whole, self.token = self._whole, None, None
            self.tokenChanged.emit()

    def set_step(self, index: int) -> None:
        index = max(0, min(len(self._trace.steps) - 1, index))
        if index != self._step:
            self._step = index
            self.stepChanged.emit(index)

    def set_receiver(self, receiver: int | None) -> None:
        if receiver != self.receiver:
            self.receiver = receiver
            self.viewChanged.emit()

    def set_head(self, head: int | None) -> None:
        if head != self.head:
            self.head = head
            self.viewChanged.emit()

    def set_show_all_arrows(self, show: bool) -> None:
        if show != self.show_all_arrows:
            self.show_all_arrows = show
            self.viewChanged.emit()

    def focused_receiver(self) -> int:
        """The query row in focus (the last one by default), in the trace on screen."""
        last = self._trace.scenario.n - 1
        return last if self.receiver is None else min(self.receiver, last)

    def shares_summary(self) -> str:
        """``shares for 爱: 0.804 / 0.196`` for the receiver in focus, per head if several; the
        first :data:`SHARES_SHOWN` keys it reads, then ``/ …``; with the frame's decimals."""
        step = shares_step(self._trace, self._step)
        weights = self._trace.arrays[step.writes[0]]
        i = min(self.focused_receiver(), weights.shape[1] - 1)  # an encoder may be shorter
        seen = np.flatnonzero(visible_of(self._trace, step)[i])
        more = " / …" if len(seen) > SHARES_SHOWN else ""
        places = printed_places(self._trace)  # as the frame prints them
        parts = []
        for h in range(weights.shape[0]):
            shares = " / ".join(format_number(float(w), places)
                                for w in weights[h, i, seen[:SHARES_SHOWN]]) + more
            parts.append(self.tr("head {n}: {shares}").format(n=h + 1, shares=shares)
                         if weights.shape[0] > 1 else shares)
        return self.tr("shares for {token}: {shares}").format(
            token=isolate(tokens_of(self._trace, step.rows)[i]), shares="; ".join(parts))
