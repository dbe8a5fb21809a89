"""A picture of the whole document in a window of its own (View → Model view, View → Logit lens).

The picture is the item every export paints, in a scene; the wheel zooms about the pointer, and
the window opens fitted to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QWheelEvent
from PySide6.QtWidgets import (
    QDialog,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from app.state.shell import Shell

ZOOM_STEP = 1.25


class ZoomingView(QGraphicsView):
    """A graphics view the wheel zooms about the pointer."""

    def wheelEvent(self, event: QWheelEvent) -> None:
        factor = ZOOM_STEP if event.angleDelta().y() > 0 else 1 / ZOOM_STEP
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.scale(factor, factor)


class PictureWindow(QDialog):
    """``item`` titled ``title`` on ``background``, in a window 0.9 × ``shell``'s."""

    def __init__(self, shell: Shell, item: QGraphicsItem, title: str, background: QColor,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shell = shell
        self.item = item
        self.setWindowTitle(title)
        self.scene = QGraphicsScene(self)
        self.scene.addItem(item)
        self.scene.setBackgroundBrush(background)
        self.view = ZoomingView(self.scene, self)
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.view.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.view.setMouseTracking(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.resize(shell.widget().size() * 0.9)

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        self.view.fitInView(self.item, Qt.AspectRatioMode.KeepAspectRatio)
