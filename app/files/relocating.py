"""A document whose checkpoint is not where, or not as, it was saved: the user is asked where
the checkpoint's files are now (a folder moved or copied), or whether a file whose modification
time alone changed is the same checkpoint; the document then opens reading them there.

Nothing is taken on trust that can be checked: a file found must have the size and the header
the document saved; only its time is the user's word, and only when the user gives it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app.i18n import current_language
from app.plain_text import as_written
from app.texts.problems import problem_words
from engine import ScenarioError
from engine.format.checkpoint_reference import AS_SAVED, Relocation

translate = QCoreApplication.translate

AWAY = frozenset({"checkpoint_gone", "checkpoint_changed_since_saved",
                  "checkpoint_modified_since_saved"})
"""The refusals of a document whose checkpoint file is not where, or not as, it was saved."""


def is_away(error: BaseException, relocation: Relocation = AS_SAVED) -> bool:
    """Whether ``error`` refuses a document because its checkpoint moved or changed, or
    because a file in the folder the user chose (``relocation``) is not the one saved: another
    folder may hold it, so the user is asked again."""
    if not isinstance(error, ScenarioError):
        return False
    if error.refusal is not None and error.refusal.key in AWAY:
        return True
    return relocation.folder is not None and Path(error.place).parent == relocation.folder


def ask_where(parent: QWidget, document: Path, error: ScenarioError,
              relocation: Relocation) -> Relocation | None:
    """Where the user says the checkpoint of ``document`` is now (a folder chosen), or that a
    file whose time alone changed is the same (``any_time``), added to what was said before
    (``relocation``); None when the user cancels."""
    modified = error.refusal is not None \
        and error.refusal.key == "checkpoint_modified_since_saved"
    box = QMessageBox(QMessageBox.Icon.Warning, translate("StudioWindow", "Cannot open"),
                      as_written(translate("StudioWindow", "{path} was not opened:\n{error}")
                                 .format(path=document,
                                         error=problem_words(error, current_language()))),
                      QMessageBox.StandardButton.Cancel, parent)  # the window's own words
    anyway = box.addButton(translate("Relocating", "Open with it anyway"),
                           QMessageBox.ButtonRole.AcceptRole) if modified else None
    find = box.addButton(translate("Relocating", "Find the checkpoint folder…"),
                         QMessageBox.ButtonRole.ActionRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    try:
        box.exec()
        clicked = box.clickedButton()
    finally:
        box.deleteLater()
    if anyway is not None and clicked is anyway:
        return replace(relocation, any_time=True)
    if clicked is not find:
        return None
    start = Path(error.place).parent
    folder = QFileDialog.getExistingDirectory(
        parent, translate("Relocating", "Where the checkpoint's files are now"),
        str(start if start.is_dir() else document.parent))
    return replace(relocation, folder=Path(folder)) if folder else None


__all__ = ["ask_where", "is_away"]
