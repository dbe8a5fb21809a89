"""Replaying a recorded picture at its recorded size on any device."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QPainter, QPicture
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

SMALLEST_LEGIBLE_TEXT = 4.0
"""On screen, text that would be drawn smaller than this many pixels is skipped."""
TEXT_SIZE = 13.0


@cache
def _picture_dpi() -> tuple[int, int]:
    picture = QPicture()
    return picture.logicalDpiX(), picture.logicalDpiY()


def play(picture: QPicture, painter: QPainter) -> None:
    """Play ``picture`` in scene units whatever the device's resolution.

    ``QPicture.play`` scales by the device's logical dpi over the picture's, so a 300-dpi image
    or a 1200-dpi PDF page would draw grids and arrows larger than the text around them; this
    undoes that scale.
    """
    device = painter.device()
    dpi_x, dpi_y = _picture_dpi()
    if device is None or (device.logicalDpiX() == dpi_x and device.logicalDpiY() == dpi_y):
        picture.play(painter)
        return
    painter.save()
    painter.scale(dpi_x / device.logicalDpiX(), dpi_y / device.logicalDpiY())
    picture.play(painter)
    painter.restore()


def legible(painter: QPainter, option: QStyleOptionGraphicsItem) -> bool:
    """Whether text is worth drawing: always in exports, on screen only when large enough."""
    if not isinstance(painter.device(), QWidget):
        return True
    scale = option.levelOfDetailFromTransform(painter.worldTransform())
    return scale * TEXT_SIZE >= SMALLEST_LEGIBLE_TEXT
