"""The editor pane: sizes, options, token labels and one grid per input array."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.editor.block_pane import BlockEditor
from app.editor.layer_bar import LayerBar
from app.editor.model import MatrixModel, TokenModel
from app.editor.on_demand import OnDemand
from app.editor.positions_pane import PositionsEditor
from app.editor.table import MatrixTable
from app.i18n import QT_TRANSLATE_NOOP, LiveTexts
from app.model.cancel import CancelledError
from app.model.edits import AblateHead, Resize, SetOption, Worked, resized
from app.model.outline import parameter_paths
from app.model.parts import ENCODER, ENCODER_STACK, HEAD, INPUTS, part_of, place_name, split_layer
from app.plain_text import PlainLabel, as_written
from app.state.big import is_big
from app.state.change import Change
from app.state.document import DocumentState
from app.state.jobs import run_with_progress
from engine import ScenarioError
from engine.scenario.modules import Layer
from engine.scenario.resize import SIZE_LIMITS, Sizes

SIZE_LABELS = {"n": QT_TRANSLATE_NOOP("EditorPane", "Positions n"),
               "d": QT_TRANSLATE_NOOP("EditorPane", "Model width d"),
               "d_k": QT_TRANSLATE_NOOP("EditorPane", "Query/key width dₖ"),
               "d_v": QT_TRANSLATE_NOOP("EditorPane", "Value width dᵥ"),
               "heads": QT_TRANSLATE_NOOP("EditorPane", "Heads h")}
TITLES = {"X": QT_TRANSLATE_NOOP("EditorPane", "X · input rows (one per token)"),
          "embedding": QT_TRANSLATE_NOOP("EditorPane", "Embedding table"),
          "positions.table": QT_TRANSLATE_NOOP("EditorPane",
                                               "P · learned positions (one row per position)"),
          "positions.slopes": QT_TRANSLATE_NOOP("EditorPane", "ALiBi slopes (one per head)"),
          "type_table": QT_TRANSLATE_NOOP("EditorPane", "T · type rows (one per token type)"),
          "embedding_norm.gamma": QT_TRANSLATE_NOOP("EditorPane", "γ of the embedding norm"),
          "embedding_norm.beta": QT_TRANSLATE_NOOP("EditorPane", "β of the embedding norm"),
          "encoder.embedding_norm.gamma": QT_TRANSLATE_NOOP("EditorPane",
                                                            "γ of the encoder's embedding norm"),
          "encoder.embedding_norm.beta": QT_TRANSLATE_NOOP("EditorPane",
                                                           "β of the encoder's embedding norm"),
          "encoder.X": QT_TRANSLATE_NOOP("EditorPane",
                                         "enc.X · source rows (one per source token)")}
"""Sources of translated words, looked up with ``QCoreApplication.translate("EditorPane", …)``."""


def _translated(source: str) -> str:
    return QCoreApplication.translate("EditorPane", source)


SCROLL_MARGIN = 6
"""Room above a grid's title when the editor scrolls to the step's grids."""

REFUSAL_ON_LIGHT = "#B3261E"
REFUSAL_ON_DARK = "#F2B8B5"
"""Refusals are red (with a ⚠, never colour alone), light enough to read on a dark palette."""


class EditorPane(QScrollArea):
    """Everything the user can type, top to bottom; rebuilt when the set of arrays changes."""

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.texts = LiveTexts()
        self.setWidgetResizable(True)
        self.texts.bind(self.setAccessibleName, lambda: self.tr("Matrix editor"))
        self._built: dict[str, tuple[QLabel, MatrixTable]] = {}
        """The grids built so far (:meth:`_grid`), by path: their titles and tables."""
        self._queued: list[str] = []
        """The grids of the part shown still to be built, a big document's (:meth:`_build_next`)."""
        self._builder = QTimer(self)
        self._builder.setSingleShot(True)
        self._builder.setInterval(0)
        self._builder.timeout.connect(self._build_next)
        self.tables: OnDemand[MatrixTable] = OnDemand(lambda: self._paths,
                                                      lambda path: self._grid(path)[1])
        """Every grid of the document by path, built when first looked up: only the part
        shown is built on opening (:mod:`app.editor.on_demand`)."""
        self.titles: OnDemand[QLabel] = OnDemand(lambda: self._paths,
                                                 lambda path: self._grid(path)[0])
        self._focused: str | None = None
        """The grid that last had the keyboard focus: where File → Import matrix… goes."""
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus)
        self.size_boxes: dict[str, QSpinBox] = {}
        self.size_labels: dict[str, QLabel] = {}
        self._in_encoder = False
        """Whether the part shown is the encoder's: the sizes are the source's."""
        self._body = body = QWidget()
        self._layout = QVBoxLayout(body)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        # The refusal banner floats over the top of the visible area, two lines tall: it never
        # pushes the grids down, and takes no room while hidden (the full text is also its
        # tooltip and in the status line).
        self.error_label = PlainLabel(parent=self.viewport())
        self.error_label.setWordWrap(True)
        self.texts.bind(self.error_label.setAccessibleName, lambda: self.tr("Last refused input"))
        self.error_label.setAutoFillBackground(True)
        self.error_label.setFixedHeight(2 * self.error_label.fontMetrics().lineSpacing() + 4)
        self.error_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.error_label.hide()
        self._layout.addWidget(self._sizes_box())
        self.layer_bar = LayerBar(state)
        self._layout.addWidget(self.layer_bar)
        self._layout.addWidget(self._options_box())
        self.block_editor = BlockEditor(state)
        self._layout.addWidget(self.block_editor)
        self.positions_editor = PositionsEditor(state)
        self._layout.addWidget(self.positions_editor)
        self.token_label, self.token_table = self._labels_row(
            TokenModel(state, "tokens"), lambda: self.tr("&Token labels"),
            lambda: self.tr("Token labels"))
        self.source_label, self.source_table = self._labels_row(
            TokenModel(state, "encoder.tokens"), lambda: self.tr("&Source tokens (encoder)"),
            lambda: self.tr("Source tokens"))
        self._grids = QVBoxLayout()
        self._layout.addLayout(self._grids)
        self.setWidget(body)
        self._paths: list[str] = []
        self._shown_part: tuple[str, bool, bool, bool] | None = None
        """The :meth:`_part_outline` shown: an edit of a number shows the same part again."""
        self._rebuild_grids()
        self.layer_bar.partChanged.connect(lambda _part: self.show_part())
        self._module_in_view = ""
        """The module whose grids :meth:`bring_step_into_view` last scrolled to."""
        # After the layer bar's own connection: the step's part is shown by then.
        state.stepChanged.connect(lambda _k: self.bring_step_into_view())
        state.documentChanged.connect(self._on_trace)
        state.refused.connect(self.show_error)
        state.message.connect(lambda _text: self.error_label.hide())

    def _labels_row(self, model: TokenModel, title: Callable[[], str],
                    name: Callable[[], str]) -> tuple[QLabel, MatrixTable]:
        table = MatrixTable()
        table.setModel(model)
        self.texts.bind(table.setAccessibleName, name)
        label = PlainLabel()
        self.texts.bind(label.setText, title)
        label.setBuddy(table)
        self._layout.addWidget(label)
        self._layout.addWidget(table)
        return label, table

    # -- the part shown ----------------------------------------------------------------------
    @property
    def part(self) -> str:
        """The part of the model the pane shows (:func:`app.editor.layer_bar.parts_of`)."""
        return self.layer_bar.part

    @property
    def whole(self) -> bool:
        """Whether the pane shows the whole document at once (the version-1 shorthand)."""
        return len(self.layer_bar.parts) == 1

    def _part_outline(self) -> tuple[str, bool, bool, bool]:
        """What :meth:`show_part` decides from, besides the grids' paths: the part, and where
        the document's final norm sits."""
        scenario = self.state.scenario
        return self.part, self.whole, scenario.head_in_block, scenario.head is None

    def show_part(self) -> None:
        """Show the controls and grids of the chosen part, hide the others'."""
        self._shown_part = self._part_outline()
        part, whole = self.part, self.whole
        inside = split_layer(part)
        self._in_encoder = part == ENCODER or (inside is not None and inside[0] == ENCODER_STACK)
        self._show_sizes()
        layer = self.state.scenario.module(part) if inside is not None and not whole else None
        in_layer = whole or isinstance(layer, Layer)
        self.options_box.setVisible(in_layer)
        self.causal_box.setVisible(inside is None or inside[0] != ENCODER_STACK)
        self.cross_scale_box.setVisible(isinstance(layer, Layer)
                                        and layer.cross_attention is not None)
        if whole:
            self.block_editor.show_part("", "block" if self.state.scenario.head_in_block
                                        or self.state.scenario.head is None else "head")
        elif in_layer:
            self.block_editor.show_part(part, None)
        else:
            self.block_editor.show_part(None, part if part in (HEAD, ENCODER) else None)
        self.block_editor.setVisible(whole or part != INPUTS)
        self.positions_editor.setVisible(whole or part == INPUTS)
        for widget in (self.token_label, self.token_table):
            widget.setVisible(whole or part == INPUTS)
        for widget in (self.source_label, self.source_table):
            widget.setVisible(part == ENCODER)
        self._show_options()
        current = parameter_paths(self.state.scenario) == self._paths
        later = is_big(self.state.scenario)
        self._queued = []
        for path in self._paths:
            if path in self._built:
                for widget in self._built[path]:
                    widget.setVisible(self._in_part(path))
            elif self._in_part(path) and current:  # not when the document's arrays changed
                # and the grids are rebuilt next (the layer bar moved first)
                if later:
                    self._queued.append(path)
                else:
                    self._grid(path)
        if self._queued:
            self._builder.start()

    def _build_next(self) -> None:
        """Build the next grid of the part shown that is still to be built (a big document's
        grids are built one a turn of the event loop, after the window has painted)."""
        while self._queued:
            path = self._queued.pop(0)
            if path in self._paths and path not in self._built and self._in_part(path):
                self._grid(path)
                break
        if self._queued:
            self._builder.start()

    def _in_part(self, path: str) -> bool:
        """Whether the grid of ``path`` belongs to the part shown."""
        return self.whole or part_of(path) == self.part

    def bring_step_into_view(self) -> None:
        """Scroll to the first grid of the current step's module (a cross-attention's Wq, the
        head's γf …) when the step moved to another module, unless the part is pinned."""
        steps = self.state.trace.steps
        if self.layer_bar.pinned or not 0 <= self.state.step < len(steps):
            return
        module = steps[self.state.step].module
        path = next((p for p in self._paths if p.startswith(f"{module}.")), None)
        if not module or module == self._module_in_view or path is None:
            return
        self._module_in_view = module
        title, table = self._grids_from(path)
        # The part's grids were just shown: place them, and size the body to them, first.
        self._layout.activate()
        QCoreApplication.sendEvent(self, QEvent(QEvent.Type.LayoutRequest))
        body = self._body
        top = title.mapTo(body, QPoint(0, 0)).y() - SCROLL_MARGIN
        bottom = table.mapTo(body, QPoint(0, table.height())).y()
        bar = self.verticalScrollBar()  # only up and down: the grids' left edge stays put
        if top < bar.value() or bottom > bar.value() + self.viewport().height():
            bar.setValue(top)

    def _grids_from(self, path: str) -> tuple[QLabel, MatrixTable]:
        """``path``'s grid, built now with the part's grids above it and enough of those below
        it to fill the view from its top (scrolled to, it stays at the top; the others follow
        one a turn)."""
        room = self.viewport().height()
        for later in self._paths[self._paths.index(path):]:
            if room <= 0:
                break
            if self._in_part(later):
                title, table = self._grid(later)
                room -= title.sizeHint().height() + table.sizeHint().height()
        return self._grid(path)

    def _attention_path(self, key: str, cross: bool = False) -> str:
        """The path of an option of the attention shown (``attention.causal`` in the
        shorthand, ``layers.1.attention.causal`` …)."""
        return f"{self._attention_module(cross)}.{key}"

    def _attention_module(self, cross: bool = False) -> str:
        """The module path of the attention shown (``attention``, ``layers.1.attention`` …)."""
        module = "cross_attention" if cross else "attention"
        return module if self.whole else f"{self.part}.{module}"

    # -- sizes and options -------------------------------------------------------------------
    def _sizes_box(self) -> QGroupBox:
        box = QGroupBox()
        self.texts.bind(box.setTitle, lambda: self.tr("Sizes"))
        form = QFormLayout(box)
        for key in SIZE_LABELS:
            spin = QSpinBox()
            spin.setRange(1, getattr(SIZE_LIMITS, key))
            spin.setKeyboardTracking(False)
            self.texts.bind(spin.setAccessibleName, partial(self._size_label, key))
            spin.valueChanged.connect(lambda value, key=key: self._on_size(key, value))
            self.size_boxes[key] = spin
            label = PlainLabel()
            self.texts.bind(label.setText, partial(self._size_label, key))
            label.setBuddy(spin)
            form.addRow(label, spin)
            self.size_labels[key] = label
        self._show_sizes()
        return box

    def _options_box(self) -> QGroupBox:
        self.options_box = box = QGroupBox()
        self.texts.bind(box.setTitle, lambda: self.tr("Attention options"))
        grid = QGridLayout(box)
        self.causal_box = QCheckBox()
        self.texts.bind(self.causal_box.setText, lambda: self.tr("&Causal mask"))
        self.texts.bind(self.causal_box.setAccessibleName, lambda: self.tr("Causal mask"))
        self.scale_box = QCheckBox()
        self.texts.bind(self.scale_box.setText, lambda: self.tr("Divide &scores by √dₖ"))
        self.texts.bind(self.scale_box.setAccessibleName, lambda: self.tr("Scale scores"))
        self.cross_scale_box = QCheckBox()
        self.texts.bind(self.cross_scale_box.setText, lambda: self.tr("Cross: divide by √dₖ"))
        self.texts.bind(self.cross_scale_box.setAccessibleName,
                        lambda: self.tr("Scale cross-attention scores"))
        # The cross-attention's switch goes on its own line: two fit the pane's width.
        for k, (check, key, cross) in enumerate(((self.causal_box, "causal", False),
                                                 (self.scale_box, "scale", False),
                                                 (self.cross_scale_box, "scale", True))):
            check.toggled.connect(partial(self._set_option, key, cross))
            grid.addWidget(check, k // 2, k % 2)
        self.ablate_label = PlainLabel()
        self.texts.bind(self.ablate_label.setText,
                        lambda: self.tr("Ablate heads (their output set to 0):"))
        grid.addWidget(self.ablate_label, 2, 0, 1, 2)
        self._ablate_grid = QGridLayout()
        grid.addLayout(self._ablate_grid, 3, 0, 1, 2)
        self.ablate_boxes: list[QCheckBox] = []
        """One switch per head of the attention shown: checked, the head is ablated."""
        return box

    def _show_ablation(self, heads: int, ablated: tuple[int, ...]) -> None:
        """One switch per head (six to a row), checked where the head is ablated."""
        while len(self.ablate_boxes) > heads:
            self.ablate_boxes.pop().deleteLater()
        while len(self.ablate_boxes) < heads:
            k = len(self.ablate_boxes)
            check = QCheckBox()
            self.texts.bind(check.setText, partial(lambda k: self.tr("Head {n}").format(n=k + 1),
                                                   k))
            self.texts.bind(check.setAccessibleName,
                            partial(lambda k: self.tr("Ablate head {n}").format(n=k + 1), k))
            check.toggled.connect(partial(self._set_ablated, k))
            self._ablate_grid.addWidget(check, k // 6, k % 6)
            self.ablate_boxes.append(check)
        for k, check in enumerate(self.ablate_boxes):
            if check.isChecked() != (k in ablated):
                check.blockSignals(True)
                check.setChecked(k in ablated)
                check.blockSignals(False)

    def _set_ablated(self, head: int, on: bool) -> None:
        if not self.state.apply(AblateHead(self._attention_module(), head, on)):
            self._show_options()

    def _size_label(self, key: str) -> str:
        if key == "n" and self._in_encoder:
            return self.tr("Source positions n")
        return _translated(SIZE_LABELS[key])

    def _shown_sizes(self) -> Sizes:
        """The sizes of the part shown: the encoder's own positions when it is the encoder's
        (its widths are the document's, which a resize changes everywhere)."""
        scenario = self.state.scenario
        sizes = Sizes.of(scenario)
        if self._in_encoder and scenario.encoder is not None:
            return replace(sizes, n=scenario.encoder.n)
        return sizes

    def _show_sizes(self) -> None:
        encoder = self._in_encoder
        n_box = self.size_boxes["n"]
        n_box.setEnabled(not encoder)
        n_box.setToolTip(self.tr("The encoder's positions, one per source token; the decoder's "
                                 "positions are resized from its own parts") if encoder else "")
        self.size_labels["n"].setText(self._size_label("n"))
        n_box.setAccessibleName(self._size_label("n"))
        sizes = self._shown_sizes()
        for key, spin in self.size_boxes.items():
            value = getattr(sizes, key)
            if spin.value() != value:  # setting the same value repaints the box all the same
                spin.blockSignals(True)
                spin.setValue(value)
                spin.blockSignals(False)

    def _show_options(self) -> None:
        scenario = self.state.scenario
        try:
            layer = scenario.layers[0] if self.whole else scenario.module(self.part)
        except KeyError:  # the part just left the document; the layer bar chooses another
            return
        if not isinstance(layer, Layer):
            return
        cross = layer.cross_attention
        self._show_ablation(layer.attention.heads, layer.attention.ablate_heads)
        for check, on in ((self.causal_box, layer.attention.causal),
                          (self.scale_box, layer.attention.scale),
                          (self.cross_scale_box, cross is not None and cross.scale)):
            if check.isChecked() != on:
                check.blockSignals(True)
                check.setChecked(on)
                check.blockSignals(False)

    def _set_option(self, key: str, cross: bool, on: bool) -> None:
        # Scores not divided have no number under the root: its scale_dk goes in the same step.
        drops = (self._attention_path("scale_dk", cross),) if key == "scale" and not on else ()
        if not self.state.apply(SetOption(self._attention_path(key, cross), on, drops)):
            self._show_options()

    def _on_size(self, key: str, value: int) -> None:
        """Resize the one size the user changed; every other size stays the document's. The
        resized document is made in a worker (progress and Cancel past a moment: the largest
        sizes take seconds), once, for the question about dropped numbers and for the edit."""
        scenario = self.state.scenario
        current = Sizes.of(scenario)
        wanted = replace(current, **{key: value})
        if wanted == current:
            return
        operation = Resize(wanted, key, getattr(current, key))
        try:
            after, dropped = run_with_progress(self, self.tr("Resizing the document…"),
                                               lambda _stop: resized(scenario, wanted))
        except CancelledError:
            self._show_sizes()
            return
        except ScenarioError as error:
            self.state.refuse(operation, error)
            self._show_sizes()
            return
        if dropped:
            text = (self.tr("The smaller size drops 1 non-zero number. Resize anyway? (Undo "
                            "brings it back.)") if dropped == 1 else
                    self.tr("The smaller size drops {count} non-zero numbers. Resize anyway? "
                            "(Undo brings them back.)").format(count=dropped))
            answer = QMessageBox.question(self, self.tr("Drop numbers?"), text)
            if answer != QMessageBox.StandardButton.Yes:
                self._show_sizes()
                return
        if not self.state.apply(Worked(operation, scenario, after)):
            self._show_sizes()

    # -- grids -----------------------------------------------------------------------------
    def _rebuild_grids(self) -> None:
        while self._grids.count():
            item = self._grids.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # off the screen now: deletion waits for the event loop
                widget.deleteLater()
        self._built.clear()
        self._paths = parameter_paths(self.state.scenario)
        self.show_part()

    def _grid(self, path: str) -> tuple[QLabel, MatrixTable]:
        """The title and table of ``path``'s grid, built in its place among the grids (shown
        when its part is) the first time it is asked for."""
        built = self._built.get(path)
        if built is not None:
            return built
        shown = self._in_part(path)
        if shown:  # the part's grids above it first: nothing moves it down later
            for earlier in self._paths[:self._paths.index(path)]:
                if earlier not in self._built and self._in_part(earlier):
                    self._grid(earlier)
        name = place_name(path)
        title = PlainLabel()
        self.texts.bind(title.setText, partial(_translated, TITLES[path])
                        if path in TITLES else partial(str, name))
        title.setStyleSheet("QLabel { font-weight: bold; margin-top: 6px; }")
        table = MatrixTable(MatrixModel(self.state, path), measured=True)
        self.texts.bind(table.setAccessibleName, partial(self._grid_name, name))
        title.setBuddy(table)
        before = self._paths[:self._paths.index(path)]
        place = 2 * sum(1 for earlier in before if earlier in self._built)
        self._grids.insertWidget(place, title)
        self._grids.insertWidget(place + 1, table)
        title.setVisible(shown)
        table.setVisible(shown)
        self._built[path] = built = title, table
        return built

    def _on_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None:
            return
        for path, (_title, table) in self._built.items():
            if new is table or table.isAncestorOf(new):
                self._focused = path
                return

    def focused_grid(self) -> str | None:
        """The path of the grid that last had the keyboard focus, if the document still has
        it."""
        return self._focused if self._focused in self.tables else None

    def _grid_name(self, name: str) -> str:
        return self.tr("{name} grid").format(name=name)

    def _on_trace(self, change: Change) -> None:
        if change.paths is not None:
            return  # a cell edit: the sizes, grids, part and options are as they were
        self._show_sizes()
        if parameter_paths(self.state.scenario) != self._paths:
            self._rebuild_grids()
        elif self._part_outline() != self._shown_part:
            self.show_part()
        else:
            self._show_options()  # the switches may have changed (the block shows its own)

    def retranslate(self) -> None:
        """Every label of the pane again in the interface language."""
        self.texts.apply()
        self._show_sizes()
        self.layer_bar.retranslate()
        for view in self.findChildren(QAbstractItemView):
            view.viewport().update()  # headers and cell texts come from the models
            if isinstance(view, QTableView):
                view.verticalHeader().viewport().update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def show_error(self, text: str) -> None:
        """Show why an input was refused, in place, until the next accepted edit."""
        dark = self.error_label.palette().window().color().lightness() < 128
        self.error_label.setStyleSheet(
            f"QLabel {{ color: {REFUSAL_ON_DARK if dark else REFUSAL_ON_LIGHT}; "
            "font-weight: bold; padding: 2px 6px; border-bottom: 1px solid palette(mid); }")
        self.error_label.setText(f"⚠ {text}")
        self.error_label.setToolTip(as_written(text))
        self._place_error()
        self.error_label.show()
        self.error_label.raise_()

    def _place_error(self) -> None:
        self.error_label.setGeometry(0, 0, self.viewport().width(),
                                     self.error_label.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_error()
