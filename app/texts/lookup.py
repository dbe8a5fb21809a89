"""Look-ups into the step texts and the glossary, by language."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.texts import glossary_en, glossary_zh, steps_en, steps_zh
from app.texts.facts import Facts, facts_for
from app.texts.model import HEADINGS, TERM_IDS, GlossaryEntry, StepText, check_language
from app.texts.position_texts import BUILDERS_BY_OP
from app.texts.qk_norm_texts import QK_NORM_BUILDERS
from app.texts.scope import QK_NORM

if TYPE_CHECKING:
    from engine import Trace

_BUILDERS: dict[str, dict[str, Callable[[Facts], StepText]]] = {
    "en": steps_en.BUILDERS, "zh": steps_zh.BUILDERS}
_GLOSSARY: dict[str, dict[str, GlossaryEntry]] = {"en": glossary_en.ENTRIES,
                                                  "zh": glossary_zh.ENTRIES}

EXPLAIN_KEYS: tuple[str, ...] = tuple(steps_en.BUILDERS)
"""Every ``explain_key`` that has a text, in the order the steps first appear."""
_OP_KEYS = {"projection": "attention.projections", "scores": "attention.scores",
            "weights": "attention.weights", "mix": "attention.mix", "norm": "block.norm1",
            "residual": "block.resid1", "ffn": "block.ffn"}
"""The text a step whose ``explain_key`` has none of its own takes, by its op: a
cross-attention's scores are told as scores, a cross residual as a residual."""


def step_text(trace: Trace, index: int, lang: str, receiver: int | None = None,
              head: int = 0) -> StepText:
    """The teaching text of step ``index`` of ``trace``, about that document's own numbers.

    Parameters
    ----------
    trace
        The open document's computation.
    index
        The step's position in ``trace.steps``.
    lang
        ``"en"`` or ``"zh"``.
    receiver, head
        The position and head the text follows (the last position and the first head if not
        given).

    Raises
    ------
    ValueError
        If ``lang`` is not supported (checked first).
    KeyError
        If there is no text for the step's ``explain_key`` nor for its op (positions, RoPE,
        the QK-norm and the steps of :data:`_OP_KEYS` have one).
    """
    language = check_language(lang)
    builders = _BUILDERS[language]
    step = trace.steps[index]
    by_op = BUILDERS_BY_OP[language]
    if step.explain_key == QK_NORM:
        return QK_NORM_BUILDERS[language](facts_for(trace, index, receiver, head))
    if step.explain_key not in builders and step.op in by_op:
        return by_op[step.op](facts_for(trace, index, receiver, head))
    key = step.explain_key if step.explain_key in builders else _OP_KEYS[step.op]
    return builders[key](facts_for(trace, index, receiver, head))


def step_sections(trace: Trace, index: int, lang: str,
                  receiver: int | None = None) -> list[tuple[str, str]]:
    """The four ``(heading, text)`` pairs of a step, in the order of :data:`HEADINGS`."""
    text = step_text(trace, index, lang, receiver)
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
