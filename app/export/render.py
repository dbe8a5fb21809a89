"""Frames for export: the canvas's own scene painted onto a QImage, an SVG or PDF pages.

Every export builds its frames with :func:`app.canvas.build_frame_scene` in the light slide theme,
so the exported picture is the one on the canvas. A ``QApplication`` must exist.

The canvas items replay recorded ``QPicture`` s, and ``QPicture.play`` scales what it replays by
the target device's logical dpi over Qt's default dpi. So every device here paints at Qt's default
dpi (:func:`picture_dpi`, 96 on most systems) and gets its export dpi only afterwards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QImageWriter,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QPicture,
)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from app import APP_NAME
from app.canvas import SLIDE, FrameItem, FrameOptions, build_frame_scene
from app.canvas.frame import MARGIN as FRAME_MARGIN
from app.export.settings import CSS_DPI, EXPORT_THEMES
from app.export.words import title_for
from engine import Trace

SVG_DESCRIPTION = "A frame exported by QKV Studio"
POINTS_PER_PIXEL = 72.0 / CSS_DPI
METRES_PER_INCH = 0.0254


def picture_dpi() -> int:
    """The dpi at which ``QPicture`` replays at its recorded size (Qt's default dpi)."""
    return QPicture().logicalDpiX()


def _set_dpi(image: QImage, dpi: float) -> None:
    dots_per_metre = round(dpi / METRES_PER_INCH)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)


@dataclass
class Frame:
    """One step's frame, built and ready to paint.

    Attributes
    ----------
    step
        0-based step index.
    title
        The step title in the export's language (the frame's heading uses it).
    scene
        The scene holding the frame; keep it alive while painting.
    rect
        The frame's rectangle in scene units (pixels at scale 1).
    """

    step: int
    title: str
    scene: QGraphicsScene
    rect: QRectF

    @property
    def width(self) -> float:
        return self.rect.width()

    @property
    def height(self) -> float:
        return self.rect.height()


def export_options(options: FrameOptions | None, *, caption: str = "",
                   transparent: bool = False, lang: str = "en") -> FrameOptions:
    """The view's options (receiver, head, arrows) in the slide theme with the export's extras.

    A dark theme never reaches an export (only the light themes of :data:`EXPORT_THEMES` do,
    else the slide theme), and the frame's words are in the export's language ``lang``,
    whatever the window shows.
    """
    base = options or FrameOptions()
    theme = base.theme if base.theme.name in EXPORT_THEMES else SLIDE
    return replace(base, theme=theme, caption=caption, transparent=transparent, lang=lang)


def build_frame(trace: Trace, step: int, options: FrameOptions | None = None, *,
                lang: str = "en", caption: str = "", transparent: bool = False) -> Frame:
    """Build the frame of ``step`` (0-based) with its title in ``lang`` and ``caption`` under it."""
    title = title_for(trace, step, lang)
    frame_options = export_options(options, caption=caption, transparent=transparent, lang=lang)
    scene, item = build_frame_scene(trace, step, frame_options, step_title=title)
    return Frame(step=step, title=title, scene=scene, rect=_cover_overflow(scene, item))


def _cover_overflow(scene: QGraphicsScene, item: FrameItem) -> QRectF:
    """The frame's rectangle, widened if a child (a long caption) reaches past its right edge.

    The frame sizes itself without its caption line, so a caption longer than the picture would
    be cut off. The export widens its rectangle to the caption plus the frame's margin and paints
    the slide background under the extra strip.
    """
    rect = scene.sceneRect()
    right = item.mapRectToScene(item.childrenBoundingRect()).right() + FRAME_MARGIN
    if right <= rect.right() + 0.5:
        return rect
    rect.setRight(right)
    if not item.options.transparent:
        strip = QRectF(scene.sceneRect().right(), rect.top(), right - scene.sceneRect().right(),
                       rect.height())
        background = scene.addRect(strip, QPen(Qt.PenStyle.NoPen),
                                   QBrush(SLIDE.color("background")))
        background.setZValue(-1.0)
    scene.setSceneRect(rect)
    return rect


def pixel_size(width: float, height: float, scale: float) -> QSize:
    """Whole pixels covering ``width × height`` scene units at ``scale`` (never below 1)."""
    return QSize(max(1, math.ceil(width * scale - 1e-6)), max(1, math.ceil(height * scale - 1e-6)))


