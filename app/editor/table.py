"""A compact grid view: arrows move, F2/Enter edit, Tab leaves, Ctrl+V pastes a block."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QSize, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSizePolicy, QTableView, QWidget

from app.editor.model import MatrixModel

CELL_WIDTH = 62
CELL_HEIGHT = 26
MAX_VISIBLE_ROWS = 10


class MeasuredHeader(QHeaderView):
    """A header that measures its size once for the labels, font and style it has, and again
    only when one of them changes (its model says so, or Qt sends the header a font or style
    change). Qt measures a header from the labels of its first and last 100 sections, asking
    the model four roles of each (about 1.3 ms in Python for a 2,048-row weight), and lets the
    measure go whenever the table is laid out again: the grids of a Llama-3.2-1B layer placed
    in the editor measured their headers about 125 times, 100,000 calls into the models (about
    130 ms of the first step of a layer). Its table's labels never depend on the interface
    language, and none of its sections is hidden or sorted."""

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None) -> None:
        super().__init__(orientation, parent)
        self.setSectionsClickable(True)  # as a QTableView's own headers
        self.setHighlightSections(True)
        self._measured: QSize | None = None

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        self._measured = None
        if model is not None:
            for signal in (model.headerDataChanged, model.modelReset, model.layoutChanged,
                           model.rowsInserted, model.rowsRemoved, model.rowsMoved,
                           model.columnsInserted, model.columnsRemoved, model.columnsMoved):
                signal.connect(self._forget)

    def _forget(self, *_changed: object) -> None:
        self._measured = None

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._measured = None
        super().changeEvent(event)

    def sizeHint(self) -> QSize:
        if self._measured is None:
            self._measured = super().sizeHint()
        return QSize(self._measured)


class MatrixTable(QTableView):
    """A table sized to its content (up to a few rows, then it scrolls); ``measured``: its
    headers measured once (:class:`MeasuredHeader`: a document's array, labelled by numbers or
    tokens)."""

    def __init__(self, model: MatrixModel | None = None, parent: QWidget | None = None,
                 measured: bool = False) -> None:
        super().__init__(parent)
        if measured:
            self.setVerticalHeader(MeasuredHeader(Qt.Orientation.Vertical, self))
            self.setHorizontalHeader(MeasuredHeader(Qt.Orientation.Horizontal, self))
        self.setTabKeyNavigation(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ContiguousSelection)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.horizontalHeader().setDefaultSectionSize(CELL_WIDTH)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(CELL_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        if model is not None:
            self.setModel(model)
            model.modelReset.connect(self.updateGeometry)

    def sizeHint(self) -> QSize:
        model = self.model()
        rows = min(model.rowCount(), MAX_VISIBLE_ROWS) if model is not None else 1
        scrollbar = self.horizontalScrollBar().sizeHint().height()
        height = (self.horizontalHeader().sizeHint().height() + rows * CELL_HEIGHT
                  + 2 * self.frameWidth() + scrollbar)
        return QSize(super().sizeHint().width(), height)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, self.sizeHint().height())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        model = self.model()
        if event.matches(QKeySequence.StandardKey.Paste) and isinstance(model, MatrixModel):
            current = self.currentIndex()
            row, col = (current.row(), current.column()) if current.isValid() else (0, 0)
            model.paste_block(row, col, QGuiApplication.clipboard().text())
            return
        if event.matches(QKeySequence.StandardKey.Copy):
            self._copy_selection()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                self.state() != QAbstractItemView.State.EditingState:
            self.edit(self.currentIndex())
            return
        super().keyPressEvent(event)

    def _copy_selection(self) -> None:
        indexes = sorted(self.selectedIndexes(), key=lambda i: (i.row(), i.column()))
        if not indexes:
            return
        rows: dict[int, list[str]] = {}
        for index in indexes:
            rows.setdefault(index.row(), []).append(str(index.data(Qt.ItemDataRole.EditRole)))
        QGuiApplication.clipboard().setText("\n".join("\t".join(r) for r in rows.values()))
