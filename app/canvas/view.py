"""The window's canvas: the current frame in a pyqtgraph view with zoom, pan and fit."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Signal
from PySide6.QtWidgets import QWidget

from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.theme import Theme
from engine import Trace


class CanvasView(pg.GraphicsView):
    """Shows one :class:`FrameItem`; rebuilding it is the only way the picture changes.

    Signals
    -------
    repainted
        Emitted after the viewport has painted a new frame (used to measure latency).
    """

    repainted = Signal()

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Attention canvas")
        self.view_box = pg.ViewBox(lockAspect=True, invertY=True, enableMenu=False)
        self.view_box.setMouseMode(pg.ViewBox.PanMode)
        self.setCentralItem(self.view_box)
        self.frame: FrameItem | None = None
        self._pending_paint = False
        self.set_theme(theme)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.setBackground(theme.background)

    def show_frame(self, trace: Trace, step: int, options: FrameOptions, title: str,
                   fit: bool) -> FrameItem:
        """Replace the frame; ``fit`` zooms to show it whole, otherwise the zoom is kept."""
        old = self.frame
        self.frame = FrameItem(trace, step, options, title)
        self.view_box.addItem(self.frame)
        if old is not None:
            self.view_box.removeItem(old)
            old.deleteLater()
        if fit or old is None:
            self.fit()
        self._pending_paint = True
        self.viewport().update()
        return self.frame

    def fit(self) -> None:
        """Zoom so the whole frame is visible."""
        if self.frame is not None:
            self.view_box.setRange(rect=self.frame.boundingRect(), padding=0.02)

    def frame_point(self, point: QPointF) -> QPointF:
        """A frame coordinate mapped to viewport pixels (for tests and tooltips)."""
        assert self.frame is not None
        scene_point = self.frame.mapToScene(point)
        return QPointF(self.mapFromScene(scene_point))

    def paintEvent(self, event: object) -> None:  # type: ignore[override]
        super().paintEvent(event)  # type: ignore[arg-type]
        if self._pending_paint:
            self._pending_paint = False
            self.repainted.emit()
