"""Undo steps: thin Qt wrappers over the document's named edits (:mod:`app.model.edits`).

Each holds an :class:`~app.model.edits.Edit` (its operation, the scenario before and after) and
the traces computed with it (``None`` for a big document, computed again in a worker on undo).
Its text is the operation's label in the interface language. An old cell edit may keep only its
two numbers (:meth:`EditCommand.forget_documents`), so that a long session of cell edits in a
big matrix does not keep a copy of the matrix per step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from app.i18n import current_language
from app.model.edits import CellChange, Edit, SetCell, SetGeneration
from engine import Trace

if TYPE_CHECKING:
    from app.state.document import DocumentState

CELL_EDIT_ID = 1
GENERATION_EDIT_ID = 2


class EditCommand(QUndoCommand):
    """One named edit on the undo stack. Consecutive edits of one cell (or of one
    generation setting) merge into one step.

    ``merge`` says whether this edit follows the previous one directly (no undo, redo or refused
    entry in between): only then may it join the edit below it on the stack.
    """

    def __init__(self, state: DocumentState, edit: Edit, traces: tuple[Trace | None,
                 Trace | None], merge: bool = False) -> None:
        super().__init__(edit.operation.label(current_language()))
        self.state = state
        self.operation = edit.operation
        self.edit: Edit | None = edit
        """The documents before and after; None once the step keeps only its cell's numbers."""
        self.change: CellChange | None = None
        self.traces = traces
        self.merge = merge

    def redo(self) -> None:
        if self.change is not None:
            self.state.show(self.change.redo.apply(self.state.scenario), None,
                            self.change.redo.path)
        elif self.edit is not None:
            self.state.show(self.edit.after, self.traces[1], self._changed())

    def undo(self) -> None:
        if self.change is not None:
            self.state.show(self.change.undo.apply(self.state.scenario), None,
                            self.change.undo.path)
        elif self.edit is not None:
            self.state.show(self.edit.before, self.traces[0], self._changed())

    def _changed(self) -> str | None:
        """The one array a cell edit changes (its trace is worked again from the first step
        that array feeds); None for other edits."""
        return self.operation.path if isinstance(self.operation, SetCell) else None

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
        return int(self.edit.after.parameter(self.operation.path).nbytes)

    def forget_documents(self) -> None:
        """Keep only the cell's old and new number (a cell edit; other edits keep their
        documents): undo and redo then set it in the document shown at the time."""
        if self.edit is not None:
            change = CellChange.of(self.edit)
            if change is not None:
                self.change, self.edit, self.traces = change, None, (None, None)

    def retranslate(self) -> None:
        """The text again, in the interface language."""
        self.setText(self.operation.label(current_language()))

    def id(self) -> int:
        """Which steps Qt offers to merge: cell edits, and generation settings (a drag of the
        temperature); :meth:`mergeWith` decides."""
        if isinstance(self.operation, SetCell):
            return CELL_EDIT_ID
        return GENERATION_EDIT_ID if isinstance(self.operation, SetGeneration) else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or not other.merge or self.edit is None \
                or other.edit is None or not self.operation.merges_with(other.operation):
            return False
        self.edit = self.edit.then(other.edit)
        self.operation = other.operation
        self.traces = (self.traces[0], other.traces[1])
        # Qt deletes ``other`` now, but PySide keeps its Python side: let go of its documents.
        other.edit, other.traces = None, (None, None)
        self.retranslate()
        return True
