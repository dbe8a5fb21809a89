"""Table models over the document's arrays and token labels; edits go through the state."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from app.files.matrix_text import MatrixTextError, fit_problem, parse_matrix_text
from app.i18n import QT_TRANSLATE_NOOP, current_language
from app.model.edits import SetLabel, SetMatrix, labels_at
from app.model.operands import shown_token
from app.model.parts import place_name
from app.plain_text import as_written
from app.state.change import Change
from app.state.document import DocumentState
from app.texts.problems import problem_words
from engine import NumberTextError, format_number, parse_number
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import MappedWeight, Weight, cell, edited_between, widened
from engine.format.numbers import format_exact

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
SHOWN_PLACES = 6
ROW_TOKENS = {"X": "tokens", "encoder.X": "encoder.tokens"}
"""Arrays whose rows are the tokens of a list: their rows are labelled by the tokens."""
CELL_ROLES = frozenset((Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole,
                        Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.AccessibleTextRole,
                        Qt.ItemDataRole.ToolTipRole))
"""The roles a number cell answers; the view asks for others (font, colours …) too."""
NUMBER_ALIGNMENT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
COMPARED_CELLS = 1 << 16
"""An array up to this many cells is compared after each change, so that only the cells that
changed repaint; a larger one (GPT-2's W1 has 2.4 million) repaints the cells on screen, which
costs less than comparing it (about 10 ms)."""


TILE = 16
"""Columns (of a weight read transposed) or rows (of one read as stored) of a weight left in its
checkpoint read at once for the cells painted: read a cell at a time, each opened the file, and
the ~150 cells on screen of a Llama layer's grids took 50 ms to paint."""
TILES_KEPT = 2
"""Tiles kept per grid (a view scrolled across a tile's edge paints from two)."""


class MatrixModel(QAbstractTableModel):
    """One editable array of the scenario (``X``, ``attention.Wq``, ``block.gamma1`` …).

    Vectors show as a single row. Text that is not a finite number is refused: the cell keeps
    its value and the state emits ``refused`` with the place and the reason.
    """

    def __init__(self, state: DocumentState, path: str) -> None:
        super().__init__()
        self.state = state
        self.path = path
        self.name = place_name(path)
        self._set_values(self._read())
        self._row_tokens = self._tokens()
        state.documentChanged.connect(self._refresh)

    def _tokens(self) -> tuple[str, ...]:
        """The tokens labelling the rows (none for most arrays)."""
        if self.path not in ROW_TOKENS:
            return ()
        return tuple(labels_at(self.state.scenario, ROW_TOKENS[self.path]))

    def _read(self) -> Weight:
        """The array as held (a weight left in its checkpoint read a cell at a time)."""
        values = self.state.scenario.weight(self.path)
        self._vector = values.ndim == 1
        return widened(values).reshape(1, -1) if values.ndim == 1 else values

    def _refresh(self, change: Change) -> None:
        if not change.touches(self.path):
            return  # a cell of another array: this one and the tokens are as they were
        try:
            values = self._read()
        except KeyError:
            return  # this array left the document; the pane removes its grid
        if values.shape != self._values.shape:
            self.beginResetModel()
            self._set_values(values)
            self._row_tokens = self._tokens()
            self.endResetModel()
            return
        tokens = self._tokens()
        if tokens != self._row_tokens:  # renamed: a number edit leaves the headers alone
            self._row_tokens = tokens
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, values.shape[0] - 1)
        if values is self._values:
            return  # most often: an edit elsewhere replaced only its own array
        edited = edited_between(self._values, values)
        if edited is not None:
            self._edited(values, edited)
            return
        changed = self._changed_corners(values)
        self._set_values(values)
        if changed is not None:  # only the cells that changed repaint (one typed: that cell)
            self.dataChanged.emit(*changed)

    def _edited(self, values: Weight, cells: np.ndarray) -> None:
        """``values`` shown instead of a weight of the same checkpoint tensor that differs from
        it at the flat indices ``cells`` only (their edits): the other cells keep the text they
        were painted with, and only those cells repaint. Read again from the checkpoint a cell
        at a time, every cell on screen of Llama's Wq took 60 ms after each edit."""
        width = values.shape[1]
        shown = self._shown
        rows, cols = np.divmod(cells, width)
        for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
            shown.pop((row, col), None)
        self._values = values  # the cells' other texts kept
        self._tiles.clear()
        if cells.size:
            self.dataChanged.emit(self.index(int(rows[0]), int(cols.min())),
                                  self.index(int(rows[-1]), int(cols.max())))

    def _changed_corners(self, values: Weight) -> tuple[QModelIndex, QModelIndex] | None:
        """The top-left and bottom-right cells around every cell of ``values`` (of the shape
        shown) that differs from the shown one; None if none does. A large array is not
        compared: all of it, and so is a weight left in its checkpoint."""
        height, width = values.shape
        if values.size > COMPARED_CELLS or isinstance(values, MappedWeight) \
                or isinstance(self._values, MappedWeight):
            return self.index(0, 0), self.index(height - 1, width - 1)
        changed = np.flatnonzero(values != self._values)  # several times quicker than nonzero
        if not changed.size:
            return None
        rows, cols = np.divmod(changed, width)
        return (self.index(int(rows[0]), int(cols.min())),
                self.index(int(rows[-1]), int(cols.max())))

    def _set_values(self, values: Weight) -> None:
        self._values = values
        self._shown: dict[tuple[int, int], str] = {}
        """The display text of each cell painted since the values last changed."""
        self._tiles: list[tuple[int, int, int, int, np.ndarray]] = []
        """Blocks of a weight left in its checkpoint read for the cells painted (first row,
        last row + 1, first column, last column + 1, the numbers), the latest last."""

    def _number(self, row: int, col: int) -> float:
        """The number at (``row``, ``col``): of a weight left in its checkpoint, read with its
        tile (:data:`TILE`), the same float64 as a cell read alone.

        Raises
        ------
        ScenarioError
            Its checkpoint gone or changed since it was read.
        """
        values = self._values
        if not isinstance(values, MappedWeight):
            return cell(values, (row, col))
        for top, bottom, left, right, numbers in self._tiles:
            if top <= row < bottom and left <= col < right:
                return float(numbers[row - top, col - left])
        height, width = values.shape
        if values.transposed:
            left = col - col % TILE
            right = min(left + TILE, width)
            tile = (0, height, left, right, values.columns(left, right))
        else:
            top = row - row % TILE
            bottom = min(top + TILE, height)
            tile = (top, bottom, 0, width, values.rows(range(top, bottom)))
        self._tiles = [*self._tiles, tile][-TILES_KEPT:]
        return float(tile[4][row - tile[0], col - tile[2]])

    @property
    def is_vector(self) -> bool:
        # Remembered, not looked up: a grid whose array just left the document (another
        # document opened) may still be asked for its headers before the pane removes it.
        return self._vector

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else int(self._values.shape[0])

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else int(self._values.shape[1])

    def place(self, row: int, col: int) -> str:
        return f"{self.name}[{col}]" if self.is_vector else f"{self.name}[{row},{col}]"

    def row_label(self, row: int) -> str:
        if self.path in ROW_TOKENS:
            tokens = self._row_tokens
            # While a new document replaces the old one, a grid may still ask for an old row.
            return shown_token(tokens[row]) if row < len(tokens) else str(row)
        return "" if self.is_vector else str(row)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Asked for every role of every cell painted: the unused roles are answered first.
        if role not in CELL_ROLES or not index.isValid():
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return NUMBER_ALIGNMENT
        row, col = index.row(), index.column()
        shown = self._shown.get((row, col))
        if role == Qt.ItemDataRole.DisplayRole and shown is not None:
            return shown
        try:
            value = self._number(row, col)
        except ScenarioError:  # its checkpoint gone or changed: computing says so, by name
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            shown = self._shown[row, col] = format_number(value, SHOWN_PLACES)
            return shown
        number = format_exact(value)
        if role == Qt.ItemDataRole.EditRole:
            return number
        if self.path in ROW_TOKENS:
            return self.tr("{name}, token {token}, feature {col}: {value}").format(
                name=self.name, token=self.row_label(row), col=col, value=number)
        if self.is_vector:
            return self.tr("{name}, column {col}: {value}").format(
                name=self.name, col=col, value=number)
        return self.tr("{name}, row {row}, column {col}: {value}").format(
            name=self.name, row=row, col=col, value=number)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return str(section)
        return self.row_label(section)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsEditable)

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        row, col = index.row(), index.column()
        try:
            old = cell(self._values, (row, col))
            number = parse_number(str(value))
        except ScenarioError as error:  # its checkpoint gone or changed since it was read
            self.state.refused.emit(problem_words(error, current_language()))
            return False
        except NumberTextError as error:
            self.state.refused.emit(self.refusal(error, self.place(row, col),
                                                 format_exact(old)))
            return False
        return self.state.edit_cell(self.path, row, col, number)

    def refusal(self, error: NumberTextError, place: str, old: str) -> str:
        """Why typed text was refused, in the interface language, naming the cell."""
        if error.reason == "empty":
            return self.tr("{place}: empty, type a number; kept {old}").format(place=place,
                                                                               old=old)
        if error.reason == "not finite":
            return self.tr("{place}: “{text}” is not a finite number; kept {old}").format(
                place=place, text=error.text, old=old)
        return self.tr("{place}: “{text}” is not a number; kept {old}").format(
            place=place, text=error.text, old=old)

    def paste_block(self, row: int, col: int, text: str) -> bool:
        """Fill cells from (row, col) with pasted numbers, as one undo step.

        The text is read by :func:`app.files.matrix_text.parse_matrix_text` (spreadsheet
        cells, ``[[1, 2], [3, 4]]``, NumPy's printed form). A block the size of the whole grid
        fills it whatever cell is current; a block that does not fit is refused, never cropped.
        """
        try:
            block = parse_matrix_text(text)
        except MatrixTextError as error:
            self.state.refused.emit(self.tr("paste into {name}: {problem}; nothing changed")
                                    .format(name=self.name,
                                            problem=error.words(current_language())))
            return False
        values = widened(self._values).copy()
        height, width = int(block.shape[0]), int(block.shape[1])
        if (height, width) == values.shape:
            row, col = 0, 0
        problem = fit_problem((height, width), self.name, values.shape, (row, col),
                              self.place(row, col), current_language())
        if problem is not None:
            self.state.refused.emit(self.tr("paste into {name}: {problem}; nothing changed")
                                    .format(name=self.name, problem=problem))
            return False
        values[row:row + height, col:col + width] = block
        new = values[0] if self.is_vector else values
        return self.state.apply(SetMatrix(self.path, new, "paste", f"{height}×{width}"))


