"""File → Open checkpoint…: a Hugging Face checkpoint folder and a text, imported and computed in
a worker (progress and Cancel), then shown as a new, unsaved document. Where a package ships a
trained model (all-MiniLM-L6-v2), one button fills its folder.

The open document is replaced only when it holds no unsaved work; otherwise the checkpoint opens
in a new window, so nothing is lost either way. A refusal is said in the interface language and
leaves everything as it was.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from app.files.opening import computed
from app.i18n import current_language
from app.model.cancel import CancelledError
from app.plain_text import PlainLabel, as_written
from app.state.jobs import run_with_progress
from app.texts.problems import problem_words
from engine import Scenario, ScenarioError, Trace

if TYPE_CHECKING:
    from app.state.shell import Shell

translate = QCoreApplication.translate
DIALOG_WIDTH = 560
"""Wide enough for a folder path and a sentence."""


@dataclass(frozen=True)
class Choice:
    """What to import: the folder, the text, the layers (None: all) and a second text read as
    segment B (None: none; BERT's sentence pair)."""

    folder: Path
    text: str
    layers: str | None
    pair: str | None = None


class CheckpointDialog(QDialog):
    """The folder (typed, browsed, or the installed trained model's), the text and the layers;
    OK once folder and text are given."""

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("Checkpoint", "Open checkpoint"))
        self.setMinimumWidth(DIALOG_WIDTH)
        self.folder = QLineEdit(self)
        self.folder.setPlaceholderText(translate(
            "Checkpoint", "a folder with config.json, *.safetensors and tokenizer.json"))
        browse = QPushButton(translate("Checkpoint", "Browse…"), self)
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.text = QLineEdit(self)
        self.text.setPlaceholderText(translate("Checkpoint", "the text the model reads"))
        self.pair = QLineEdit(self)
        self.pair.setPlaceholderText(translate(
            "Checkpoint", "optional: a second text, token type 1 (BERT's sentence B)"))
        self.layers = QLineEdit(self)
        self.layers.setPlaceholderText(translate("Checkpoint", "all, or 1-2, 3, 1,3-4"))
        form = QFormLayout(self)
        folder_label = PlainLabel(translate("Checkpoint", "&Folder:"), self)
        folder_label.setBuddy(self.folder)  # a row holding a layout gets no buddy of its own
        form.addRow(folder_label, row)
        self.trained = self._trained_model()
        if self.trained is not None:
            form.addRow("", self.trained)
        form.addRow(translate("Checkpoint", "&Text:"), self.text)
        form.addRow(translate("Checkpoint", "Text &pair:"), self.pair)
        form.addRow(translate("Checkpoint", "&Layers:"), self.layers)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        for edit in (self.folder, self.text):
            edit.textChanged.connect(self._allow)
        self._allow()

    def _trained_model(self) -> QPushButton | None:
        """A button filling the folder with all-MiniLM-L6-v2's, where the package that ships it
        is installed (found without importing it, nor torch); None elsewhere."""
        from engine.checkpoint.installed import minilm_folder  # not at the window's start-up

        folder = minilm_folder()
        if folder is None:
            return None
        button = QPushButton(translate(
            "Checkpoint", "all-MiniLM-L6-v2, trained, from the installed package"), self)
        button.setToolTip(str(folder))
        button.clicked.connect(lambda: self._fill(folder))
        return button

    def _fill(self, folder: Path) -> None:
        self.folder.setText(str(folder))
        self.text.setFocus()

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, translate("Checkpoint", "Checkpoint folder"), self.folder.text())
        if folder:
            self.folder.setText(folder)

    def _allow(self) -> None:
        ready = bool(self.folder.text().strip() and self.text.text())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ready)

    def choice(self) -> Choice:
        layers = self.layers.text().strip()
        return Choice(Path(self.folder.text().strip()), self.text.text(), layers or None,
                      self.pair.text() or None)


def ask_checkpoint(parent: QWidget) -> Choice | None:
    """The user's choice, or None when the dialog was cancelled."""
    dialog = CheckpointDialog(parent)
    try:
        return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


def imported(choice: Choice, cancelled: threading.Event) -> tuple[Scenario, Trace]:
    """The checkpoint's document and its trace; ``cancelled`` is looked at between the two.

    Raises
    ------
    ScenarioError
        The importer's or the engine's refusal.
    CancelledError
        Cancel was pressed.
    """
    from engine.checkpoint import import_checkpoint  # safetensors and tokenizers: not at start-up

    return computed(import_checkpoint(choice.folder, choice.text, choice.layers, choice.pair),
                    cancelled)


def open_checkpoint(shell: Shell,
                    ask: Callable[[QWidget], Choice | None] = ask_checkpoint) -> bool:
    """Ask for a checkpoint and a text, import them in a worker and show the document; False
    when cancelled or refused."""
    choice = ask(shell.widget())
    if choice is None:
        return False
    label = translate("Checkpoint", "Importing {name}…").format(name=choice.folder.name)
    try:
        scenario, trace = run_with_progress(shell.widget(), label,
                                            lambda cancelled: imported(choice, cancelled))
    except CancelledError:
        shell.show_message(translate("Checkpoint", "Not imported: cancelled"))
        return False
    except Exception as error:  # a refusal, or whatever else went wrong in the worker
        problem = problem_words(error, current_language()) if isinstance(
            error, ScenarioError) else str(error)
        QMessageBox.warning(shell.widget(), translate("Checkpoint", "Cannot import"), as_written(
            translate("Checkpoint", "{folder} was not imported:\n{error}").format(
                folder=choice.folder, error=problem)))
        shell.show_message(translate("Checkpoint", "⚠ not imported: {error}").format(
            error=problem))
        return False
    note = translate("Checkpoint", "Imported {name}").format(name=choice.folder.name)
    if shell.state.undo_stack.isClean():
        shell.show_document(scenario, None, note=note, trace=trace)
    else:  # the open document's unsaved work stays where it is
        # with the trace the worker computed: a new window computing it again froze for the
        # whole forward pass (Llama-3.2-1B: about 10 s), and its logits step widened the
        # 2.1 GB unembedding the worker had made ready
        shell.open_window(scenario, trace).show_message(note)
    return True
