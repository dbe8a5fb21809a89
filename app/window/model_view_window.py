"""View → Model view: the document's every layer × head in a window of its own.

The picture is :class:`~app.canvas.model_view.ModelViewItem`, the item every export paints;
the wheel zooms (the shares print once a cell is large enough), hovering a cell says its share,
and a click on a head opens that layer's shares step with that head in the main window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QWheelEvent
from PySide6.QtWidgets import QDialog, QGraphicsScene, QGraphicsView, QVBoxLayout, QWidget

from app.canvas.model_view import ModelViewItem, ModelViewOptions
from app.i18n import current_language
from app.window.appearance import appearance

if TYPE_CHECKING:
    from app.state.shell import Shell

ZOOM_STEP = 1.25


class ZoomingView(QGraphicsView):
    """A graphics view the wheel zooms about the pointer."""

    def wheelEvent(self, event: QWheelEvent) -> None:
        factor = ZOOM_STEP if event.angleDelta().y() > 0 else 1 / ZOOM_STEP
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.scale(factor, factor)


class ModelViewWindow(QDialog):
    """The model view of ``shell``'s document as it is now, with its receiver."""

    def __init__(self, shell: Shell, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shell = shell
        state = shell.state
        options = ModelViewOptions(receiver=state.receiver, lang=current_language(),
                                   theme=appearance().canvas_theme())
        self.item = ModelViewItem(state.trace, options, open_head=self.open_head)
        self.setWindowTitle(self.item.title())
        self.scene = QGraphicsScene(self)
        self.scene.addItem(self.item)
        self.scene.setBackgroundBrush(options.theme.color("background"))
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

    def open_head(self, step: int, head: int) -> None:
        """Show shares step ``step`` with head ``head`` (0-based) in the main window."""
        state = self.shell.state
        state.set_head(head if state.trace.scenario.most_heads > 1 else None)
        state.set_step(step)
