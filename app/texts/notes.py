"""Speaker notes: one step as plain text, for PowerPoint notes and captions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.texts.lookup import step_sections, step_text
from app.texts.titles import step_title

if TYPE_CHECKING:
    from engine import Scenario, Step


def speaker_notes(step: Step, scenario: Scenario, lang: str) -> str:
    """The step's title, its summary, then each of the four headings with its text.

    Parameters
    ----------
    step, scenario
        A step of ``compute(scenario)`` and that scenario (the title depends on its options).
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
    lines = [step_title(step, scenario, lang), step_text(step.explain_key, lang).summary]
    for heading, body in step_sections(step.explain_key, lang):
        lines += ["", heading, body]
    return "\n".join(lines)
