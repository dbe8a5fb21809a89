"""Undo steps: thin Qt wrappers over the document's named edits (:mod:`app.document`).

Each holds an :class:`~app.document.Edit` (its operation, the scenario before and after) and
the traces computed with it (``None`` for a big document, computed again in a worker on undo).
Its text is the operation's label in the interface language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from app.document import Edit, SetCell
from app.i18n import current_language
from engine import Trace

if TYPE_CHECKING:
    from app.state import DocumentState

CELL_EDIT_ID = 1


class EditCommand(QUndoCommand):
    """One named edit on the undo stack. Consecutive edits of one cell merge into one step.

    ``merge`` says whether this edit follows the previous one directly (no undo, redo or refused
    entry in between): only then may it join the edit below it on the stack.
    """

    def __init__(self, state: DocumentState, edit: Edit, traces: tuple[Trace | None,
                 Trace | None], merge: bool = False) -> None:
        super().__init__(edit.operation.label(current_language()))
        self.state = state
        self.edit = edit
        self.traces = traces
        self.merge = merge

    def redo(self) -> None:
        self.state.show(self.edit.after, self.traces[1])

    def undo(self) -> None:
        self.state.show(self.edit.before, self.traces[0])

    def retranslate(self) -> None:
        """The text again, in the interface language."""
        self.setText(self.edit.operation.label(current_language()))

    def id(self) -> int:
        return CELL_EDIT_ID if isinstance(self.edit.operation, SetCell) else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or not other.merge \
                or not self.edit.operation.merges_with(other.edit.operation):
            return False
        self.edit = self.edit.then(other.edit)
        self.traces = (self.traces[0], other.traces[1])
        self.retranslate()
        return True
