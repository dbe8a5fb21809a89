"""The editor's part chooser and its layer operations: which part of the model the editor shows
(the inputs, the encoder, one layer, the head) and the actions that add, duplicate, remove and
move a layer (also in the Edit menu), each one undo step.

The part shown follows the timeline: it moves to the part of the current step, unless the user
chose a part by hand, which pins it (the pin button says so) until they unpin it or open another
document."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from app.i18n import QT_TRANSLATE_NOOP, LiveTexts
from app.model.edits import Operation
from app.model.layer_edits import AddLayer, DuplicateLayer, MoveLayer, RemoveLayer
from app.model.parts import (
    DECODER_STACK,
    ENCODER,
    ENCODER_STACK,
    HEAD,
    INPUTS,
    layer_part,
    split_layer,
)
from app.plain_text import PlainLabel
from app.state.document import DocumentState
from engine import Scenario, Step


def parts_of(scenario: Scenario) -> list[str]:
    """The parts a document is shown in, in model order: the inputs, the encoder and its
    layers, the layers, the head. The version-1 shorthand is one part, ``layers.0``: the
    editor shows all of it at once, as before."""
    if scenario.shorthand:
        return [layer_part(DECODER_STACK, 0)]
    parts = [INPUTS]
    if scenario.encoder is not None:
        parts.append(ENCODER)
        parts += [layer_part(ENCODER_STACK, k) for k in range(len(scenario.encoder.layers))]
    parts += [layer_part(DECODER_STACK, k) for k in range(len(scenario.layers))]
    if scenario.head is not None:
        parts.append(HEAD)
    return parts


def part_of_step(step: Step) -> str:
    """The part holding the parameters ``step`` uses: its layer (``layers.1``,
    ``encoder.layers.0``; a cross-attention is inside its layer), the encoder, the head or the
    inputs."""
    if step.layer:
        return layer_part(ENCODER_STACK if step.stack == "encoder" else DECODER_STACK,
                          step.layer - 1)
    if step.module == HEAD:
        return HEAD
    return ENCODER if step.stack == "encoder" else INPUTS


PART_WORDS = {"layer": QT_TRANSLATE_NOOP("LayerBar", "Layer {n}"),
              "encoder_layer": QT_TRANSLATE_NOOP("LayerBar", "Encoder layer {n}"),
              INPUTS: QT_TRANSLATE_NOOP("LayerBar", "Inputs and positions"),
              ENCODER: QT_TRANSLATE_NOOP("LayerBar", "Encoder: source tokens"),
              HEAD: QT_TRANSLATE_NOOP("LayerBar", "Head: final norm and vocabulary")}
"""The chooser's words, looked up with ``QCoreApplication.translate("LayerBar", …)``."""


def part_title(part: str) -> str:
    """The part's name in the chooser, in the interface language."""
    inside = split_layer(part)
    if inside is None:
        return QCoreApplication.translate("LayerBar", PART_WORDS[part])
    stack, index, _rest = inside
    words = PART_WORDS["encoder_layer" if stack == ENCODER_STACK else "layer"]
    return QCoreApplication.translate("LayerBar", words).format(n=index + 1)


