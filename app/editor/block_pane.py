"""The decoder block's settings in the editor: add or remove the block and its vocabulary head,
the norm, ε, placement, the norms before the sub-layers (``pre_norms``), final norm and the
feed-forward's activation; and the layer's attention's own numbers: the one under the scores'
square root (``scale_dk``, blank: d_k), its own RoPE base (``rope_base``, blank: the stack's)
and whether it takes the stack's RoPE scaling (``rope_scaled``).

Every change is one call to the document state (one undo step, live recompute). The block's
arrays (γ, β, W1, b1, W2, b2, unembed) are edited in the pane's grids like any other array.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QWidget,
)

from app.editor.form_rows import add_rows
from app.editor.model import VocabModel
from app.editor.table import MatrixTable
from app.files.matrix_text import NUMBER_REASONS
from app.i18n import QT_TRANSLATE_NOOP, LiveTexts, current_language
from app.model.edits import Operation, SetBlock, SetHead, SetOption
from app.model.parts import place_name
from app.plain_text import PlainLabel
from app.state.change import Change
from app.state.document import DocumentState
from app.state.window_lifetime import on_next_turn
from app.texts.titles import norm_name
from app.texts.words import say
from engine import NumberTextError, parse_number
from engine.format.numbers import format_exact
from engine.scenario.modules import Attention, Mixture
from engine.scenario.positions import Positions
from engine.scenario.scenario import ACTIVATIONS, NORMS, PLACEMENTS, Block, Layer

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
    """The block's options; disabled (except the block checkbox) while there is no block.

    In a version-1 shorthand document it shows the one block with the final norm and the head.
    In a stack it shows one part (:meth:`show_part`): a layer's block, or the final norm and
    vocabulary of the head, or the encoder's final norm.
    """

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.texts = LiveTexts()
        self.layer = ""
        """The module path of the layer whose block is shown (``""``: the shorthand's)."""
        self.final_owner: str | None = None
        """The module holding the final norm shown (``block``, ``head``, ``encoder``), None
        while a layer's block alone is shown; set by :meth:`show_part`."""
        self.block_rows = True
        """Whether the block's own rows are shown (not for the head or the encoder alone)."""
        self.texts.bind(self.setTitle, self._title)
        self.form = form = QFormLayout(self)
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
        self.scale_dk_edit = QLineEdit()
        self.rope_base_edit = QLineEdit()
        rows = ((self.norm_box, lambda: self.tr("&Norm"), lambda: self.tr("Norm kind")),
                (self.eps_edit, lambda: self.tr("&ε"),
                 lambda: self.tr("Epsilon inside the norm's square root")),
                (self.placement_box, lambda: self.tr("&Placement"),
                 lambda: self.tr("Norm placement")),
                (self.activation_box, lambda: self.tr("&Activation"),
                 lambda: self.tr("Feed-forward activation")),
                (self.scale_dk_edit, lambda: self.tr("Sc&ores ÷ √"),
                 lambda: self.tr("Number under the scores' square root")),
                (self.rope_base_edit, lambda: self.tr("&RoPE base"),
                 lambda: self.tr("This layer's own RoPE base")))
        add_rows(form, self.texts, rows)
        self.pre_norms_box = QCheckBox()
        self.texts.bind(self.pre_norms_box.setText,
                        lambda: self.tr("Norms &before the sub-layers"))
        self.texts.bind(self.pre_norms_box.setAccessibleName, lambda: self.tr("Pre-norms"))
        form.addRow(self.pre_norms_box)
        self.rope_scaled_box = QCheckBox()
        self.texts.bind(self.rope_scaled_box.setText,
                        lambda: self.tr("&Takes the stack's RoPE scaling"))
        self.texts.bind(self.rope_scaled_box.setAccessibleName,
                        lambda: self.tr("This layer takes the stack's RoPE scaling"))
        form.addRow(self.rope_scaled_box)
        self.final_norm_box = QCheckBox()
        self.texts.bind(self.final_norm_box.setText,
                        lambda: self.tr("Final norm of the encoder's output")
                        if self.final_owner == "encoder" else
                        self.tr("Final norm before the vocabulary head"))
        self.texts.bind(self.final_norm_box.setAccessibleName, lambda: self.tr("Final norm"))
        form.addRow(self.final_norm_box)
        self.head_box = QCheckBox()
        self.texts.bind(self.head_box.setText,
                        lambda: self.tr("Vocabulary head (logits and probabilities)"))
        self.texts.bind(self.head_box.setAccessibleName, lambda: self.tr("Vocabulary head"))
        form.addRow(self.head_box)
        self.vocab_label = PlainLabel()
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
            SetOption(f"{self._final_owner()}.final_norm", on)))
        self.norm_box.activated.connect(lambda _k: self._set(
            SetOption(self._block_path("norm"), str(self.norm_box.currentData()))))
        self.placement_box.activated.connect(lambda _k: self._set(
            SetOption(self._block_path("placement"), str(self.placement_box.currentData()))))
        self.activation_box.activated.connect(lambda _k: self._set(
            SetOption(self._block_path("ffn.activation"),
                      str(self.activation_box.currentData()))))
        self.eps_edit.editingFinished.connect(self._on_eps)
        self.pre_norms_box.toggled.connect(self._on_pre_norms)
        self.rope_scaled_box.toggled.connect(lambda on: self._set(
            SetOption(self._attention_path("rope_scaled"), on)))
        self.scale_dk_edit.editingFinished.connect(lambda: self._on_attention_number(
            self.scale_dk_edit, "scale_dk"))
        self.rope_base_edit.editingFinished.connect(lambda: self._on_attention_number(
            self.rope_base_edit, "rope_base"))
        state.documentChanged.connect(self._on_document)

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

    # -- which part ----------------------------------------------------------------------------
    def show_part(self, layer: str | None, final_owner: str | None) -> None:
        """Show the block of ``layer`` (a module path; ``""`` the shorthand's; None: no block)
        and the final norm of ``final_owner`` (``block``, ``head``, ``encoder``; None: none)."""
        self.layer = layer if layer is not None else ""
        self.final_owner = final_owner
        self.block_rows = layer is not None
        for widget in (self.block_box, self.norm_box, self.eps_edit, self.placement_box,
                       self.activation_box, self.scale_dk_edit, self.rope_base_edit,
                       self.rope_scaled_box):
            self.form.setRowVisible(widget, layer is not None)
        self.form.setRowVisible(self.pre_norms_box, bool(layer))  # a stack's layer
        self.form.setRowVisible(self.final_norm_box, final_owner is not None)
        self.form.setRowVisible(self.head_box, final_owner in ("block", "head"))
        self.texts.apply()
        self._show()
        self._show_vocabulary()  # the document is the same: no need to wait for the grids

    def _title(self) -> str:
        if self.block_rows:
            return self.tr("Block") if self.layer else self.tr("Decoder block")
        return self.tr("Encoder's final norm") if self.final_owner == "encoder" else \
            self.tr("Head")

    def _final_owner(self) -> str:
        """Where the final norm shown sits: the shorthand's block, ``head`` or ``encoder``."""
        if self.final_owner is not None:
            return self.final_owner
        scenario = self.state.scenario
        return "block" if scenario.head is None or scenario.head_in_block else "head"

    def _block_path(self, key: str) -> str:
        return f"{self.layer}.block.{key}" if self.layer else f"block.{key}"

    def _attention_path(self, key: str) -> str:
        return f"{self.layer}.attention.{key}" if self.layer else f"attention.{key}"

    def _attention(self) -> Attention | None:
        """The attention of the layer shown (None when no layer is shown)."""
        scenario = self.state.scenario
        if not self.layer:
            return scenario.layers[0].attention if self.block_rows else None
        try:
            layer = scenario.module(self.layer)
        except KeyError:  # the layer just left the document; the pane chooses another part
            return None
        return layer.attention if isinstance(layer, Layer) else None

    def _positions(self) -> Positions | None:
        """The positions of the stack of the layer shown."""
        scenario = self.state.scenario
        if self.layer.startswith("encoder.") and scenario.encoder is not None:
            return scenario.encoder.positions
        return scenario.positions

    def _defaults(self) -> dict[str, str]:
        """What a blank attention number means, as its field's placeholder: d_k, and the
        stack's RoPE base (none without RoPE positions)."""
        attention, positions = self._attention(), self._positions()
        return {"scale_dk": "" if attention is None else self.tr("dₖ = {d_k}").format(
                    d_k=attention.d_k),
                "rope_base": self.tr("the stack's: {base}").format(
                    base=format_exact(positions.base))
                if positions is not None and positions.kind == "rope" else ""}

    def _block(self) -> Block | None:
        """The block shown (None when its layer has none)."""
        if not self.layer:
            return self.state.scenario.block
        try:
            layer = self.state.scenario.module(self.layer)
        except KeyError:  # the layer just left the document; the pane chooses another part
            return None
        return layer.block if isinstance(layer, Layer) else None

    def _final_norm(self) -> tuple[bool, bool]:
        """Whether the final norm shown can be switched, and whether it is on."""
        scenario = self.state.scenario
        owner = self._final_owner()
        if owner == "encoder":
            encoder = scenario.encoder
            return encoder is not None, encoder is not None and encoder.final_norm
        if owner == "head" and not scenario.shorthand:
            head = scenario.head
            return head is not None, head is not None and head.final_norm
        block = scenario.block
        return block is not None, block is not None and block.final_norm

    # -- showing the document ------------------------------------------------------------------
    def _on_document(self, change: Change) -> None:
        if change.paths is None:  # a cell edit leaves every option and the vocabulary
            self._show()

    def _show(self) -> None:
        block = self._block()
        scenario = self.state.scenario
        widgets = (self.block_box, self.norm_box, self.placement_box, self.activation_box,
                   self.final_norm_box, self.head_box, self.eps_edit, self.pre_norms_box,
                   self.rope_scaled_box)
        for widget in widgets:
            widget.blockSignals(True)
        self.block_box.setChecked(block is not None)
        for widget in (self.norm_box, self.placement_box, self.activation_box, self.eps_edit,
                       self.pre_norms_box):
            widget.setEnabled(block is not None)
        self.pre_norms_box.setChecked(block is not None and block.pre_norms)
        self._show_attention_numbers()
        # A mixture's experts each have their activation: the box shows the first, read-only.
        self.activation_box.setEnabled(block is not None and not isinstance(block.ffn, Mixture))
        if block is not None:
            self.norm_box.setCurrentIndex(self.norm_box.findData(block.norm))
            self.placement_box.setCurrentIndex(self.placement_box.findData(block.placement))
            self.activation_box.setCurrentIndex(
                self.activation_box.findData(block.feed_forwards[0].activation))
            if not self.eps_edit.hasFocus():
                self.eps_edit.setText(format_exact(block.eps))
        else:
            # Disabled controls show nothing rather than a previous document's block.
            for box in (self.norm_box, self.placement_box, self.activation_box):
                box.setCurrentIndex(-1)
            self.eps_edit.clear()
        switchable, on = self._final_norm()
        self.final_norm_box.setEnabled(switchable)
        self.final_norm_box.setChecked(on)
        head = scenario.head
        has_head = head is not None and head.unembed is not None
        self.head_box.setEnabled(switchable and self._final_owner() != "encoder")
        self.head_box.setChecked(has_head and switchable)
        for widget in widgets:
            widget.blockSignals(False)
        # Showing or hiding lays the pane out at once, while the pane's other grids may still
        # hold the previous document (they refresh after this slot): do it on the next turn.
        on_next_turn(self, self._show_vocabulary)

    def _show_attention_numbers(self) -> None:
        """The attention's ``scale_dk`` and ``rope_base``, blank for their defaults (the
        placeholders say which; a field with text typed and not yet entered keeps it), and
        whether it takes the stack's RoPE scaling (switchable while there is one or it leaves
        it out)."""
        attention, positions = self._attention(), self._positions()
        scaled = attention is None or attention.rope_scaled
        self.rope_scaled_box.setChecked(scaled)
        self.rope_scaled_box.setEnabled(attention is not None and (
            not scaled or (positions is not None and positions.scaling is not None)))
        defaults = self._defaults()
        rope = positions is not None and positions.kind == "rope"  # a base without RoPE is refused
        for edit, key, usable in ((self.scale_dk_edit, "scale_dk", True),
                                  (self.rope_base_edit, "rope_base", rope)):
            edit.setEnabled(attention is not None and usable)
            edit.setPlaceholderText(defaults[key])
            value = None if attention is None else getattr(attention, key)
            if not edit.isModified():
                edit.setText("" if value is None else format_exact(value))

    def _show_vocabulary(self) -> None:
        head = self.state.scenario.head
        has_head = (head is not None and head.unembed is not None
                    and self.final_owner in ("block", "head") and self.head_box.isEnabled())
        self.vocab_label.setVisible(has_head)
        self.vocab_table.setVisible(has_head)

    # -- changing it ---------------------------------------------------------------------------
    def _set(self, operation: Operation) -> None:
        if not self.state.apply(operation):
            self._show()

    def _on_block(self, on: bool) -> None:
        self._set(SetBlock(on, self.layer))

    def _on_head(self, on: bool) -> None:
        self._set(SetHead(on))

    def _on_pre_norms(self, on: bool) -> None:
        """Norms before the sub-layers on or off; off drops their γ1, β1, γ2, β2 in the same
        step (a block without pre-norms has none)."""
        drops = () if on else tuple(self._block_path(name)
                                    for name in ("gamma1", "beta1", "gamma2", "beta2"))
        self._set(SetOption(self._block_path("pre_norms"), on, drops))

    def _on_attention_number(self, edit: QLineEdit, key: str) -> None:
        """Set the attention's ``key`` to the number typed (blank: its default); a text that is
        no number is refused naming the place, and the old value stays."""
        attention = self._attention()
        if attention is None:
            return
        old: float | None = getattr(attention, key)
        text = edit.text().strip()
        try:
            value = parse_number(text) if text else None
        except NumberTextError as error:
            self.state.refused.emit(self.tr("{place}: {problem}; kept {old}").format(
                place=place_name(self._attention_path(key)),
                problem=say(f"matrix.{NUMBER_REASONS[error.reason]}", current_language(),
                            text=error.text),
                old=format_exact(old) if old is not None else self._defaults()[key]))
            value = old
        if value != old:
            self._set(SetOption(self._attention_path(key), value))
        current = self._attention()  # what was typed ("1e2") now reads as everywhere else
        shown = None if current is None else getattr(current, key)
        edit.setText("" if shown is None else format_exact(shown))

    def _on_eps(self) -> None:
        block = self._block()
        if block is None:
            return
        try:
            eps = parse_number(self.eps_edit.text())
        except NumberTextError as error:
            reason = NUMBER_REASONS[error.reason]
            self.state.refused.emit(self.tr("{place}: {problem}; kept {old}").format(
                place=place_name(self._block_path("eps")).removesuffix("eps") + "ε",
                problem=say(f"matrix.{reason}", current_language(), text=error.text),
                old=format_exact(block.eps)))
            self.eps_edit.setText(format_exact(block.eps))
            return
        if eps != block.eps:
            self.state.apply(SetOption(self._block_path("eps"), eps))
        # What was typed ("1.5e-12") now reads as everywhere else ("1.5×10⁻¹²").
        current = self._block()
        self.eps_edit.setText(format_exact(current.eps if current is not None else block.eps))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
            self._retranslate_items()
        super().changeEvent(event)
