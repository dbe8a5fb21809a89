"""Every word the app says outside Qt's own strings, one catalogue per language, found by id.

A language's file (``words_en.py``, ``words_zh.py``) holds the step texts' sentences
(:data:`~app.texts.words_en.WORDS`, ids such as ``embed.summary``) and one section per kind of
words (``CANVAS`` → ids ``canvas.*`` …). The app's catalogue builds on the engine's
(:mod:`engine.words`), so :func:`say` words a refusal or a phrase too. Every language has every
id, with the same fields (tests/app/test_words_catalogue.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType

from app.texts import glossary_en, glossary_zh, words_en, words_zh
from app.texts.model import GlossaryEntry, check_language
from engine.words import CATALOGUES as ENGINE_WORDS


def _sections(module: ModuleType) -> dict[str, dict[str, str]]:
    """A language file's sections by the prefix of their ids."""
    return {"block": module.BLOCK, "cache_marks": module.CACHE_MARKS, "canvas": module.CANVAS,
            "edit": module.EDIT, "exercise": module.EXERCISE, "frame": module.FRAME,
            "next_token": module.NEXT_TOKEN, "position": module.POSITION,
            "worksheet_dialog": module.WORKSHEET_DIALOG, "worksheet": module.WORKSHEET,
            "matrix": module.MATRIX, "run": module.RUN, "export": module.EXPORT,
            "texts": module.TEXTS, "group": module.GROUPS,
            "model_view": module.MODEL_VIEW, "lens": module.LENS, "label": module.LABELS,
            "preset": module.PRESETS, "example": module.EXAMPLES}


def _catalogue(lang: str, module: ModuleType) -> dict[str, str]:
    words = {**ENGINE_WORDS[lang], **module.WORDS}
    for prefix, section in _sections(module).items():
        words.update({f"{prefix}.{key}": template for key, template in section.items()})
    return words


@dataclass(frozen=True)
class Glossary:
    """One language's glossary (``glossary_<lang>.py``): its entries by term id, the forms its
    texts name each term by, and phrases that block a link."""

    entries: Callable[[], dict[str, GlossaryEntry]]
    forms: Mapping[str, tuple[str, ...]]
    blockers: tuple[str, ...]


_FILES: dict[str, tuple[ModuleType, ModuleType]] = {"en": (words_en, glossary_en),
                                                    "zh": (words_zh, glossary_zh)}
"""Each language's files of the app's words: its catalogue and its glossary."""

CATALOGUES: dict[str, dict[str, str]] = {lang: _catalogue(lang, words)
                                         for lang, (words, _) in _FILES.items()}
"""Language → id → ``str.format`` template."""

GLOSSARIES: dict[str, Glossary] = {lang: Glossary(glossary.entries, glossary.FORMS,
                                                  glossary.BLOCKERS)
                                   for lang, (_, glossary) in _FILES.items()}
"""Language → its glossary."""

LANGUAGE_NAMES: dict[str, str] = {lang: words["texts.language_name"]
                                  for lang, words in CATALOGUES.items()}
"""Each language's name, written in that language (for a language menu)."""

HEADINGS: dict[str, tuple[str, str, str, str]] = {
    lang: (words["texts.why"], words["texts.how"], words["texts.pitfalls"], words["texts.check"])
    for lang, words in CATALOGUES.items()}
"""The four headings of every step, in the order why, how, pitfalls, check."""


def joined(items: Iterable[object], lang: str) -> str:
    """``items`` joined by the language's separator: ``1, 3`` / ``1、3``."""
    return say("list.separator", lang).join(map(str, items))


def say(word_id: str, lang: str, /, **fields: object) -> str:
    """The template ``word_id`` in ``lang``, filled with ``fields`` (as it is without any).

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    KeyError
        If the catalogue has no such id.
    """
    template = CATALOGUES[check_language(lang)][word_id]
    return template.format(**fields) if fields else template
