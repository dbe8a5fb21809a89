"""Undoable edits of the document: each holds the scenario before and after, and its trace when
it was computed at once (a big document's trace is computed again, in a worker, on undo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from engine import Scenario, Trace

if TYPE_CHECKING:
    from app.state import DocumentState

CELL_EDIT_ID = 1


class ScenarioCommand(QUndoCommand):
    """Replace the whole scenario (resize, option toggle, paste, token label …)."""

    def __init__(self, state: DocumentState, before: tuple[Scenario, Trace | None],
                 after: tuple[Scenario, Trace | None], label: str) -> None:
        super().__init__(label)
        self.state = state
        self.before = before
        self.after = after

    def redo(self) -> None:
        self.state.show(*self.after)

    def undo(self) -> None:
        self.state.show(*self.before)


class CellEditCommand(ScenarioCommand):
    """Typing into one cell; consecutive edits of the same cell merge into one undo step.

    ``merge`` says whether this edit follows the previous one directly (no undo, redo or refused
    entry in between): only then does it join the edit below it on the stack.
    """

    def __init__(self, state: DocumentState, before: tuple[Scenario, Trace | None],
                 after: tuple[Scenario, Trace | None], label: str,
                 cell: tuple[str, int, int], merge: bool = True) -> None:
        super().__init__(state, before, after, label)
        self.cell = cell
        self.merge = merge

    def id(self) -> int:
        return CELL_EDIT_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, CellEditCommand) or other.cell != self.cell or not other.merge:
            return False
        self.after = other.after
        self.setText(other.text())
        return True
