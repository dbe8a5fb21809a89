"""The positional encoding in the editor: its kind, RoPE's base, rotary width and pairing (and
its scaling, shown with every setting), the sinusoidal base and layout, the learned table's
offset. The learned table and ALiBi's slopes
are grids of the pane like any other array (``positions.table``, ``positions.slopes``).

Every change is one named edit (one undo step); a refused one says where and why and the box
shows the value kept.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from app.editor.form_rows import Row, add_rows
from app.files.matrix_text import NUMBER_REASONS
from app.i18n import QT_TRANSLATE_NOOP, LiveTexts, current_language
from app.model.edits import Operation, SetOption, SetPositions
from app.plain_text import PlainLabel
from app.state.change import Change
from app.state.document import DocumentState
from app.texts.words import say
from engine import NumberTextError, parse_number
from engine.format.numbers import format_exact
from engine.forward.rope_scaling import RopeScaling
from engine.scenario.positions import KINDS, PAIRINGS, ROPE_LAYOUTS, Positions

KIND_NAMES = {"none": QT_TRANSLATE_NOOP("PositionsEditor", "none (order is invisible)"),
              "sinusoidal": QT_TRANSLATE_NOOP("PositionsEditor", "sinusoidal (added rows)"),
              "learned": QT_TRANSLATE_NOOP("PositionsEditor", "learned table (added rows)"),
              "rope": QT_TRANSLATE_NOOP("PositionsEditor", "RoPE (turns q and k)"),
              "alibi": QT_TRANSLATE_NOOP("PositionsEditor", "ALiBi (bias on the scores)")}
PAIRING_NAMES = {"half": QT_TRANSLATE_NOOP("PositionsEditor", "half: i with i + r/2 (Llama)"),
                 "interleaved": QT_TRANSLATE_NOOP("PositionsEditor",
                                                  "interleaved: 2i with 2i+1 (GPT-J)")}
LAYOUT_NAMES = {"interleaved": QT_TRANSLATE_NOOP("PositionsEditor",
                                                 "interleaved: sin, cos of each pair (2017)"),
                "halves": QT_TRANSLATE_NOOP("PositionsEditor",
                                            "halves: every sine, then every cosine (Marian)")}


def _translated(source: str) -> str:
    return QCoreApplication.translate("PositionsEditor", source)


class PositionsEditor(QGroupBox):
    """The ``positions`` object of the document; rows that do not apply to the kind hide."""

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.texts = LiveTexts()
        self.texts.bind(self.setTitle, lambda: self.tr("Positions"))
        self.form = QFormLayout(self)
        self.kind_box = QComboBox()
        for kind in KINDS:
            self.kind_box.addItem(_translated(KIND_NAMES[kind]), kind)
        self.base_edit = QLineEdit()
        self.rotary_spin = QSpinBox()
        self.rotary_spin.setSingleStep(2)
        self.rotary_spin.setKeyboardTracking(False)
        self.pairing_box = QComboBox()
        for pairing in PAIRINGS:
            self.pairing_box.addItem(_translated(PAIRING_NAMES[pairing]), pairing)
        self.layout_box = QComboBox()
        for layout in ROPE_LAYOUTS:
            self.layout_box.addItem(_translated(LAYOUT_NAMES[layout]), layout)
        self.offset_spin = QSpinBox()
        self.offset_spin.setKeyboardTracking(False)
        self.scaling_label = PlainLabel()
        self.scaling_label.setWordWrap(True)
        rows: tuple[Row, ...] = (
            (self.kind_box, lambda: self.tr("&Kind"), lambda: self.tr("Positional encoding")),
            (self.base_edit, lambda: self.tr("&Base"), lambda: self.tr("Wavelength base")),
            (self.rotary_spin, lambda: self.tr("&Rotary dims"),
             lambda: self.tr("Columns of each head that RoPE turns")),
            (self.pairing_box, lambda: self.tr("&Pairing"), lambda: self.tr("RoPE pairing")),
            (self.layout_box, lambda: self.tr("&Layout"),
             lambda: self.tr("Where each pair's sine and cosine sit")),
            (self.offset_spin, lambda: self.tr("&Offset"),
             lambda: self.tr("Table row of the first position")),
            (self.scaling_label, lambda: self.tr("Scaling"),
             lambda: self.tr("RoPE scaling of the frequencies")))
        add_rows(self.form, self.texts, rows)
        self.kind_box.activated.connect(
            lambda _k: self._set(SetPositions(str(self.kind_box.currentData()))))
        self.pairing_box.activated.connect(lambda _k: self._set(
            SetOption("positions.pairing", str(self.pairing_box.currentData()))))
        self.layout_box.activated.connect(lambda _k: self._set(
            SetOption("positions.layout", str(self.layout_box.currentData()))))
        self.rotary_spin.valueChanged.connect(
            lambda value: self._set(SetOption("positions.rotary_dims", value)))
        self.offset_spin.valueChanged.connect(
            lambda value: self._set(SetOption("positions.offset", value)))
        self.base_edit.editingFinished.connect(self._on_base)
        state.documentChanged.connect(self._on_document)
        self.show_positions()

    def positions(self) -> Positions:
        found = self.state.scenario.positions
        return found if isinstance(found, Positions) else Positions()

    def _on_document(self, change: Change) -> None:
        if change.paths is None:  # a cell edit (of a table too) leaves the positions' options
            self.show_positions()

    def show_positions(self) -> None:
        """The boxes show the document's positions; rows of other kinds hide."""
        positions = self.positions()
        scenario = self.state.scenario
        widgets = (self.kind_box, self.rotary_spin, self.pairing_box, self.layout_box,
                   self.offset_spin)
        for widget in widgets:
            widget.blockSignals(True)
        self.kind_box.setCurrentIndex(self.kind_box.findData(positions.kind))
        # RoPE turns the same columns in every layer: at most the narrowest head's d_k; by
        # default the first layer's d_k (the engine's rule)
        widths = [layer.attention.d_k for layer in scenario.layers]
        self.rotary_spin.setRange(0, max(min(widths), 0))
        self.rotary_spin.setValue(positions.rotary(widths[0]) if positions.kind == "rope"
                                  else widths[0])
        self.pairing_box.setCurrentIndex(self.pairing_box.findData(positions.pairing))
        self.layout_box.setCurrentIndex(self.layout_box.findData(positions.layout))
        table = positions.table
        self.offset_spin.setRange(0, max(0, (table.shape[0] if table is not None else 0)
                                         - scenario.n))
        self.offset_spin.setValue(positions.offset)
        for widget in widgets:
            widget.blockSignals(False)
        if not self.base_edit.hasFocus():
            self.base_edit.setText(format_exact(positions.base))
        scaling = positions.scaling
        if scaling is not None:
            self.scaling_label.setText(scaling_text(scaling, positions.rotary(widths[0]),
                                                     positions.base))
        kind = positions.kind
        shown_rows: tuple[tuple[QWidget, bool], ...] = (
            (self.base_edit, kind in ("sinusoidal", "rope")),
            (self.rotary_spin, kind == "rope"), (self.pairing_box, kind == "rope"),
            (self.layout_box, kind == "sinusoidal"),
            (self.offset_spin, kind == "learned"),
            (self.scaling_label, kind == "rope" and scaling is not None))
        for row, shown in shown_rows:
            self.form.setRowVisible(row, shown)

    def _set(self, operation: Operation) -> None:
        if not self.state.apply(operation):
            self.show_positions()

    def _on_base(self) -> None:
        positions = self.positions()
        if positions.kind not in ("sinusoidal", "rope"):
            return
        try:
            base = parse_number(self.base_edit.text())
        except NumberTextError as error:
            reason = NUMBER_REASONS[error.reason]
            self.state.refused.emit(self.tr("positions.base: {problem}; kept {old}").format(
                problem=say(f"matrix.{reason}", current_language(), text=error.text),
                old=format_exact(positions.base)))
            self.base_edit.setText(format_exact(positions.base))
            return
        if base != positions.base:
            self._set(SetOption("positions.base", base))
        self.base_edit.setText(format_exact(self.positions().base))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
            self.show_positions()
            for box, names in ((self.kind_box, KIND_NAMES), (self.pairing_box, PAIRING_NAMES),
                               (self.layout_box, LAYOUT_NAMES)):
                for k in range(box.count()):
                    box.setItemText(k, _translated(names[str(box.itemData(k))]))
        super().changeEvent(event)


def scaling_text(scaling: RopeScaling, r: int, base: float) -> str:
    """What the scaling does, in the canvas's words for its θᵢ, over the settings as the
    document writes them (``factor = 32``)."""
    numbers = scaling.described(r, base)
    told = say(f"position.scaled_{scaling.type}", current_language(), **{
        key: format_exact(value) for key, value in numbers.items()})
    settings = scaling.to_document()
    del settings["type"]
    written = ", ".join(f"{key} = {_setting(value)}" for key, value in settings.items())
    return f"{told}\n{written}"


def _setting(value: object) -> str:
    """A setting as the document writes it; a list of factors (Phi-3's 48) by its first
    three and its length."""
    if isinstance(value, list):
        shown = ", ".join(format_exact(float(v)) for v in value[:3])
        return f"[{shown}{', …' if len(value) > 3 else ''}] ({len(value)})"
    return format_exact(value) if isinstance(value, float) else str(value)