class LabelRowModel(QAbstractTableModel):
    """One editable row of labels at a document path: the token labels or the vocabulary.

    A label is shown as the canvas shows it (a space at either end as ␣, a newline as ↵:
    :func:`~app.model.operands.shown_token`) and edited as it is written. An empty label is
    refused (the state emits ``refused``); any other edit, spaces and all, is one undo step.
    """

    def __init__(self, state: DocumentState, path: str, noun: str, place: str) -> None:
        super().__init__()
        self.state = state
        self._path = path
        self.noun = noun
        self.place = place
        self._labels = labels_at(state.scenario, path)
        self._count = len(self._labels)
        state.documentChanged.connect(self._refresh)

    @property
    def path(self) -> str:
        """The document path of the labels."""
        return self._path

    def labels(self) -> tuple[str, ...]:
        return labels_at(self.state.scenario, self.path)

    def _refresh(self, change: Change) -> None:
        if change.paths is not None:
            return  # a cell edit changes no labels
        labels = self.labels()
        if len(labels) != self._count:
            self.beginResetModel()
            self._count = len(labels)
            self._labels = labels
            self.endResetModel()
        elif labels != self._labels:
            self._labels = labels
            self.dataChanged.emit(self.index(0, 0), self.index(0, max(0, self._count - 1)))

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else 1

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else self._count

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        label = self._labels[index.column()]
        if role == Qt.ItemDataRole.EditRole:
            return label
        if role == Qt.ItemDataRole.DisplayRole:
            return shown_token(label)
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return as_written(QCoreApplication.translate(
                "LabelRowModel", "{noun} label of {place} {index}: {label}").format(
                noun=QCoreApplication.translate("LabelRowModel", self.noun),
                place=QCoreApplication.translate("LabelRowModel", self.place),
                index=index.column(), label=shown_token(label)))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return str(section)
        return QCoreApplication.translate("LabelRowModel", self.noun)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsEditable)

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        text = str(value)  # as typed: a space at either end is part of a token (`` sat``)
        labels = list(self.labels())
        col = index.column()
        if not text:
            self.state.refused.emit(self.tr("{place}: a label cannot be empty; kept {old}")
                                    .format(place=f"{self.path}[{col}]",
                                            old=shown_token(labels[col])))
            return False
        if text == labels[col]:
            return True
        labels[col] = text
        return self.state.apply(SetLabel(self.path, col, text))


class TokenModel(LabelRowModel):
    """The token labels (``tokens``, or the encoder's ``encoder.tokens``) as one editable
    row."""

    def __init__(self, state: DocumentState, path: str = "tokens") -> None:
        super().__init__(state, path, QT_TRANSLATE_NOOP("LabelRowModel", "token"),
                         QT_TRANSLATE_NOOP("LabelRowModel", "position"))


class VocabModel(LabelRowModel):
    """The vocabulary labels of the head as one editable row: ``block.vocab`` where a
    version-1 shorthand document keeps its head in the block, else ``head.vocab``."""

    def __init__(self, state: DocumentState) -> None:
        super().__init__(state, "block.vocab", QT_TRANSLATE_NOOP("LabelRowModel", "vocabulary"),
                         QT_TRANSLATE_NOOP("LabelRowModel", "entry"))

    @property
    def path(self) -> str:
        scenario = self.state.scenario
        return "block.vocab" if scenario.head_in_block else "head.vocab"
