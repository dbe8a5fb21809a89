"""The window's canvas: the current frame in a pyqtgraph view with zoom, pan and fit."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QWidget

from app.canvas.bars import ProbabilityBars
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.heat import span_text
from app.canvas.measuring_turn import Unmeasured, measuring_for
from app.canvas.picture import painting_on_screen
from app.canvas.side_by_side import CompareFrameItem
from app.canvas.theme import Theme, font
from app.model.sheet import nearest_aspect
from app.texts.words import say
from engine import Trace

FOCUS_FRAME = 3
"""Pixels of the frame drawn around the canvas while it has keyboard focus."""
SETTLE_AFTER_MS = 300
"""A frame refilled while typing may take other steps' sizes on trust (their numbers widened,
:func:`app.canvas.compose.compose`); once typing pauses this long they are measured, one step
per turn of the event loop, and the frame is laid out again if the document's scale moved."""
PICTURE_MARGIN = 0.015
"""Zoomed to the step, the picture is framed with this fraction of its size around it."""
CLICK_SLOP = 4
"""Pixels a press may move before its release and still be a click (more is a pan)."""
NOTE_INSET = 8
"""Pixels between the corner note and the viewport's edge."""
NOTE_STEP = 4
"""Pixels between the places tried for the corner note."""
MEASURING_TURN_MS = 40
"""How long a frame built in a turn of its own (:meth:`CanvasView.build_later`) measures steps
before it leaves the rest of its layout search to the next turns
(:mod:`app.canvas.measuring_turn`), the frame before it on screen meanwhile."""
MEASURING_TURNS = 100
"""The most turns one frame's layout search is spread over (4 s of them): past them it is built
whole. The steps measured are kept in caches of their own size (:data:`~app.canvas.compose.
CACHE_SIZE`): a search measuring more steps than they keep would lose its first ones and never
end."""


