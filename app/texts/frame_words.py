"""Notes joined on the canvas and in exported frames (the words: ``frame.*`` of
:mod:`app.texts.words`). Imports no Qt.

Frames are drawn the same way in the window and in every export, so their words come from the
catalogue rather than from Qt's translation system (exports run headless and choose their
language per request with ``--lang``).
"""

from __future__ import annotations

from app.texts.words import say


def join_notes(lang: str, *notes: str) -> str:
    """Notes joined with the language's separator, empty ones left out."""
    return say("frame.note_join", lang).join(note for note in notes if note)
