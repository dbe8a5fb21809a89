"""An item painted as the screen paints it (its kept layers used), for tests that compare the
pixels of two paints."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from app.canvas.number_layer import forget_layers
from app.canvas.picture import painting_on_screen


@pytest.fixture(autouse=True)
def no_kept_layers() -> Iterator[None]:
    """Each test starts and ends with no kept layer (a module imports it to use it)."""
    forget_layers()
    yield
    forget_layers()


def painted_on_screen(item: QGraphicsItem, size: tuple[int, int], offset: tuple[float, float],
                      scale: float, pixel_ratio: float = 1.0) -> npt.NDArray[np.uint8]:
    """``item`` painted whole on a white image of ``size`` (of ``pixel_ratio`` device pixels a
    pixel) at ``scale``, moved by ``offset`` (a fraction of a pixel, so that no edge falls on a
    pixel's): the image's bytes, a row per line."""
    image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(pixel_ratio)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    painter.translate(*offset)
    painter.scale(scale, scale)
    option = QStyleOptionGraphicsItem()
    option.exposedRect = item.boundingRect()
    with painting_on_screen():
        item.paint(painter, option, None)
    painter.end()
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return pixels.reshape(image.height(), -1).copy()


def counted_calls(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> list[int]:
    """How many times the method ``owner.name`` is called from now on (a one-item list, counted
    up as it runs), each call made as before."""
    calls = [0]
    real = getattr(owner, name)

    def counted(self: object, *args: object) -> object:
        calls[0] += 1
        return real(self, *args)

    monkeypatch.setattr(owner, name, counted)
    return calls
