"""The studio window: editor, canvas and timeline, always showing the same trace."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.bidi import isolate
from app.canvas import FrameOptions
from app.canvas.describe import describe_frame
from app.canvas.frame import FrameItem
from app.canvas.side_by_side import CompareFrameItem
from app.canvas.view import CanvasView
from app.canvas.worked_row import WORKED_ROW_POSITIONS
from app.editor.pane import EditorPane
from app.files.checkpoint import open_checkpoint
from app.files.dropping import accept_drag, drop
from app.files.importing import import_matrix
from app.files.new_preset import presets_menu
from app.files.opening import computed
from app.files.reading import kept_path, read_to_show
from app.files.recent import RecentMenu, add_recent
from app.files.recovery import RecoveryWriter
from app.files.relocating import ask_where, is_away
from app.files.saving import (
    document_inputs,
    failure_words,
    is_open_document,
    mark_saved,
    save_target,
    suggested_path,
    writing,
)
from app.files.session import save_session
from app.files.watch import DiskWatch
from app.help.glossary import GlossaryDock
from app.i18n import LiveTexts, current_language
from app.model.cancel import CancelledError
from app.model.examples import OPENINGS, example_name, example_names, example_path
from app.plain_text import as_written
from app.state.big import is_big
from app.state.change import Change
from app.state.document import DocumentState
from app.state.jobs import run_with_progress
from app.state.showing import ShowingError, Shown, check_showing, step_problem
from app.state.window_lifetime import collect_after_close, on_next_turn
from app.texts import step_title
from app.texts.example_words import document_words, example_label, example_title
from app.texts.problems import problem_words
from app.widgets.busy_indicator import BusyIndicator
from app.widgets.layouts import lay_out_now
from app.window.answers_copy import AnswersCopy
from app.window.appearance import appearance
from app.window.compare_mode import CompareMode
from app.window.controls import CanvasControls
from app.window.decimals_menu import DecimalsMenu
from app.window.editor_column import EditorColumnWidth
from app.window.exercise_mode import ExerciseMode
from app.window.generation_panel import GenerationPanel
from app.window.presentation import Presenter
from app.window.step_weights import StepWeights
from app.window.swap_dialog import SwapTokensAction
from app.window.timeline import Timeline
from app.window.undo_actions import UndoActions
from app.window.view_menu import ViewMenu
from app.window.worksheet_action import WorksheetAction
from engine import Scenario, ScenarioError, Trace
from engine.files.safe_write import failure_reason
from engine.format.checkpoint_reference import AS_SAVED, Relocation, checkpoint_away

TIMELINE_KEYS = {Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_Home,
                 Qt.Key.Key_End}
# Widgets that use these keys themselves (moving in a grid, typing, ticking a box).
KEY_USERS = (QAbstractItemView, QLineEdit, QAbstractSpinBox, QComboBox, QCheckBox, QTextEdit)


OPENING_SHARE = 0.9
"""The share of the screen's free area the window opens at, in each direction."""
LARGEST_OPENING = (2560, 1600)
"""The largest first size, however large the screen: beyond it the frames gain nothing."""
DESCRIBE_AFTER_MS = 300
"""After an edit of a number the canvas is described again once typing pauses this long."""


def opening_size(free: QSize) -> QSize:
    """The window's first size on a screen whose free area is ``free``: most of it (1728 × 945
    of a 1920 × 1050 desktop), with room left for the window's frame on a 1024 × 768 one."""
    return QSize(min(round(free.width() * OPENING_SHARE), LARGEST_OPENING[0]),
                 min(round(free.height() * OPENING_SHARE), LARGEST_OPENING[1]))


def _in_language(text: Callable[[str, str], str], name: str) -> str:
    """``text(name, lang)`` in the interface language."""
    return text(name, current_language())


def _with_keys(text: Callable[[], str], keys: str) -> str:
    """A menu entry's words with its key, tab-separated."""
    return f"{text()}\t{keys}"


