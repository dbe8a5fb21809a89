"""A frame as a PowerPoint slide (:class:`app.export.deck.Slide`): editable, or one picture.

The frame is fitted to the slide (a 16:9 frame fills a 16:9 slide) and its heading becomes the
slide's title, said once. Editable slides rebuild what PowerPoint can hold natively, each where the
frame draws it:

- matrices as tables: every cell's printed number, fill and ink; masked cells hatched grey;
- attention arrows as connectors with arrowheads, their share labels as text boxes;
- the frame's words (titles, operators, notes, captions) as text boxes.

What has no native form (heat maps of large matrices, bars, head bands, the query and key boxes)
becomes a picture of just that item, placed where it is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontDatabase, QFontInfo, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from app.canvas import FrameItem
from app.canvas.arrows import SHARE_SIZE, AttentionArrows
from app.canvas.grid import MARK_SIZE, NUMBER_SIZE, SWATCH, MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.theme import FONT_FAMILIES, LATIN_WIDTH_MARKS, font, narrow_marks
from app.export.deck import (
    EMU_PER_POINT,
    SLIDE_HEIGHT_EMU,
    Box,
    Cell,
    Connector,
    Picture,
    Rectangle,
    Shape,
    Slide,
    Table,
    Text,
    Triangle,
    slide_width_emu,
)
from app.export.render import Frame, fit_rect, picture_dpi, png_bytes, render_image, set_dpi

TEXT_SLACK = 1.1
MASKED_ALPHA = 0.35
"""The canvas shades masked cells with the masked grey at this opacity (and hatches them)."""
TITLE_SIZE, LABEL_SIZE = 14, 12
"""Pixel sizes of a grid's title and of its labels and note (before the frame's scale)."""
HIGHLIGHT_WIDTH = 3.0
"""Width of the accent outline around a highlighted row (the receiver), scene units."""
LINE_WIDTH = 1.0
"""Width of a grid's cell lines and of the border of its head's colour square, scene units."""


class _Placement:
    """Scene units → slide EMU (the frame fitted to the slide) and → picture pixels."""

    def __init__(self, frame: Frame, sheet: tuple[float, float], size: QSize) -> None:
        self.slide_width = slide_width_emu(sheet)
        slide = QRectF(0.0, 0.0, self.slide_width, SLIDE_HEIGHT_EMU)
        self.origin = frame.rect.topLeft()
        self.fitted = fit_rect(frame.rect, slide)
        self.emu = self.fitted.width() / frame.rect.width()
        self.pixels = fit_rect(frame.rect, QRectF(0, 0, size.width(), size.height())).width() \
            / frame.rect.width()

    def point(self, point: QPointF) -> tuple[int, int]:
        return (round(self.fitted.left() + (point.x() - self.origin.x()) * self.emu),
                round(self.fitted.top() + (point.y() - self.origin.y()) * self.emu))

    def box(self, rect: QRectF) -> Box:
        left, top = self.point(rect.topLeft())
        return Box(left, top, round(rect.width() * self.emu), round(rect.height() * self.emu))

    def points(self, pixel_size: float) -> float:
        """A font's size in points for ``pixel_size`` scene units."""
        return round(pixel_size * self.emu / EMU_PER_POINT, 1)


def typeface() -> str:
    """The family the canvas's text is really drawn in here (its first installed choice)."""
    return QFontInfo(font()).family()


def marks_typeface() -> str:
    """The family Latin text's curly quotes and middle dots are set in: the first installed
    family of the frame's fonts that is not a CJK face. The CJK face draws them full-width
    unless asked for narrow ones (the canvas asks; a deck cannot), so they would widen every
    English line and push it out of its box."""
    return next((family for family in FONT_FAMILIES
                 if "CJK" not in family and QFontDatabase.hasFamily(family)), "")


def _narrow(text: str) -> str:
    """The marks of ``text`` a deck sets in :func:`marks_typeface`: those the canvas narrows."""
    return LATIN_WIDTH_MARKS if narrow_marks(text) else ""


def frame_item(frame: Frame) -> FrameItem:
    """The frame item at the top of ``frame``'s scene."""
    for item in frame.scene.items():
        if isinstance(item, FrameItem):
            return item
    raise ValueError(f"step {frame.step + 1}: the scene holds no frame")


def _title(item: FrameItem, place: _Placement) -> Text:
    """The heading's text where the frame draws it, its box reaching the slide's right edge
    (another typeface may set the words a little wider)."""
    heading = item.heading
    box = place.box(heading.sceneBoundingRect())
    box = replace(box, width=max(box.width, place.slide_width - box.left - box.left))
    return Text(box, heading.text, place.points(heading.font.pixelSize()), heading.color,
                bold=heading.font.bold(), narrow=_narrow(heading.text))