class CanvasView(pg.GraphicsView):
    """Shows one :class:`FrameItem`; rebuilding it is the only way the picture changes.

    Signals
    -------
    repainted
        Emitted after the viewport has painted a new frame (used to measure latency).
    resized
        Emitted after the view changed size.
    zoomed_changed
        Emitted with whether the view now zooms to the step's picture
        (:meth:`set_zoomed_to_step`): the frame is to be built again (laid out by itself
        while zoomed).
    barClicked(int)
        A bar of the probabilities was clicked (pressed and released on it, not panned): the
        vocabulary entry it shows.
    cellClicked(str, tuple)
        A cell of a grid of a trace array was clicked: the array's name and the cell's whole
        index in it (exercise mode hides it).
    """

    repainted = Signal()
    resized = Signal()
    zoomed_changed = Signal(bool)
    barClicked = Signal(int)
    cellClicked = Signal(str, tuple)
    frames_alone = False
    """Whether each frame is laid out as large as it allows by itself (presentation, the
    window in Focus) rather than at the document's one type scale."""
    splits_steps = False
    """Whether a step too wide for the screen is shown as two slides, one half at a time
    (presentation: its keys walk them)."""
    says_how_to_look = True
    """Whether the corner note tells how to see what is too small (scroll to zoom in, hover a
    heat map) and what a zoom shows: the window's, not a slide's, where nothing zooms or
    hovers."""

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Attention canvas")
        self.view_box = pg.ViewBox(lockAspect=True, invertY=True, enableMenu=False)
        self.view_box.setMouseMode(pg.ViewBox.PanMode)
        self.setCentralItem(self.view_box)
        scene = self.scene()
        for action in scene.contextMenu:  # pyqtgraph's own "Export..." (File → Export instead)
            action.deleteLater()
        scene.contextMenu = []
        self._frame: FrameItem | CompareFrameItem | None = None
        self._pending: Callable[[], None] | None = None
        self._pending_timer = QTimer(self)
        self._pending_timer.setSingleShot(True)
        self._pending_timer.timeout.connect(self._build_in_turn)
        self._in_turn = False
        """Whether a requested build runs in a turn of its own (:meth:`_build_in_turn`)."""
        self._turns = 0
        """The turns the requested build has had so far (:data:`MEASURING_TURNS`)."""
        self._unsettled: list[int] = []
        self._settle_timer = QTimer(self)
        self._settle_timer.setSingleShot(True)
        self._settle_timer.timeout.connect(self._settle_next)
        self.fitted = True
        """Whether the view shows the whole frame (no zoom or pan since the last fit): a resize
        then fits again."""
        self.zoomed_to_step = False
        """Whether fitting shows the step's picture, laid out as large as it allows by itself,
        filling the view (the heading, map and footer outside it), rather than the whole
        sheet."""
        self.view_box.sigRangeChangedManually.connect(self._moved_by_hand)
        self._pending_paint = False
        self._pressed: tuple[QPointF, int] | None = None
        """Where the left button went down on a bar, and its entry."""
        self._in_view: list[tuple[str, range, range]] = []
        self._note_place: tuple[object, QRect] | None = None
        """The corner note's last place, and what it was worked out for."""
        self._pressed_at: QPointF | None = None
        """Where the left button went down."""
        self.words_hidden = False
        """Whether the last paint left out numbers or words too small to read (a note then
        says to zoom in: colour is never the only cue)."""
        self.heat_hidden = False
        """Whether among them were a heat map's numbers (the note then says that hovering
        gives a cell's value: the heat maps' own notes say what a square is, not how to read
        one on screen)."""
        self.set_theme(theme)

    @property
    def frame(self) -> FrameItem | CompareFrameItem | None:
        """The frame on screen; a frame asked for (:meth:`build_later`) is built first."""
        self.build_pending()
        return self._frame

    def build_later(self, build: Callable[[], None]) -> None:
        """Run ``build`` (which shows a new frame) once control returns to the event loop, or
        as soon as the frame is asked for; a later request replaces an earlier one not yet
        run. Edits typed faster than frames are built so cost one build, of the newest
        document, and never queue stale pictures."""
        self._pending = build
        self._turns = 0
        self._pending_timer.start(0)

    def drop_pending(self) -> None:
        """Forget a requested build (a frame is being shown right now instead)."""
        self._pending = None
        self._pending_timer.stop()

    def build_pending(self) -> None:
        """Build the requested frame now, if one was requested."""
        build = self._pending
        if build is not None:
            self.drop_pending()
            build()

    def _build_in_turn(self) -> None:
        """Build the requested frame in this turn of the event loop, a new frame's layout
        search for :data:`MEASURING_TURN_MS` at most (and one step's measure): what is left is
        measured at the next turns, the frame before it on screen meanwhile, unless the frame
        is asked for (:attr:`frame`) or another requested; whole after
        :data:`MEASURING_TURNS`."""
        build = self._pending
        if build is None:
            return
        self.drop_pending()
        self._in_turn = self._turns < MEASURING_TURNS
        try:
            build()
        except Unmeasured:
            if self._pending is None:
                turns = self._turns + 1
                self.build_later(build)
                self._turns = turns
        finally:
            self._in_turn = False

    def set_theme(self, theme: Theme) -> None:
        """Colours of the view; keyboard focus shows as a thick frame in the theme's accent."""
        self.theme = theme
        self.setBackground(theme.background)
        self.setStyleSheet(f"CanvasView {{ border: {FOCUS_FRAME}px solid {theme.background}; }}"
                           f"CanvasView:focus {{ border: {FOCUS_FRAME}px solid {theme.accent}; }}")

    def show_frame(self, trace: Trace, step: int, options: FrameOptions, title: str | None,
                   fit: bool, part: int = 0) -> FrameItem:
        """Show ``trace``'s step; ``fit`` zooms to show it whole, otherwise the zoom is kept;
        ``part``: which half of a step split over two slides (:attr:`splits_steps`; −1 the
        last).

        After an edit of a value the frame on screen is refilled (its heading, map and footer
        kept; its picture too, unpainted, when the trace holds the same numbers for it);
        anything else builds a new frame."""
        frame = self._frame
        if (not fit and isinstance(frame, FrameItem)
                and frame.refill(trace, step, options, title)):
            self.drop_pending()
            if not frame.picture_kept:
                self._repaint_soon()
            self._settle_later(frame)
            return frame
        with measuring_for(MEASURING_TURN_MS) if self._in_turn else nullcontext():
            frame = FrameItem(trace, step, options, title,
                              alone=self.frames_alone or self.zoomed_to_step,
                              screen=self.viewport().height(),
                              part=part if self.splits_steps else None)
        self.show_item(frame, fit)
        return frame

    def _settle_later(self, frame: FrameItem) -> None:
        """Measure the steps ``frame`` took on trust once typing pauses."""
        self._unsettled = list(frame.composition.provisional)
        if self._unsettled:
            self._settle_timer.start(SETTLE_AFTER_MS)
        else:
            self._settle_timer.stop()

    def _settle_next(self) -> None:
        """Measure one step taken on trust; after the last, lay the frame out again if the
        exact composition differs."""
        frame = self._frame
        if self._pending is not None or not isinstance(frame, FrameItem):
            return  # a newer frame is coming, and settles itself
        if self._unsettled:
            frame.measure_step(self._unsettled.pop(0))
            self._settle_timer.start(0)
        elif frame.settle():
            self._repaint_soon()

    def show_item(self, item: FrameItem | CompareFrameItem, fit: bool) -> None:
        """Show ``item`` (a frame or a comparison) in place of the current one; the view fits it
        when asked, and whenever its size differs from the frame it replaces."""
        self.drop_pending()
        self._settle_timer.stop()
        old = self._frame
        self._frame = item
        self.view_box.addItem(item)
        resized = old is None or old.boundingRect() != item.boundingRect()
        if old is not None:
            self.view_box.removeItem(old)
            old.deleteLater()
        if fit or resized:
            self.fit()
        self._repaint_soon()

    def _repaint_soon(self) -> None:
        """Paint the frame at the next turn of the event loop (and say so when it is done)."""
        self._pending_paint = True
        self.viewport().update()

    def fit(self) -> None:
        """Zoom so the whole frame is visible, or its step's picture while
        :attr:`zoomed_to_step`."""
        frame = self._frame
        if frame is not None:
            rect = frame.boundingRect()
            if self.zoomed_to_step and isinstance(frame, FrameItem):
                rect = _picture_rect(frame)
            self.view_box.setRange(rect=rect, padding=0.0)
            self.view_box.updateMatrix()  # the items' zoom now, not at the next paint
        self.fitted = True

    def fit_whole(self) -> None:
        """Fit the whole frame, leaving the zoom to the step (View → Fit frame, Fit)."""
        self.set_zoomed_to_step(False)
        self.fit()

    def set_zoomed_to_step(self, on: bool) -> None:
        """Zoom to the step's picture (it then fills the view, at every step shown) or back
        to the whole frame."""
        if on != self.zoomed_to_step:
            self.zoomed_to_step = on
            self.zoomed_changed.emit(on)
        self.fit()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        """A double-click zooms to the step's picture, or back to the whole frame (on a bar
        it is a click, which picks the bar's token once: it does not zoom too)."""
        if event.button() == Qt.MouseButton.LeftButton \
                and self.bar_entry_at(event.position().toPoint()) is None:
            self.set_zoomed_to_step(not self.zoomed_to_step)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def _moved_by_hand(self, *_: object) -> None:
        self.fitted = False

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not hasattr(self, "fitted"):  # pyqtgraph resizes before __init__ is done
            return
        if self.fitted:
            self.fit()
        else:
            self.view_box.updateMatrix()  # the pan and zoom kept, on the new size now
        self.resized.emit()

    def bar_entry_at(self, point: QPoint) -> int | None:
        """The vocabulary entry of the probability bar under a viewport ``point``, if any."""
        scene_point = self.mapToScene(point)
        for item in self.scene().items(scene_point):
            if isinstance(item, ProbabilityBars):
                return item.entry_at(item.mapFromScene(scene_point))
        return None

    def cell_at(self, point: QPoint) -> tuple[str, tuple[int, ...]] | None:
        """The trace array and cell of the grid cell under a viewport ``point``, if any."""
        scene_point = self.mapToScene(point)
        for item in self.scene().items(scene_point):
            if isinstance(item, MatrixGrid) and item.source is not None:
                cell = item.cell_at(item.mapFromScene(scene_point))
                if cell is not None:
                    return item.source[0], item.source[1].index_of(*cell)
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._pressed_at = event.position() if event.button() == Qt.MouseButton.LeftButton \
            else None
        entry = self.bar_entry_at(event.position().toPoint()) \
            if event.button() == Qt.MouseButton.LeftButton else None
        self._pressed = None if entry is None else (event.position(), entry)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        pressed, self._pressed = self._pressed, None
        at, self._pressed_at = self._pressed_at, None
        if event.button() != Qt.MouseButton.LeftButton or at is None \
                or (event.position() - at).manhattanLength() > CLICK_SLOP:
            return
        if pressed is not None and self.bar_entry_at(event.position().toPoint()) == pressed[1]:
            self.barClicked.emit(pressed[1])
            return
        cell = self.cell_at(event.position().toPoint())
        if cell is not None:
            self.cellClicked.emit(*cell)

    def zoom_hint(self) -> str:
        """The note shown while numbers are too small to print."""
        hint: str = self.tr("Numbers too small to print at this size: scroll to zoom in")
        if self.heat_hidden:
            frame = self._frame
            hint += "\n" + say("frame.heat_hint", frame.options.lang if frame is not None else "en")
        return hint

    def in_view_note(self) -> str:
        """Which rows and columns of the heat maps the last paint showed cell by cell (zoomed
        in), one line each; empty when none."""
        frame = self._frame
        lang = frame.options.lang if frame is not None else "en"
        return "\n".join(say("frame.in_view", lang, title=title,
                             rows=span_text(rows.start, rows.stop - 1),
                             cols=span_text(cols.start, cols.stop - 1))
                         for title, rows, cols in dict.fromkeys(self._in_view))

    def _say_zoom_in(self, text: str) -> None:
        """A note in a corner of the viewport (:meth:`note_place`), in the theme's colours."""
        painter = QPainter(self.viewport())
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setFont(font(13))
            box = painter.fontMetrics().boundingRect(QRect(), 0, text).adjusted(-8, -5, 8, 5)
            box = self.note_place(box.size())
            painter.setPen(QPen(QColor(self.theme.accent), 1.5))
            painter.setBrush(QColor(self.theme.panel))
            painter.drawRoundedRect(box, 4, 4)
            painter.setPen(QColor(self.theme.text))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        finally:
            painter.end()

    def note_place(self, size: QSize) -> QRect:
        """Where a corner note of ``size`` goes: the lower right corner of the viewport, or
        the free place nearest it when the frame draws there (a fitted frame's margin or gap,
        rather than over a legend's numbers or a grid's note)."""
        area = self.viewport().rect().adjusted(NOTE_INSET, NOTE_INSET, -NOTE_INSET, -NOTE_INSET)
        frame = self._frame
        key = (id(frame), area, size, self.viewportTransform())
        if self._note_place is not None and self._note_place[0] == key:
            return self._note_place[1]
        drawn = [] if frame is None else [
            self.mapFromScene(item.sceneBoundingRect()).boundingRect()
            for item in self.items(area) if not item.childItems() and frame.isAncestorOf(item)]
        place = QRect(QPoint(*free_place(area, size, drawn)), size)
        self._note_place = (key, place)
        return place

    def aspect(self) -> str:
        """The sheet aspect that fills this view best."""
        viewport = self.viewport()
        return nearest_aspect(viewport.width(), viewport.height())

    def wants_other_sheet(self) -> bool:
        """Whether the frame shown sits on a sheet another shape than :meth:`aspect` (the view
        was resized past the middle between 4:3 and 16:9)."""
        frame = self._frame
        return frame is not None and frame.options.aspect != self.aspect()

    def paintEvent(self, event: QPaintEvent) -> None:
        with painting_on_screen() as painting:
            super().paintEvent(event)
        whole = event.rect().contains(self.viewport().rect())
        self.words_hidden = painting.words_hidden or (self.words_hidden and not whole)
        self.heat_hidden = painting.heat_hidden or (self.heat_hidden and not whole)
        if whole or painting.in_view:
            self._in_view = painting.in_view
        if self.says_how_to_look and (self.words_hidden or self._in_view):
            self._say_zoom_in(self.zoom_hint() if self.words_hidden else self.in_view_note())
        if self._pending_paint:
            self._pending_paint = False
            self.repainted.emit()


