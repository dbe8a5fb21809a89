"""Frames for export: the canvas's own scene painted onto a QImage, an SVG or PDF pages.

Every export builds its frames with :func:`app.canvas.build_frame_scene` in a light theme (see
:func:`export_options`), so the exported picture is the one on the canvas. Every picture, SVG and
PDF page of an export has one size (1920 × 1080 by default): each frame is painted into it as
large as fits, centred. A ``QApplication`` must exist.

Into files the grids replay recorded ``QPicture`` s, and ``QPicture.play`` scales what it replays
by the target device's logical dpi over Qt's default dpi. So every device here paints at Qt's
default dpi (:func:`picture_dpi`, 96 on most systems) and gets its export dpi only afterwards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

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
from app.export.pdf_text import searchable_pdf
from app.export.safe import ExportError, PictureTooLargeError
from app.export.settings import CSS_DPI, EXPORT_THEMES
from app.export.words import title_for
from app.model.sheet import SHEET_HEIGHT
from app.texts.sentences import say
from engine import Trace

SVG_DESCRIPTION = "A frame exported by QKV Studio"
POINTS_PER_PIXEL = 72.0 / CSS_DPI
METRES_PER_INCH = 0.0254


def picture_dpi() -> int:
    """The dpi at which ``QPicture`` replays at its recorded size (Qt's default dpi)."""
    return QPicture().logicalDpiX()


def set_dpi(image: QImage, dpi: float) -> None:
    """Say ``dpi`` in the image's dots per metre (paint at :func:`picture_dpi`)."""
    dots_per_metre = round(dpi / METRES_PER_INCH)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)


@dataclass(frozen=True)
class PagePlace:
    """Which step a page shows, and which part (0-based) of how many pages the step is split
    over (``None``, 1: the whole step on one page)."""

    step: int
    part: int | None = None
    parts: int = 1

    @property
    def ends_step(self) -> bool:
        """Whether this page is its step's last."""
        return self.part is None or self.part == self.parts - 1


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
    background
        The colour under the frame and around it when it is fitted to another shape.
    transparent
        Leave the background unpainted.
    part, parts
        Which part (0-based) of how many pages the step is split over (``None``, 1: the whole
        step on one page).
    """

    step: int
    title: str
    scene: QGraphicsScene
    rect: QRectF
    background: QColor
    transparent: bool = False
    part: int | None = None
    parts: int = 1

    @property
    def place(self) -> PagePlace:
        """Where this frame is in its export, without its scene (a worker may hold it)."""
        return PagePlace(self.step, self.part, self.parts)

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
                lang: str = "en", caption: str = "", transparent: bool = False,
                part: int | None = None) -> Frame:
    """Build the frame of ``step`` (0-based) with its title in ``lang`` and ``caption`` under
    it; ``part``: the part of the step on one page, when it is split over several as
    presentation splits it (:func:`split_frames`)."""
    title = title_for(trace, step, lang)
    frame_options = export_options(options, caption=caption, transparent=transparent, lang=lang)
    scene, item = build_frame_scene(trace, step, frame_options, step_title=title, part=part)
    shown = item.composition
    return Frame(step=step, title=title, scene=scene, rect=_cover_overflow(scene, item),
                 background=frame_options.theme.color("background"), transparent=transparent,
                 part=shown.part, parts=shown.parts)


def split_frames(build: Callable[[int | None], Frame]) -> Iterator[Frame]:
    """A step's pages: its frame whole, or each part of it when a frame laid out by itself
    stays under a projector's legible size and is split as presentation splits it (``build``:
    the frame of a part; its first part says how many there are)."""
    first = build(0)
    yield first
    for part in range(1, first.parts):
        yield build(part)


def _cover_overflow(scene: QGraphicsScene, item: FrameItem) -> QRectF:
    """The frame's rectangle, widened if a child (a long caption) reaches past its right edge.

    The frame sizes itself without its caption line, so a caption longer than the picture would
    be cut off. The export widens its rectangle to the caption plus the frame's margin (thin
    for a frame laid out by itself) and paints the slide background under the extra strip.
    """
    rect = scene.sceneRect()
    right = item.mapRectToScene(item.childrenBoundingRect()).right() + item.area.left()
    if right <= rect.right() + 0.5:
        return rect
    rect.setRight(right)
    if not item.options.transparent:
        strip = QRectF(scene.sceneRect().right(), rect.top(), right - scene.sceneRect().right(),
                       rect.height())
        background = scene.addRect(strip, QPen(Qt.PenStyle.NoPen),
                                   QBrush(item.options.theme.color("background")))
        background.setZValue(-1.0)
    scene.setSceneRect(rect)
    return rect


def fit_rect(source: QRectF | QSizeF, target: QRectF) -> QRectF:
    """Where ``source`` goes inside ``target``: as large as fits, aspect kept, centred."""
    width, height = source.width(), source.height()
    factor = min(target.width() / width, target.height() / height)
    fitted = QRectF(0.0, 0.0, width * factor, height * factor)
    fitted.moveCenter(target.center())
    return fitted


def paint_frame(painter: QPainter, frame: Frame, page: QRectF, *, fill: bool = True) -> None:
    """Fill ``page`` with the frame's background (when ``fill``, unless transparent), then paint
    the frame into it as large as fits, centred: a frame of another shape gets even bands
    around it."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    if fill and not frame.transparent:
        painter.fillRect(page, frame.background)
    frame.scene.render(painter, fit_rect(frame.rect, page), frame.rect,
                       Qt.AspectRatioMode.IgnoreAspectRatio)


MAX_IMAGE_BYTES = 512 * 1024 * 1024
"""The largest picture drawn (4 bytes a pixel): Qt fails to allocate much larger images and the
next paint call then crashes the process, so the size is checked before anything is allocated."""


