"""Undo and Redo actions whose words follow the interface language.

Their text is built from the history's current step each time, so a language switch reaches
them (the steps' own texts, their operations' labels, are named in the current language).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from app.state.undo_stack import UndoStack


class UndoActions(QObject):
    """``undo`` and ``redo`` actions for ``stack``: "&Undo X[0,0] = 3", enabled when possible."""

    def __init__(self, stack: UndoStack, parent: QObject) -> None:
        super().__init__(parent)
        self.stack = stack
        self.undo = QAction(parent)
        self.redo = QAction(parent)
        self.undo.setShortcuts([QKeySequence("Ctrl+Z")])
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.undo.triggered.connect(stack.undo)
        self.redo.triggered.connect(stack.redo)
        self._undo_text, self._redo_text = stack.undoText(), stack.redoText()
        stack.undoTextChanged.connect(self._on_undo_text)
        stack.redoTextChanged.connect(self._on_redo_text)
        stack.canUndoChanged.connect(self.undo.setEnabled)
        stack.canRedoChanged.connect(self.redo.setEnabled)
        self.undo.setEnabled(stack.canUndo())
        self.redo.setEnabled(stack.canRedo())
        self.retranslate()

    def _on_undo_text(self, text: str) -> None:
        self._undo_text = text
        self._show()

    def _on_redo_text(self, text: str) -> None:
        self._redo_text = text
        self._show()

    def retranslate(self) -> None:
        """Set both texts in the interface language."""
        self._undo_text, self._redo_text = self.stack.undoText(), self.stack.redoText()
        self._show()

    def _show(self) -> None:
        undo, redo = self._undo_text, self._redo_text
        self.undo.setText(self.tr("&Undo {what}").format(what=undo) if undo
                          else self.tr("&Undo"))
        self.redo.setText(self.tr("&Redo {what}").format(what=redo) if redo
                          else self.tr("&Redo"))