class LayerBar(QWidget):
    """"Show: [Layer 2 ▾] [Pin]" and the layer buttons; ``part`` is the part the
    editor shows, ``pinned`` whether it stays there while the timeline moves.

    Signals
    -------
    partChanged(str)
        Another part is chosen (by the user, or because the shown one left the document).
    """

    partChanged = Signal(str)

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.texts = LiveTexts()
        self.parts: list[str] = []
        self.part = ""
        self.pin_button = QToolButton()
        self.pin_button.setCheckable(True)
        self.pin_button.toggled.connect(self._on_pin)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        chooser = QHBoxLayout()
        self.part_label = PlainLabel()
        self.texts.bind(self.part_label.setText, lambda: self.tr("S&how"))
        self.part_box = QComboBox()
        self.texts.bind(self.part_box.setAccessibleName, lambda: self.tr("Part of the model shown"))
        self.part_label.setBuddy(self.part_box)
        chooser.addWidget(self.part_label)
        chooser.addWidget(self.part_box, 1)
        chooser.addWidget(self.pin_button)
        column.addLayout(chooser)
        self.add_action = self._action(lambda: self.tr("&Add layer"), self._add)
        self.duplicate_action = self._action(lambda: self.tr("&Duplicate layer"),
                                             self._duplicate)
        self.remove_action = self._action(lambda: self.tr("&Remove layer"), self._remove)
        self.up_action = self._action(lambda: self.tr("Move layer &up"), lambda: self._move(-1))
        self.down_action = self._action(lambda: self.tr("Move layer do&wn"),
                                        lambda: self._move(1))
        buttons = QHBoxLayout()
        self.buttons: list[QToolButton] = []
        for action, short in ((self.add_action, lambda: self.tr("+ Add")),
                              (self.duplicate_action, lambda: self.tr("Duplicate")),
                              (self.remove_action, lambda: self.tr("Remove")),
                              (self.up_action, lambda: "↑"), (self.down_action, lambda: "↓")):
            # The button shows a short word; its tooltip and accessible name are the menu's.
            button = QToolButton()
            self.texts.bind(button.setText, short)
            self.texts.bind(button.setToolTip, action.toolTip)
            self.texts.bind(button.setAccessibleName, action.toolTip)
            button.clicked.connect(action.trigger)
            action.enabledChanged.connect(button.setEnabled)
            buttons.addWidget(button)
            self.buttons.append(button)
        buttons.addStretch(1)
        column.addLayout(buttons)
        self.part_box.activated.connect(lambda k: self.choose(self.parts[k]))
        self._name_pin()
        state.documentChanged.connect(self.follow)
        state.stepChanged.connect(lambda _k: self.follow_step())
        state.traceChanged.connect(self.follow_step)
        self.follow()
        self.follow_step()

    @property
    def layer_actions(self) -> list[QAction]:
        """The layer actions, in menu order."""
        return [self.add_action, self.duplicate_action, self.remove_action, self.up_action,
                self.down_action]

    def _action(self, text: Callable[[], str], run: Callable[[], None]) -> QAction:
        action = QAction(self)
        self.texts.bind(action.setText, text)
        self.texts.bind(action.setToolTip, lambda: text().replace("&", ""))
        action.triggered.connect(run)
        return action

    # -- following the document ------------------------------------------------------------
    def follow(self) -> None:
        """The chooser's entries for the document now; the shown part stays if it is still
        there, else the nearest one of its kind."""
        parts = parts_of(self.state.scenario)
        if parts != self.parts:
            self.parts = parts
            self.part_box.blockSignals(True)
            self.part_box.clear()
            for part in parts:
                self.part_box.addItem(part_title(part), part)
            self.part_box.blockSignals(False)
        wanted = self.part if self.part in parts else self._nearest(parts)
        self.part_box.setCurrentIndex(parts.index(wanted))
        visible = len(parts) > 1
        for widget in (self.part_label, self.part_box, self.pin_button):
            widget.setVisible(visible)
        moved, self.part = wanted != self.part, wanted
        self._enable()
        if moved:
            self.partChanged.emit(wanted)

    def _nearest(self, parts: list[str]) -> str:
        """A layer that left (undo of an add, a removal) gives way to the last layer of its
        stack; anything else to the first layer."""
        inside = split_layer(self.part)
        if inside is not None:
            same = [p for p in parts if (split_layer(p) or ("",))[0] == inside[0]]
            if same:
                return same[min(inside[1], len(same) - 1)]
        return next((p for p in parts if split_layer(p)), parts[0])

    @property
    def pinned(self) -> bool:
        """Whether the part shown stays while the timeline moves (chosen by hand)."""
        return self.pin_button.isChecked()

    def follow_step(self) -> None:
        """Show the part of the timeline's current step, unless a part is pinned."""
        steps = self.state.trace.steps
        if not self.pinned and 0 <= self.state.step < len(steps):
            self._show(part_of_step(steps[self.state.step]))

    def unpin(self) -> None:
        """Follow the timeline again (another document was opened, or the user unpinned)."""
        self.pin_button.setChecked(False)

    def _on_pin(self, pinned: bool) -> None:
        self._name_pin()
        if not pinned:
            self.follow_step()

    def _name_pin(self) -> None:
        """A short word on the button (the pane is narrow); its name and tooltip say more."""
        if self.pinned:
            self.pin_button.setText(self.tr("Pinned"))
            self.pin_button.setAccessibleName(self.tr("Pinned to this part"))
            self.pin_button.setToolTip(self.tr("The editor stays on this part. Press to follow "
                                               "the timeline's step again"))
        else:
            self.pin_button.setText(self.tr("Pin"))
            self.pin_button.setAccessibleName(self.tr("Follows the timeline's step"))
            self.pin_button.setToolTip(self.tr("The editor shows the part of the timeline's "
                                               "step. Press, or choose a part, to pin it"))
        self.pin_button.setAccessibleDescription(self.pin_button.toolTip())

    def choose(self, part: str) -> None:
        """Show ``part``, chosen by the user: it stays (pinned) while the timeline moves."""
        if part in self.parts:
            self.pin_button.setChecked(True)
        self._show(part)

    def _show(self, part: str) -> None:
        if part not in self.parts or part == self.part:
            return
        self.part = part
        self.part_box.setCurrentIndex(self.parts.index(part))
        self._enable()
        self.partChanged.emit(part)

    def retranslate(self) -> None:
        self.texts.apply()
        self._name_pin()
        for k, part in enumerate(self.parts):
            self.part_box.setItemText(k, part_title(part))

    # -- the layer operations --------------------------------------------------------------
    def current_layer(self) -> tuple[str, int] | None:
        """``(stack, index)`` of the layer shown, None when another part is shown."""
        inside = split_layer(self.part)
        return (inside[0], inside[1]) if inside is not None else None

    def _stack_size(self, stack: str) -> int:
        scenario = self.state.scenario
        if stack == ENCODER_STACK:
            return len(scenario.encoder.layers) if scenario.encoder is not None else 0
        return len(scenario.layers)

    def _enable(self) -> None:
        layer = self.current_layer()
        count = self._stack_size(layer[0]) if layer is not None else 0
        index = layer[1] if layer is not None else 0
        self.duplicate_action.setEnabled(layer is not None)
        self.remove_action.setEnabled(layer is not None and count > 1)
        self.up_action.setEnabled(layer is not None and index > 0)
        self.down_action.setEnabled(layer is not None and index < count - 1)

    def _run(self, operation: Operation, show: tuple[str, int] | None) -> None:
        if self.state.apply(operation) and show is not None:
            self.choose(layer_part(*show))

    def _add(self) -> None:
        """A new layer right after the one shown (after the last one from another part)."""
        layer = self.current_layer()
        stack, at = (layer[0], layer[1] + 1) if layer else (DECODER_STACK,
                                                            len(self.state.scenario.layers))
        self._run(AddLayer(at, stack), (stack, at))

    def _duplicate(self) -> None:
        layer = self.current_layer()
        if layer is not None:
            self._run(DuplicateLayer(layer[1], layer[0]), (layer[0], layer[1] + 1))

    def _remove(self) -> None:
        layer = self.current_layer()
        if layer is not None:
            self._run(RemoveLayer(layer[1], layer[0]), (layer[0], max(0, layer[1] - 1)))

    def _move(self, by: int) -> None:
        layer = self.current_layer()
        if layer is not None:
            self._run(MoveLayer(layer[1], layer[0], by), (layer[0], layer[1] + by))