def common_size(frames: Iterable[Frame], scale: float, multiple: int = 1) -> QSize:
    """One pixel size that holds every frame at ``scale``, rounded up to a ``multiple``."""
    frames = list(frames)
    size = pixel_size(max(f.width for f in frames), max(f.height for f in frames), scale)
    return QSize(_round_up(size.width(), multiple), _round_up(size.height(), multiple))


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def render_image(frame: Frame, scale: float, canvas: QSize | None = None, *,
                 transparent: bool = False) -> QImage:
    """Paint ``frame`` at ``scale`` into a new image, its top-left corner at the image's.

    Parameters
    ----------
    canvas
        The image size; by default the frame's own size at ``scale``. A larger canvas (a common
        size for all the steps of an animation) is filled with the slide background.
    transparent
        Fill with transparent pixels instead (the frame must have been built transparent too).

    Returns
    -------
    QImage
        ``Format_ARGB32_Premultiplied`` when transparent, else ``Format_RGB32``; its dots per
        metre say ``96 × scale`` dpi so the picture keeps the frame's physical size.
    """
    size = canvas or pixel_size(frame.width, frame.height, scale)
    image_format = (QImage.Format.Format_ARGB32_Premultiplied if transparent
                    else QImage.Format.Format_RGB32)
    image = QImage(size, image_format)
    image.fill(QColor(Qt.GlobalColor.transparent) if transparent else SLIDE.color("background"))
    _set_dpi(image, picture_dpi())
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    target = QRectF(0.0, 0.0, frame.width * scale, frame.height * scale)
    frame.scene.render(painter, target, frame.rect, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.end()
    _set_dpi(image, CSS_DPI * scale)
    return image


PNG_QUALITY = 80
"""Qt's PNG quality maps to zlib's level: 80 encodes a 1920-px frame about 20 % faster than the
default for files about 15 % larger (measured on a 64-position frame)."""


def png_bytes(image: QImage) -> bytes:
    """The image as PNG bytes: no text chunks or times, so equal images give equal bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QImageWriter(buffer, QByteArray(b"png"))
    writer.setQuality(PNG_QUALITY)
    if not writer.write(image):
        raise RuntimeError(f"Qt could not encode the frame as PNG: {writer.errorString()}")
    buffer.close()
    return bytes(data.data())


def svg_bytes(frame: Frame) -> bytes:
    """The frame as SVG: paths and rectangles for shapes, ``<text>`` for text, fixed metadata.

    Width and height are the frame's size at 96 dpi and the viewBox is the frame in scene units,
    so any reader draws it at the canvas's size.
    """
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setResolution(picture_dpi())
    generator.setSize(pixel_size(frame.width, frame.height, 1.0))
    generator.setViewBox(QRectF(0.0, 0.0, frame.width, frame.height))
    generator.setTitle(frame.title)
    generator.setDescription(SVG_DESCRIPTION)
    painter = QPainter(generator)
    _paint_vector(painter, frame, 1.0)
    painter.end()
    buffer.close()
    return _pixel_dimensions(bytes(data.data()))


def _pixel_dimensions(svg: bytes) -> bytes:
    """Qt states the size in millimetres; state it in pixels (96 dpi), equal to the viewBox."""
    match = re.search(rb'<svg width="[^"]*" height="[^"]*"\s+viewBox="0 0 ([0-9.]+) ([0-9.]+)"',
                      svg)
    if match is None:
        raise RuntimeError("unexpected SVG header from QSvgGenerator")
    width, height = match.group(1), match.group(2)
    header = b'<svg width="%s" height="%s"\n viewBox="0 0 %s %s"' % (width, height, width, height)
    return svg[: match.start()] + header + svg[match.end():]


def _paint_vector(painter: QPainter, frame: Frame, factor: float) -> None:
    """Paint the frame from (0, 0), ``factor`` device units per scene unit."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    target = QRectF(0.0, 0.0, frame.width * factor, frame.height * factor)
    frame.scene.render(painter, target, frame.rect, Qt.AspectRatioMode.IgnoreAspectRatio)


def page_size(frame: Frame) -> QPageSize:
    """A PDF page exactly the frame's size (96 scene units to the inch)."""
    points = QSizeF(frame.width * POINTS_PER_PIXEL, frame.height * POINTS_PER_PIXEL)
    return QPageSize(points, QPageSize.Unit.Point, f"step {frame.step + 1}",
                     QPageSize.SizeMatchPolicy.ExactMatch)


def write_pdf(path: Path, frames: Iterable[Frame], *, title: str = "",
              on_page: Callable[[], None] | None = None) -> int:
    """Write one vector page per frame, each page the size of its frame, zero margins.

    ``on_page`` is called after each page (progress; it may raise to stop). Returns the number of
    pages written.
    """
    writer = QPdfWriter(str(path))
    writer.setCreator(APP_NAME)
    writer.setTitle(title)
    dpi = picture_dpi()
    writer.setResolution(dpi)
    painter: QPainter | None = None
    pages = 0
    try:
        for frame in frames:
            writer.setPageMargins(QMarginsF(0, 0, 0, 0))
            writer.setPageSize(page_size(frame))
            if painter is None:
                painter = QPainter(writer)
            else:
                writer.newPage()
            _paint_vector(painter, frame, dpi / CSS_DPI)
            pages += 1
            if on_page is not None:
                on_page()
    finally:
        if painter is not None:
            painter.end()
    return pages
