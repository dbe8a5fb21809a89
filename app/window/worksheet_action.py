"""File → Export worksheet…: the menu entry and the dialog it opens, greyed out (with a tooltip
saying why) while the document has no exercises."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from app.files.saving import document_inputs
from app.i18n import current_language
from app.texts.words import say

if TYPE_CHECKING:
    from app.export.worksheet_dialog import WorksheetDialog
    from app.state.shell import Shell


class WorksheetAction(QObject):
    """The File menu's “Export worksheet…” (``dialog`` while its dialog is open)."""

    def __init__(self, shell: Shell, menu: QMenu) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.action = QAction(self)
        self.action.triggered.connect(self.open_dialog)
        menu.addAction(self.action)
        menu.setToolTipsVisible(True)  # a greyed-out entry says why
        self.dialog: WorksheetDialog | None = None
        shell.texts.bind(self.action.setText, lambda: self._word("action"))
        shell.texts.bind(self.action.setToolTip, self._tip)
        shell.state.documentChanged.connect(self._enable)
        self._enable()

    def _word(self, key: str, /, **fields: object) -> str:
        return say(f"worksheet_dialog.{key}", current_language(), **fields)

    def _has_exercises(self) -> bool:
        return bool(self.shell.state.scenario.exercises)

    def _tip(self) -> str:
        """What the entry does, or why it is greyed out."""
        return self._word("action_tip" if self._has_exercises() else "no_exercises")

    def _enable(self) -> None:
        """Greyed out without exercises, the tooltip saying why."""
        self.action.setEnabled(self._has_exercises())
        self.action.setToolTip(self._tip())

    def open_dialog(self) -> None:
        """Open the dialog on the document as it is now (modal); say what was written."""
        from app.export.worksheet_dialog import WorksheetDialog

        state = self.shell.state
        path = state.path
        name = path.name.removesuffix(".json").removesuffix(".qkv") if path else None
        folder = path.parent if path else Path.home()
        self.dialog = WorksheetDialog(state.scenario, folder, name, self.shell.widget(),
                                      document_inputs(path, state.scenario))
        try:
            self.dialog.exec()
            if self.dialog.written:
                self.shell.show_message(self._word(
                    "written", files=", ".join(str(p) for p in self.dialog.written)))
        finally:
            self.dialog.deleteLater()
            self.dialog = None
