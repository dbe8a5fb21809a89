"""The words an export prints: step titles, captions and speaker notes in one language (no Qt)."""

from __future__ import annotations

from app.texts import LANGUAGES, speaker_notes, step_text, step_title
from engine import Trace

__all__ = ["LANGUAGES", "caption_for", "notes_for", "title_for"]


def title_for(trace: Trace, step: int, lang: str) -> str:
    """The title of step ``step`` (0-based) in ``lang``."""
    return step_title(trace.steps[step], trace.scenario, lang)


def caption_for(trace: Trace, step: int, lang: str) -> str:
    """The one-sentence summary of step ``step``, printed under the frame when asked."""
    return step_text(trace, step, lang).summary


def notes_for(trace: Trace, step: int, lang: str) -> str:
    """The teacher's explanation of step ``step``, for a slide's speaker notes."""
    return speaker_notes(trace, step, lang)
