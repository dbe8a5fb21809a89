"""Right-to-left text inside left-to-right messages and labels (no Qt; below every package of
the app, which all show tokens)."""

from __future__ import annotations

import re
import unicodedata

LEFT_TO_RIGHT_MARK = "\u200e"
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
_RIGHT_TO_LEFT = {"R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}
_OPEN = LEFT_TO_RIGHT_MARK + FIRST_STRONG_ISOLATE
_CLOSE = POP_DIRECTIONAL_ISOLATE + LEFT_TO_RIGHT_MARK
_CODE_NAME = re.compile("\u200e?(<(?:0x[0-9A-F]{2}|U\\+[0-9A-F]{4,6})>)\u200e?")
"""A byte or character named by its code in a label (``<0xD8>``, ``<U+200B>``), with the marks
:func:`codes_left_to_right` put around it."""


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text)


def codes_left_to_right(text: str) -> str:
    """``text`` with each code it names (``<0xD8>``, ``<U+200B>``) between left-to-right marks
    when it holds right-to-left letters: beside them (``مر<0xD8>``, the first byte of a letter
    the next token ends) a code joins their run, its angle brackets mirrored (``>0xD8<``);
    between the marks it reads ``<0xD8>``, left to right, after the letters before it."""
    if not _right_to_left(text):
        return text
    return _CODE_NAME.sub(lambda code: f"{LEFT_TO_RIGHT_MARK}{code.group(1)}{LEFT_TO_RIGHT_MARK}",
                          text)


def isolate(text: str) -> str:
    """``text`` isolated from what surrounds it when it holds right-to-left letters or bidi
    controls: a Hebrew or Arabic token then cannot reorder the numbers and tokens around it.

    The isolate (U+2068…U+2069) sits between left-to-right marks: Qt's rich text (the
    explanation, a tooltip shown as HTML) takes a paragraph's direction from its first strong
    letter, one inside an isolate too, and read ``0 · ⁨שלום⁩, 12, ⁨مرحبا⁩`` right to left
    (``مرحبا, 12, שלום · 0``); a mark before the token is that letter instead, and a mark after it
    keeps a following number on its side where a renderer knows no isolates."""
    if text.startswith(_OPEN) and text.endswith(_CLOSE):
        return text  # already isolated (a token as the canvas shows it)
    if _right_to_left(text):
        return f"{_OPEN}{text}{_CLOSE}"
    return text
