"""Scientific numbers printed for a back row: a power's exponent at the digits' own size,
raised after the power of ten (``−2.514×10`` then ``−4``), not in superscript glyphs.

The font's superscript digits are 0.57 as tall as its digits: a cell's ``10⁻⁴`` printed 7 px
exponents where its digits were 13 (F5 on a 1024 × 768 projector). The text itself is
unchanged (hover, copies, the editor and :attr:`TextItem.text` keep ``2.514×10⁻⁴``); grids,
share labels and the frame's lines of text print it so, and are as wide as printed.
"""

from __future__ import annotations

import re
import unicodedata

from PySide6.QtCore import QRectF, Qt

from app.canvas.theme import text_advance
from engine.numbers import TIMES_TEN

RAISE = 0.3
"""How far an exponent sits above the digits' line, in the font's pixel size (inside a
26-unit cell at the grids' 17 px)."""
POWER = re.compile(f"{TIMES_TEN}([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
"""A power of ten with its superscript exponent."""


def pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` as printed, piece by piece, each with whether it is a raised exponent:
    ``"1.7×10⁻⁵ ÷ 2"`` is ``("1.7×10", False), ("−5", True), (" ÷ 2", False)``."""
    found: list[tuple[str, bool]] = []
    start = 0
    for power in POWER.finditer(text):
        found.append((text[start:power.start(1)], False))
        found.append((unicodedata.normalize("NFKC", power.group(1)), True))  # a true minus
        start = power.end()
    if start < len(text) or not found:
        found.append((text[start:], False))
    return found


def number_advance(text: str, size: int, bold: bool = False) -> float:
    """How wide ``text`` prints at ``size`` (its powers' exponents at the digits' size)."""
    return sum(text_advance(piece, size, bold) for piece, _raised in pieces(text))


def placed(rect: QRectF, text: str, size: int, align: Qt.AlignmentFlag,
           bold: bool = False) -> list[tuple[QRectF, str]]:
    """Where ``text`` at ``size``, aligned in ``rect`` (left or centred), is drawn: itself, or
    piece by piece, each in a box its own width, an exponent raised by :data:`RAISE`."""
    if TIMES_TEN not in text:  # most numbers: no power to raise (and no pattern to search)
        return [(rect, text)]
    printed = pieces(text)
    if len(printed) == 1:
        return [(rect, text)]
    widths = [text_advance(piece, size, bold) for piece, _raised in printed]
    left = rect.left() if align & Qt.AlignmentFlag.AlignLeft else \
        rect.center().x() - sum(widths) / 2
    boxes = []
    for (piece, raised), width in zip(printed, widths, strict=True):
        top = rect.top() - (RAISE * size if raised else 0.0)
        boxes.append((QRectF(left, top, width, rect.height()), piece))
        left += width
    return boxes
