"""An emoji in a token draws as itself, in colour, on the canvas and in exports (the colour
emoji font ``./dev.sh`` installs and the .deb recommends); without it Qt draws empty boxes."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from app.canvas.theme import text_font


def drawn(text: str) -> np.ndarray:
    """``text`` drawn black on white as a token label is, 32 pixels high: its RGB pixels."""
    image = QImage(160, 48, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setFont(text_font(text, 32))
    painter.setPen(Qt.GlobalColor.black)
    painter.drawText(QRectF(0, 0, 160, 48), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    pixels = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return pixels.reshape(48, 160, 4)[:, :, :3].astype(int)


def test_an_emoji_token_draws_in_colour_where_a_letter_draws_grey(qapp: QApplication) -> None:
    """A thumb with a skin tone has warm pixels (red well above blue); a letter drawn the same
    way has none, and neither would the empty box drawn without the font."""
    def warm(pixels: np.ndarray) -> int:
        return int(((pixels[:, :, 2] - pixels[:, :, 0]) > 60).sum())  # Qt's RGB32 is BGRA

    assert warm(drawn("\U0001F44D\U0001F3FD")) > 100
    assert warm(drawn("sat")) == 0
