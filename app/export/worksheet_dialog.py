"""File → Export worksheet…: which exercise (all or one), language, variants and seed, answer key
and editable slides, where to save; then the sheet written as ``qkv-studio worksheet`` writes it.

The sheets are planned on a worker (drawing variants can take seconds) and the files written on
one, each behind a progress dialog with Cancel (:func:`app.state.jobs.run_with_progress`);
in between the pages and slides are painted here (Qt scenes), a task per event-loop turn behind
one too. Cancel while planning or painting writes nothing. A refused document or a file that
cannot be written is said in one message (:attr:`WorksheetDialog.last_error`); the old file at
a path that fails stays as it was.
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from pathlib import Path
from typing import cast

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.export.safe import ExportError, refused_output
from app.export.settings import slug
from app.export.worksheet import (
    PaintedWorksheets,
    painting,
    painting_steps,
    write_painted,
)
from app.export.worksheet_plan import Sheet, choose_exercises, plan_sheets
from app.i18n import current_language
from app.model.cancel import CancelledError
from app.plain_text import PlainLabel, as_written
from app.state.jobs import progress_dialog, run_with_progress
from app.texts import LANGUAGE_NAMES, LANGUAGES
from app.texts.problems import problem_words
from app.texts.words import say
from app.widgets.form_dialog import lay_out_with_buttons, path_field
from engine import Scenario, ScenarioError
from engine.exercises.hand import MAX_VARIANTS
from engine.files.outputs import Inputs, OutputRefusedError

MAX_SEED = 2**31 - 1
"""The largest seed a spin box holds (the command line takes larger ones too)."""
MIN_WIDTH = 600
"""Wide enough for a path of about 50 characters; fits a 1024 × 768 screen."""


def key_beside(sheet: Path) -> Path:
    """The answer key's default path: ``sheet-key.pdf`` beside ``sheet.pdf``."""
    return sheet.with_name(f"{sheet.stem}-key.pdf")


def deck_beside(sheet: Path) -> Path:
    """The slides' default path: ``sheet.pptx`` beside ``sheet.pdf``."""
    return sheet.with_suffix(".pptx")


