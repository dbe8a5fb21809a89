"""The decoder block's settings in the editor: add or remove the block and its vocabulary head,
the norm, ε, placement, final norm and the feed-forward's activation.

Every change is one call to the document state (one undo step, live recompute). The block's
arrays (γ, β, W1, b1, W2, b2, unembed) are edited in the pane's grids like any other array.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.document import Operation, SetBlock, SetHead, SetOption
from app.documents.matrix_words import NUMBER_REASONS, matrix_words
from app.editor.model import VocabModel
from app.editor.table import MatrixTable
from app.i18n import QT_TRANSLATE_NOOP, LiveTexts, current_language
from app.state import DocumentState
from app.texts.titles import norm_name
from engine import NumberTextError, parse_number
from engine.numbers import format_exact
from engine.scenario import ACTIVATIONS, NORMS, PLACEMENTS

PLACEMENT_NAMES = {"pre": QT_TRANSLATE_NOOP("BlockEditor", "pre-norm: x + F(Norm(x))"),
                   "post": QT_TRANSLATE_NOOP("BlockEditor", "post-norm: Norm(x + F(x))")}
"""Shown in the placement box, through ``QCoreApplication.translate("BlockEditor", …)``."""


def norm_text(norm: str) -> str:
    """A norm option as the norm box shows it, in the interface language."""
    return norm_name(norm, current_language())


def placement_text(placement: str) -> str:
    """A placement option as the placement box shows it, in the interface language."""
    return QCoreApplication.translate("BlockEditor", PLACEMENT_NAMES[placement])


class BlockEditor(QGroupBox):
    """The block's options; disabled (except the block checkbox) while there is no block."""

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.texts = LiveTexts()
        self.texts.bind(self.setTitle, lambda: self.tr("Decoder block"))
        form = QFormLayout(self)
        self.block_box = QCheckBox()
        self.texts.bind(self.block_box.setText,
                        lambda: self.tr("Decoder block around the attention"))
        self.texts.bind(self.block_box.setAccessibleName,
                        lambda: self.tr("Decoder block around the attention"))
        form.addRow(self.block_box)
        self.norm_box = self._combo(NORMS, norm_text)
        self.eps_edit = QLineEdit()
        self.placement_box = self._combo(PLACEMENTS, placement_text)
        self.activation_box = self._combo(ACTIVATIONS, str)
        rows = ((self.norm_box, lambda: self.tr("&Norm"), lambda: self.tr("Norm kind")),
                (self.eps_edit, lambda: self.tr("&ε"),
                 lambda: self.tr("Epsilon inside the norm's square root")),
                (self.placement_box, lambda: self.tr("&Placement"),
                 lambda: self.tr("Norm placement")),
                (self.activation_box, lambda: self.tr("&Activation"),
                 lambda: self.tr("Feed-forward activation")))
        for widget, label_text, name in rows:
            label = QLabel()
            self.texts.bind(label.setText, label_text)
            self.texts.bind(widget.setAccessibleName, name)
            label.setBuddy(widget)
            form.addRow(label, widget)
        self.final_norm_box = QCheckBox()
        self.texts.bind(self.final_norm_box.setText,
                        lambda: self.tr("Final norm before the vocabulary head"))
        self.texts.bind(self.final_norm_box.setAccessibleName, lambda: self.tr("Final norm"))
        form.addRow(self.final_norm_box)
        self.head_box = QCheckBox()
        self.texts.bind(self.head_box.setText,
                        lambda: self.tr("Vocabulary head (logits and probabilities)"))
        self.texts.bind(self.head_box.setAccessibleName, lambda: self.tr("Vocabulary head"))
        form.addRow(self.head_box)
        self.vocab_label = QLabel()
        self.texts.bind(self.vocab_label.setText, lambda: self.tr("Vocabulary labels"))
        self.vocab_table = MatrixTable()
        self.vocab_model = VocabModel(state)
        self.vocab_table.setModel(self.vocab_model)
        self.texts.bind(self.vocab_table.setAccessibleName,
                        lambda: self.tr("Vocabulary labels"))
        self.vocab_label.setBuddy(self.vocab_table)
        form.addRow(self.vocab_label)
        form.addRow(self.vocab_table)
        self._show()
        self._show_vocabulary()
        self.block_box.toggled.connect(self._on_block)
        self.head_box.toggled.connect(self._on_head)
        self.final_norm_box.toggled.connect(lambda on: self._set(
            SetOption("block.final_norm", on)))
        self.norm_box.activated.connect(lambda _k: self._set(
            SetOption("block.norm", str(self.norm_box.currentData()))))
        self.placement_box.activated.connect(lambda _k: self._set(
            SetOption("block.placement", str(self.placement_box.currentData()))))
        self.activation_box.activated.connect(lambda _k: self._set(
            SetOption("block.ffn.activation", str(self.activation_box.currentData()))))
        self.eps_edit.editingFinished.connect(self._on_eps)
        state.documentChanged.connect(self._show)

    @staticmethod
    def _combo(keys: Iterable[str], text: Callable[[str], str]) -> QComboBox:
        box = QComboBox()
        for key in keys:
            box.addItem(text(key), key)
        return box

    def _retranslate_items(self) -> None:
        """The norm and placement names again in the interface language."""
        for box, text in ((self.norm_box, norm_text), (self.placement_box, placement_text)):
            for k in range(box.count()):
                box.setItemText(k, text(str(box.itemData(k))))

    # -- showing the document ------------------------------------------------------------------
    def _show(self) -> None:
        block = self.state.scenario.block
        widgets = (self.block_box, self.norm_box, self.placement_box, self.activation_box,
                   self.final_norm_box, self.head_box, self.eps_edit)
        for widget in widgets:
            widget.blockSignals(True)
        self.block_box.setChecked(block is not None)
        for widget in widgets[1:]:
            widget.setEnabled(block is not None)
        if block is not None:
            self.norm_box.setCurrentIndex(self.norm_box.findData(block.norm))
            self.placement_box.setCurrentIndex(self.placement_box.findData(block.placement))
            self.activation_box.setCurrentIndex(
                self.activation_box.findData(block.ffn.activation))
            self.final_norm_box.setChecked(block.final_norm)
            self.head_box.setChecked(block.unembed is not None)
            if not self.eps_edit.hasFocus():
                self.eps_edit.setText(format_exact(block.eps))
        else:
            # Disabled controls show nothing rather than a previous document's block.
            for box in (self.norm_box, self.placement_box, self.activation_box):
                box.setCurrentIndex(-1)
            self.final_norm_box.setChecked(False)
            self.head_box.setChecked(False)
            self.eps_edit.clear()
        for widget in widgets:
            widget.blockSignals(False)
        # Showing or hiding lays the pane out at once, while the pane's other grids may still
        # hold the previous document (they refresh after this slot): do it on the next turn.
        QTimer.singleShot(0, self, self._show_vocabulary)

    def _show_vocabulary(self) -> None:
        block = self.state.scenario.block
        has_head = block is not None and block.unembed is not None
        self.vocab_label.setVisible(has_head)
        self.vocab_table.setVisible(has_head)

    # -- changing it ---------------------------------------------------------------------------
    def _set(self, operation: Operation) -> None:
        if not self.state.apply(operation):
            self._show()

    def _on_block(self, on: bool) -> None:
        self._set(SetBlock(on))

    def _on_head(self, on: bool) -> None:
        self._set(SetHead(on))

    def _on_eps(self) -> None:
        block = self.state.scenario.block
        if block is None:
            return
        try:
            eps = parse_number(self.eps_edit.text())
        except NumberTextError as error:
            reason = NUMBER_REASONS[error.reason]
            self.state.refused.emit(self.tr("ε: {problem}; kept {old}").format(
                problem=matrix_words(current_language(), reason, text=error.text),
                old=format_exact(block.eps)))
            self.eps_edit.setText(format_exact(block.eps))
            return
        if eps != block.eps:
            self.state.apply(SetOption("block.eps", eps))
        # What was typed ("1.5e-12") now reads as everywhere else ("1.5×10⁻¹²").
        current = self.state.scenario.block
        self.eps_edit.setText(format_exact(current.eps if current is not None else block.eps))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
            self._retranslate_items()
        super().changeEvent(event)
