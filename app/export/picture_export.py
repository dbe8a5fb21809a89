"""Exporting a picture of the whole document — the model view (:mod:`app.canvas.model_view`) or
the logit lens (:mod:`app.canvas.lens_view`) — as one PNG, SVG, PDF page or slide.

The picture is the window's own item in a scene, painted into the export's size (1920 × 1080
by default) as large as fits, centred, through the frame exporters of :mod:`app.export.render`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from app.canvas.theme import Theme
from app.export.deck import (
    SLIDE_HEIGHT_EMU,
    Box,
    Picture,
    Slide,
    Text,
    slide_width_emu,
    write_pptx,
)
from app.export.render import Frame, PdfPages, png_bytes, render_image, svg_bytes
from app.export.safe import atomic_file, write_file
from app.export.slides import marks_typeface, typeface
from app.model.sheet import sheet_size

PICTURE_FORMATS = ("png", "svg", "pdf", "pptx")
TITLE_POINTS = 20.0
TITLE_EMU = 640_000


def picture_frame(item: QGraphicsItem, title: str, theme: Theme, *,
                  transparent: bool = False) -> Frame:
    """``item`` in a scene of its own, ready to paint."""
    scene = QGraphicsScene()
    scene.addItem(item)
    rect = item.boundingRect()
    scene.setSceneRect(rect)
    return Frame(step=0, title=title, scene=scene, rect=rect,
                 background=theme.color("background"), transparent=transparent)


def write_picture(frame: Frame, theme: Theme, fmt: str, out: Path, size: QSize, *,
                  aspect: str = "16:9", transparent: bool = False) -> Path:
    """Write ``frame`` as ``fmt`` (one of :data:`PICTURE_FORMATS`) to ``out``."""
    if fmt == "png":
        write_file(out, png_bytes(render_image(frame, size)))
    elif fmt == "svg":
        write_file(out, svg_bytes(frame, size))
    elif fmt == "pdf":
        with PdfPages(size, title=frame.title) as pages:
            pages.add(frame)
            write_file(out, pages.finish())
    else:
        sheet = sheet_size(aspect)
        width = slide_width_emu(sheet)
        title = Text(Box(0, 0, width, TITLE_EMU), frame.title, TITLE_POINTS, theme.text)
        box = Box(0, TITLE_EMU, width, SLIDE_HEIGHT_EMU - TITLE_EMU)
        shape = QSize(size.width(), round(size.width() * box.height / box.width))
        picture = Picture(box, png_bytes(render_image(frame, shape)), frame.title)
        slide = Slide(title, [picture], "", "" if transparent else theme.background)
        with atomic_file(out) as temp:
            write_pptx(temp, [slide], sheet=sheet, font=typeface(),
                       marks_font=marks_typeface(), title=frame.title)
    return out
