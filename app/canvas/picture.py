"""Replaying a recorded picture at its recorded size on any device."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QFont, QPainter, QPicture, QStaticText, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem

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


STATIC_TEXTS = 20_000
"""Laid-out texts kept for the screen (and texts remembered as seen once); beyond this the
cache starts again."""
_static_texts: dict[tuple[str, str], tuple[QStaticText, QSizeF]] = {}
_seen_once: set[tuple[str, str]] = set()


def draw_text(painter: QPainter, rect: QRectF, align: Qt.AlignmentFlag, text: str,
              text_font: QFont) -> None:
    """Draw ``text`` on screen in ``rect`` as ``drawText`` would, in the painter's font
    (``text_font``) and pen.

    A text met before (a label, a title, a number that did not change) is drawn from its
    cached layout, twice as fast as ``drawText``; a text met for the first time (most numbers
    after an edit) is drawn with ``drawText``, which is quicker than laying it out to keep.
    """
    key = (text, font_key(text_font))
    found = _static_texts.get(key)
    if found is None:
        if key not in _seen_once:
            if len(_seen_once) >= STATIC_TEXTS:
                _seen_once.clear()
            _seen_once.add(key)
            painter.drawText(rect, align, text)
            return
        found = static_text(text, text_font)
    glyphs, size = found
    painter.drawStaticText(aligned(rect, size, align), glyphs)


_font_keys: dict[int, tuple[QFont, str]] = {}


def font_key(text_font: QFont) -> str:
    """``text_font.key()``, remembered per font object (the frame's fonts are shared, and
    asking Qt costs more than drawing a short cached text)."""
    known = _font_keys.get(id(text_font))
    if known is None or known[0] is not text_font:
        if len(_font_keys) >= 256:
            _font_keys.clear()
        known = _font_keys[id(text_font)] = (text_font, text_font.key())
    return known[1]


_LEFT, _RIGHT, _CENTRE = range(3)
_ACROSS: dict[Qt.AlignmentFlag, int] = {}


def aligned(rect: QRectF, size: QSizeF, align: Qt.AlignmentFlag) -> QPointF:
    """Top-left corner of a text of ``size`` placed in ``rect`` the way ``drawText`` aligns it
    (left, right or centred across; always centred down)."""
    across = _ACROSS.get(align)
    if across is None:
        across = _ACROSS[align] = (_LEFT if align & Qt.AlignmentFlag.AlignLeft else
                                   _RIGHT if align & Qt.AlignmentFlag.AlignRight else _CENTRE)
    if across == _LEFT:
        x = rect.left()
    elif across == _RIGHT:
        x = rect.right() - size.width()
    else:
        x = rect.center().x() - size.width() / 2
    return QPointF(x, rect.center().y() - size.height() / 2)


def static_text(text: str, text_font: QFont) -> tuple[QStaticText, QSizeF]:
    """``text`` laid out once in ``text_font``, with its size: drawing it again on screen (the
    next edit, the next paint while panning) skips shaping the glyphs."""
    key = (text, font_key(text_font))
    found = _static_texts.get(key)
    if found is None:
        if len(_static_texts) >= STATIC_TEXTS:
            _static_texts.clear()
        glyphs = QStaticText(text)
        glyphs.setTextFormat(Qt.TextFormat.PlainText)
        glyphs.prepare(QTransform(), text_font)
        found = _static_texts[key] = (glyphs, glyphs.size())
    return found


class ScreenPainting:
    """One paint of the window's canvas: whether it skipped words too small to read, and the
    part of each heat map drawn cell by cell (zoomed in)."""

    def __init__(self) -> None:
        self.words_hidden = False
        self.heat_hidden = False
        """Whether a heat map left its numbers out (a cell's value is then a hover away)."""
        self.in_view: list[tuple[str, range, range]] = []
        """Each zoomed heat map's title, and its rows and columns in view."""


_screen: list[ScreenPainting | None] = [None]


@contextmanager
def painting_on_screen() -> Iterator[ScreenPainting]:
    """Mark the window's canvas painting: the items it paints meanwhile draw for the screen
    (asking each painter for its device costs more than some items take to paint), and say
    whether they left out words too small to read."""
    painting = _screen[0] = ScreenPainting()
    try:
        yield painting
    finally:
        _screen[0] = None


def note_in_view(title: str, rows: range, cols: range) -> None:
    """Note, in the window's paint under way, that a heat map shows ``rows`` × ``cols``."""
    painting = _screen[0]
    if painting is not None:
        painting.in_view.append((title, rows, cols))


def heat_numbers_left_out() -> None:
    """Note, in the window's paint under way, that a heat map's numbers were too small to
    print."""
    painting = _screen[0]
    if painting is not None:
        painting.words_hidden = painting.heat_hidden = True


def on_screen() -> bool:
    """Whether items are being painted on the window (not into an exported file or image)."""
    return _screen[0] is not None


def legible(painter: QPainter, option: QStyleOptionGraphicsItem) -> bool:
    """Whether text is worth drawing: always in exports, on screen only when at least
    :data:`SMALLEST_LEGIBLE_TEXT` pixels tall."""
    painting = _screen[0]
    if painting is None:
        return True
    scale = option.levelOfDetailFromTransform(painter.worldTransform())
    shown = scale * TEXT_SIZE >= SMALLEST_LEGIBLE_TEXT
    painting.words_hidden |= not shown
    return shown
