"""The session's history as the window's Undo and Redo, recovery and title read it: the calls
and signals of :class:`QUndoStack` they use, over :class:`app.state.history.History`."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.i18n import current_language
from app.state.history import EditStep
from app.state.session import Session


class UndoStack(QObject):
    """Undo, redo and the clean mark of ``session``'s history; ``undo`` and ``redo`` are the
    document's own (they say what they did). Signals as :class:`QUndoStack` emits them."""

    indexChanged = Signal(int)
    cleanChanged = Signal(bool)
    canUndoChanged = Signal(bool)
    canRedoChanged = Signal(bool)
    undoTextChanged = Signal(str)
    redoTextChanged = Signal(str)

    def __init__(self, session: Session, undo: Callable[[], None], redo: Callable[[], None],
                 parent: QObject) -> None:
        super().__init__(parent)
        self._session = session
        self._history = session.history
        self.undo, self.redo = undo, redo
        self._index, self._clean = self.index(), self.isClean()

    def count(self) -> int:
        return len(self._history.steps)

    def index(self) -> int:
        return self._history.index

    def command(self, index: int) -> EditStep | None:
        """The step at ``index`` (None outside the history)."""
        steps = self._history.steps
        return steps[index] if 0 <= index < len(steps) else None

    def text(self, index: int) -> str:
        """The name of the step at ``index`` in the interface language."""
        step = self.command(index)
        return "" if step is None else step.text(current_language())

    def undoText(self) -> str:
        return self.text(self._history.index - 1)

    def redoText(self) -> str:
        return self.text(self._history.index)

    def canUndo(self) -> bool:
        return self._history.to_undo() is not None

    def canRedo(self) -> bool:
        return self._history.to_redo() is not None

    def isClean(self) -> bool:
        return self._history.is_clean

    def setClean(self) -> None:
        """The document as it is now is the saved one."""
        self._session.set_clean(True)

    def resetClean(self) -> None:
        """No step is the saved document (unsaved work restored, say)."""
        self._session.set_clean(False)

    def clear(self) -> None:
        """No steps; the document as it is now is the saved one."""
        self._session.forget_history()

    def moved(self, index: bool) -> None:
        """The history changed (``index``: its index was set); emit what Qt would."""
        if index or self.index() != self._index:
            self._index = self.index()
            self.indexChanged.emit(self._index)
            self.canUndoChanged.emit(self.canUndo())
            self.undoTextChanged.emit(self.undoText())
            self.canRedoChanged.emit(self.canRedo())
            self.redoTextChanged.emit(self.redoText())
        if self.isClean() != self._clean:
            self._clean = self.isClean()
            self.cleanChanged.emit(self._clean)
