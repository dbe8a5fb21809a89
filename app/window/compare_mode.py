"""View → Compare: the canvas shows the current step under two settings, A | B, and B − A.

A is the open document; B is a preset made from it (the other norm, the other placement, the
causal mask or the scaling flipped, or two tokens swapped: then rows and key columns are paired
by token, not by position, so B − A is zero wherever order does not matter, and B is drawn by
token, each token on its row of A, named with the position it holds; or one head of one layer
ablated, its output set to 0, so B − A runs from that layer's mix down to the
probabilities). The last preset
compares the opened (or last saved) document,
as A, with the current edits, as B. Everything is recomputed whenever the document changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QMenu, QWidget

from app.canvas.context import FrameOptions
from app.canvas.side_by_side import CompareFrameItem
from app.i18n import LiveTexts, current_language
from app.model.edits import AblateHead
from app.model.operands import shown_token
from app.plain_text import PlainLabel
from app.state.change import Change
from app.texts import step_title
from app.window.swap_dialog import position_names
from engine import Scenario, ScenarioError, Trace, compute
from engine.arithmetic.differences import compare, matching_step
from engine.scenario.op_kinds import steps_of
from engine.scenario.swap import swap_order, swap_tokens
from engine.scenario.variants import VARIANTS, variant

if TYPE_CHECKING:
    from app.state.shell import Shell

OPENED = "opened"
SWAP = "swap"
ABLATE = "ablate"
PRESETS = (*VARIANTS, SWAP, ABLATE, OPENED)
BLOCK_PRESETS = ("norm", "placement")


BY_TOKEN_TOLERANCE = 1e-12
"""Rows paired by token agree up to the order of softmax's sums: closer than this is equal."""


ALIKE_DECIMALS = 9
"""Query rows equal to this many decimals ask the same question."""


def alike_pair(trace: Trace) -> tuple[int, int]:
    """The two positions B swaps first: the first two whose queries in the first attention
    over the tokens are the same and not zero (before positions are applied), so that only
    their places differ (排除 A 保留 B: A and B both ask for a verb); else positions 0 and 1."""
    n = trace.scenario.n
    step = next((s for s in steps_of(trace.steps, "projection") if s.rows == "tokens"), None)
    queries = trace.arrays.get(step.scope + "Q") if step is not None else None
    if queries is not None:
        first: dict[bytes, int] = {}
        for k, row in enumerate(np.round(queries, ALIKE_DECIMALS) + 0.0):  # + 0.0: no −0
            if not row.any():
                continue
            found = first.setdefault(row.tobytes(), k)
            if found != k:
                return found, k
    return 0, min(1, n - 1)


def _chooser(*widgets: QWidget) -> QWidget:
    """``widgets`` side by side in one row without margins: the choices that go with a B."""
    chooser = QWidget()
    row = QHBoxLayout(chooser)
    row.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        row.addWidget(widget)
    return chooser


class Sides(NamedTuple):
    """What a comparison shows: trace A, trace B, their names, A's step, and how B's rows
    pair with A's (``order[k]``: B's row for A's row k; None: by position)."""

    a: Trace
    b: Trace
    labels: tuple[str, str]
    step: int
    order: tuple[int, ...] | None = None

    @property
    def tolerance(self) -> float:
        """How far apart two arrays may be and still count as equal."""
        return 0.0 if self.order is None else BY_TOKEN_TOLERANCE


