"""The undo history of the open document, with no Qt: its steps, the merge rule and the clean
mark, as :class:`QUndoStack` kept them before (the window's Undo and Redo read it through
:class:`app.state.undo_stack.UndoStack`).

Each :class:`EditStep` holds an :class:`~app.model.edits.Edit` (its operation, the scenario
before and after) and the traces computed with it (``None`` for a big document, computed again
in a worker on undo). Its text is the operation's label in the language asked for. An old cell
edit may keep only its two numbers (:meth:`EditStep.forget_documents`), so that a long session
of cell edits in a big matrix does not keep a copy of the matrix per step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.model.edits import CellChange, Edit, SetCell, SetGeneration, changed_array
from engine import Scenario, Trace
from engine.format.mapped_weight import held_bytes

UNDO_BYTES = 256 * 1024 * 1024
"""Bytes of arrays the older undo steps of cell edits may hold whole; beyond them a step keeps
only the cell's two numbers (:meth:`EditStep.forget_documents`)."""
KEPT_STEPS = 2
"""The newest undo steps always keep their documents (the top one may still merge)."""


@dataclass(frozen=True)
class Shown:
    """What undoing or redoing a step makes current: ``scenario`` with its ``trace`` (None:
    computed anew), ``changed`` the one array a cell edit changes (its trace is then worked
    again from the first step that array feeds)."""

    scenario: Scenario
    trace: Trace | None
    changed: str | None


class EditStep:
    """One named edit in the history. Consecutive edits of one cell (or of one generation
    setting) merge into one step.

    ``merge`` says whether this edit follows the previous one directly (no undo, redo or refused
    entry in between): only then may it join the step below it.
    """

    def __init__(self, edit: Edit, traces: tuple[Trace | None, Trace | None],
                 merge: bool = False) -> None:
        self.operation = edit.operation
        self.edit: Edit | None = edit
        """The documents before and after; None once the step keeps only its cell's numbers."""
        self.change: CellChange | None = None
        self.traces = traces
        self.merge = merge
        self.obsolete = False
        """A refused edit: undoing it removes it from the history without showing anything."""

    def text(self, lang: str) -> str:
        """The step's name in ``lang``: its operation's label."""
        return self.operation.label(lang)

    def redone(self, current: Scenario) -> Shown | None:
        """What redoing the step shows, from the document ``current`` on screen."""
        if self.change is not None:
            return Shown(self.change.redo.apply(current), None,
                         changed_array(self.change.redo, current))
        if self.edit is not None:
            return Shown(self.edit.after, self.traces[1],
                         changed_array(self.operation, self.edit.after))
        return None

    def undone(self, current: Scenario) -> Shown | None:
        """What undoing the step shows, from the document ``current`` on screen."""
        if self.change is not None:
            return Shown(self.change.undo.apply(current), None,
                         changed_array(self.change.undo, current))
        if self.edit is not None:
            return Shown(self.edit.before, self.traces[0],
                         changed_array(self.operation, self.edit.before))
        return None

    def keep(self, trace: Trace) -> None:
        """Keep ``trace``, computed in a worker, as the trace of the document this step made
        (or took back), so that redo (or undo) shows it at once."""
        if self.edit is not None and trace.scenario is self.edit.after:
            self.traces = (self.traces[0], trace)
        elif self.edit is not None and trace.scenario is self.edit.before:
            self.traces = (trace, self.traces[1])

    def held_bytes(self) -> int:
        """Bytes of the array a cell edit made and this step holds (0 for other edits and once
        forgotten)."""
        if self.edit is None or not isinstance(self.operation, SetCell):
            return 0
        return held_bytes(self.edit.after.weight(self.operation.path))

    def forget_documents(self) -> None:
        """Keep only the cell's old and new number (a cell edit; other edits keep their
        documents): undo and redo then set it in the document shown at the time."""
        if self.edit is not None:
            change = CellChange.of(self.edit)
            if change is not None:
                self.change, self.edit, self.traces = change, None, (None, None)

    def kind(self) -> str:
        """Which steps may merge at all: cell edits, and generation settings (a drag of the
        temperature); ``""`` for none. :meth:`merge_with` decides."""
        if isinstance(self.operation, SetCell):
            return "cell"
        return "generation" if isinstance(self.operation, SetGeneration) else ""

    def merge_with(self, other: EditStep) -> bool:
        """Take ``other``, made right after this, into this step; False if it does not join."""
        if not other.merge or self.edit is None or other.edit is None \
                or not self.operation.merges_with(other.operation):
            return False
        self.edit = self.edit.then(other.edit)
        self.operation = other.operation
        self.traces = (self.traces[0], other.traces[1])
        return True


@dataclass
class History:
    """The steps, how many of them are done (:attr:`index`) and where the document was last
    saved (:attr:`clean`, -1: at no step), with :class:`QUndoStack`'s rules: a new step drops
    those undone above it and merges into the top one unless the top one is where the
    document was saved; an obsolete step is removed, not undone or redone."""

    steps: list[EditStep] = field(default_factory=list)
    index: int = 0
    clean: int = 0

    def push(self, step: EditStep) -> bool:
        """Add ``step`` above the done ones; True if it merged into the top step instead."""
        top = self.steps[self.index - 1] if self.index > 0 else None
        del self.steps[self.index:]
        if self.clean > self.index:
            self.clean = -1  # the saved document's step is gone
        if top is not None and top.kind() and top.kind() == step.kind() \
                and self.index != self.clean and top.merge_with(step):
            return True
        self.steps.append(step)
        self.index += 1
        return False

    def to_undo(self) -> EditStep | None:
        """The step Undo takes back (None: nothing done)."""
        return self.steps[self.index - 1] if self.index > 0 else None

    def to_redo(self) -> EditStep | None:
        """The step Redo makes again (None: nothing undone)."""
        return self.steps[self.index] if self.index < len(self.steps) else None

    def undone(self) -> None:
        """Undo has shown the top done step's document (or it was obsolete: removed)."""
        self.index -= 1
        if self.steps[self.index].obsolete:
            del self.steps[self.index]
            if self.clean > self.index:
                self.clean = -1

    def redone(self) -> None:
        """Redo has shown the next step's document (or it was obsolete: removed)."""
        if self.steps[self.index].obsolete:
            del self.steps[self.index]
            if self.clean > self.index:
                self.clean = -1
        else:
            self.index += 1

    def clear(self) -> None:
        """No steps: the document as it is now is the saved one."""
        self.steps.clear()
        self.index = self.clean = 0

    @property
    def is_clean(self) -> bool:
        return self.index == self.clean

    def forget_old_steps(self) -> None:
        """Let old cell edits keep only their two numbers once the newer steps hold
        :data:`UNDO_BYTES` of arrays they made (each cell edit of W1 in a GPT-2 layer makes a
        19 MB copy); the newest :data:`KEPT_STEPS` always keep theirs."""
        held = 0
        for step in reversed(self.steps[:max(0, self.index - KEPT_STEPS)]):
            held += step.held_bytes()
            if held > UNDO_BYTES:
                step.forget_documents()
