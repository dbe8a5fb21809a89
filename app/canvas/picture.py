"""Replaying a recorded picture at its recorded size on any device."""

from __future__ import annotations

from PySide6.QtGui import QPainter, QPicture


def play(picture: QPicture, painter: QPainter) -> None:
    """Play ``picture`` in scene units whatever the device's resolution.

    ``QPicture.play`` scales by the device's logical dpi over the picture's, so a 300-dpi image
    or a 1200-dpi PDF page would draw grids and arrows larger than the text around them; this
    undoes that scale.
    """
    device = painter.device()
    if device is None or (device.logicalDpiX() == picture.logicalDpiX()
                          and device.logicalDpiY() == picture.logicalDpiY()):
        picture.play(painter)
        return
    painter.save()
    painter.scale(picture.logicalDpiX() / device.logicalDpiX(),
                  picture.logicalDpiY() / device.logicalDpiY())
    picture.play(painter)
    painter.restore()