class StudioWindow(QMainWindow):
    """One document in one window.

    Signals
    -------
    firstFrameDrawn()
        The first frame was drawn without a failure (once per window).
    """

    firstFrameDrawn = Signal()

    def __init__(self, scenario: Scenario, path: Path | None = None,
                 trace: Trace | None = None, shown: Shown | None = None) -> None:
        """``trace`` is ``scenario``'s if already computed (reading a file checks it so);
        ``shown``, its first frame as the showing check built it (drawn as is if it fits)."""
        super().__init__()
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # app.state.window_lifetime
        self.destroyed.connect(collect_after_close)
        self.texts = LiveTexts()
        self.look = appearance()
        self.state = DocumentState(scenario, path, self, shown.trace if shown else trace)
        self.editor = EditorPane(self.state)
        self.controls = CanvasControls(self.state)
        self.canvas = CanvasView(self.look.canvas_theme())
        self.timeline = Timeline(self.state)
        self.timeline.set_reduce_motion(self.look.reduce_motion)
        self.glossary = GlossaryDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.glossary)
        self.glossary.hide()
        self.timeline.explain.termActivated.connect(self.glossary.show_term)
        self.look.changed.connect(self._on_appearance)
        self.texts.bind(self.canvas.setAccessibleName, lambda: self.tr("Attention canvas"))
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.controls)
        self.generation = GenerationPanel(self)
        self.canvas.barClicked.connect(self._bar_clicked)
        column.addWidget(self.generation)
        column.addWidget(self.canvas, 1)
        column.addWidget(self.timeline)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([380, 900])
        self.editor_width = EditorColumnWidth(self.editor)
        self.setCentralWidget(self.splitter)
        free = self.screen().availableGeometry()
        self.resize(opening_size(free.size()))
        self.move(free.center() - self.rect().center())
        self._make_menus()
        self._canvas_held = False  # while a new document replaces the old: one frame, at the end
        self._drawn = False  # a first frame was drawn cleanly
        self._shown = shown  # a checked first frame, not yet drawn
        self._unfolded_sizes: list[int] = []  # the editor's and canvas's widths before folding
        self.state.traceChanged.connect(self._refresh_after_edit)
        self.state.previewChanged.connect(self._refresh_after_edit)
        self.canvas.resized.connect(self._on_canvas_resized)
        self._describe_timer = QTimer(self)
        self._describe_timer.setSingleShot(True)
        self._describe_timer.setInterval(DESCRIBE_AFTER_MS)
        self._describe_timer.timeout.connect(self._describe_canvas)
        self.state.stepChanged.connect(self._on_step)
        self.state.viewChanged.connect(lambda: self.refresh_canvas(fit=False))
        self._shares_line = ""
        """The status bar's last line that ends in the shares (said again in a new
        language)."""
        self.state.message.connect(lambda text: self._say_shares(self.exercise.said(text)))
        self.state.refused.connect(lambda text: self.statusBar().showMessage(f"⚠ {text}"))
        # A method, not a lambda: Qt drops the connection when the window is destroyed, so the
        # stack going away with a discarded (still modified) document emits into nothing.
        self.state.undo_stack.cleanChanged.connect(self._update_title)
        self.state.documentChanged.connect(self._on_document_title)
        self.statusBar().addPermanentWidget(BusyIndicator(self.state))
        self.step_weights = StepWeights(
            self.state, lambda fit: self.canvas.build_later(lambda: self.refresh_canvas(fit)))
        self.statusBar().addPermanentWidget(self.step_weights)
        self.controls.fit_button.clicked.connect(self.canvas.fit_whole)
        self.recovery = RecoveryWriter(self.state, parent=self)
        self.disk = DiskWatch(self)
        self.disk.follow(path)
        self.recovery.failed.connect(lambda text: self.statusBar().showMessage(f"⚠ {text}"))
        self.setAcceptDrops(True)
        QApplication.instance().installEventFilter(self)  # type: ignore[union-attr]
        self._update_title()
        # Built once control returns (or the frame is asked for), so a session's step and view
        # restored meanwhile cost no frame of their own.
        self.canvas.build_later(lambda: self.refresh_canvas(fit=True))
        self._say_opened()


    def _bar_clicked(self, entry: int) -> None:
        """A bar of the probabilities picks the next token, except in a comparison (its bars
        belong to two documents) or on a token of the run (its steps are read-only)."""
        if not self.compare.active and self.state.token is None:
            self.generation.pick(entry)

    def _say_opened(self) -> None:
        """``Opened F11 · … → shares for 爱: …``, about the step and receiver now shown."""
        scenario = self.state.scenario
        title, _note = document_words(scenario.title, scenario.note, current_language())
        self._say_shares(self.tr("Opened {title} → {shares}").format(
            title=isolate(title), shares=self.state.shares_summary()))

    def _say_shares(self, line: str) -> None:
        """Show ``line``, which ends in the shares, in the status bar."""
        self.statusBar().showMessage(line)
        self._shares_line = line

    # -- menus -----------------------------------------------------------------------------
    def _make_menus(self) -> None:
        file_menu = self.menuBar().addMenu("")
        self.texts.bind(file_menu.setTitle, lambda: self.tr("&File"))
        open_action = file_menu.addAction("")
        self.texts.bind(open_action.setText, lambda: self.tr("&Open…"))
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self.open_dialog)
        examples = file_menu.addMenu("")
        self.texts.bind(examples.setTitle, lambda: self.tr("Open &example"))
        for name in example_names():
            action = examples.addAction(name)
            self.texts.bind(action.setText, partial(_in_language, example_label, name))
            self.texts.bind(action.setToolTip, partial(_in_language, example_title, name))
            action.triggered.connect(lambda _on=False, name=name: self.open_example(name))
        self.presets_menu = presets_menu(self, file_menu)
        checkpoint = file_menu.addAction("")
        self.texts.bind(checkpoint.setText, lambda: self.tr("Open &checkpoint…"))
        self.texts.bind(checkpoint.setToolTip, lambda: self.tr(
            "A Hugging Face model folder (gpt2, llama, mistral, qwen2, qwen3, gpt_neox, gemma, "
            "gemma2, gemma3_text, phi, phi3, opt, bert, stablelm, starcoder2, olmo2, mixtral, "
            "qwen3_moe, qwen2_moe) computing a text you type"))
        checkpoint.triggered.connect(lambda: open_checkpoint(self))
        self.recent_menu = RecentMenu(self)
        file_menu.addMenu(self.recent_menu)
        self.save_action = file_menu.addAction("")
        self.texts.bind(self.save_action.setText, lambda: self.tr("&Save"))
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.triggered.connect(self.save)
        save_as = file_menu.addAction("")
        self.texts.bind(save_as.setText, lambda: self.tr("Save &as…"))
        save_as.setShortcut(QKeySequence.StandardKey.SaveAs)
        save_as.triggered.connect(self.save_as)
        save_copy = file_menu.addAction("")
        self.texts.bind(save_copy.setText, lambda: self.tr("Save self-contained &copy…"))
        self.texts.bind(save_copy.setToolTip, lambda: self.tr(
            "A copy holding every weight's numbers, which opens without the checkpoint the "
            "weights were read from (a saved document otherwise names that checkpoint's file)"))
        save_copy.triggered.connect(self.save_copy)
        saving_end = file_menu.addSeparator()
        self.import_action = file_menu.addAction("")
        self.texts.bind(self.import_action.setText, lambda: self.tr("&Import matrix…"))
        self.import_action.setShortcut(QKeySequence("Ctrl+I"))
        self.texts.bind(self.import_action.setToolTip, lambda: self.tr(
            "Numbers from a .npy, CSV or text file into the selected grid"))
        self.import_action.triggered.connect(lambda: import_matrix(self))
        self.export_action = file_menu.addAction("")
        self.texts.bind(self.export_action.setText, lambda: self.tr("&Export…"))
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.export_dialog)
        self.worksheet = WorksheetAction(self, file_menu)
        file_menu.addSeparator()
        quit_action = file_menu.addAction("")
        self.texts.bind(quit_action.setText, lambda: self.tr("&Quit"))
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        edit_menu = self.menuBar().addMenu("")
        self.texts.bind(edit_menu.setTitle, lambda: self.tr("&Edit"))
        self.undo_actions = UndoActions(self.state.undo_stack, self)
        self.undo_action = self.undo_actions.undo
        self.redo_action = self.undo_actions.redo
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        self.copy_frame_action = edit_menu.addAction("")
        self.texts.bind(self.copy_frame_action.setText,
                        lambda: self.tr("Copy &frame (PNG and SVG)"))
        self.copy_frame_action.setShortcut(QKeySequence("Ctrl+Shift+C"))
        self.copy_frame_action.triggered.connect(self.copy_frame)
        edit_menu.addSeparator()
        for action in self.editor.layer_bar.layer_actions:
            edit_menu.addAction(action)
        self.swap_tokens = SwapTokensAction(self, edit_menu)
        edit_menu.addAction(self.generation.action)
        view_menu = self.menuBar().addMenu("")
        self.texts.bind(view_menu.setTitle, lambda: self.tr("&View"))
        fit = QAction(self)
        self.texts.bind(fit.setText, lambda: self.tr("&Fit frame"))
        fit.setShortcut(QKeySequence("Ctrl+0"))
        fit.triggered.connect(self.canvas.fit_whole)
        view_menu.addAction(fit)
        self.zoom_action = QAction(self)
        """View → Zoom to the step (Ctrl+=, or a double-click on the canvas): the step's
        picture fills the canvas at every step; Fit frame (Ctrl+0) goes back."""
        self.zoom_action.setCheckable(True)
        self.zoom_action.setShortcut(QKeySequence("Ctrl+="))
        self.zoom_action.toggled.connect(self.canvas.set_zoomed_to_step)
        self.canvas.zoomed_changed.connect(self.zoom_action.setChecked)
        self.canvas.zoomed_changed.connect(lambda _on: self.refresh_canvas(fit=True))
        self.texts.bind(self.zoom_action.setText, lambda: self.tr("&Zoom to the step"))
        self.texts.bind(self.zoom_action.setToolTip, lambda: self.tr(
            "Fill the canvas with the step's picture (or double-click it); Fit frame goes back"))
        view_menu.addAction(self.zoom_action)
        self.decimals_menu = DecimalsMenu(self.state, view_menu, self.texts, self)
        self.presenter = Presenter(self)
        view_menu.addAction(self.presenter.action)
        self.view_menu = ViewMenu(self, view_menu, self.texts)
        self.compare = CompareMode(self, view_menu)
        self.exercise = ExerciseMode(self, view_menu)
        self.answers_copy = AnswersCopy(self, file_menu, saving_end, self.exercise)
        self.canvas.cellClicked.connect(self.exercise.cell_clicked)
        step_menu = self.menuBar().addMenu("")
        self.texts.bind(step_menu.setTitle, lambda: self.tr("&Step"))
        for text, keys, slot in ((lambda: self.tr("&Previous"), "Left", self.timeline.previous),
                                 (lambda: self.tr("&Next"), "Right", self.timeline.next),
                                 (lambda: self.tr("Play / &pause"), "Space",
                                  self.timeline.toggle_play),
                                 (lambda: self.tr("&First"), "Home", self.timeline.first),
                                 (lambda: self.tr("&Last"), "End", self.timeline.last)):
            action = step_menu.addAction("")
            self.texts.bind(action.setText, partial(_with_keys, text, keys))
            action.triggered.connect(slot)

    # -- the shell: what the plug-ins may ask of the window (app.state.shell.Shell) ----------
    @property
    def stepping(self) -> Timeline:
        return self.timeline

    def widget(self) -> QWidget:
        return self

    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text)

    def open_window(self, scenario: Scenario, trace: Trace | None = None) -> StudioWindow:
        window = StudioWindow(scenario, trace=trace)
        window.show()
        return window

    def add_action(self, action: QAction) -> None:
        self.addAction(action)

    def add_canvas_control(self, control: QWidget, stretch: int = 0) -> None:
        self.controls.add_control(control, stretch)

    def add_panel(self, panel: QDockWidget) -> None:
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel)

    def glossary_action(self) -> QAction:
        return self.glossary.toggleViewAction()

    def bind_explanation(self, action: QAction) -> None:
        explain = self.timeline.explain
        action.toggled.connect(explain.set_expanded)
        explain.toggle.toggled.connect(action.setChecked)

    def set_editor_folded(self, folded: bool) -> None:
        """Fold the editor away (View → Focus on the frame, comparing) or back. Folded, the
        canvas lays each frame out as large as it allows by itself, as presentation does
        (unfolded, every step keeps the document's one type scale)."""
        self.editor_width.set_folded(folded)
        if folded:
            self._unfolded_sizes = self.splitter.sizes()
            self.splitter.setSizes([0, sum(self._unfolded_sizes)])
        elif self._unfolded_sizes:
            self.splitter.setSizes(self._unfolded_sizes)
        if self.canvas.frames_alone != folded:
            self.canvas.frames_alone = folded
            if not self.compare.active:  # comparing draws its own picture, and refreshes
                self.refresh_canvas(fit=True)

    def panel_sizes(self) -> list[int]:
        return [int(size) for size in self.splitter.sizes()]

    def set_panel_sizes(self, sizes: list[int]) -> bool:
        if len(sizes) != self.splitter.count() or not all(0 <= n < 100_000 for n in sizes) \
                or sum(sizes) <= 0:
            return False
        self.splitter.setSizes(sizes)
        return True

    def dwell(self) -> float:
        return float(self.timeline.dwell_box.value())

    def set_dwell(self, seconds: float) -> bool:
        box = self.timeline.dwell_box
        if not box.minimum() <= seconds <= box.maximum():
            return False
        box.setValue(seconds)
        return True

    def grid_paths(self) -> list[str]:
        return list(self.editor.tables)

    def selected_grid(self) -> str | None:
        return self.editor.focused_grid()

    def show_on_canvas(self, item: CompareFrameItem, fit: bool) -> None:
        self.canvas.show_item(item, fit)

    def comparison(self, options: FrameOptions) -> CompareFrameItem | None:
        return self.compare.comparison(options) if self.compare.active else None

    def step_title(self, index: int) -> str:
        return step_title(self.state.trace.steps[index], self.state.scenario, current_language())

    def hide_step_texts(self, hidden: bool) -> None:
        self.timeline.set_texts_hidden(hidden)

    # -- keys --------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Left/Right/Space/Home/End drive the timeline unless the focused widget uses them."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        if event.key() not in TIMELINE_KEYS or event.modifiers() not in (
                Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier):
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self:
            return False
        focus = QApplication.focusWidget()
        if isinstance(focus, KEY_USERS) or isinstance(watched, KEY_USERS):
            return False
        if isinstance(focus, QAbstractButton) and event.key() == Qt.Key.Key_Space:
            return False  # Space presses the focused button, as everywhere else
        actions = {Qt.Key.Key_Left: self.timeline.previous, Qt.Key.Key_Right: self.timeline.next,
                   Qt.Key.Key_Space: self.timeline.toggle_play,
                   Qt.Key.Key_Home: self.timeline.first, Qt.Key.Key_End: self.timeline.last}
        actions[Qt.Key(event.key())]()
        return True

    # -- drawing ---------------------------------------------------------------------------
    def frame_options(self) -> FrameOptions:
        """What the canvas draws now, on the sheet that fills it best, headed with the token of
        the run whose steps are on screen; exports start from the same options (the export
        dialog chooses its own aspect). While an exercise hides cells, the canvas leaves them
        blank and draws neither the worked row nor the arrows (their numbers would tell)."""
        blanks = self.exercise.blanks()
        return FrameOptions(receiver=self.state.receiver, head=self.state.head,
                            show_all_arrows=self.state.show_all_arrows,
                            theme=self.look.canvas_theme(), lang=current_language(),
                            worked_row=self.view_menu.worked_row_action.isChecked()
                            and blanks is None, arrows=blanks is None,
                            aspect=self.canvas.aspect(), run_place=self.state.run_place(),
                            blanks=blanks)

    def _on_canvas_resized(self) -> None:
        """A canvas reshaped past the point where the other sheet fills it better gets its
        frame composed again for that sheet once the event loop turns (a frame composed
        meanwhile, for the new size, takes its place: a step that reshapes the canvas as its
        texts and grids take their room composes one frame, not two)."""
        if self.canvas.wants_other_sheet():
            self.canvas.build_later(lambda: self.refresh_canvas(fit=True))

    def _on_step(self, _step: int) -> None:
        """Draw a new current step on the canvas at its final size: a step into another layer
        builds that layer's editor grids, whose wider column can narrow the canvas past the
        point where the other sheet fills it better (its frame was composed for one, then for
        the other), so the layouts they asked for are applied first. A big document's frame is
        drawn at the next turn of the event loop, its layout search spread over turns: the
        grids of a Llama-3.2-1B layer's first step and its frame took about 70 ms each, and
        froze the window 170 ms in one turn."""
        if self._canvas_held:
            return
        if is_big(self.state.scenario):
            self.canvas.build_later(self._draw_step)
        else:
            self._draw_step()

    def _draw_step(self) -> None:
        """Draw the current step, fitted, at the size the layouts asked for give the canvas."""
        lay_out_now()
        self.refresh_canvas(fit=True)

    def _refresh_after_edit(self, change: Change) -> None:
        """A new trace (an edit, undo or redo): its frame is built once the event loop runs, so
        edits arriving faster than frames cost one build, of the newest document; nothing when
        the frame on screen shows the same numbers (a preview of a step not on screen)."""
        if change.frame and not self._canvas_held:
            self.canvas.build_later(lambda: self.refresh_canvas(fit=False))

    def refresh_canvas(self, fit: bool) -> None:
        """Draw the current step; one that fails to draw is said in the status bar, naming the
        step and the problem, and the window stays as usable as before."""
        if self._canvas_held:
            return
        trace, step = self.state.frame_trace, self.state.step
        if self.compare.active:
            self.step_weights.set_aside()  # a comparison waits for no weights
        elif not self.step_weights.ready(trace, step, fit):
            return  # drawn once a worker has made its big weights ready
        self.canvas.drop_pending()  # built now, with everything a pending build would show
        try:
            self._draw(fit)
        except Exception as error:  # a painter's failure: said, never a broken window
            self._say_step_failed(error)
            return
        self.step_weights.drawn(trace, step)
        if not self._drawn:
            self._drawn = True
            self.firstFrameDrawn.emit()

    def _draw(self, fit: bool) -> None:
        """Build and show the current step's frame (or the comparison), then describe it."""
        options = self.frame_options()
        title = self.step_title(self.state.step)
        checked, self._shown = self._shown, None  # the check's frame serves once, if at all
        refilled = described = False
        if not (self.compare.active and self.compare.show(fit)):
            frame, refilled, described = self._show_step(checked, options, title, fit)
            if not refilled:  # a new map (a refilled frame keeps its map and clicks)
                for box in frame.route_map.boxes if frame.route_map is not None else []:
                    box.clicked.connect(self._jump_later)
        if refilled:  # typing: described once it pauses, not on every number
            self._describe_timer.start()
        elif not described:
            self._describe_canvas()

    def _show_step(self, checked: Shown | None, options: FrameOptions, title: str,
                   fit: bool) -> tuple[FrameItem, bool, bool]:
        """Show the current step's frame: ``checked``'s if it is that frame (it comes described),
        else the frame on screen refilled or a new one. Returns the frame, whether it was
        refilled and whether it is described."""
        trace, step = self.state.frame_trace, self.state.step
        if checked is not None and checked.fits(trace, step, options, title) \
                and checked.frame.alone == self.canvas.frames_alone:
            self.canvas.show_item(checked.frame, fit)
            self.canvas.setAccessibleDescription(checked.description)
            return checked.frame, False, True
        on_screen = self.canvas.frame
        frame = self.canvas.show_frame(trace, step, options, title, fit)
        return frame, frame is on_screen, False

    def _describe_canvas(self) -> None:
        """The canvas's description for screen readers: the frame on screen in words."""
        self._describe_timer.stop()
        try:
            self.canvas.setAccessibleDescription(describe_frame(
                self.state.frame_trace, self.state.step, self.frame_options(),
                self.step_title(self.state.step)))
        except Exception as error:  # as a frame that fails to draw
            self._say_step_failed(error)

    def _say_step_failed(self, error: Exception) -> None:
        """The current step could not be drawn or described: the status bar says which, why."""
        self.statusBar().showMessage(
            f"⚠ {step_problem(self.state.frame_trace, self.state.step, error)}")

    def _jump_later(self, step: int) -> None:
        """A click on the map: go to that step once the click (on the old frame) returns."""
        on_next_turn(self, lambda: self.state.set_step(step))

    # -- language and appearance -----------------------------------------------------------
    def retranslate(self) -> None:
        """Menus, titles, the canvas's words and its description in the interface language."""
        self.texts.apply()
        self.undo_actions.retranslate()
        self.compare.texts.apply()  # a QObject: it gets no LanguageChange of its own
        self.exercise.retranslate()
        self._update_title()
        shown = self.statusBar().currentMessage()
        if shown and shown == self._shares_line and not self.state.busy:
            self._say_shares(self.state.shares_summary())  # said in the language before
        self.refresh_canvas(fit=False)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _on_appearance(self) -> None:
        """High contrast, the system's scheme or reduce motion changed."""
        self.canvas.set_theme(self.look.canvas_theme())
        self.timeline.set_reduce_motion(self.look.reduce_motion)
        self.refresh_canvas(fit=False)

    # -- export ----------------------------------------------------------------------------
    def export_dialog(self) -> None:
        """File → Export…: the current step, all steps or a range, in any format (of a
        generation run, also every token's draw or one token's steps); while comparing, the
        comparison (PNG, SVG or PDF)."""
        from app.export.dialog import ExportDialog

        if self.compare.active:
            self.compare.export_dialog()
            return

        name = self.state.path.name.removesuffix(".json").removesuffix(".qkv") \
            if self.state.path else None
        dialog = ExportDialog(self.state.trace, self.state.step, self.frame_options(), self,
                              name=name, whole=self.state.whole_trace, token=self.state.token,
                              inputs=document_inputs(self.state.path, self.state.scenario))
        dialog.exec()
        if dialog.written:
            self.statusBar().showMessage(self.tr("Exported {count} file(s) to {folder}").format(
                count=len(dialog.written), folder=dialog.written[0].parent))

    def copy_frame(self) -> None:
        """Put the current frame (or, while comparing, the comparison) on the clipboard."""
        from app.export.clipboard import copy_frame
        from app.export.safe import ExportError

        try:
            if self.compare.active and self.compare.copy():
                return
            copy_frame(self.state.trace, self.state.step, self.frame_options(),
                       lang=self.timeline.lang)
        except ExportError as error:  # a frame too large to draw: said, never a crash
            QMessageBox.warning(self, self.tr("Not copied"), as_written(self.tr(
                "The frame was not copied:\n{error}").format(error=error)))
            self.statusBar().showMessage(self.tr("⚠ not copied: {error}").format(error=error))
            return
        self.statusBar().showMessage(self.tr("Copied the frame as PNG and SVG"))

    def _on_document_title(self, change: Change) -> None:
        if change.paths is None:  # a cell edit keeps the title (cleanChanged: the mark)
            self._update_title()

    def _update_title(self) -> None:
        scenario = self.state.scenario
        title, _note = document_words(scenario.title, scenario.note, current_language())
        self.setWindowTitle(f"QKV Studio — {title}[*]")
        self.setWindowModified(not self.state.undo_stack.isClean())

    # -- files -----------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Open scenario"),
            str(self.state.path.parent if self.state.path else Path.cwd()),
            self.tr("Scenario documents (*.qkv.json *.json);;All files (*)"))
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path, relocation: Relocation = AS_SAVED) -> bool:
        """Open a document in this window; a refused file leaves the open document untouched.

        The file is read and checked first; only a readable document asks about unsaved changes.
        A document whose checkpoint moved or changed asks where it is now
        (:func:`~app.files.relocating.ask_where`), and opens modified, reading it there.
        """
        label = self.tr("Opening {name}…").format(name=path.name)
        try:
            shown = read_to_show(path, partial(self.long_work, label), self._first_options,
                                 relocation)
        except CancelledError:
            self.statusBar().showMessage(self.tr("Not opened: cancelled"))
            return False
        except Exception as error:  # a refusal, or whatever else went wrong in the worker
            words = problem_words(error, current_language()) \
                if isinstance(error, ScenarioError) else str(error)
            if is_away(error, relocation):
                assert isinstance(error, ScenarioError)
                where = ask_where(self, path, error, relocation)
                if where is not None:
                    return self.open_path(path, where)
            else:
                QMessageBox.warning(self, self.tr("Cannot open"), as_written(self.tr(
                    "{path} was not opened:\n{error}").format(path=path, error=words)))
            self.statusBar().showMessage(self.tr("⚠ not opened: {error}").format(error=words))
            return False
        if not self._may_discard():
            return False
        kept = kept_path(path)
        moved = relocation != AS_SAVED
        self.show_document(shown.trace.scenario, kept, modified=moved, trace=shown.trace,
                           shown=shown, note=self.tr(
                               "Opened {name}, its checkpoint read from where you said: save "
                               "it to keep that").format(name=path.name) if moved
                           else self.tr("Opened {name}").format(name=path.name))
        if kept is not None:
            add_recent(path)
        self.show_opening(path)
        return True

    def _first_options(self, trace: Trace) -> FrameOptions:
        """What the canvas will draw ``trace``'s first step with once it is the document: the
        last position and every head in focus, as its exports show them."""
        return replace(self.frame_options(), receiver=None, head=None,
                       worked_row=trace.scenario.n <= WORKED_ROW_POSITIONS)

    def open_example(self, name: str) -> bool:
        """Open a built-in example the way it is meant to be seen first (side by side, or on
        the step it is about)."""
        return self.open_path(example_path(name))

    def show_opening(self, path: Path | None) -> None:
        """Show a built-in example the way it is meant to be seen first, whichever way it was
        opened (the Examples menu, File → Open, a recent file, the command line), as its
        exports show it; nothing for any other document."""
        name = example_name(path) if path is not None else None
        if name is None:
            return
        kind, what = OPENINGS.get(name, ("", ""))
        self.compare.action.setChecked(kind == "compare")
        if not kind:
            return
        if kind == "compare":
            self.compare.set_preset(what)
        elif kind == "step":
            self.state.set_step(self.state.trace.step_index(what))
        elif kind == "reader":
            self.state.set_receiver(self.state.scenario.tokens.index(what))
            self.state.set_step(self.state.trace.step_index("weights"))
        self._say_opened()

    def show_document(self, scenario: Scenario, path: Path | None, modified: bool = False,
                      note: str = "", trace: Trace | None = None,
                      shown: Shown | None = None) -> None:
        """Make ``scenario`` the document (no undo history), saved at ``path`` or not.

        ``modified`` marks it as holding unsaved work (a restored recovery copy); ``trace`` is
        its trace if already computed. A document that cannot be shown (its first step fails to
        draw or to be told) is refused with a message, and the open document stays as it was;
        ``shown``: the caller has already checked ``trace`` so (its first frame is drawn as is).
        """
        if trace is None and not is_big(scenario):
            try:
                trace = computed(scenario)[1]
            except ScenarioError as error:
                self._refuse_showing(scenario, str(error))
                return
        if trace is not None and shown is None:
            try:
                shown = check_showing(trace, self._first_options(trace))
            except ShowingError as refusal:
                self._refuse_showing(scenario, str(refusal))
                return
        self._shown = shown
        self.state.path = path
        self.disk.follow(path)
        self._canvas_held = True  # a big frame is composed once, not for every signal on the way
        try:
            self.state.undo_stack.clear()
            self.state.set_receiver(None)  # the document before's focus is not this one's
            self.state.set_head(None)
            self.view_menu.worked_row_action.setChecked(scenario.n <= WORKED_ROW_POSITIONS)
            self.state.show(scenario, trace)
            self.state.set_step(0)  # not the step of the same name: the document before's
            self.editor.layer_bar.unpin()  # a pin holds within one document
        finally:
            self._canvas_held = False
        self.state.undo_stack.setClean()
        self.exercise.opened()
        if modified:
            self.state.undo_stack.resetClean()
            self.recovery.write_now()  # restored work is safe again before its old copy goes
        self.refresh_canvas(fit=True)
        self._update_title()
        note = note or self.tr("Opened {name}").format(name=isolate(scenario.title))
        shares = self.tr("computing…") if self.state.busy else self.state.shares_summary()
        self.state.message.emit(f"{note} → {shares}")  # the status bar, and clears a refusal

    def _refuse_showing(self, scenario: Scenario, problem: str) -> None:
        """``scenario`` was not shown: said in a message and the status bar."""
        refusal = self.tr("{title} was not opened:\n{error}").format(
            title=isolate(scenario.title), error=problem)
        QMessageBox.warning(self, self.tr("Cannot open"), as_written(refusal))
        self.statusBar().showMessage(self.tr("⚠ not opened: {error}").format(error=problem))

    def long_work(self, label: str, work: Callable[[threading.Event], Any], big: bool,
                  finish_on_cancel: bool = False) -> Any:
        """``work``'s result: in a worker with progress and Cancel if ``big``, else right here.

        Raises what ``work`` raises, and :class:`~app.model.cancel.CancelledError` on Cancel.
        """
        if big:
            return run_with_progress(self, label, work, finish_on_cancel)
        return work(threading.Event())

    def save(self) -> bool:
        if self.state.path is None:
            return self.save_as()
        return self._write(self.state.path)

    def save_as(self) -> bool:
        path, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Save scenario"),
            str(suggested_path(self.state.path, self.state.scenario.title)),
            self.tr("Scenario documents (*.qkv.json)"))
        return bool(path) and self._write(save_target(path))

    def save_copy(self) -> bool:
        """Save a self-contained copy: every weight's numbers written, none named by its
        checkpoint; the document stays where it is."""
        path, _filter = QFileDialog.getSaveFileName(
            self, self.tr("Save self-contained copy"),
            str(suggested_path(None, self.state.scenario.title)),
            self.tr("Scenario documents (*.qkv.json)"))
        return bool(path) and self._write(save_target(path), self_contained=True)

    def _write(self, path: Path, *, self_contained: bool = False) -> bool:
        """Save atomically; on failure say why, keep the old file whole and stay modified.
        ``self_contained``: a copy holding every weight's numbers, after which the document
        stays where it was.

        A big document is written out in a worker (Cancel stops it before the file is touched).
        """
        if not self.disk.may_overwrite(path):
            self.statusBar().showMessage(self.tr("Not saved: {path} changed on disk").format(
                path=path))
            return False
        scenario = self.state.scenario
        # Save as… another name never replaces the open document's files (a link to its
        # sidecar, engine.files.outputs); Save replaces them together.
        inputs = None if is_open_document(path, self.state.path) \
            else document_inputs(self.state.path, scenario)
        try:
            with self.disk.own_write():
                self.long_work(self.tr("Saving {name}…").format(name=path.name),
                               writing(scenario, path, inputs,
                                       self_contained=self_contained),
                               is_big(scenario), finish_on_cancel=True)
        except CancelledError:
            self.statusBar().showMessage(self.tr("Not saved: cancelled"))
            return False
        except Exception as error:  # every failure is said; none loses the work
            problem = failure_words(error, current_language())
            QMessageBox.critical(self, self.tr("Not saved"), as_written(self.tr(
                "Could not save to {path}: {problem}.\nThe file on disk was left as it was; "
                "your changes are still open in this window.").format(path=path,
                                                                      problem=problem)))
            self.statusBar().showMessage(self.tr("⚠ not saved to {path}: {problem}").format(
                path=path, problem=problem))
            return False
        if self_contained and not is_open_document(path, self.state.path):
            self.statusBar().showMessage(self.tr("Saved a self-contained copy to {path}")
                                         .format(path=path))
            return True
        mark_saved(self.state, self.disk, scenario, path)
        away = checkpoint_away(scenario.parameters)
        if away is not None:  # saved as read: it opens once the checkpoint is back
            self.statusBar().showMessage(self.tr(
                "Saved {path}, the edits too; it opens again once its checkpoint is back: "
                "{problem}").format(path=path, problem=problem_words(away, current_language())))
            return True
        self.statusBar().showMessage(self.tr("Saved {path}").format(path=path))
        return True

    def _may_discard(self) -> bool:
        if self.state.undo_stack.isClean():
            return True
        answer = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            self.tr("This document has unsaved changes. Save them first?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_drag(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        accept_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        drop(self, event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Close only once unsaved work is saved or knowingly discarded; a failure keeps it open.

        The event starts ignored, so an unexpected exception anywhere on the way (Qt swallows it
        after printing) leaves the window and its work open.
        """
        event.ignore()
        try:
            leave = self._may_discard()
        except Exception as error:  # a failed save must never close the window
            self.statusBar().showMessage(self.tr("⚠ not saved: {problem}").format(
                problem=failure_reason(error)))
            leave = False
        if not leave:
            return
        self.timeline.pause()
        self.step_weights.stop()  # no step will be drawn: its weights need not be made ready
        self.presenter.leave()  # the full-screen view is a window of its own: it goes too
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        with contextlib.suppress(Exception):  # the work is saved or discarded: close anyway
            save_session(self)
        self.recovery.close()
        event.accept()
