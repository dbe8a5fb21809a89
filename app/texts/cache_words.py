"""Rows named on the KV-cache marks of a generated token's attention frames (the words:
``cache_marks.*`` of :mod:`app.texts.words`; each line names its outline's style in words, so
the marks never rest on colour alone). Imports no Qt.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.texts.words import say


def row_span(lang: str, rows: Sequence[int]) -> str:
    """Consecutive rows as ``rows p0–p2`` (one row: ``row p3``; in Chinese ``p0–p2``, the
    sentence saying 第 … 行)."""
    if len(rows) == 1:
        return say("cache_marks.single", lang, a=rows[0])
    return say("cache_marks.range", lang, a=rows[0], b=rows[-1])


__all__ = ["row_span"]
