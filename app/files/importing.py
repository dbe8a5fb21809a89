"""File → Import matrix…: numbers from a ``.npy``, CSV or text file into the selected grid."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from app.files.matrix_text import (
    FloatArray,
    MatrixTextError,
    load_matrix_file,
    match_problem,
    shape_text,
)
from app.i18n import QT_TRANSLATE_NOOP, current_language
from app.model.edits import SetMatrix
from app.plain_text import as_written
from app.state.document import DocumentState
from engine.scenario.names import short_name

if TYPE_CHECKING:
    from app.state.shell import Shell

FILE_FILTER = QT_TRANSLATE_NOOP("Import", "Matrices (*.npy *.csv *.tsv *.txt);;All files (*)")
translate = QCoreApplication.translate


def grid_shape(state: DocumentState, path: str) -> tuple[int, int]:
    """(rows, columns) of a grid as shown: a vector is one row."""
    values = state.scenario.weight(path)
    return (1, int(values.shape[0])) if values.ndim == 1 else (int(values.shape[0]),
                                                               int(values.shape[1]))


def choose_grid(shell: Shell) -> str | None:
    """The selected grid, or the one the user picks from a list when none is selected."""
    chosen = shell.selected_grid()
    if chosen is not None:
        return chosen
    paths = shell.grid_paths()
    labels = [f"{short_name(p)} ({shape_text(*grid_shape(shell.state, p))})" for p in paths]
    label, ok = QInputDialog.getItem(shell.widget(), translate("Import", "Import matrix"),
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
        QMessageBox.warning(parent, translate("Import", "Cannot import"), as_written(translate(
            "Import", "{source} was not imported: {problem}.").format(source=source,
                                                                      problem=problem)))
        state.refused.emit(translate("Import", "import into {name}: {problem}; nothing changed")
                           .format(name=name, problem=problem))
        return False
    vector = state.scenario.weight(path).ndim == 1
    new = np.asarray(values[0] if vector else values, dtype=np.float64)
    refusals: list[str] = []

    def note(text: str) -> None:
        refusals.append(text)

    state.refused.connect(note)
    try:
        done = state.apply(SetMatrix(path, new, "import", source))
    finally:
        state.refused.disconnect(note)
    if not done and refusals:  # values that overflow, a document over its limits: as loud as
        QMessageBox.warning(  # a wrong shape
            parent, translate("Import", "Cannot import"), as_written(translate(
                "Import", "{source} was not imported: {problem}.").format(
                source=source, problem=refusals[-1])))
    return done


def import_matrix_file(shell: Shell, path: str, file: Path) -> bool:
    """Read ``file`` and put it into the grid at ``path``; a refusal is shown, nothing changes."""
    try:
        values = load_matrix_file(file)
    except MatrixTextError as error:
        QMessageBox.warning(shell.widget(), translate("Import", "Cannot import"), as_written(
            translate("Import", "{file} was not imported:\n{error}").format(
                file=file, error=error.words(current_language()))))
        shell.state.refused.emit(translate("Import", "import: {problem}; nothing changed")
                                 .format(problem=error.words(current_language())))
        return False
    return put_matrix(shell.state, path, values, file.name, shell.widget())


def import_matrix(shell: Shell) -> bool:
    """File → Import matrix…: pick the grid (the selected one) and a file, then import."""
    path = choose_grid(shell)
    if path is None:
        return False
    document = shell.state.path
    start = str(document.parent) if document else str(Path.cwd())
    chosen, _filter = QFileDialog.getOpenFileName(
        shell.widget(), translate("Import", "Import a matrix into {name}").format(
            name=short_name(path)), start, translate("Import", FILE_FILTER))
    if not chosen:
        return False
    return import_matrix_file(shell, path, Path(chosen))
