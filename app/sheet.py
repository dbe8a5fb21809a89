"""The sheet every frame is composed for: 16:9 (1920 × 1080 scene units) or 4:3 (no Qt).

The canvas lays frames out on it, and every export draws it at one size (by default a sheet is a
picture of 1920 × 1080 pixels).
"""

from __future__ import annotations

SHEET_HEIGHT = 1080.0
ASPECTS = {"16:9": 1920.0, "4:3": 1440.0}
"""Sheet width per aspect, in scene units; every sheet is :data:`SHEET_HEIGHT` tall."""
DEFAULT_ASPECT = "16:9"


def sheet_size(aspect: str) -> tuple[float, float]:
    """Width and height of the sheet for ``aspect`` (``"16:9"`` or ``"4:3"``), in scene units."""
    if aspect not in ASPECTS:
        raise ValueError(f"aspect {aspect!r}: use one of {', '.join(ASPECTS)}")
    return ASPECTS[aspect], SHEET_HEIGHT
