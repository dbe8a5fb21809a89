"""Copy the current frame to the clipboard as PNG and SVG."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import numpy as np
from PIL import Image
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.canvas import FrameOptions
from app.export.clipboard import PNG_MIME, SVG_MIME, copy_frame
from engine import Trace
from tests.export.conftest import assert_not_blank


def test_copy_frame_puts_png_and_svg_on_the_clipboard(qapp: QApplication, f11: Trace) -> None:
    copy_frame(f11, 3, FrameOptions(caption="shares of 爱"))
    data = QGuiApplication.clipboard().mimeData()
    assert data is not None
    assert data.hasFormat(PNG_MIME) and data.hasFormat(SVG_MIME)
    with Image.open(io.BytesIO(bytes(data.data(PNG_MIME).data()))) as image:
        assert image.format == "PNG"
        assert image.size == (1920, 1080), "the size of every export"
        rgba = np.asarray(image.convert("RGBA"))
    assert_not_blank(rgba, colours=100, dark=1000)
    root = ET.fromstring(bytes(data.data(SVG_MIME).data()))
    words = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "爱" in words and "0.804" in words
    assert "".join(words).endswith("shares of 爱")
    assert data.hasImage()
    assert data.text() == f11.steps[3].title


def test_copy_keeps_transparency(qapp: QApplication, f11: Trace) -> None:
    copy_frame(f11, 0, FrameOptions(transparent=True))
    data = QGuiApplication.clipboard().mimeData()
    assert data is not None
    with Image.open(io.BytesIO(bytes(data.data(PNG_MIME).data()))) as image:
        assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0