def free_place(area: QRect, size: QSize, drawn: list[QRect]) -> tuple[int, int]:
    """The top-left corner of a box of ``size`` inside ``area`` that overlaps none of the
    ``drawn`` rectangles, tried on a :data:`NOTE_STEP`-pixel lattice from the lower right
    corner (the lowest row first, then the rightmost); the lower right corner itself when no
    place is free."""
    right, bottom = area.right() + 1 - size.width(), area.bottom() + 1 - size.height()
    if right < area.left() or bottom < area.top() or not drawn:
        return right, bottom
    xs = np.r_[np.arange(right, area.left(), -NOTE_STEP), area.left()]
    ys = np.r_[np.arange(bottom, area.top(), -NOTE_STEP), area.top()]
    x, y = (corner.reshape(-1, 1) for corner in np.meshgrid(xs, ys))
    rects = np.array([(r.left(), r.top(), r.right() + 1, r.bottom() + 1) for r in drawn],
                     dtype=np.int64)
    apart = ((x + size.width() <= rects[:, 0]) | (x >= rects[:, 2])
             | (y + size.height() <= rects[:, 1]) | (y >= rects[:, 3]))
    free = np.flatnonzero(apart.all(axis=1))
    if not len(free):
        return right, bottom
    return int(x[free[0], 0]), int(y[free[0], 0])


def _picture_rect(frame: FrameItem) -> QRectF:
    """Where ``frame``'s step picture lies in the frame, with a small margin around it."""
    body = frame.body
    rect = frame.mapRectFromItem(body, body.boundingRect())
    margin = PICTURE_MARGIN * max(rect.width(), rect.height())
    return rect.adjusted(-margin, -margin, margin, margin)
