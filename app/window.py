"""The studio window: editor, canvas and timeline, always showing the same trace."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.canvas import FrameOptions
from app.canvas.controls import CanvasControls
from app.canvas.theme import SLIDE
from app.canvas.view import CanvasView
from app.editor.pane import EditorPane
from app.examples import example_names, example_path
from app.state import DocumentState
from app.timeline import Timeline
from engine import Scenario, ScenarioError, load_scenario, save_scenario

TIMELINE_KEYS = {Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_Home,
                 Qt.Key.Key_End}
# Widgets that use these keys themselves (moving in a grid, typing, ticking a box).
KEY_USERS = (QAbstractItemView, QLineEdit, QAbstractSpinBox, QComboBox, QCheckBox, QTextEdit)


class StudioWindow(QMainWindow):
    """One document in one window."""

    def __init__(self, scenario: Scenario, path: Path | None = None) -> None:
        super().__init__()
        self.state = DocumentState(scenario, path, self)
        self.editor = EditorPane(self.state)
        self.controls = CanvasControls(self.state)
        self.canvas = CanvasView(SLIDE)
        self.timeline = Timeline(self.state)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.controls)
        column.addWidget(self.canvas, 1)
        column.addWidget(self.timeline)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([380, 900])
        self.setCentralWidget(self.splitter)
        self.resize(1280, 800)
        self._make_menus()
        self.state.traceChanged.connect(lambda: self.refresh_canvas(fit=False))
        self.state.stepChanged.connect(lambda _k: self.refresh_canvas(fit=True))
        self.state.viewChanged.connect(lambda: self.refresh_canvas(fit=False))
        self.state.message.connect(lambda text: self.statusBar().showMessage(text))
        self.state.refused.connect(lambda text: self.statusBar().showMessage(f"⚠ {text}"))
        self.state.undo_stack.cleanChanged.connect(lambda _clean: self._update_title())
        self.state.traceChanged.connect(self._update_title)
        self.controls.fit_button.clicked.connect(self.canvas.fit)
        QApplication.instance().installEventFilter(self)  # type: ignore[union-attr]
        self._update_title()
        self.refresh_canvas(fit=True)
        self.statusBar().showMessage(f"Opened {scenario.title} → {self.state.shares_summary()}")

    # -- menus -----------------------------------------------------------------------------
    def _make_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = file_menu.addAction("&Open…")
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self.open_dialog)
        examples = file_menu.addMenu("Open &example")
        for name in example_names():
            action = examples.addAction(name)
            action.triggered.connect(lambda _on=False, name=name: self.open_path(
                example_path(name)))
        self.save_action = file_menu.addAction("&Save")
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.triggered.connect(self.save)
        save_as = file_menu.addAction("Save &as…")
        save_as.setShortcut(QKeySequence.StandardKey.SaveAs)
        save_as.triggered.connect(self.save_as)
        file_menu.addSeparator()
        export_action = file_menu.addAction("&Export…")
        export_action.setShortcut(QKeySequence("Ctrl+E"))
        export_action.triggered.connect(self.export_dialog)
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit")
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        edit_menu = self.menuBar().addMenu("&Edit")
        self.undo_action = self.state.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.redo_action = self.state.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        copy_frame_action = edit_menu.addAction("Copy &frame (PNG and SVG)")
        copy_frame_action.setShortcut(QKeySequence("Ctrl+Shift+C"))
        copy_frame_action.triggered.connect(self.copy_frame)
        view_menu = self.menuBar().addMenu("&View")
        fit = QAction("&Fit frame", self)
        fit.setShortcut(QKeySequence("Ctrl+0"))
        fit.triggered.connect(self.canvas.fit)
        view_menu.addAction(fit)
        step_menu = self.menuBar().addMenu("&Step")
        for text, keys, slot in (("&Previous", "Left", self.timeline.previous),
                                 ("&Next", "Right", self.timeline.next),
                                 ("Play / &pause", "Space", self.timeline.toggle_play),
                                 ("&First", "Home", self.timeline.first),
                                 ("&Last", "End", self.timeline.last)):
            action = step_menu.addAction(f"{text}\t{keys}")
            action.triggered.connect(slot)

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
        if isinstance(focus, QAbstractButton) and event.key() != Qt.Key.Key_Space:
            pass
        actions = {Qt.Key.Key_Left: self.timeline.previous, Qt.Key.Key_Right: self.timeline.next,
                   Qt.Key.Key_Space: self.timeline.toggle_play,
                   Qt.Key.Key_Home: self.timeline.first, Qt.Key.Key_End: self.timeline.last}
        actions[Qt.Key(event.key())]()
        return True

    # -- drawing ---------------------------------------------------------------------------
    def frame_options(self) -> FrameOptions:
        """What the canvas draws now; exports start from the same options."""
        return FrameOptions(receiver=self.state.receiver, head=self.state.head,
                            show_all_arrows=self.state.show_all_arrows, theme=SLIDE)

    def refresh_canvas(self, fit: bool) -> None:
        self.canvas.show_frame(self.state.trace, self.state.step, self.frame_options(),
                               self.timeline.title_for(self.state.step), fit)

    # -- export ----------------------------------------------------------------------------
    def export_dialog(self) -> None:
        """File → Export…: the current step, all steps or a range, in any format."""
        from app.export.dialog import ExportDialog

        name = self.state.path.name.removesuffix(".json").removesuffix(".qkv") \
            if self.state.path else None
        dialog = ExportDialog(self.state.trace, self.state.step, self.frame_options(), self,
                              name=name)
        dialog.exec()
        if dialog.written:
            self.statusBar().showMessage(f"Exported {len(dialog.written)} file(s) to "
                                         f"{dialog.written[0].parent}")

    def copy_frame(self) -> None:
        """Put the current frame on the clipboard as PNG and SVG."""
        from app.export.clipboard import copy_frame

        copy_frame(self.state.trace, self.state.step, self.frame_options(),
                   lang=self.timeline.lang)
        self.statusBar().showMessage("Copied the frame as PNG and SVG")

    def _update_title(self) -> None:
        self.setWindowTitle(f"QKV Studio — {self.state.scenario.title}[*]")
        self.setWindowModified(not self.state.undo_stack.isClean())

    # -- files -----------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, "Open scenario", str(self.state.path.parent if self.state.path else Path.cwd()),
            "Scenario documents (*.qkv.json *.json);;All files (*)")
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Open a document in this window; a refused file leaves the open document untouched."""
        if not self._may_discard():
            return False
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            QMessageBox.warning(self, "Cannot open", str(error))
            self.statusBar().showMessage(f"⚠ not opened: {error}")
            return False
        self.state.path = None if path.parent == example_path("f11").parent else path
        self.state.undo_stack.clear()
        self.state.set_step(0)
        self.state.replace_document(scenario.to_document(), "open")
        self.state.undo_stack.clear()
        self.state.undo_stack.setClean()
        self.refresh_canvas(fit=True)
        self._update_title()
        self.statusBar().showMessage(f"Opened {path.name} → {self.state.shares_summary()}")
        return True

    def save(self) -> bool:
        if self.state.path is None:
            return self.save_as()
        return self._write(self.state.path)

    def save_as(self) -> bool:
        path, _filter = QFileDialog.getSaveFileName(
            self, "Save scenario", str(Path.cwd() / "scenario.qkv.json"),
            "Scenario documents (*.qkv.json)")
        if not path:
            return False
        target = Path(path)
        if not target.name.endswith(".json"):
            target = target.with_name(target.name + ".qkv.json")
        return self._write(target)

    def _write(self, path: Path) -> bool:
        try:
            save_scenario(self.state.scenario, path)
        except OSError as error:
            QMessageBox.critical(self, "Not saved", f"{path}: {error.strerror or error}. "
                                 "The file on disk was left as it was.")
            return False
        self.state.path = path
        self.state.undo_stack.setClean()
        self.statusBar().showMessage(f"Saved {path}")
        return True

    def _may_discard(self) -> bool:
        if self.state.undo_stack.isClean():
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", "This document has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._may_discard():
            self.timeline.pause()
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            event.accept()
        else:
            event.ignore()
