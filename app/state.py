"""The open document: scenario, trace, undo stack, current step and what the canvas focuses on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.commands import CellEditCommand, ScenarioCommand
from app.texts.bidi import isolate
from engine import Scenario, ScenarioError, Trace, compute, format_number, parse_scenario
from engine.names import short_name
from engine.resize import Sizes, resize


class DocumentState(QObject):
    """Owns the document; views listen to its signals and never change it behind its back.

    Signals
    -------
    traceChanged
        A new scenario and trace are current (an edit, undo, redo or open).
    stepChanged(int)
        The current step index changed.
    viewChanged
        Receiver, head or arrow filter changed.
    message(str)
        A line for the status bar: what just happened, or why an edit was refused.
    """

    traceChanged = Signal()
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
        self._step = 0
        self.receiver: int | None = None
        self.head: int | None = None
        self.show_all_arrows = False

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

    # -- changing the document -------------------------------------------------------------
    def show(self, scenario: Scenario, trace: Trace) -> None:
        """Make (scenario, trace) current; used by the undo commands."""
        step_id = self._trace.steps[self._step].id
        self._scenario, self._trace = scenario, trace
        ids = [s.id for s in trace.steps]
        self._step = ids.index(step_id) if step_id in ids else min(self._step, len(ids) - 1)
        if self.receiver is not None and self.receiver >= scenario.n:
            self.receiver = None
        if self.head is not None and self.head >= scenario.attention.heads:
            self.head = None
        self.traceChanged.emit()

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
            after = (scenario, compute(scenario))
        except ScenarioError as error:
            self.refused.emit(f"{place}: {error.problem}; kept {format_number(old)}")
            return False
        label = f"{place} = {format_number(value)}"
        self.undo_stack.push(CellEditCommand(self, (self._scenario, self._trace), after, label,
                                             (path, row, col)))
        self.message.emit(f"{label} → {self.shares_summary()}")
        return True

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
            after = (scenario, compute(scenario))
        except ScenarioError as error:
            self.refused.emit(f"{label}: {error}")
            return False
        self.undo_stack.push(ScenarioCommand(self, (self._scenario, self._trace), after, label))
        self.message.emit(f"{label} → {self.shares_summary()}")
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
        """The query row in focus (the last one by default)."""
        last = self._scenario.n - 1
        return last if self.receiver is None else min(self.receiver, last)

    def shares_summary(self) -> str:
        """``shares for 爱: 0.804 / 0.196`` for the receiver in focus, per head if several."""
        i = self.focused_receiver()
        weights = self._trace.arrays["weights"]
        visible = self._trace.visible[i]
        parts = []
        for h in range(weights.shape[0]):
            shares = " / ".join(format_number(float(w), 3)
                                for w, seen in zip(weights[h, i], visible, strict=True) if seen)
            parts.append(self.tr("head {n}: {shares}").format(n=h + 1, shares=shares)
                         if weights.shape[0] > 1 else shares)
        return self.tr("shares for {token}: {shares}").format(
            token=isolate(self._scenario.tokens[i]), shares="; ".join(parts))
