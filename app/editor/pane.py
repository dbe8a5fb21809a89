"""The editor pane: sizes, options, token labels and one grid per input array."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.editor.model import MatrixModel, TokenModel
from app.editor.table import MatrixTable
from app.state import DocumentState, short_name
from engine.resize import Sizes

SIZE_LIMITS = {"n": 512, "d": 128, "d_k": 64, "d_v": 64, "heads": 8}
SIZE_LABELS = {"n": "Positions n", "d": "Model width d", "d_k": "Query/key width d_k",
               "d_v": "Value width d_v", "heads": "Heads h"}
TITLES = {"X": "X · input rows (one per token)", "embedding": "Embedding table"}


class EditorPane(QScrollArea):
    """Everything the user can type, top to bottom; rebuilt when the set of arrays changes."""

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setWidgetResizable(True)
        self.setAccessibleName("Matrix editor")
        self.tables: dict[str, MatrixTable] = {}
        self.size_boxes: dict[str, QSpinBox] = {}
        body = QWidget()
        self._layout = QVBoxLayout(body)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName("Last refused input")
        self.error_label.setStyleSheet("QLabel { color: #B3261E; font-weight: bold; }")
        self.error_label.hide()
        self._layout.addWidget(self.error_label)
        self._layout.addWidget(self._sizes_box())
        self._layout.addWidget(self._options_box())
        self.token_table = MatrixTable()
        self.token_table.setModel(TokenModel(state))
        self.token_table.setAccessibleName("Token labels")
        self._layout.addWidget(QLabel("Token labels"))
        self._layout.addWidget(self.token_table)
        self._grids = QVBoxLayout()
        self._layout.addLayout(self._grids)
        self.setWidget(body)
        self._paths: list[str] = []
        self._rebuild_grids()
        state.traceChanged.connect(self._on_trace)
        state.refused.connect(self.show_error)
        state.message.connect(lambda _text: self.error_label.hide())

    # -- sizes and options -------------------------------------------------------------------
    def _sizes_box(self) -> QGroupBox:
        box = QGroupBox("Sizes")
        form = QFormLayout(box)
        for key, label in SIZE_LABELS.items():
            spin = QSpinBox()
            spin.setRange(1, SIZE_LIMITS[key])
            spin.setKeyboardTracking(False)
            spin.setAccessibleName(label)
            spin.valueChanged.connect(self._on_size)
            self.size_boxes[key] = spin
            form.addRow(label, spin)
        self._show_sizes()
        return box

    def _options_box(self) -> QGroupBox:
        box = QGroupBox("Attention options")
        row = QHBoxLayout(box)
        self.causal_box = QCheckBox("Causal mask")
        self.causal_box.setAccessibleName("Causal mask")
        self.scale_box = QCheckBox("Divide scores by √d_k")
        self.scale_box.setAccessibleName("Scale scores")
        for check, key, label in ((self.causal_box, "causal", "causal mask"),
                                  (self.scale_box, "scale", "scaling")):
            check.toggled.connect(
                lambda on, key=key, label=label: self.state.set_value(
                    f"attention.{key}", on, f"{label} {'on' if on else 'off'}"))
            row.addWidget(check)
        self._show_options()
        return box

    def _show_sizes(self) -> None:
        sizes = Sizes.of(self.state.scenario)
        for key, spin in self.size_boxes.items():
            spin.blockSignals(True)
            spin.setValue(getattr(sizes, key))
            spin.blockSignals(False)

    def _show_options(self) -> None:
        attention = self.state.scenario.attention
        for check, on in ((self.causal_box, attention.causal), (self.scale_box, attention.scale)):
            check.blockSignals(True)
            check.setChecked(on)
            check.blockSignals(False)

    def _on_size(self) -> None:
        wanted = Sizes(**{key: spin.value() for key, spin in self.size_boxes.items()})
        current = Sizes.of(self.state.scenario)
        if wanted == current:
            return
        document, dropped = self.state.resized(wanted)
        if dropped:
            answer = QMessageBox.question(
                self, "Drop numbers?",
                f"The smaller size drops {dropped} non-zero number{'s' * (dropped != 1)}. "
                "Resize anyway? (Undo brings them back.)")
            if answer != QMessageBox.StandardButton.Yes:
                self._show_sizes()
                return
        changes = ", ".join(f"{key} {getattr(current, key)}→{getattr(wanted, key)}"
                            for key in SIZE_LABELS if getattr(current, key) != getattr(wanted, key))
        if not self.state.replace_document(document, f"resize {changes}"):
            self._show_sizes()

    # -- grids -----------------------------------------------------------------------------
    def _rebuild_grids(self) -> None:
        while self._grids.count():
            item = self._grids.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.tables.clear()
        self._paths = self.state.scenario.parameter_paths()
        for path in self._paths:
            name = short_name(path)
            title = QLabel(TITLES.get(path, name))
            title.setStyleSheet("QLabel { font-weight: bold; margin-top: 6px; }")
            table = MatrixTable(MatrixModel(self.state, path))
            table.setAccessibleName(f"{name} grid")
            title.setBuddy(table)
            self._grids.addWidget(title)
            self._grids.addWidget(table)
            self.tables[path] = table

    def _on_trace(self) -> None:
        self._show_sizes()
        self._show_options()
        if self.state.scenario.parameter_paths() != self._paths:
            self._rebuild_grids()

    def show_error(self, text: str) -> None:
        """Show why an input was refused, in place, until the next accepted edit."""
        self.error_label.setText(f"⚠ {text}")
        self.error_label.show()
