"""The one painter: a frame for (trace, step, options), shown in the window or exported."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QPainter
from PySide6.QtWidgets import QGraphicsObject, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from app.canvas.context import FrameOptions, LayoutContext
from app.canvas.layout import TextItem, items_of
from app.canvas.route_map import route_map
from app.canvas.steps import lay_out_step
from app.canvas.worked_row import shows_worked_row, worked_row
from app.texts.frame_words import frame_word
from engine import Trace

T = TypeVar("T")

MARGIN = 28.0
HEADER_GAP = 18.0


class Sheet(QGraphicsObject):
    """A whole picture: a rectangle in the theme's background (unless transparent) holding
    everything drawn on it. Subclasses set ``options`` and ``_rect``."""

    options: FrameOptions
    _rect: QRectF

    def boundingRect(self) -> QRectF:
        return self._rect

    def items_of(self, kind: type[T]) -> list[T]:
        """Every item of one kind on this sheet (grids, arrows …), breadth first."""
        return items_of(self, kind)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self.options.transparent:
            painter.fillRect(self._rect, QBrush(self.options.theme.color("background")))


class FrameItem(Sheet):
    """A whole frame: step title, document title, the step's picture, reads/writes, caption."""

    def __init__(self, trace: Trace, step_index: int, options: FrameOptions | None = None,
                 step_title: str | None = None) -> None:
        super().__init__()
        self.options = options or FrameOptions()
        self.trace = trace
        self.step_index = max(0, min(len(trace.steps) - 1, step_index))
        step = trace.steps[self.step_index]
        self.context = LayoutContext(trace, self.options)
        theme = self.options.theme
        lang = self.options.lang
        heading = frame_word(lang, "heading", n=self.step_index + 1, count=len(trace.steps),
                             title=step_title or step.title)
        self.heading = TextItem(heading, theme, size=22, bold=True)
        self.heading.setParentItem(self)
        self.heading.setPos(MARGIN, MARGIN)
        subtitle = TextItem(trace.scenario.title, theme, size=14, role="muted")
        subtitle.setParentItem(self)
        subtitle.setPos(MARGIN, MARGIN + self.heading.boundingRect().height())
        body_top = subtitle.pos().y() + subtitle.boundingRect().height() + HEADER_GAP
        self.route_map = route_map(self.context, step) if self.options.route_map else None
        if self.route_map is not None:
            self.route_map.setParentItem(self)
            self.route_map.setPos(MARGIN, body_top)
            body_top += self.route_map.boundingRect().height() + HEADER_GAP
        self.body = _Group()
        self.body.setParentItem(self)
        self.body.setPos(MARGIN, body_top)
        covered = lay_out_step(self.context, step, self.body)
        self.worked_row = worked_row(self.context, step) if shows_worked_row(
            self.options.worked_row, trace.scenario.n) else None
        if self.worked_row is not None:
            self.worked_row.setParentItem(self.body)
            self.worked_row.setPos(0, covered.bottom() + HEADER_GAP)
            covered = covered.united(self.worked_row.mapRectToParent(
                self.worked_row.boundingRect()))
        y = body_top + covered.bottom() + HEADER_GAP
        nothing = frame_word(lang, "nothing")
        flow = (f"{frame_word(lang, 'reads')} {', '.join(step.reads) or nothing}     "
                f"{frame_word(lang, 'writes')} {', '.join(step.writes) or nothing}")
        footer = TextItem(flow, theme, size=13, role="muted")
        footer.setParentItem(self)
        footer.setPos(MARGIN, y)
        y += footer.boundingRect().height()
        widths = [covered.width(), self.heading.boundingRect().width(),
                  self.route_map.boundingRect().width() if self.route_map is not None else 0.0,
                  subtitle.boundingRect().width(), footer.boundingRect().width()]
        if self.options.caption:
            caption = TextItem(self.options.caption, theme, size=16)
            caption.setParentItem(self)
            caption.setPos(MARGIN, y + 6)
            y += caption.boundingRect().height() + 6
            widths.append(caption.boundingRect().width())
        width = max(widths)
        self._rect = QRectF(0, 0, width + 2 * MARGIN, y + MARGIN)



class _Group(QGraphicsObject):
    """An invisible parent that only positions its children."""

    def boundingRect(self) -> QRectF:
        return self.childrenBoundingRect()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return


def build_frame_scene(trace: Trace, step_index: int, options: FrameOptions | None = None,
                      step_title: str | None = None) -> tuple[QGraphicsScene, FrameItem]:
    """A scene holding one frame, its scene rectangle fitted to the frame (for exports)."""
    scene = QGraphicsScene()
    frame = FrameItem(trace, step_index, options, step_title)
    scene.addItem(frame)
    scene.setSceneRect(frame.boundingRect())
    return scene, frame
