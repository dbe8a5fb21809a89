"""The open document: scenario, trace, undo stack, current step and what the canvas focuses on."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.background import Job, is_big
from app.commands import CellEditCommand, ScenarioCommand
from app.i18n import current_language
from app.texts.bidi import isolate
from app.texts.problems import problem_words
from engine import Scenario, ScenarioError, Trace, compute, format_number, parse_scenario
from engine.names import short_name
from engine.numbers import format_exact
from engine.resize import Sizes, resize


class DocumentState(QObject):
    """Owns the document; views listen to its signals and never change it behind its back.

    A big scenario (:func:`app.background.is_big`) is computed in a worker: the edit is in the
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
    stepChanged(int)
        The current step index changed.
    viewChanged
        Receiver, head or arrow filter changed.
    message(str)
        A line for the status bar: what just happened, or why an edit was refused.
    """

    documentChanged = Signal()
    traceChanged = Signal()
    busyChanged = Signal(bool)
    stepChanged = Signal(int)
    viewChanged = Signal()
    message = Signal(str)
    refused = Signal(str)

    def __init__(self, scenario: Scenario, path: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.path = path
        self._scenario = scenario
        self._trace = compute(scenario)
        self._job: Job | None = None
        self._pending_label = ""
        self._step = 0
        self.receiver: int | None = None
        self.head: int | None = None
        self.show_all_arrows = False
        self._editing: tuple[str, int, int] | None = None
        """The cell whose next edit may merge into the top undo step (edited just before)."""
        self._index = 0
        self._quiet = False
        """Pushing an edit or taking a failed one back: the undo stack moves without a word."""
        self.undo_stack.indexChanged.connect(self._on_index)
        self.refused.connect(self._end_editing)

    # -- reading ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def trace(self) -> Trace:
        return self._trace

    @property
    def step(self) -> int:
        return self._step

    @property
    def busy(self) -> bool:
        """Whether the trace of the current document is still being computed."""
        return self._job is not None

    # -- changing the document -------------------------------------------------------------
    def show(self, scenario: Scenario, trace: Trace | None) -> None:
        """Make ``scenario`` current with its trace, computed now or (big) in a worker; used by
        the undo commands."""
        self._scenario = scenario
        if trace is None and self._trace.scenario is scenario:
            trace = self._trace
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
        self._trace = trace
        scenario = trace.scenario
        ids = [s.id for s in trace.steps]
        self._step = ids.index(step_id) if step_id in ids else min(self._step, len(ids) - 1)
        if self.receiver is not None and self.receiver >= scenario.n:
            self.receiver = None
        if self.head is not None and self.head >= scenario.attention.heads:
            self.head = None
        self.traceChanged.emit()

    # -- computing in a worker ---------------------------------------------------------------
    def _start_job(self, scenario: Scenario) -> None:
        def work(_cancelled: threading.Event) -> Trace:
            return compute(scenario)  # the scenario is frozen: safe to read from the worker

        job = Job(work, self)
        job.done.connect(self._on_computed)
        job.failed.connect(lambda error: self._on_failed(scenario, error))
        self._job = job.start()
        self.busyChanged.emit(True)

    def _stop_job(self) -> None:
        """Drop the running computation: its document is no longer current."""
        if self._job is not None:
            self._job.cancel()
            self._job = None
            self.busyChanged.emit(False)

    def _on_computed(self, trace: Trace) -> None:
        if trace.scenario is not self._scenario:
            return  # a stale result: a newer edit is computing
        self._job = None
        self.busyChanged.emit(False)
        self._show_trace(trace)
        if self._pending_label:
            self.message.emit(f"{self._pending_label} → {self.shares_summary()}")
            self._pending_label = ""

    def _on_failed(self, scenario: Scenario, error: BaseException) -> None:
        """The current document cannot be computed: say why and take the edit back."""
        if scenario is not self._scenario:
            return
        self._job = None
        self.busyChanged.emit(False)
        problem = str(error) if isinstance(error, ScenarioError) else \
            self.tr("the computation failed ({error})").format(error=str(error) or
                                                               type(error).__name__)
        self.refused.emit(f"{self._pending_label or self.tr('edit')}: {problem}")
        self._pending_label = ""
        top = self.undo_stack.command(self.undo_stack.index() - 1)
        if top is not None and getattr(top, "after", (None,))[0] is scenario:
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
            while self._scenario is not shown and self.undo_stack.canUndo():
                self._stop_job()
                self.undo_stack.undo()
        finally:
            self._quiet = False
        if self._scenario is not shown:  # no undo step leads there (a document just opened)
            self.show(shown, self._trace)

    def _pair(self) -> tuple[Scenario, Trace | None]:
        """The current document and its trace, if computed: what an undo step goes back to."""
        return self._scenario, self._trace if self._trace.scenario is self._scenario else None

    def _announce(self, label: str, after: tuple[Scenario, Trace | None]) -> None:
        if after[1] is None:
            self._pending_label = label
            self.message.emit(self.tr("{label} → computing…").format(label=label))
        else:
            self._pending_label = ""
            self.message.emit(f"{label} → {self.shares_summary()}")

    def edit_cell(self, path: str, row: int, col: int, value: float) -> bool:
        """Set one number of the array at ``path``; False (and a message) if refused."""
        current = self._scenario.parameter(path)
        place = f"{short_name(path)}[{row},{col}]" if current.ndim == 2 else \
            f"{short_name(path)}[{col}]"
        old = float(current[row, col] if current.ndim == 2 else current[col])
        if old == value:
            return True
        changed = current.copy()
        if changed.ndim == 2:
            changed[row, col] = value
        else:
            changed[col] = value
        try:
            scenario = self._scenario.with_parameter(path, changed)
            after = (scenario, None if is_big(scenario) else compute(scenario))
        except ScenarioError as error:
            problem = problem_words(ScenarioError("", error.problem), current_language())
            self.refused.emit(self.tr("{place}: {problem}; kept {old}").format(
                place=place, problem=problem, old=format_exact(old)))
            return False
        label = f"{place} = {format_exact(value)}"
        cell = (path, row, col)
        self._push(CellEditCommand(self, self._pair(), after, label, cell,
                                   merge=self._editing == cell))
        self._editing = cell
        self._announce(label, after)
        return True

    def _push(self, command: ScenarioCommand) -> None:
        self._quiet = True
        try:
            self.undo_stack.push(command)
        finally:
            self._quiet = False
        self._index = self.undo_stack.index()
        self._editing = None

    def _end_editing(self) -> None:
        self._editing = None

    def _on_index(self, index: int) -> None:
        """After an undo or redo: no edit merges across it, and the status line says what was
        undone or redone instead of still showing the edit."""
        self._editing = None
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
                           (self._scenario, None if self.busy else self._trace))

    def replace_document(self, document: object, label: str) -> bool:
        """Replace the scenario by a whole new document as one undo step."""
        return self._push_scenario(lambda: parse_scenario(document), label)

    def set_value(self, path: str, value: object, label: str) -> bool:
        """Set any document value (an option, a label list, a matrix) as one undo step."""
        return self._push_scenario(lambda: self._scenario.with_document_value(path, value), label)

    def _push_scenario(self, make: Callable[[], Scenario], label: str) -> bool:
        """Make the scenario ``make`` builds current as one undo step; False if it is refused."""
        try:
            scenario = make()
            after = (scenario, None if is_big(scenario) else compute(scenario))
        except ScenarioError as error:
            self.refused.emit(self.tr("{label}: {problem}").format(
                label=label, problem=problem_words(error, current_language())))
            return False
        self._push(ScenarioCommand(self, self._pair(), after, label))
        self._announce(label, after)
        return True

    def resized(self, sizes: Sizes) -> tuple[dict[str, object], int]:
        """The document at new sizes and how many non-zero numbers it would drop."""
        result = resize(self._scenario, sizes)
        return result.document, result.dropped

    # -- view state ------------------------------------------------------------------------
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
        """``shares for 爱: 0.804 / 0.196`` for the receiver in focus, per head if several."""
        i = self.focused_receiver()
        first = "" if self._trace.scenario.shorthand else "L1."  # the first layer's shares
        weights = self._trace.arrays[f"{first}weights"]
        visible = self._trace.visible[i]
        parts = []
        for h in range(weights.shape[0]):
            shares = " / ".join(format_number(float(w), 3)
                                for w, seen in zip(weights[h, i], visible, strict=True) if seen)
            parts.append(self.tr("head {n}: {shares}").format(n=h + 1, shares=shares)
                         if weights.shape[0] > 1 else shares)
        return self.tr("shares for {token}: {shares}").format(
            token=isolate(self._trace.scenario.tokens[i]), shares="; ".join(parts))
