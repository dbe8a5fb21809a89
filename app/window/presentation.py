"""Presentation mode: the current frame full screen, stepped with the keys a presenter remote sends.

Each frame is laid out for the screen by itself, as large as it allows (the window and exports
keep the document's one type scale).

F5 or View → Present opens it; Left/Right, PageUp/PageDown, Space, Home/End step; Esc leaves.
A step too wide for the screen to reach a back row is shown as two slides, its first half then
its second ("… (1/2)", "… (2/2)"), or as three or four where two are not enough ("… (1/3)"):
the keys that step walk them too.
Clicking a query (its box in the arrows, or its row in a grid) or pressing 1–9 makes it the
receiver. It shows the window's own document state (the comparison while comparing), so the
window follows along.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence, QMouseEvent

from app.canvas import SLIDE
from app.canvas.arrows import AttentionArrows
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.view import CanvasView

if TYPE_CHECKING:
    from app.state.shell import Shell

NUMBER_KEYS = {getattr(Qt.Key, f"Key_{k}"): k - 1 for k in range(1, 10)}


class PresentationView(CanvasView):
    """A top-level canvas that always fits its frame, lays each frame out as large as that
    frame allows on this screen, and turns keys and clicks into steps and receivers."""

    frames_alone = True
    splits_steps = True
    says_how_to_look = False

    def __init__(self, presenter: Presenter) -> None:
        super().__init__(SLIDE)
        self.presenter = presenter
        self.view_box.setMouseEnabled(x=False, y=False)
        self.setStyleSheet(f"CanvasView {{ border: none; background: {SLIDE.background}; }}")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.presenter.key(Qt.Key(event.key())):
            super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closed by the window manager rather than Esc: leave as Esc does."""
        event.ignore()
        if self.presenter.view is self:
            self.presenter.leave()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        row = self.query_row_at(event.position().toPoint())
        if row is not None and event.button() == Qt.MouseButton.LeftButton:
            self.presenter.shell.state.set_receiver(row)
            return
        super().mousePressEvent(event)

    def query_row_at(self, point: QPoint) -> int | None:
        """The query row under a viewport ``point``: a query box of the arrows, or a row of a
        grid whose rows are the tokens."""
        scene_point = self.mapToScene(point)
        tokens = list(self.presenter.shell.state.trace.scenario.tokens)
        for item in self.scene().items(scene_point):
            local = item.mapFromScene(scene_point)
            if isinstance(item, AttentionArrows):
                for i in range(len(tokens)):
                    anchor = item.query_anchor(i)
                    if item.node_rect(anchor, left=True).contains(local):
                        return i
            elif isinstance(item, MatrixGrid) and list(item.spec.row_labels) == tokens:
                cell = item.cell_at(local)
                if cell is not None:
                    return cell[0]
        return None


class Presenter(QObject):
    """Opens and closes presentation mode for the window behind ``shell``.

    Attributes
    ----------
    action
        View → Present (F5).
    view
        The full-screen canvas while presenting, else ``None``.
    """

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.view: PresentationView | None = None
        self._closing: PresentationView | None = None
        self.part = 0
        """The part shown of a step split over several slides (−1: its last, until shown)."""
        self._arriving = 0
        """The half a step change by our keys arrives at (Left: the previous step's last)."""
        self.action = QAction(self)
        self.action.setShortcut(QKeySequence(Qt.Key.Key_F5))
        self.action.triggered.connect(self.present)
        shell.texts.bind(self.action.setText, lambda: self.tr("&Present"))
        shell.texts.bind(self.action.setToolTip, lambda: self.tr(
            "Show the frame full screen; arrows and Page keys step, Esc leaves"))
        shell.add_action(self.action)
        state = shell.state
        for signal in (state.traceChanged, state.viewChanged):
            signal.connect(self.refresh)
        state.stepChanged.connect(self._on_step)

    @property
    def presenting(self) -> bool:
        return self.view is not None

    def present(self) -> None:
        """Show the current frame full screen."""
        if self.view is None:
            self.view = PresentationView(self)
            self.view.setWindowTitle(self.shell.widget().windowTitle())
            self.view.resized.connect(self._on_resized)
            self.refresh()
            self.view.showFullScreen()
            self.view.activateWindow()
            self.view.setFocus()

    def _on_resized(self) -> None:
        """Full screen at last (or another screen): the sheet that fills it best."""
        if self.view is not None and self.view.wants_other_sheet():
            self.refresh()

    def _on_step(self, _step: int) -> None:
        """Another step: from its first half (or the half our keys arrive at)."""
        self.part = self._arriving
        self.refresh()

    def leave(self) -> None:
        """Close the full-screen view and return to the window."""
        view, self.view = self.view, None
        if view is not None:
            # hide, not close: pyqtgraph's close() drops the viewport, and Esc arrives inside
            # the viewport's own key event; keep a reference until Qt deletes the view
            self._closing = view
            view.hide()
            view.deleteLater()
            self.shell.widget().activateWindow()

    def refresh(self) -> None:
        """Draw the window's current step and view into the full-screen canvas."""
        if self.view is None:
            return
        shell, state = self.shell, self.shell.state
        options = replace(shell.frame_options(), aspect=self.view.aspect())
        if options.theme.name != "high-contrast":
            options = replace(options, theme=SLIDE)  # a projector wants the light slide look
        comparison = shell.comparison(options)
        if comparison is not None:
            self.view.show_item(comparison, fit=True)
        else:
            frame = self.view.show_frame(state.trace, state.step, options,
                                         shell.step_title(state.step), fit=True, part=self.part)
            self.part = frame.composition.part or 0

    def key(self, key: Qt.Key) -> bool:
        """Act on a key pressed while presenting; whether it was one of ours."""
        timeline = self.shell.stepping
        steps = {Qt.Key.Key_Right: (1, timeline.next), Qt.Key.Key_PageDown: (1, timeline.next),
                 Qt.Key.Key_Space: (1, timeline.next), Qt.Key.Key_Left: (-1, timeline.previous),
                 Qt.Key.Key_PageUp: (-1, timeline.previous), Qt.Key.Key_Home: (0, timeline.first),
                 Qt.Key.Key_End: (0, timeline.last)}
        if key == Qt.Key.Key_Escape:
            self.leave()
            return True
        if key in steps:
            way, move = steps[key]
            self._walk(way, move)
            return True
        if key in NUMBER_KEYS:
            row = NUMBER_KEYS[key]
            if row < self.shell.state.trace.scenario.n:
                self.shell.state.set_receiver(row)
            return True
        return False

    def _walk(self, way: int, move: Callable[[], None]) -> None:
        """One slide on (``way`` 1) or back (−1): a split step's next or previous part first,
        else the next step's first part or the previous step's last; ``way`` 0: ``move`` to
        the first or last step, its first part."""
        frame = self.view.frame if self.view is not None else None
        shown = frame.composition if isinstance(frame, FrameItem) else None
        half = None if shown is None else shown.part
        if way and shown is not None and half is not None and 0 <= half + way < shown.parts:
            self.part = half + way
            self.refresh()
            return
        step = self.shell.state.step
        self._arriving = -1 if way < 0 else 0
        try:
            move()
        finally:
            self._arriving = 0
        if way == 0 and self.shell.state.step == step and half:
            self.part = 0
            self.refresh()
