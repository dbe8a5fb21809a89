"""Colours and fonts of a frame: one fixed light slide theme for exports, and a dark one for the UI.

Continuous values use cividis (colour-blind safe); heads use the Okabe–Ito palette, then four of
Paul Tol's muted colours for heads 9–12 (GPT-2 small has 12). Colour is never the only cue:
every value is printed as a number too, and every head's arrows and labels name it (h1 … h12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from PySide6.QtGui import QColor, QFont, QFontMetricsF

from app.canvas.cividis import CIVIDIS

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
             "#000000")
TOL_MUTED = ("#999933", "#CC6677", "#44AA99", "#AA4499")
"""Olive, rose, teal and purple: apart from the Okabe–Ito hues, and at least 2.8 : 1 against
both the light and the dark background."""
HEADS = (*OKABE_ITO, *TOL_MUTED)
"""Twelve head colours, one per head of GPT-2 small."""
DARK_HEADS = (*OKABE_ITO[:7], "#E0E0E0", *TOL_MUTED)
"""On the dark background Okabe–Ito's black is invisible (1.3 : 1): head 8 is light grey."""
FONT_FAMILIES = ["Noto Sans", "Noto Sans CJK SC", "DejaVu Sans", "Sans Serif"]


@dataclass(frozen=True)
class Theme:
    """The colours of one look."""

    name: str
    background: str
    text: str
    muted: str
    grid_line: str
    accent: str
    masked: str
    panel: str
    heads: tuple[str, ...] = HEADS

    def color(self, role: str, alpha: float = 1.0) -> QColor:
        """A theme colour by role name (``"text"``, ``"accent"`` …) with an opacity from 0 to 1."""
        color = QColor(getattr(self, role))
        color.setAlphaF(max(0.0, min(1.0, alpha)))
        return color

    def head_color(self, head: int, alpha: float = 1.0) -> QColor:
        """The colour of head ``head`` (0-based) in :attr:`heads`; a single head uses the
        accent."""
        color = QColor(self.heads[head % len(self.heads)])
        color.setAlphaF(max(0.0, min(1.0, alpha)))
        return color


SLIDE = Theme(name="slide", background="#FFFFFF", text="#1A1A1A", muted="#5F6368",
              grid_line="#9AA0A6", accent="#0072B2", masked="#B0B0B0", panel="#F3F4F6")
DARK = Theme(name="dark", background="#1E1F22", text="#ECECEC", muted="#A8ABB0",
             grid_line="#6B6F76", accent="#56B4E9", masked="#6E6E6E", panel="#2A2C30",
             heads=DARK_HEADS)
HIGH_CONTRAST = Theme(name="high-contrast", background="#FFFFFF", text="#000000", muted="#000000",
                      grid_line="#000000", accent="#0000C0", masked="#707070", panel="#FFFFFF")
THEMES = {theme.name: theme for theme in (SLIDE, DARK, HIGH_CONTRAST)}


@cache
def font(pixel_size: int = 14, bold: bool = False) -> QFont:
    """The frame's font: Noto Sans with the CJK face as fallback, so 我/爱 render as glyphs.

    Sizes are in pixels (scene units), so a frame looks the same on screen, in PNG, SVG and PDF.
    One font per size and weight, shared by everything drawn (a frame asks for its fonts
    thousands of times): never change the font returned; copy it first.

    Its localized forms (``locl``) are off: for Latin text in a locale without its own forms
    (English) the CJK face swaps its digits for shorter ones its cmap does not reach, which a
    PDF written by Qt then holds with no text behind them ("Step 2 of 5" read back as "Step
    of"). Off, every digit is the one a number's cell draws, in every locale, equally wide.
    """
    result = QFont()
    result.setFamilies(FONT_FAMILIES)
    result.setPixelSize(pixel_size)
    result.setBold(bold)
    result.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    result.setFeature(QFont.Tag("locl"), 0)
    return result


