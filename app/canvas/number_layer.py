"""A grid's words on screen kept as pixels, redrawn only where its numbers changed.

A frame laid out by itself prints every number of its grids (a 16-position document's shares
step: about 1,200), and an edit makes a new frame whose grids mostly show the numbers the last
one did. On screen, each grid's words (its title, labels, note and numbers) are drawn once
into a transparent image at the device's resolution and the image is drawn over the grid's
colours; the next grid that looks the same (the same words but the numbers, the same cells,
the same scale and the same fraction of a pixel) starts from that image and clears and draws
again only the cells whose printed number, ink or size differ. Drawing a text costs the same in the
image as on the window, so the pixels are those a whole drawing gives (:func:`paint_layer`);
exports never come here (they record real text).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform

LAYER_PIXELS = 4_000_000
"""A grid whose words would cover more device pixels than this (zoomed far in) draws them
straight onto the window, as before."""
PIXELS_KEPT = 12_000_000
"""Device pixels of layers kept (48 MB), the least recently used dropped first: a frame's grids
and the next frame's (a whole 1920 × 1080 screen is 2 million), and those of the steps and
zooms met just before."""


@dataclass(frozen=True)
class Words:
    """What a grid's words layer is drawn from.

    Attributes
    ----------
    key
        Everything but the numbers that decides how the words look: the words themselves,
        the cells' places and the format their numbers are printed in.
    bounds
        The grid's rectangle, in its own units.
    values
        The numbers of the cells whose words are printed (one row per printed row).
    looks
        Each of those cells' ink, size and whether it is blank or asked, as one whole number:
        with its value, all that decides what the cell prints.
    cells
        The grid's (row, column) of each entry of ``values`` (row-major).
    texts
        What the cells of those entries print.
    draw_fixed
        Draws the words that are not numbers (title, labels, note).
    draw_cells
        Draws the given cells' texts, each in its given rectangle.
    cell_rect
        Where a cell is, in the grid's units.
    """

    key: Hashable
    bounds: QRectF
    values: npt.NDArray[np.float64]
    looks: npt.NDArray[np.int64]
    cells: Callable[[npt.NDArray[np.intp]], list[tuple[int, int]]]
    texts: Callable[[npt.NDArray[np.intp]], list[str]]
    draw_fixed: Callable[[QPainter], None]
    draw_cells: Callable[[QPainter, list[tuple[int, int]], list[str], list[QRectF]], None]
    cell_rect: Callable[[int, int], QRectF]


@dataclass(frozen=True)
class _Layer:
    image: QImage
    values: npt.NDArray[np.float64]
    looks: npt.NDArray[np.int64]
    texts: npt.NDArray[np.object_]
    """What each cell prints (a value that moved may print the same: a share of 0.1234 that
    becomes 0.1236 is drawn again only when it no longer prints 0.123)."""
    places: list[QRectF]
    """Each cell's rectangle in the grid's units, and ..."""
    clears: list[QRect]
    """... in the layer's pixels, as cleared before it is drawn again: the same for every
    grid this layer is kept for (its key holds the cells' places and the transform)."""


_layers: OrderedDict[Hashable, _Layer] = OrderedDict()
_kept_pixels = [0]


def paint_layer(painter: QPainter, words: Words) -> bool:
    """Draw ``words`` on the window through their kept layer; False (nothing drawn) when the
    painter turns or shears, the screen has a fractional pixel ratio, or the layer would be too
    large: draw them straight instead. A layer has the screen's pixel ratio (a Retina screen:
    twice as many pixels each way), so its words are as sharp as drawn straight."""
    to_device = painter.worldTransform()
    if to_device.type().value > QTransform.TransformationType.TxScale.value:
        return False
    target = painter.device()
    ratio = 1.0 if target is None else target.devicePixelRatioF()
    if ratio != round(ratio):
        return False
    device = to_device.mapRect(words.bounds)
    left, top = math.floor(device.left()), math.floor(device.top())
    width, height = math.ceil(device.right()) - left, math.ceil(device.bottom()) - top
    if width <= 0 or height <= 0 or width * height * ratio * ratio > LAYER_PIXELS:
        return False
    onto = QTransform(to_device.m11(), 0.0, 0.0, to_device.m22(), to_device.dx() - left,
                      to_device.dy() - top)
    key = (words.key, onto.m11(), onto.m22(), onto.dx(), onto.dy(), width, height, ratio)
    known = _layers.pop(key, None)
    if known is None:
        layer = _drawn_whole(words, onto, width, height, int(ratio))
    else:
        _kept_pixels[0] -= known.image.width() * known.image.height()
        layer = _drawn_again(known, words, onto)
    _keep(key, layer)
    painter.save()
    painter.resetTransform()
    painter.drawImage(QPoint(left, top), layer.image)
    painter.restore()
    return True


def _drawn_whole(words: Words, onto: QTransform, width: int, height: int,
                 ratio: int) -> _Layer:
    """Every word of the grid drawn into a new transparent layer ``width`` × ``height`` (in
    the window's pixels, each ``ratio`` × ``ratio`` of the screen's)."""
    image = QImage(width * ratio, height * ratio, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    every = np.arange(words.values.size, dtype=np.intp)
    cells = words.cells(every)
    texts = np.empty(len(cells), dtype=object)
    texts[:] = words.texts(every)
    places = [words.cell_rect(row, col) for row, col in cells]
    painter = QPainter(image)
    try:
        painter.setTransform(onto)
        words.draw_fixed(painter)
        words.draw_cells(painter, cells, list(texts), places)
    finally:
        painter.end()
    return _Layer(image, words.values, words.looks, texts, places,
                  [onto.mapRect(place).toRect() for place in places])


def _drawn_again(known: _Layer, words: Words, onto: QTransform) -> _Layer:
    """``known``'s layer with the cells whose printed text or looks differ cleared and drawn
    again, in place: the layer was taken out of the kept ones, so no other frame shows it."""
    before, now = known.values, words.values
    same = (before == now) | (np.isnan(before) & np.isnan(now))
    moved = np.flatnonzero(~same | (known.looks != words.looks))
    texts = known.texts
    if moved.size:
        texts = texts.copy()
        texts[moved] = words.texts(moved)
    changed = moved[(texts[moved] != known.texts[moved]) |
                    (known.looks[moved] != words.looks[moved])]
    layer = _Layer(known.image, now, words.looks, texts, known.places, known.clears)
    if not changed.size:
        return layer
    which = changed.tolist()
    painter = QPainter(layer.image)
    try:
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(Qt.GlobalColor.black)
        painter.drawRects([known.clears[k] for k in which])
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        painter.setTransform(onto)
        words.draw_cells(painter, words.cells(changed), list(texts[changed]),
                         [known.places[k] for k in which])
    finally:
        painter.end()
    return layer


def _keep(key: Hashable, layer: _Layer) -> None:
    _layers[key] = layer
    _kept_pixels[0] += layer.image.width() * layer.image.height()
    while _kept_pixels[0] > PIXELS_KEPT and len(_layers) > 1:
        _gone, oldest = _layers.popitem(last=False)
        _kept_pixels[0] -= oldest.image.width() * oldest.image.height()


def forget_layers() -> None:
    """Drop every kept layer (a theme or font changed under them, and tests)."""
    _layers.clear()
    _kept_pixels[0] = 0
