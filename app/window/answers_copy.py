"""File → Save answers as… (in exercise mode): a copy of the whole document with each
exercise's answers as the student gave them (``answers``, ``checked``), written to a new path;
never over the document that is open, whose own Save never writes answers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from app.export.settings import slug
from app.files.saving import (
    document_inputs,
    failure_words,
    is_open_document,
    save_target,
    writing,
)
from app.i18n import current_language
from app.model.examples import SUFFIX
from app.plain_text import as_written
from app.texts.words import say

if TYPE_CHECKING:
    from app.state.shell import Shell
    from app.window.exercise_mode import ExerciseMode


def answers_path(path: Path | None, title: str) -> Path:
    """Where Save answers as… starts: ``NAME-answers.qkv.json`` beside the document (here,
    named after its title, when it has no file)."""
    if path is None:
        return Path.cwd() / f"{slug(title)}-answers{SUFFIX}"
    stem = path.name.removesuffix(".json").removesuffix(".qkv")
    return path.with_name(f"{stem}-answers{SUFFIX}")


class AnswersCopy(QObject):
    """The File menu's “Save answers as…”, enabled while exercise mode is on."""

    def __init__(self, shell: Shell, menu: QMenu, before: QAction,
                 exercise: ExerciseMode) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.exercise = exercise
        self.action = QAction(self)
        menu.insertAction(before, self.action)
        shell.texts.bind(self.action.setText, lambda: self._word("save_answers"))
        shell.texts.bind(self.action.setToolTip, lambda: self._word("save_answers_tip"))
        self.action.triggered.connect(self.save)
        exercise.action.toggled.connect(self._enable)
        shell.state.documentChanged.connect(self._enable)
        self._enable()

    @staticmethod
    def _word(key: str, /, **fields: object) -> str:
        return say(f"exercise.{key}", current_language(), **fields)

    def _enable(self) -> None:
        self.action.setEnabled(self.exercise.active and bool(self.shell.state.scenario.exercises))

    def save(self) -> bool:
        """Ask where, then write the copy; refuse the open document's own file, say a failure
        (nothing on disk changes then)."""
        state, window = self.shell.state, self.shell.widget()
        chosen, _filter = QFileDialog.getSaveFileName(
            window, self._word("save_answers_dialog"),
            str(answers_path(state.path, state.scenario.title)),
            self._word("save_answers_filter"))
        if not chosen:
            return False
        target = save_target(chosen)
        if is_open_document(target, state.path):
            refusal = self._word("answers_not_over_open", path=target)
            QMessageBox.warning(window, self._word("answers_title"), as_written(refusal))
            self.shell.show_message(f"⚠ {refusal}")
            return False
        try:
            writing(self.exercise.answered_scenario(), target,
                    document_inputs(state.path, state.scenario))(threading.Event())
        except Exception as error:  # every failure is said; the document stays open as it was
            problem = self._word("answers_not_saved", path=target,
                                 problem=failure_words(error, current_language()))
            QMessageBox.critical(window, self._word("answers_title"), as_written(problem))
            self.shell.show_message(f"⚠ {problem}")
            return False
        self.shell.show_message(self._word("answers_saved", path=target))
        return True