class CompareMode(QObject):
    """The Compare toggle, its “B = …” chooser beside the canvas controls, and its export.

    Attributes
    ----------
    action
        View → Compare (Ctrl+K), checkable.
    preset_box
        The chooser of B, one entry per :data:`PRESETS`.
    first_box, second_box
        The two positions B swaps (``0 · 我``), shown while B is :data:`SWAP`.
    item
        The comparison on the canvas while compare mode is on.
    """

    def __init__(self, shell: Shell, menu: QMenu) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.state = shell.state
        self.texts = LiveTexts()
        self.item: CompareFrameItem | None = None
        self.opened: Scenario = self.state.scenario
        self.action = QAction(self)
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+K"))
        self.texts.bind(self.action.setText, lambda: self.tr("&Compare two settings"))
        self.export_action = QAction(self)
        self.texts.bind(self.export_action.setText, lambda: self.tr("Export &comparison…"))
        self.export_action.setEnabled(False)
        menu.addSeparator()
        menu.addAction(self.action)
        menu.addAction(self.export_action)
        self.bar = QWidget()
        row = QHBoxLayout(self.bar)
        row.setContentsMargins(0, 0, 0, 0)
        label = PlainLabel()
        self.texts.bind(label.setText, lambda: self.tr("B ="))
        self.preset_box = QComboBox()
        # As wide as its shorter names, not its longest: the bar shares the canvas's row.
        self.preset_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.preset_box.setMinimumContentsLength(24)
        self.texts.bind(self.preset_box.setAccessibleName,
                        lambda: self.tr("Compare with B ="))
        for _preset in PRESETS:
            self.preset_box.addItem("")
        self.texts.bind(lambda _text: self._name_presets(), lambda: "")
        label.setBuddy(self.preset_box)
        row.addWidget(label)
        row.addWidget(self.preset_box)
        self.first_box = QComboBox()
        self.second_box = QComboBox()
        self.texts.bind(self.first_box.setAccessibleName,
                        lambda: self.tr("B swaps the token at position"))
        self.texts.bind(self.second_box.setAccessibleName,
                        lambda: self.tr("with the token at position"))
        self.pair_chooser = _chooser(self.first_box, PlainLabel("↔"), self.second_box)
        row.addWidget(self.pair_chooser)
        self.layer_box = QComboBox()
        self.head_box = QComboBox()
        self.texts.bind(self.layer_box.setAccessibleName,
                        lambda: self.tr("B ablates a head of layer"))
        self.texts.bind(self.head_box.setAccessibleName, lambda: self.tr("B ablates head"))
        self.head_chooser = _chooser(self.layer_box, self.head_box)
        row.addWidget(self.head_chooser)
        """The heads of each layer the two ablation choosers list."""
        self._tokens: tuple[str, ...] = ()
        """The tokens the two position choosers list."""
        self.problem_label = PlainLabel()
        self.problem_label.setWordWrap(True)  # a long refusal wraps rather than widening the window
        self.texts.bind(self.problem_label.setAccessibleName,
                        lambda: self.tr("Why B cannot be shown"))
        self.problem_label.setStyleSheet("QLabel { color: #B3261E; }")
        row.addWidget(self.problem_label, 1)
        shell.add_canvas_control(self.bar, 100)  # the row's spare width, for a refusal
        self.bar.hide()
        self.action.toggled.connect(self._on_toggled)
        self.preset_box.currentIndexChanged.connect(lambda _k: self._on_preset())
        self._list_positions()
        self._list_heads()
        self.layer_box.currentIndexChanged.connect(lambda _k: self._list_heads())  # first
        for box in (self.first_box, self.second_box, self.layer_box, self.head_box):
            box.currentIndexChanged.connect(lambda _k: self.refresh(fit=True))
        self.texts.bind(lambda _text: self._list_heads(renamed=True), lambda: "")
        self.state.traceChanged.connect(self._on_trace)
        self.export_action.triggered.connect(self.export_dialog)
        self.state.undo_stack.cleanChanged.connect(self._on_clean)
        self.state.documentChanged.connect(self._on_document)
        self._enable_presets()
        shell.widget().installEventFilter(self)

    def _name_presets(self) -> None:
        names = {"norm": self.tr("the other norm (LayerNorm ↔ RMSNorm)"),
                 "placement": self.tr("the other placement (pre ↔ post)"),
                 "causal": self.tr("causal mask flipped"),
                 "scale": self.tr("√dₖ scaling flipped"),
                 SWAP: self.tr("two tokens swapped (rows paired by token)"),
                 ABLATE: self.tr("one head ablated (its output set to 0)"),
                 OPENED: self.tr("current edits vs the opened document")}
        for k, preset in enumerate(PRESETS):
            self.preset_box.setItemText(k, names[preset])

    @property
    def active(self) -> bool:
        return self.action.isChecked()

    @property
    def preset(self) -> str:
        return PRESETS[max(0, self.preset_box.currentIndex())]

    def set_preset(self, preset: str) -> None:
        """Choose B (``"norm"``, ``"placement"``, ``"causal"``, ``"scale"``, ``"swap"`` or
        ``"opened"``)."""
        self.preset_box.setCurrentIndex(PRESETS.index(preset))

    def _on_preset(self) -> None:
        self.pair_chooser.setVisible(self.preset == SWAP)
        self.head_chooser.setVisible(self.preset == ABLATE)
        self.refresh(fit=True)

    def _on_trace(self, change: Change) -> None:
        """The choosers and presets follow a new trace's document; a cell edit leaves its
        layers, heads, tokens and block as they were."""
        if change.paths is None:
            self._list_heads()
            self._list_positions()
            self._enable_presets()

    def _list_heads(self, renamed: bool = False) -> None:
        """The layer chooser lists the main stack's layers, the head chooser the chosen
        layer's heads (``layer 2``, ``head 1``), again only when those change; the choices stay
        while they exist."""
        heads = tuple(layer.attention.heads for layer in self.state.scenario.layers)
        layer = max(0, min(self.layer_box.currentIndex(), len(heads) - 1))
        for box, count, word in ((self.layer_box, len(heads), self.tr("layer {n}")),
                                 (self.head_box, heads[layer], self.tr("head {n}"))):
            if box.count() == count and not renamed:
                continue
            chosen = max(0, min(box.currentIndex(), count - 1))
            box.blockSignals(True)
            box.clear()
            box.addItems([word.format(n=k + 1) for k in range(count)])
            box.setCurrentIndex(chosen)
            box.blockSignals(False)

    def set_ablated(self, layer: int, head: int) -> None:
        """B ablates head ``head`` of layer ``layer`` (both 0-based)."""
        self.layer_box.setCurrentIndex(layer)
        self.head_box.setCurrentIndex(head)

    def _list_positions(self) -> None:
        """Both choosers list the positions, ``0 · 我``, again only when the tokens change (an
        edit of a number costs nothing here); through edits the chosen pair stays while the
        document has both positions; a document just opened, or one without them, gets
        :func:`alike_pair`."""
        trace = self.state.trace
        tokens = trace.scenario.tokens
        if tokens == self._tokens:
            return
        names = position_names(tokens)
        kept = self._pair()
        edited = self.state.undo_stack.count() > 0
        pair = kept if edited and kept is not None and max(kept) < len(names) \
            else alike_pair(trace)
        for box, chosen in zip((self.first_box, self.second_box), pair, strict=True):
            box.blockSignals(True)
            if box.count() == len(names):  # renamed or swapped tokens: new words, same entries
                for k, name in enumerate(names):
                    box.setItemText(k, name)
            else:
                box.clear()
                box.addItems(names)
            box.setCurrentIndex(chosen)
            box.blockSignals(False)
        self._tokens = tokens

    def _pair(self) -> tuple[int, int] | None:
        """The two positions chosen, None while a chooser is empty."""
        i, j = self.first_box.currentIndex(), self.second_box.currentIndex()
        return None if i < 0 or j < 0 else (i, j)

    def set_pair(self, i: int, j: int) -> None:
        """Swap the tokens at positions ``i`` and ``j`` in B."""
        self.first_box.setCurrentIndex(i)
        self.second_box.setCurrentIndex(j)

    def _on_clean(self, clean: bool) -> None:
        """Saving (or undoing back to the saved state) makes the stack clean: that document is
        “the opened document”."""
        if clean:
            self.opened = self.state.scenario

    def _on_document(self, change: Change) -> None:
        """A document shown (opened, new, restored) is “the opened document”: over a document
        without edits its stack stays clean and says nothing, and the document before stayed
        the one compared with (and kept, weights and all)."""
        if change.initiator == "open":
            self.opened = self.state.scenario

    def _enable_presets(self) -> None:
        model = self.preset_box.model()
        assert isinstance(model, QStandardItemModel)
        has_block = self.state.scenario.has_block
        for preset in BLOCK_PRESETS:
            item = model.item(PRESETS.index(preset))
            if item is not None:
                item.setEnabled(has_block)
        swap = model.item(PRESETS.index(SWAP))
        if swap is not None:  # a swap needs two tokens
            swap.setEnabled(self.state.scenario.n >= 2)

    def _on_toggled(self, on: bool) -> None:
        """Two frames side by side need the room: the editor folds away while comparing (drag
        the splitter to bring it back) and returns as it was afterwards."""
        self.bar.setVisible(on)
        self.pair_chooser.setVisible(self.preset == SWAP)
        self.head_chooser.setVisible(self.preset == ABLATE)
        self.export_action.setEnabled(on)
        if on and self.preset in BLOCK_PRESETS and not self.state.scenario.has_block:
            # Open on a B that applies, never on a greyed-out one that can only show an error
            # (while comparing, removing the block still says why B cannot be shown).
            self.set_preset(next(p for p in PRESETS if p not in BLOCK_PRESETS))
        if not on:
            self.item = None
        self.shell.set_editor_folded(on)
        self.shell.refresh_canvas(fit=True)

    # -- the two traces ------------------------------------------------------------------------
    def sides(self) -> Sides:
        """Trace A, trace B, their settings' names, the step of A that is shown and how rows
        pair (None: by position).

        Raises
        ------
        ScenarioError
            If the chosen B does not apply to this document (a block setting without a block,
            a swap in a document of one token).
        """
        current = self.state.trace
        if self.preset == OPENED:
            opened = compute(self.opened)
            step = matching_step(current, opened, self.state.step)
            return Sides(opened, current, (self.tr("opened document"), self.tr("current edits")),
                         step)
        if self.preset == SWAP:
            return self._swapped(current)
        if self.preset == ABLATE:
            return self._ablated(current)
        made = variant(self.state.scenario, self.preset)
        return Sides(current, compute(made.scenario),
                     (self._setting(made.label_a), self._setting(made.label_b)), self.state.step)

    def _setting(self, label: str) -> str:
        """A side's setting, named by the engine in English, in the interface language."""
        words = {"LayerNorm": "LayerNorm", "RMSNorm": "RMSNorm", "no norm": self.tr("no norm"),
                 "pre-norm": self.tr("pre-norm"), "post-norm": self.tr("post-norm"),
                 "causal mask": self.tr("causal mask"), "no mask": self.tr("no mask"),
                 "scaled by √dₖ": self.tr("scaled by √dₖ"), "not scaled": self.tr("not scaled")}
        return words[label]

    def _swapped(self, current: Trace) -> Sides:
        pair = self._pair()
        scenario = self.state.scenario
        if pair is None or scenario.n < 2:
            raise ScenarioError("tokens", self.tr("swapping needs two tokens"))
        i, j = pair
        if i == j:
            raise ScenarioError("tokens", self.tr("the same position twice"))
        swapped = compute(swap_tokens(scenario, i, j))
        label = self.tr("{a} ↔ {b} swapped").format(a=shown_token(scenario.tokens[i]),
                                                   b=shown_token(scenario.tokens[j]))
        return Sides(current, swapped, (self.tr("as typed"), label), self.state.step,
                     swap_order(scenario.n, i, j))

    def _ablated(self, current: Trace) -> Sides:
        """B: the document with the chosen head of the chosen layer ablated."""
        scenario = self.state.scenario
        layer, head = self.layer_box.currentIndex(), self.head_box.currentIndex()
        path = "attention" if scenario.shorthand else f"layers.{layer}.attention"
        ablated = compute(AblateHead(path, head, True).apply(scenario))
        label = self.tr("layer {l}, head {h} ablated").format(l=layer + 1, h=head + 1)
        return Sides(current, ablated, (self.tr("the document as it is"), label), self.state.step)

    def refresh(self, fit: bool = False) -> bool:
        """Show the comparison on the canvas; False (single frame and a message) if B fails."""
        if not self.active:
            return False
        self.shell.refresh_canvas(fit=fit)
        return self.item is not None

    def show(self, fit: bool) -> bool:
        """Called by the window's ``refresh_canvas`` while compare mode is on."""
        self.item = self.comparison(self.shell.frame_options())
        if self.item is None:
            return False
        self.shell.show_on_canvas(self.item, fit)
        return True

    def comparison(self, options: FrameOptions) -> CompareFrameItem | None:
        """The comparison of the current step drawn with ``options``; None (and the problem
        shown) when B cannot be made."""
        try:
            sides = self.sides()
        except ScenarioError as error:
            self.problem_label.setText(f"⚠ {error}")
            return None
        self.problem_label.clear()
        lang = current_language()
        trace_a, trace_b, step = sides.a, sides.b, sides.step
        titles = (step_title(trace_a.steps[step], trace_a.scenario, lang),
                  step_title(trace_b.steps[matching_step(trace_a, trace_b, step)],
                             trace_b.scenario, lang))
        return CompareFrameItem(trace_a, trace_b, compare(trace_a, trace_b, order=sides.order),
                                step, options, sides.labels, titles, sides.tolerance,
                                sides.order)

    def copy(self) -> bool:
        """Put the comparison on the clipboard as PNG and SVG; False if B cannot be made."""
        from app.export.clipboard import mime_data, put_on_clipboard
        from app.export.comparison import build_compare_frame

        try:
            sides = self.sides()
        except ScenarioError:
            return False
        frame = build_compare_frame(sides.a, sides.b, sides.step, self.shell.frame_options(),
                                    labels=sides.labels, lang=current_language(),
                                    order=sides.order, tolerance=sides.tolerance)
        put_on_clipboard(mime_data(frame))
        self.shell.show_message(self.tr("Copied the comparison as PNG and SVG"))
        return True

    def export_dialog(self) -> None:
        """View → Export comparison…: the comparison on the canvas as PNG, SVG or PDF."""
        from app.export.comparison import write_compare
        from app.export.safe import ExportError

        path, _filter = QFileDialog.getSaveFileName(
            self.shell.widget(), self.tr("Export comparison"), str(Path.cwd() / "comparison.png"),
            self.tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"))
        if not path:
            return
        try:
            sides = self.sides()
            written = write_compare(Path(path), sides.a, sides.b, sides.step,
                                    self.shell.frame_options(), labels=sides.labels,
                                    lang=current_language(), order=sides.order,
                                    tolerance=sides.tolerance)
        except (ScenarioError, ExportError, ValueError) as error:
            self.shell.show_message(
                self.tr("⚠ not exported: {error}").format(error=error))
            return
        self.shell.show_message(
            self.tr("Exported the comparison to {path}").format(path=written))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
        return False
