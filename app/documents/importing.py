"""File → Import matrix…: numbers from a ``.npy``, CSV or text file into the selected grid."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QMessageBox, QWidget

from app.documents.matrix_text import (
    FloatArray,
    MatrixTextError,
    load_matrix_file,
    match_problem,
    shape_text,
)
from app.i18n import QT_TRANSLATE_NOOP, current_language
from app.state import DocumentState
from engine.names import short_name

if TYPE_CHECKING:
    from app.window import StudioWindow

FILE_FILTER = QT_TRANSLATE_NOOP("Import", "Matrices (*.npy *.csv *.tsv *.txt);;All files (*)")
translate = QCoreApplication.translate


class GridFocus(QObject):
    """Remembers the editor grid that last had the keyboard focus: the import's target."""

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.path: str | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus)

    def _on_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None:
            return
        for path, table in self.window_.editor.tables.items():
            if new is table or table.isAncestorOf(new):
                self.path = path
                return

    def current(self) -> str | None:
        """The remembered grid if the document still has it."""
        return self.path if self.path in self.window_.editor.tables else None


def grid_shape(state: DocumentState, path: str) -> tuple[int, int]:
    """(rows, columns) of a grid as shown: a vector is one row."""
    values = state.scenario.parameter(path)
    return (1, int(values.shape[0])) if values.ndim == 1 else (int(values.shape[0]),
                                                               int(values.shape[1]))


def choose_grid(window: StudioWindow) -> str | None:
    """The selected grid, or the one the user picks from a list when none is selected."""
    chosen = window.grid_focus.current()
    if chosen is not None:
        return chosen
    paths = list(window.editor.tables)
    labels = [f"{short_name(p)} ({shape_text(*grid_shape(window.state, p))})" for p in paths]
    label, ok = QInputDialog.getItem(window, translate("Import", "Import matrix"),
                                     translate("Import", "Import into which grid?"), labels, 0,
                                     False)
    if not ok or label not in labels:
        return None
    return paths[labels.index(label)]


def put_matrix(state: DocumentState, path: str, values: FloatArray, source: str,
               parent: QWidget | None) -> bool:
    """Replace the grid at ``path`` by ``values`` as one undo step; explain a wrong shape."""
    name = short_name(path)
    block = (int(values.shape[0]), int(values.shape[1]))
    problem = match_problem(block, name, grid_shape(state, path), current_language())
    if problem is not None:
        QMessageBox.warning(parent, translate("Import", "Cannot import"), translate(
            "Import", "{source} was not imported: {problem}.").format(source=source,
                                                                      problem=problem))
        state.refused.emit(translate("Import", "import into {name}: {problem}; nothing changed")
                           .format(name=name, problem=problem))
        return False
    vector = state.scenario.parameter(path).ndim == 1
    new = np.asarray(values[0] if vector else values, dtype=np.float64)
    refusals: list[str] = []

    def note(text: str) -> None:
        refusals.append(text)

    state.refused.connect(note)
    try:
        done = state.set_value(path, new, translate("Import", "import {source} into {name}").format(
            source=source, name=name))
    finally:
        state.refused.disconnect(note)
    if not done and refusals:  # values that overflow, a document over its limits: as loud as
        QMessageBox.warning(  # a wrong shape
            parent, translate("Import", "Cannot import"), translate(
                "Import", "{source} was not imported: {problem}.").format(
                source=source, problem=refusals[-1]))
    return done


def import_matrix_file(window: StudioWindow, path: str, file: Path) -> bool:
    """Read ``file`` and put it into the grid at ``path``; a refusal is shown, nothing changes."""
    try:
        values = load_matrix_file(file)
    except MatrixTextError as error:
        QMessageBox.warning(window, translate("Import", "Cannot import"), translate(
            "Import", "{file} was not imported:\n{error}").format(
                file=file, error=error.words(current_language())))
        window.state.refused.emit(translate("Import", "import: {problem}; nothing changed")
                                  .format(problem=error.words(current_language())))
        return False
    return put_matrix(window.state, path, values, file.name, window)


def import_matrix(window: StudioWindow) -> bool:
    """File → Import matrix…: pick the grid (the selected one) and a file, then import."""
    path = choose_grid(window)
    if path is None:
        return False
    start = str(window.state.path.parent) if window.state.path else str(Path.cwd())
    chosen, _filter = QFileDialog.getOpenFileName(
        window, translate("Import", "Import a matrix into {name}").format(
            name=short_name(path)), start, translate("Import", FILE_FILTER))
    if not chosen:
        return False
    return import_matrix_file(window, path, Path(chosen))
