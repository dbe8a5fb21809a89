"""Speaker notes: one step as plain text, for PowerPoint notes and captions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.texts.lookup import step_sections, step_text
from app.texts.titles import step_title

if TYPE_CHECKING:
    from engine import Trace


def speaker_notes(trace: Trace, index: int, lang: str, receiver: int | None = None) -> str:
    """The step's title, its summary, then each of the four headings with its text.

    Parameters
    ----------
    trace, index
        The open document's computation and the step's position in it.
    lang
        ``"en"`` or ``"zh"``.

    Returns
    -------
    str
        Plain text: title and summary lines, then a blank line before each heading, with its
        text on the following line.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    KeyError
        If there is no text for the step's ``explain_key``.
    """
    text = step_text(trace, index, lang, receiver)
    lines = [step_title(trace.steps[index], trace.scenario, lang), text.summary]
    for heading, body in step_sections(trace, index, lang, receiver):
        lines += ["", heading, body]
    return "\n".join(lines)