def check_image_size(width: int, height: int) -> None:
    """Refuse a picture larger than :data:`MAX_IMAGE_BYTES`, saying which width would fit.

    Raises
    ------
    PictureTooLargeError
        One line: the size asked for, the limit and the largest width of the same shape.
    """
    needed = width * height * 4
    if needed <= MAX_IMAGE_BYTES:
        return
    ratio = height / width  # exact enough for any size: both are whole numbers
    fits = max(1, math.floor(math.sqrt(MAX_IMAGE_BYTES / 4 / ratio)))
    while fits > 1 and fits * math.ceil(ratio * fits) * 4 > MAX_IMAGE_BYTES:
        fits -= 1
    asked, most = _mebibytes(needed), _mebibytes(MAX_IMAGE_BYTES)
    size = f"{_count(width)} × {_count(height)}"
    raise PictureTooLargeError(say("export.picture_too_large", size=size, asked=asked, most=most,
                                   fits=fits))


def _count(number: int, group: str = "") -> str:
    """A whole number as written (``group`` ``","``: with thousands separators); one of more
    than 15 digits by its first three and its power of ten (``1.92e+303``)."""
    digits = str(number)
    if len(digits) > 15:
        return f"{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"
    return f"{number:{group}}"


def _mebibytes(size: int) -> str:
    """``size`` bytes in whole MiB, with thousands separators (exact for any size)."""
    return f"{_count((size + 2**19) // 2**20, ',')} MiB"


def render_image(frame: Frame, size: QSize) -> QImage:
    """Paint ``frame`` into a new image of ``size`` pixels (see :func:`paint_frame`).

    Returns
    -------
    QImage
        ``Format_ARGB32_Premultiplied`` for a transparent frame, else ``Format_RGB32``; its dots
        per metre say 96 dpi for a sheet 1080 pixels tall, so the picture keeps its physical size
        whatever its pixel size.
    """
    check_image_size(size.width(), size.height())
    image_format = (QImage.Format.Format_ARGB32_Premultiplied if frame.transparent
                    else QImage.Format.Format_RGB32)
    image = QImage(size, image_format)
    if image.isNull():  # the system had no memory for it: painting on it would crash
        raise ExportError(say("export.no_memory", width=size.width(), height=size.height()))
    image.fill(QColor(Qt.GlobalColor.transparent) if frame.transparent else frame.background)
    set_dpi(image, picture_dpi())
    painter = QPainter(image)
    paint_frame(painter, frame, QRectF(0.0, 0.0, size.width(), size.height()), fill=False)
    painter.end()
    set_dpi(image, CSS_DPI * size.height() / SHEET_HEIGHT)
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


def svg_bytes(frame: Frame, size: QSize) -> bytes:
    """The frame as SVG ``size`` pixels large: paths and rectangles for shapes, ``<text>`` for
    text, fixed metadata. The viewBox is ``0 0 width height``, the frame fitted inside it."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setResolution(picture_dpi())
    generator.setSize(size)
    generator.setViewBox(QRectF(0.0, 0.0, size.width(), size.height()))
    generator.setTitle(frame.title)
    generator.setDescription(SVG_DESCRIPTION)
    painter = QPainter(generator)
    paint_frame(painter, frame, QRectF(0.0, 0.0, size.width(), size.height()))
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


def page_size(size: QSize) -> QPageSize:
    """A PDF page of ``size`` pixels at 96 to the inch (1920 × 1080 → 1440 × 810 pt)."""
    points = QSizeF(size.width() * POINTS_PER_PIXEL, size.height() * POINTS_PER_PIXEL)
    return QPageSize(points, QPageSize.Unit.Point, f"{size.width()}x{size.height()}",
                     QPageSize.SizeMatchPolicy.ExactMatch)


def pdf_bytes(frames: Iterable[Frame], size: QSize, *, title: str = "") -> bytes:
    """One vector page per frame (see :class:`PdfPages`), as bytes."""
    with PdfPages(size, title=title) as pages:
        for frame in frames:
            pages.add(frame)
        return pages.finish()


class PdfPages:
    """A PDF built in memory one page at a time: every page ``size`` pixels at 96 dpi, zero
    margins, each frame painted into it as large as fits.

    ``QPdfWriter`` never reports a full disk, so files get these bytes through the safe writer,
    which checks that they all arrived. Use as a context manager: leaving it ends the painter.
    """

    def __init__(self, size: QSize, *, title: str = "") -> None:
        self._data = QByteArray()
        self._buffer = QBuffer(self._data)
        self._buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self._writer = QPdfWriter(self._buffer)
        self._writer.setCreator(APP_NAME)
        self._writer.setTitle(title)
        dpi = picture_dpi()
        self._writer.setResolution(dpi)
        self._writer.setPageMargins(QMarginsF(0, 0, 0, 0))
        self._writer.setPageSize(page_size(size))
        factor = dpi / CSS_DPI
        self._page = QRectF(0.0, 0.0, size.width() * factor, size.height() * factor)
        self._painter: QPainter | None = None
        self.pages = 0

    def __enter__(self) -> PdfPages:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._end()

    def add(self, frame: Frame) -> None:
        """Paint ``frame`` on a new page."""
        if self._painter is None:
            self._painter = QPainter(self._writer)
        else:
            self._writer.newPage()
        paint_frame(self._painter, frame, self._page)
        self.pages += 1

    def finish(self) -> bytes:
        """End the document; its bytes, every font's text mended (see
        :func:`~app.export.pdf_text.searchable_pdf`)."""
        self._end()
        self._buffer.close()
        return searchable_pdf(bytes(self._data.data()))

    def _end(self) -> None:
        if self._painter is not None:
            self._painter.end()
            self._painter = None