def picture_slide(frame: Frame, notes: str, sheet: tuple[float, float], size: QSize) -> Slide:
    """The whole frame as one picture filling the slide, its heading the slide's title."""
    item = frame_item(frame)
    place = _Placement(frame, sheet, size)
    item.heading.setVisible(False)
    try:
        png = png_bytes(render_image(frame, size))
    finally:
        item.heading.setVisible(True)
    whole = Box(0, 0, slide_width_emu(sheet), SLIDE_HEIGHT_EMU)
    return Slide(_title(item, place), [Picture(whole, png, frame.title)], notes,
                 "" if frame.transparent else frame.background.name())


def editable_slide(frame: Frame, notes: str, sheet: tuple[float, float], size: QSize) -> Slide:
    """The frame as native tables, connectors and text boxes (pictures for the rest)."""
    item = frame_item(frame)
    place = _Placement(frame, sheet, size)
    shapes: list[Shape] = []
    for child in _children(item):
        if child is not item.heading:
            shapes.extend(_shapes(child, place))
    return Slide(_title(item, place), shapes, notes,
                 "" if frame.transparent else frame.background.name())


def _children(item: QGraphicsItem) -> list[QGraphicsItem]:
    """Visible children in drawing order (z value, then the order they were added)."""
    return sorted((child for child in item.childItems() if child.isVisible()),
                  key=lambda child: child.zValue())


def _shapes(item: QGraphicsItem, place: _Placement) -> Iterator[Shape]:
    """The slide shapes of ``item`` and everything drawn on it, in drawing order."""
    if isinstance(item, TextItem):
        yield _text(item, place)
    elif isinstance(item, MatrixGrid) and all(item.prints_numbers(r)
                                              for r in range(item.spec.values.shape[0])):
        yield from _grid(item, place)
    elif isinstance(item, AttentionArrows):
        yield from _arrows(item, place)
    else:
        picture = _item_picture(item, place)
        if picture is not None:
            yield picture
    for child in _children(item):
        yield from _shapes(child, place)


def _scale(item: QGraphicsItem) -> float:
    """How much larger than its own units the item is drawn (the frame scales its picture)."""
    return item.sceneTransform().m11()


def _text(item: TextItem, place: _Placement) -> Text:
    """A text box where the item is, a tenth wider where the slide has room (a reader's
    typeface may set the words a little wider)."""
    box = place.box(item.sceneBoundingRect())
    width = max(box.width, min(round(box.width * TEXT_SLACK), place.slide_width - box.left))
    return Text(replace(box, width=width), item.text,
                place.points(item.font.pixelSize() * _scale(item)), item.color,
                bold=item.font.bold(), narrow=_narrow(item.text))


def _grid(grid: MatrixGrid, place: _Placement) -> Iterator[Shape]:
    """Title, table (column labels over the cells), row labels and note of one grid.

    Row labels are text boxes beside the table: a table cell that narrow wraps its label in
    LibreOffice, whatever the text frame says."""
    theme, spec = grid.theme, grid.spec
    rows, cols = spec.values.shape
    scale = _scale(grid)
    muted, ink = theme.color("muted").name(), theme.color("text").name()
    title = grid.mapRectToScene(grid.title_rect())
    line_width = max(1, round(LINE_WIDTH * scale * place.emu))
    if spec.swatch:
        yield Rectangle(place.box(grid.mapRectToScene(SWATCH)), ink, line_width,
                        QColor(spec.swatch).name())
    yield Text(place.box(title), grid.title_text, place.points(TITLE_SIZE * scale), ink,
               bold=True, narrow=_narrow(grid.title_text))
    header = grid.col_label_rect(0)
    widths = [grid.cell_rect(0, c).width() for c in range(cols)]
    heights = [header.height()] + [grid.cell_rect(r, 0).height() for r in range(rows)]
    label_points = place.points(LABEL_SIZE * scale)
    table_rows = [[Cell(str(label), muted, lines=False, points=label_points,
                        narrow=_narrow(str(label))) for label in spec.col_labels]]
    small = grid.small_cells  # rare wide cells, printed smaller
    table_rows += [[Cell(grid.cell_text(r, c), grid.cell_ink(r, c), _fill(grid, r, c),
                         hatch=_hatch(grid, r, c),
                         points=place.points(small[r, c] * scale) if (r, c) in small else 0.0)
                    for c in range(cols)] for r in range(rows)]
    emu_widths = [round(w * scale * place.emu) for w in widths]
    emu_heights = [round(h * scale * place.emu) for h in heights]
    left, top = place.point(grid.mapToScene(header.topLeft()))
    yield Table(Box(left, top, sum(emu_widths), sum(emu_heights)), table_rows, emu_widths,
                emu_heights, place.points(NUMBER_SIZE * scale), theme.color("grid_line").name(),
                line_width, name=spec.title)
    yield from _marks(grid, place)
    for r, label in enumerate(spec.row_labels):
        yield Text(place.box(grid.mapRectToScene(grid.row_label_rect(r))), str(label),
                   label_points, muted, right=True, narrow=_narrow(str(label)))
    for r in sorted(row for row in spec.highlight_rows if 0 <= row < rows):
        band = grid.cell_rect(r, 0).united(grid.cell_rect(r, cols - 1))
        yield Rectangle(place.box(grid.mapRectToScene(band)), theme.color("accent").name(),
                      round(HIGHLIGHT_WIDTH * scale * place.emu))
    if grid.note_text:
        yield Text(place.box(grid.mapRectToScene(grid.note_rect())), grid.note_text,
                   place.points(LABEL_SIZE * scale), muted, narrow=_narrow(grid.note_text))


