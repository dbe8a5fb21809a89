"""Look-ups into the step texts and the glossary, by language."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.texts import glossary_en, glossary_zh, steps_en, steps_zh
from app.texts.facts import Facts, facts_for
from app.texts.model import HEADINGS, TERM_IDS, GlossaryEntry, StepText, check_language

if TYPE_CHECKING:
    from engine import Step, Trace

_BUILDERS: dict[str, dict[str, Callable[[Facts], StepText]]] = {
    "en": steps_en.BUILDERS, "zh": steps_zh.BUILDERS}
_GLOSSARY: dict[str, dict[str, GlossaryEntry]] = {"en": glossary_en.ENTRIES,
                                                  "zh": glossary_zh.ENTRIES}

EXPLAIN_KEYS: tuple[str, ...] = tuple(steps_en.BUILDERS)
"""Every ``explain_key`` that has a text, in the order the steps first appear."""


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
        If there is no text for the step's ``explain_key``.
    """
    builders = _BUILDERS[check_language(lang)]
    if not trace.scenario.shorthand:  # the texts quote version-1 arrays; a stack is not yet told
        return _plain_text(trace.steps[index], lang)
    builder = builders[trace.steps[index].explain_key]
    return builder(facts_for(trace, index, receiver, head))


_PLAIN = {"en": ("This step reads {reads} and writes {writes}.",
                 "Step through the layers to follow the stream."),
          "zh": ("这一步读取 {reads}，写出 {writes}。", "逐层单步查看数据流。")}


def _plain_text(step: Step, lang: str) -> StepText:
    """What any step of a version-2 stack says until the texts follow scopes: its operands."""
    said, hint = _PLAIN[lang]
    line = said.format(reads=", ".join(step.reads) or "—", writes=", ".join(step.writes) or "—")
    return StepText(summary=line, why=line, how=line, pitfalls=hint, check=hint)


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
