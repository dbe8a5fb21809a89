"""Right-to-left text inside left-to-right messages and labels (no Qt; below every package of
the app, which all show tokens)."""

from __future__ import annotations

import unicodedata

FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
_RIGHT_TO_LEFT = {"R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}


def isolate(text: str) -> str:
    """``text`` isolated from what surrounds it when it holds right-to-left letters or bidi
    controls: a Hebrew or Arabic token then cannot reorder the numbers after it."""
    if text.startswith(FIRST_STRONG_ISOLATE) and text.endswith(POP_DIRECTIONAL_ISOLATE):
        return text  # already isolated (a token as the canvas shows it)
    if any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
    return text