def _marks(grid: MatrixGrid, place: _Placement) -> Iterator[Triangle]:
    """The corner triangle of each marked cell (ReLU's zeroed units), in the ink its number is
    printed in, or the accent on a masked cell, as the canvas draws it."""
    spec = grid.spec
    if spec.marked is None:
        return
    for r, c in np.argwhere(spec.marked).tolist():
        corner = grid.cell_rect(r, c).topLeft()
        legs = (corner, corner + QPointF(MARK_SIZE, 0), corner + QPointF(0, MARK_SIZE))
        masked = spec.masked is not None and bool(spec.masked[r, c])
        ink = grid.theme.color("accent").name() if masked else grid.cell_ink(r, c)
        a, b, d = (place.point(grid.mapToScene(point)) for point in legs)
        yield Triangle((a, b, d), ink)


def _fill(grid: MatrixGrid, row: int, col: int) -> str:
    """A cell's fill: its colour, or for a masked cell the light grey the canvas shades it."""
    if grid.spec.masked is None or not grid.spec.masked[row, col]:
        return grid.cell_fill(row, col)
    grey, paper = grid.theme.color("masked"), grid.theme.color("background")
    mixed = [round(MASKED_ALPHA * a + (1 - MASKED_ALPHA) * b) for a, b in
             zip((grey.red(), grey.green(), grey.blue()),
                 (paper.red(), paper.green(), paper.blue()), strict=True)]
    return QColor(*mixed).name()


def _hatch(grid: MatrixGrid, row: int, col: int) -> str:
    """The colour of a masked cell's hatching (the masked grey, as the canvas hatches it);
    ``""`` for a cell the mask leaves."""
    masked = grid.spec.masked is not None and bool(grid.spec.masked[row, col])
    return grid.theme.color("masked").name() if masked else ""


def _arrows(arrows: AttentionArrows, place: _Placement) -> Iterator[Shape]:
    """The words and boxes as a picture laid out as the arrows, then one connector per drawn
    arrow and its label."""
    bare = AttentionArrows(arrows.spec, arrows.theme, arrows.title, arrows.lang,
                           words_only=True)
    bare.setTransform(arrows.sceneTransform())
    scale = _scale(arrows)
    picture = _item_picture(bare, place)
    if picture is not None:
        yield picture
    labels = []
    for line in arrows.connectors():
        start = place.point(arrows.mapToScene(line.start))
        end = place.point(arrows.mapToScene(line.end))
        yield Connector(start, end, max(1, round(line.width * scale * place.emu)), line.color,
                        line.opacity)
        if line.label:
            labels.append(Text(place.box(arrows.mapRectToScene(line.label_rect)), line.label,
                               place.points(SHARE_SIZE * scale),
                               arrows.theme.color("text").name(),
                               bold=True, centred=True,
                               fill=arrows.theme.color("background").name(),
                               outline=line.color))
    yield from labels


def _item_picture(item: QGraphicsItem, place: _Placement) -> Picture | None:
    """A picture of what ``item`` itself paints (not its children), or ``None`` if nothing."""
    rect = item.sceneBoundingRect()
    factor = place.pixels
    size = QSize(max(1, math.ceil(rect.width() * factor)),
                 max(1, math.ceil(rect.height() * factor)))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(Qt.GlobalColor.transparent))
    set_dpi(image, picture_dpi())
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.scale(factor, factor)
    painter.translate(-rect.topLeft())
    painter.setTransform(item.sceneTransform(), True)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    if not _painted(image):
        return None
    return Picture(place.box(rect), png_bytes(image), type(item).__name__)


def _painted(image: QImage) -> bool:
    """Whether any pixel of a transparent image was painted."""
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return bool(data.any())
