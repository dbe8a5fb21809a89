"""A grid's words on screen kept as pixels, redrawn only where its numbers changed; and any
other part of a picture that an edit of a value leaves as it was, kept whole.

A frame laid out by itself prints every number of its grids (a 16-position document's shares
step: about 1,200), and an edit makes a new frame whose grids mostly show the numbers the last
one did. On screen, each grid's words (its title, labels, note and numbers) are drawn once
into a transparent image at the device's resolution and the image is drawn over the grid's
colours; the next grid that looks the same (the same words but the numbers, the same cells,
the same scale and the same fraction of a pixel) starts from that image and clears and draws
again only the cells whose printed number, ink or size differ. Drawing a text costs the same in the
image as on the window, so the pixels are those a whole drawing gives (:func:`paint_layer`);
exports never come here (they record real text). The arrows' boxes, tokens, title and legend
(the same for every edit of the shares), and a grid's lines, hatched masked cells and asked
boxes (the same while its mask and sizes are), are kept the same way, whole
(:func:`paint_kept`).
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


_layers: OrderedDict[Hashable, _Layer | QImage] = OrderedDict()
"""The kept layers: a grid's words (:class:`_Layer`) or a part kept whole (its image)."""
_kept_pixels = [0]


@dataclass(frozen=True)
class _Place:
    """Where a layer goes on the device: its top-left pixel, its size in the window's pixels,
    the screen's pixel ratio, and the painter's transform onto the layer."""

    left: int
    top: int
    width: int
    height: int
    ratio: int
    onto: QTransform

    def key(self, what: Hashable) -> Hashable:
        """``what`` a layer shows, known with where and how finely it is drawn."""
        onto = self.onto
        return (what, onto.m11(), onto.m22(), onto.dx(), onto.dy(), self.width, self.height,
                self.ratio)

    def blank(self) -> QImage:
        """A new transparent layer of this size, at the screen's pixel ratio."""
        image = QImage(self.width * self.ratio, self.height * self.ratio,
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(self.ratio)
        image.fill(Qt.GlobalColor.transparent)
        return image

    def show(self, painter: QPainter, image: QImage) -> None:
        painter.save()
        painter.resetTransform()
        painter.drawImage(QPoint(self.left, self.top), image)
        painter.restore()


def _place(painter: QPainter, bounds: QRectF) -> _Place | None:
    """Where a layer of ``bounds`` (item units) goes; None when the painter turns or shears,
    the screen has a fractional pixel ratio, or the layer would be too large (what it holds
    is then drawn straight). A layer has the screen's pixel ratio (a Retina screen: twice as
    many pixels each way), so what it holds is as sharp as drawn straight."""
    to_device = painter.worldTransform()
    if to_device.type().value > QTransform.TransformationType.TxScale.value:
        return None
    target = painter.device()
    ratio = 1.0 if target is None else target.devicePixelRatioF()
    if ratio != round(ratio):
        return None
    device = to_device.mapRect(bounds)
    left, top = math.floor(device.left()), math.floor(device.top())
    width, height = math.ceil(device.right()) - left, math.ceil(device.bottom()) - top
    if width <= 0 or height <= 0 or width * height * ratio * ratio > LAYER_PIXELS:
        return None
    return _Place(left, top, width, height, int(ratio),
                  QTransform(to_device.m11(), 0.0, 0.0, to_device.m22(), to_device.dx() - left,
                             to_device.dy() - top))


def paint_layer(painter: QPainter, words: Words) -> bool:
    """Draw ``words`` on the window through their kept layer; False (nothing drawn) when no
    layer can be placed (:func:`_place`): draw them straight instead."""
    place = _place(painter, words.bounds)
    if place is None:
        return False
    key = place.key(words.key)
    known = _layers.pop(key, None)
    if known is None:
        layer = _drawn_whole(words, place)
    else:
        assert isinstance(known, _Layer)
        _kept_pixels[0] -= _pixels(known)
        layer = _drawn_again(known, words, place.onto)
    _keep(key, layer)
    place.show(painter, layer.image)
    return True


def paint_kept(painter: QPainter, key: Hashable, bounds: QRectF,
               draw: Callable[[QPainter], None]) -> bool:
    """Draw on the window what ``draw`` paints within ``bounds`` (item units), through a
    layer kept by ``key`` (everything that decides those pixels): drawn once, with
    ``painter``'s render hints, then shown as kept. False (nothing drawn) when no layer can be
    placed (:func:`_place`): draw it straight instead."""
    place = _place(painter, bounds)
    if place is None:
        return False
    key = place.key(("kept", key))
    image = _layers.pop(key, None)
    if image is None:
        image = place.blank()
        layer_painter = QPainter(image)
        try:
            layer_painter.setRenderHints(painter.renderHints())
            layer_painter.setTransform(place.onto)
            draw(layer_painter)
        finally:
            layer_painter.end()
    else:
        _kept_pixels[0] -= _pixels(image)
    assert isinstance(image, QImage)
    _keep(key, image)
    place.show(painter, image)
    return True


def _drawn_whole(words: Words, place: _Place) -> _Layer:
    """Every word of the grid drawn into a new transparent layer at ``place``."""
    image, onto = place.blank(), place.onto
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


def _pixels(layer: _Layer | QImage) -> int:
    image = layer.image if isinstance(layer, _Layer) else layer
    return image.width() * image.height()


def _keep(key: Hashable, layer: _Layer | QImage) -> None:
    _layers[key] = layer
    _kept_pixels[0] += _pixels(layer)
    while _kept_pixels[0] > PIXELS_KEPT and len(_layers) > 1:
        _gone, oldest = _layers.popitem(last=False)
        _kept_pixels[0] -= _pixels(oldest)


def forget_layers() -> None:
    """Drop every kept layer (a theme or font changed under them, and tests)."""
    _layers.clear()
    _kept_pixels[0] = 0