class WorksheetDialog(QDialog):
    """The worksheet's options for ``scenario`` (which has exercises) and Export.

    Attributes
    ----------
    written
        The files the last export wrote (sheet, key, slides).
    last_error
        The message of the last refused or failed export, or ``None``.
    """

    def __init__(self, scenario: Scenario, folder: Path, name: str | None = None,
                 parent: QWidget | None = None, inputs: Inputs | None = None) -> None:
        super().__init__(parent)
        self.scenario = scenario
        self.inputs = inputs or Inputs()
        """The open document's files: no worksheet replaces them (:mod:`engine.files.outputs`)."""
        self.lang = current_language()
        self.written: list[Path] = []
        self.last_error: str | None = None
        self.setWindowTitle(self._word("title"))
        self.setAccessibleName(self._word("title"))
        self.setMinimumWidth(MIN_WIDTH)
        self._build(folder / f"{name or slug(scenario.title)}-worksheet.pdf")

    def _word(self, key: str, /, **fields: object) -> str:
        return say(f"worksheet_dialog.{key}", self.lang, **fields)

    def _row(self, form: QFormLayout, label_key: str, field: QWidget, name_key: str) -> None:
        label = PlainLabel(self._word(label_key))
        label.setBuddy(field)
        field.setAccessibleName(self._word(name_key))
        form.addRow(label, field)

    def _build(self, sheet: Path) -> None:
        form = QFormLayout()
        self.exercise_box = QComboBox()
        exercises = self.scenario.exercises
        self.exercise_box.addItem(self._word("all", count=len(exercises)), "all")
        for k, exercise in enumerate(exercises, start=1):
            self.exercise_box.addItem(
                self._word("one", number=k, title=exercise.title.text(self.lang)), str(k))
        self._row(form, "exercise", self.exercise_box, "exercise_name")
        self.lang_box = QComboBox()
        for lang in LANGUAGES:
            self.lang_box.addItem(LANGUAGE_NAMES.get(lang, lang), lang)
        self.lang_box.setCurrentIndex(max(0, self.lang_box.findData(self.lang)))
        self._row(form, "lang", self.lang_box, "lang_name")
        self.variants_spin = QSpinBox()
        self.variants_spin.setRange(0, MAX_VARIANTS)
        self.variants_spin.setSpecialValueText(self._word("own_numbers"))
        self.variants_spin.setToolTip(self._word("variants_tip"))
        self._row(form, "variants", self.variants_spin, "variants_name")
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, MAX_SEED)
        self.seed_spin.setToolTip(self._word("seed_tip"))
        self._row(form, "seed", self.seed_spin, "seed_name")

        self.sheet_edit = QLineEdit(str(sheet))
        self.browse_button = QPushButton(self._word("browse"))
        self.browse_button.setAccessibleName(self._word("browse_name"))
        where = path_field(self.sheet_edit, self.browse_button)
        label = PlainLabel(self._word("save_to"))
        label.setBuddy(self.sheet_edit)
        self.sheet_edit.setAccessibleName(self._word("save_to_name"))
        form.addRow(label, where)
        self.key_box = QCheckBox(self._word("key"))
        self.key_box.setChecked(True)
        self.key_box.setAccessibleName(self._word("key_name"))
        form.addRow(self.key_box)
        self.key_edit = QLineEdit(str(key_beside(sheet)))
        self._row(form, "key_to", self.key_edit, "key_to_name")
        self.deck_box = QCheckBox(self._word("deck"))
        self.deck_box.setAccessibleName(self._word("deck_name"))
        form.addRow(self.deck_box)
        self.deck_edit = QLineEdit(str(deck_beside(sheet)))
        self._row(form, "deck_to", self.deck_edit, "deck_to_name")

        self.buttons, self.export_button = lay_out_with_buttons(
            self, form, self._word("export"), self._word("cancel"), self.export)
        self.browse_button.clicked.connect(self.browse)
        self.sheet_edit.textEdited.connect(self._name_beside)
        self.variants_spin.valueChanged.connect(self._update_enabled)
        self.key_box.toggled.connect(self._update_enabled)
        self.deck_box.toggled.connect(self._update_enabled)
        self._update_enabled()

    def _update_enabled(self) -> None:
        self.seed_spin.setEnabled(self.variants_spin.value() > 0)
        self.key_edit.setEnabled(self.key_box.isChecked())
        self.deck_edit.setEnabled(self.deck_box.isChecked())

    def _name_beside(self, text: str) -> None:
        """The key and the slides follow the sheet's name."""
        if text.strip():
            sheet = Path(text.strip()).expanduser()
            self.key_edit.setText(str(key_beside(sheet)))
            self.deck_edit.setText(str(deck_beside(sheet)))

    def browse(self) -> None:
        """Ask where to save the sheet with a file dialog; the key and slides go beside it."""
        chosen, _ = QFileDialog.getSaveFileName(self, self._word("save_as"),
                                                self.sheet_edit.text(), self._word("pdf_files"))
        if chosen:
            path = Path(chosen)
            if path.suffix.lower() != ".pdf":
                path = path.with_name(path.name + ".pdf")
            self.sheet_edit.setText(str(path))
            self._name_beside(str(path))

    # --- the export -------------------------------------------------------------------------

    def paths(self) -> tuple[Path, Path | None, Path | None]:
        """The sheet's, the key's and the slides' paths (None where not asked).

        Raises
        ------
        ValueError
            No sheet path, or one file named twice.
        OutputRefusedError
            A path names the open document or its sidecar.
        """
        fields = [(self.sheet_edit, True), (self.key_edit, self.key_box.isChecked()),
                  (self.deck_edit, self.deck_box.isChecked())]
        chosen = [Path(edit.text().strip()).expanduser() if wanted and edit.text().strip()
                  else None for edit, wanted in fields]
        sheet, key, deck = chosen
        if sheet is None or (self.key_box.isChecked() and key is None) or \
                (self.deck_box.isChecked() and deck is None):
            raise ValueError(self._word("no_destination"))
        seen: set[Path] = set()
        for path in (p for p in chosen if p is not None):
            if path.resolve() in seen:
                raise ValueError(self._word("same_file", path=path))
            seen.add(path.resolve())
        self.inputs.refuse_outputs(chosen)
        return sheet, key, deck

    def export(self) -> bool:
        """Plan, paint and write the worksheet; on success close. Returns success."""
        self.last_error = None
        lang = str(self.lang_box.currentData())
        variants = self.variants_spin.value()
        seed = self.seed_spin.value()
        try:
            sheet, key, deck = self.paths()
            chosen = choose_exercises(self.scenario, str(self.exercise_box.currentData()))
            sheets: tuple[Sheet, ...] = run_with_progress(
                self, self._word("planning"),
                lambda _cancelled: plan_sheets(self.scenario, chosen, lang, variants, seed))
        except CancelledError:
            return False
        except OutputRefusedError as error:  # the open document or its sidecar: nothing written
            return self._show_error(refused_output(error).words(self.lang))
        except ScenarioError as error:  # an exercise that does not fit the document
            return self._show_error(problem_words(error, self.lang))
        except ValueError as error:
            return self._show_error(str(error))
        painted = self._paint(painting(sheets, lang, key is not None, deck is not None),
                              painting_steps(sheets, key is not None, deck is not None))
        if painted is None:
            return False

        def write(cancelled: threading.Event) -> list[Path]:
            if cancelled.is_set():
                raise CancelledError()
            return write_painted(painted, sheet, key, deck)

        try:
            self.written = run_with_progress(self, self._word("writing"), write,
                                             finish_on_cancel=True)
        except CancelledError:
            return False
        except ExportError as error:
            return self._show_error(error.words(self.lang))
        self.accept()
        return True

    def _paint(self, steps: Generator[None, None, PaintedWorksheets],
               total: int) -> PaintedWorksheets | None:
        """Paint here a task per event-loop turn behind a progress dialog (the pages are Qt
        scenes): the window repaints and Cancel answers; None after Cancel."""
        progress = progress_dialog(self, self._word("painting"), self._word("cancel"), total)
        try:
            for done in range(total + 1):
                progress.setValue(done)
                QCoreApplication.processEvents()
                if progress.wasCanceled():
                    steps.close()  # ends the painters of the pages begun
                    return None
                try:
                    next(steps)
                except StopIteration as end:
                    return cast(PaintedWorksheets, end.value)
            raise AssertionError("painting took more steps than painting_steps counts")
        finally:
            progress.close()
            progress.deleteLater()

    def _show_error(self, message: str) -> bool:
        self.last_error = message
        QMessageBox.critical(self, self._word("failed"), as_written(message))
        return False


__all__ = ["WorksheetDialog", "deck_beside", "key_beside"]
