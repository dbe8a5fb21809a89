"""Table models over the document's arrays and token labels; edits go through the state."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.state import DocumentState, short_name
from engine import format_number, parse_number

Index = QModelIndex | QPersistentModelIndex
EDIT_PLACES = 15
ROOT = QModelIndex()
SHOWN_PLACES = 6


class MatrixModel(QAbstractTableModel):
    """One editable array of the scenario (``X``, ``attention.Wq``, ``block.gamma1`` …).

    Vectors show as a single row. Text that is not a finite number is refused: the cell keeps
    its value and the state emits ``refused`` with the place and the reason.
    """

    def __init__(self, state: DocumentState, path: str) -> None:
        super().__init__()
        self.state = state
        self.path = path
        self.name = short_name(path)
        self._values = self._read()
        state.traceChanged.connect(self._refresh)

    def _read(self) -> np.ndarray:
        values = self.state.scenario.parameter(self.path)
        return values.reshape(1, -1) if values.ndim == 1 else values

    def _refresh(self) -> None:
        try:
            values = self._read()
        except KeyError:
            return  # this array left the document; the pane removes its grid
        if values.shape != self._values.shape:
            self.beginResetModel()
            self._values = values
            self.endResetModel()
            return
        self._values = values
        if values.size:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(values.shape[0] - 1, values.shape[1] - 1))
        self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, values.shape[0] - 1)

    @property
    def is_vector(self) -> bool:
        return self.state.scenario.parameter(self.path).ndim == 1

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else int(self._values.shape[0])

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else int(self._values.shape[1])

    def place(self, row: int, col: int) -> str:
        return f"{self.name}[{col}]" if self.is_vector else f"{self.name}[{row},{col}]"

    def row_label(self, row: int) -> str:
        if self.path == "X":
            return self.state.scenario.tokens[row]
        return "" if self.is_vector else str(row)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = float(self._values[index.row(), index.column()])
        if role == Qt.ItemDataRole.DisplayRole:
            return format_number(value, SHOWN_PLACES)
        if role == Qt.ItemDataRole.EditRole:
            return format_number(value, EDIT_PLACES)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            where = (f"token {self.row_label(index.row())}, feature {index.column()}"
                     if self.path == "X" else
                     f"column {index.column()}" if self.is_vector else
                     f"row {index.row()}, column {index.column()}")
            return f"{self.name}, {where}: {format_number(value, EDIT_PLACES)}"
        return None

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
        old = float(self._values[row, col])
        try:
            number = parse_number(str(value))
        except ValueError as error:
            self.state.refused.emit(f"{self.place(row, col)}: {error}; kept {format_number(old)}")
            return False
        return self.state.edit_cell(self.path, row, col, number)

    def paste_block(self, row: int, col: int, text: str) -> bool:
        """Fill cells from (row, col) with a block of numbers (tab-, comma- or space-separated)."""
        lines = [line for line in text.replace("\r", "").split("\n") if line.strip()]
        block: list[list[float]] = []
        for r, line in enumerate(lines):
            cells = [c for c in (line.split("\t") if "\t" in line else
                                 line.replace(",", " ").split()) if c.strip()]
            try:
                block.append([parse_number(c) for c in cells])
            except ValueError as error:
                self.state.refused.emit(f"paste into {self.name}, line {r + 1}: {error}; "
                                        "nothing changed")
                return False
        if not block:
            return False
        values = self._values.copy()
        rows, cols = values.shape
        height, width = len(block), max(len(b) for b in block)
        if row + height > rows or col + width > cols:
            self.state.refused.emit(
                f"paste into {self.name}: a {height}×{width} block from {self.place(row, col)} "
                f"does not fit the {rows}×{cols} grid; nothing changed")
            return False
        for r, numbers in enumerate(block):
            values[row + r, col:col + len(numbers)] = numbers
        new = values[0] if self.is_vector else values
        return self.state.set_value(self.path, new, f"paste {height}×{width} into {self.name}")


class TokenModel(QAbstractTableModel):
    """The token labels as one editable row."""

    def __init__(self, state: DocumentState) -> None:
        super().__init__()
        self.state = state
        self._count = len(state.scenario.tokens)
        state.traceChanged.connect(self._refresh)

    def _refresh(self) -> None:
        count = len(self.state.scenario.tokens)
        if count != self._count:
            self.beginResetModel()
            self._count = count
            self.endResetModel()
        else:
            self.dataChanged.emit(self.index(0, 0), self.index(0, max(0, count - 1)))

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else 1

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else self._count

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        token = self.state.scenario.tokens[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return token
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return f"token label of position {index.column()}: {token}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return str(section) if orientation == Qt.Orientation.Horizontal else "token"

    def flags(self, index: Index) -> Qt.ItemFlag:
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsEditable)

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        text = str(value).strip()
        tokens = list(self.state.scenario.tokens)
        col = index.column()
        if not text:
            self.state.refused.emit(f"tokens[{col}]: a label cannot be empty; kept {tokens[col]}")
            return False
        if text == tokens[col]:
            return True
        tokens[col] = text
        return self.state.set_value("tokens", tokens, f"token {col} = {text}")
