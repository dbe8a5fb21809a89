"""Look-ups into the step texts and the glossary, by language."""

from __future__ import annotations

from app.texts import glossary_en, glossary_zh, steps_en, steps_zh
from app.texts.model import HEADINGS, TERM_IDS, GlossaryEntry, StepText, check_language

_STEPS: dict[str, dict[str, StepText]] = {"en": steps_en.STEPS, "zh": steps_zh.STEPS}
_GLOSSARY: dict[str, dict[str, GlossaryEntry]] = {"en": glossary_en.ENTRIES,
                                                  "zh": glossary_zh.ENTRIES}

EXPLAIN_KEYS: tuple[str, ...] = tuple(steps_en.STEPS)
"""Every ``explain_key`` that has a text, in the order the steps first appear."""


def step_text(explain_key: str, lang: str) -> StepText:
    """The teaching text of a step.

    Parameters
    ----------
    explain_key
        The step's ``explain_key`` (``"attention.scores"`` …).
    lang
        ``"en"`` or ``"zh"``.

    Raises
    ------
    ValueError
        If ``lang`` is not supported (checked first).
    KeyError
        If there is no text for ``explain_key``.
    """
    return _STEPS[check_language(lang)][explain_key]


def step_sections(explain_key: str, lang: str) -> list[tuple[str, str]]:
    """The four ``(heading, text)`` pairs of a step, in the order of :data:`HEADINGS`."""
    text = step_text(explain_key, lang)
    return list(zip(HEADINGS[lang], text.sections(), strict=True))


def glossary(lang: str) -> list[GlossaryEntry]:
    """Every glossary entry in ``lang``, in the order of :data:`TERM_IDS`.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    """
    entries = _GLOSSARY[check_language(lang)]
    return [entries[term_id] for term_id in TERM_IDS]


def glossary_entry(term_id: str, lang: str) -> GlossaryEntry:
    """One glossary entry.

    Raises
    ------
    ValueError
        If ``lang`` is not supported (checked first).
    KeyError
        If ``term_id`` is not one of :data:`TERM_IDS`.
    """
    return _GLOSSARY[check_language(lang)][term_id]
