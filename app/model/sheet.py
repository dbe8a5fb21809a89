"""The sheet every frame is composed for: 16:9 (1920 × 1080 scene units) or 4:3 (no Qt).

The canvas lays frames out on it, and every export draws it at one size (by default a sheet is a
picture of 1920 × 1080 pixels).
"""

from __future__ import annotations

import math

SHEET_HEIGHT = 1080.0
ASPECTS = {"16:9": 1920.0, "4:3": 1440.0}
"""Sheet width per aspect, in scene units; every sheet is :data:`SHEET_HEIGHT` tall."""
DEFAULT_ASPECT = "16:9"


def sheet_size(aspect: str) -> tuple[float, float]:
    """Width and height of the sheet for ``aspect`` (``"16:9"`` or ``"4:3"``), in scene units."""
    if aspect not in ASPECTS:
        raise ValueError(f"aspect {aspect!r}: use one of {', '.join(ASPECTS)}")
    return ASPECTS[aspect], SHEET_HEIGHT


def nearest_aspect(width: float, height: float) -> str:
    """The aspect whose sheet is shaped most like a view of ``width`` × ``height``: a frame
    composed for it fills the view best (a 1024 × 768 window's canvas takes a 4:3 sheet, whose
    numbers are then a third larger than a 16:9 sheet's)."""
    if width <= 0 or height <= 0:
        return DEFAULT_ASPECT
    shape = math.log(width / height)
    return min(ASPECTS, key=lambda aspect: abs(math.log(ASPECTS[aspect] / SHEET_HEIGHT) - shape))