LATIN_WIDTH_MARKS = "‘’“”·"
"""Marks Noto Sans CJK SC (the face that draws the Latin letters where Noto Sans is missing)
draws full-width, and draws narrower in Latin text when asked: curly quotes (``pwid``) and the
middle dot of ``shares · head 1`` and ``好 · p2`` (``palt``: half-width). The other marks of
the texts are checked and need nothing: × is one em in every installed face (DejaVu's is
0.84 em), —, – and … are no wider than DejaVu's."""
_QUOTED = re.compile("“[^”]*”|‘[^’]*’")


def is_latin_text(text: str) -> bool:
    """Whether a line is Latin text (English): outside its quoted spans it has at least as many
    Latin letters as CJK characters (``Which word does “it” read?``, ``“我” sees only itself``;
    not ``“它”指的是谁``)."""
    outside = _QUOTED.sub("", text)
    latin = sum(1 for ch in outside if ch.isascii() and ch.isalpha())
    cjk = sum(1 for ch in outside if "\u2e80" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")
    return latin >= cjk


@cache
def latin_marks_font(pixel_size: int = 14, bold: bool = False) -> QFont:
    """The frame's font with the CJK face's proportional quotes (``pwid``) and half-width
    middle dot (``palt``) for Latin text: its letters and Chinese characters are unchanged."""
    result = QFont(font(pixel_size, bold))
    result.setFeature(QFont.Tag("pwid"), 1)
    result.setFeature(QFont.Tag("palt"), 1)
    return result


def narrow_marks(text: str) -> bool:
    """Whether ``text`` is Latin text holding curly quotes or middle dots: drawn narrow, as the
    CJK face draws them for Latin (in Chinese text they stay full-width)."""
    return any(mark in text for mark in LATIN_WIDTH_MARKS) and is_latin_text(text)


def text_font(text: str, pixel_size: int = 14, bold: bool = False) -> QFont:
    """The font a line of text is drawn in: curly quotes and middle dots in Latin text as
    narrow as the CJK face draws them for Latin, in Chinese text full-width as Chinese
    typesetting wants."""
    if narrow_marks(text):
        return latin_marks_font(pixel_size, bold)
    return font(pixel_size, bold)


@lru_cache(maxsize=8192)
def text_advance(text: str, pixel_size: int = 14, bold: bool = False) -> float:
    """How far ``text`` advances in the frame's font (words and widest numbers repeat across
    the grids of a frame and across edits: each is measured once)."""
    return QFontMetricsF(text_font(text, pixel_size, bold)).horizontalAdvance(text)


@cache
def digit_height(pixel_size: int = 14) -> float:
    """How tall the digits' ink is in the frame's font at ``pixel_size``."""
    return QFontMetricsF(font(pixel_size)).tightBoundingRect("0123456789").height()


@lru_cache(maxsize=256)
def widest_advance(texts: tuple[str, ...], pixel_size: int = 14, bold: bool = False) -> float:
    """The largest advance among ``texts`` (0 for none): a grid's row and column labels, the
    arrows' token boxes (the same lists for every frame of a document)."""
    return max((text_advance(text, pixel_size, bold) for text in texts), default=0.0)


_BREAKS = re.compile(r"[^\s，。；：]+[\s，。；：]*")
"""A sentence's pieces a line may end after: words with their spaces, phrases with their
Chinese punctuation."""


def fitted_lines(text: str, width: float, size: int = 14) -> list[str]:
    """``text`` broken at spaces and Chinese punctuation into lines no wider than ``width`` at
    ``size`` (a piece wider than that gets a line of its own)."""
    lines: list[str] = []
    line = ""
    for piece in _BREAKS.findall(text):
        if line and text_advance((line + piece).rstrip(), size) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    return [*lines, line.rstrip()] if line else lines


def cell_color(fraction: float) -> QColor:
    """Cividis colour for a value placed at ``fraction`` (0–1) of its range."""
    index = round(max(0.0, min(1.0, fraction)) * 255)
    r, g, b = (int(v) for v in CIVIDIS[index][:3])
    return QColor(r, g, b)


def ink_for(fill: QColor) -> QColor:
    """Black or white, whichever reads better on ``fill``."""
    luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF()
    return QColor("#000000") if luminance > 0.5 else QColor("#FFFFFF")
