"""Copy the current frame to the clipboard as PNG and SVG (and as a plain image)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QMimeData, QSize
from PySide6.QtGui import QGuiApplication

from app.canvas import FrameOptions
from app.export.render import Frame, build_frame, png_bytes, render_image, svg_bytes
from app.export.settings import export_size
from engine import Trace

PNG_MIME = "image/png"
SVG_MIME = "image/svg+xml"


def frame_mime_data(trace: Trace, step_index: int, options: FrameOptions | None = None, *,
                    lang: str = "en") -> QMimeData:
    """The frame of ``step_index`` as ``image/png``, ``image/svg+xml`` and a native image.

    The frame keeps the window's light theme (high contrast if it is on; a dark window copies
    the slide theme), ``options.caption`` and ``options.transparent``, so a caption typed in the
    window is copied too.
    """
    base = options or FrameOptions()
    frame = build_frame(trace, step_index, base, lang=lang, caption=base.caption,
                        transparent=base.transparent)
    return mime_data(frame)


def mime_data(frame: Frame, size: QSize | None = None) -> QMimeData:
    """Any built frame (a step or a comparison) as ``image/png``, ``image/svg+xml``, an image,
    ``size`` pixels large: by default the size of every export, 1920 × 1080."""
    size = size or QSize(*export_size())
    image = render_image(frame, size)
    with ThreadPoolExecutor(1) as worker:  # PNG encoding while this thread paints the SVG
        png = worker.submit(png_bytes, image)
        svg = svg_bytes(frame, size)
        data = QMimeData()
        data.setData(PNG_MIME, png.result())
    data.setData(SVG_MIME, svg)
    data.setImageData(image)
    data.setText(frame.title)
    return data


def put_on_clipboard(data: QMimeData) -> None:
    """Hand ``data`` to the clipboard, which owns it from then on.

    Keeping a Python reference to data on the clipboard crashes the interpreter at exit
    (PySide6 6.11), so callers keep none.
    """
    QGuiApplication.clipboard().setMimeData(data)


def copy_frame(trace: Trace, step_index: int, options: FrameOptions | None = None, *,
               lang: str = "en") -> None:
    """Put the frame of ``step_index`` on the clipboard as PNG and SVG.

    The clipboard owns the data from then on; keeping a Python reference to it crashes the
    interpreter at exit (PySide6 6.11), so nothing is returned.
    """
    put_on_clipboard(frame_mime_data(trace, step_index, options, lang=lang))
