"""The open document for the window: the Qt adapter of :class:`app.state.session.Session`.

It runs a big document's computation in a worker (:class:`app.state.jobs.Job`), turns each
:class:`~app.state.change.Change` of the session into the signal its listeners connect to
(carrying the change, so that they skip what did not change), and says what happened on the
status line in the interface language.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal

from app.bidi import isolate
from app.i18n import current_language
from app.model.edits import Document, Operation, SetCell
from app.model.operands import shares_step, tokens_of, visible_of
from app.model.run import RunPlace
from app.state.change import Change
from app.state.jobs import Job
from app.state.prepared import prepared
from app.state.session import Session
from app.state.undo_stack import UndoStack
from app.texts.printed import printed_places
from app.texts.problems import problem_words
from engine import Scenario, ScenarioError, Trace, format_number
from engine.format.mapped_weight import cell
from engine.format.numbers import format_exact

SHARES_SHOWN = 8
"""Shares the status line lists per head: a line of 512 numbers is read by no one."""


class DocumentState(QObject):
    """Owns the open document's :class:`~app.state.session.Session`; views listen to its
    signals and never change the document behind its back.

    Signals
    -------
    documentChanged(Change)
        A new scenario is current; its trace may still be computing.
    traceChanged(Change)
        A new trace is current (an edit, undo, redo or open), for :attr:`scenario`.
    busyChanged(bool)
        A computation in a worker started or ended.
    previewChanged(Change)
        The frame's trace (:attr:`frame_trace`) changed while the whole trace still computes.
    stepChanged(int)
        The current step index changed.
    viewChanged(Change)
        Receiver, head or arrow filter changed.
    message(str)
        A line for the status bar: what just happened, or why an edit was refused.
    tokenChanged(Change)
        The run token whose own steps are shown changed (:meth:`view_token`).
    """

    documentChanged = Signal(object)
    tokenChanged = Signal(object)
    traceChanged = Signal(object)
    busyChanged = Signal(bool)
    previewChanged = Signal(object)
    stepChanged = Signal(int)
    viewChanged = Signal(object)
    message = Signal(str)
    refused = Signal(str)

    def __init__(self, scenario: Scenario, path: Path | None = None,
                 parent: QObject | None = None, trace: Trace | None = None) -> None:
        super().__init__(parent)
        self.session = Session(scenario, self._run, self, path, trace)
        self.undo_stack = UndoStack(self.session, self.undo, self.redo, self)
        self.refused.connect(self._end_editing)

    # -- reading ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self.session.scenario

    @property
    def document(self) -> Document:
        """The scenario being edited and its file."""
        return self.session.document

    @property
    def path(self) -> Path | None:
        """The document's file (``None``: not saved yet)."""
        return self.session.document.path

    @path.setter
    def path(self, path: Path | None) -> None:
        self.session.document.path = path

    @property
    def trace(self) -> Trace:
        return self.session.trace

    @property
    def frame_trace(self) -> Trace:
        return self.session.frame_trace

    @property
    def whole_trace(self) -> Trace:
        return self.session.whole_trace

    @property
    def step(self) -> int:
        return self.session.step

    @property
    def receiver(self) -> int | None:
        return self.session.receiver

    @property
    def head(self) -> int | None:
        return self.session.head

    @property
    def show_all_arrows(self) -> bool:
        return self.session.show_all_arrows

    @property
    def token(self) -> int | None:
        return self.session.token

    @property
    def modified(self) -> bool:
        """Whether the document holds changes not saved to its file."""
        return not self.session.history.is_clean

    @property
    def busy(self) -> bool:
        """Whether the trace of the current document is still being computed."""
        return self.session.busy

    def kept_focus(self, scenario: Scenario) -> tuple[int | None, int | None]:
        return self.session.kept_focus(scenario)

    def run_place(self) -> RunPlace | None:
        return self.session.run_place()

    def focused_receiver(self) -> int:
        return self.session.focused_receiver()


    # -- changing the document -------------------------------------------------------------
    def show(self, scenario: Scenario, trace: Trace | None) -> None:
        """Make ``scenario`` current with its trace, computed now or (big) in a worker."""
        self.session.show(scenario, trace)

    def edit_cell(self, path: str, row: int, col: int, value: float) -> bool:
        """Set one number of the array at ``path``; False (and a message) if refused."""
        current = self.session.scenario.weight(path)
        operation = SetCell(path, row, col, value, vector=current.ndim == 1)
        try:
            old = cell(current, (col,) if operation.vector else (row, col))
        except ScenarioError as error:  # its checkpoint gone or changed since it was read
            self.refuse(operation, error)
            return False
        if old == value:
            return True
        return self.apply(operation, refusal=lambda problem: self.tr(
            "{place}: {problem}; kept {old}").format(place=operation.place, problem=problem,
                                                     old=format_exact(old)))

    def apply(self, operation: Operation,
              refusal: Callable[[str], str] | None = None) -> bool:
        """Make ``operation`` on the document as one undo step (typing into one cell again
        joins the step before); False, and the refusal said, if the engine refuses it."""
        try:
            self.session.apply(operation)
        except ScenarioError as error:
            self.refuse(operation, error, refusal)
            return False
        self._announce(operation.label(current_language()))
        return True

    def refuse(self, operation: Operation, error: ScenarioError,
               refusal: Callable[[str], str] | None = None) -> None:
        """Say that the engine refused ``operation`` with ``error`` (``refusal`` words the
        problem; else ``label: problem``)."""
        problem = problem_words(ScenarioError("", error.refusal or error.problem) if refusal
                                else error, current_language())
        self.refused.emit(refusal(problem) if refusal else self.tr(
            "{label}: {problem}").format(label=operation.label(current_language()),
                                         problem=problem))

    def cancel_compute(self) -> None:
        """Cancel: back to the last document whose trace is on screen (Redo brings edits back)."""
        self.session.cancel_compute()

    def undo(self) -> None:
        """Undo the top step, and say so."""
        step = self.session.history.to_undo()
        self.session.undo()
        if step is not None:
            self._announce(self.tr("Undone: {what}").format(
                what=step.text(current_language())))

    def redo(self) -> None:
        """Redo the next step, and say so."""
        step = self.session.history.to_redo()
        self.session.redo()
        if step is not None and not step.obsolete:
            self._announce(self.tr("Redone: {what}").format(
                what=step.text(current_language())))

    def _announce(self, label: str) -> None:
        """Say what was done: its shares, or (still computing) that they follow."""
        if self.busy:
            self.session.pending_label = label
            self.message.emit(self.tr("{label} → computing…").format(label=label))
        else:
            self.session.pending_label = ""
            self.message.emit(f"{label} → {self.shares_summary()}")

    def _end_editing(self) -> None:
        self.session.editing = False

    # -- the view --------------------------------------------------------------------------
    def view_token(self, t: int | None) -> None:
        """Show token ``t``'s own steps (its draw step current), or with None the whole
        document's again."""
        self.session.view_token(t)

    def set_step(self, index: int) -> None:
        self.session.set_focus(step=index)

    def set_receiver(self, receiver: int | None) -> None:
        self.session.set_focus(receiver=receiver)

    def set_head(self, head: int | None) -> None:
        self.session.set_focus(head=head)

    def set_show_all_arrows(self, show: bool) -> None:
        self.session.set_focus(show_all_arrows=show)

    def shares_summary(self) -> str:
        """``shares for 爱: 0.804 / 0.196`` for the receiver in focus, per head if several; the
        first :data:`SHARES_SHOWN` keys it reads, then ``/ …``; with the frame's decimals."""
        trace = self.session.trace
        step = shares_step(trace, self.session.step)
        weights = trace.arrays[step.writes[0]]
        i = min(self.focused_receiver(), weights.shape[1] - 1)  # an encoder may be shorter
        seen = np.flatnonzero(visible_of(trace, step)[i])
        more = " / …" if len(seen) > SHARES_SHOWN else ""
        places = printed_places(trace)  # as the frame prints them
        parts = []
        for h in range(weights.shape[0]):
            shares = " / ".join(format_number(float(w), places)
                                for w in weights[h, i, seen[:SHARES_SHOWN]]) + more
            parts.append(self.tr("head {n}: {shares}").format(n=h + 1, shares=shares)
                         if weights.shape[0] > 1 else shares)
        return self.tr("shares for {token}: {shares}").format(
            token=isolate(tokens_of(trace, step.rows)[i]), shares="; ".join(parts))

    # -- what the session tells ------------------------------------------------------------
    def session_changed(self, change: Change) -> None:
        """Each move as the signal its listeners connect to."""
        if "token" in change.focus:
            self.tokenChanged.emit(change)
        if change.trace == "preview":
            self.previewChanged.emit(change)
        if change.document:
            self.documentChanged.emit(change)
        if change.trace == "whole":
            self.traceChanged.emit(change)
        if "step" in change.focus:
            self.stepChanged.emit(self.session.step)
        if change.focus & {"receiver", "head", "arrows"}:
            self.viewChanged.emit(change)

    def session_busy(self, busy: bool) -> None:
        self.busyChanged.emit(busy)

    def session_moved(self, index: bool) -> None:
        self.undo_stack.moved(index)

    def session_computed(self, label: str) -> None:
        self.message.emit(f"{label} → {self.shares_summary()}")

    def session_failed(self, label: str, error: BaseException) -> None:
        problem = str(error) if isinstance(error, ScenarioError) else \
            self.tr("the computation failed ({error})").format(error=str(error) or
                                                               type(error).__name__)
        self.refused.emit(f"{label or self.tr('edit')}: {problem}")

    def _run(self, work: Callable[[], Trace], done: Callable[[Trace], None],
             failed: Callable[[BaseException], None], whole: bool = True) -> Callable[[], None]:
        """The session's runner: ``work`` in a worker thread, its end back on this one (a
        whole trace made ready to draw there too)."""
        def in_worker(_cancelled: threading.Event) -> Trace:
            return prepared(work()) if whole else work()

        job = Job(in_worker, self)
        job.done.connect(done)
        job.failed.connect(failed)
        job.ended.connect(lambda _result, _error: job.deleteLater())  # and its document with it
        return job.start().cancel
