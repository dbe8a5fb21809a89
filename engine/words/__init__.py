"""Every word the engine says, one catalogue per language, found by id: :func:`say`.

A catalogue (``en.py``, ``zh.py``) holds ``str.format`` templates in sections
(:func:`sections`), one per kind of words: the refusals' (:data:`REFUSAL_IDS`), the phrases
around per-cell arithmetic, why a file could not be written, the steps' titles, the names of
options, how a list and a refusal's line are written. Every language has every id, with the
same fields (tests/engine/test_words.py); a third language is one more file here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from engine.words import en, zh

LANGUAGES: tuple[str, ...] = ("en", "zh")
"""Language codes, English first (the command line's language)."""


def sections(module: ModuleType) -> tuple[Mapping[str, str], ...]:
    """A language file's sections; no two share an id."""
    return module.REFUSALS, module.PHRASES, module.WRITING, module.TITLES, module.NAMES


CATALOGUES: dict[str, Mapping[str, str]] = {
    lang: {word_id: template for section in sections(module)
           for word_id, template in section.items()} for lang, module in (("en", en), ("zh", zh))}
"""Each language's templates by id, all sections together."""

REFUSAL_IDS: frozenset[str] = frozenset(en.REFUSALS)
"""The ids a :class:`~engine.words.refusals.Refusal` may have."""


def say(word_id: str, lang: str, /, **fields: object) -> str:
    """The template ``word_id`` in ``lang`` with its ``fields`` filled in.

    Raises
    ------
    KeyError
        If ``lang`` is not one of :data:`LANGUAGES` or the catalogue has no such id.
    """
    return CATALOGUES[lang][word_id].format(**fields)


def english(word_id: str, /, **fields: object) -> str:
    """The template ``word_id`` in English (the engine's own language: its steps' titles, the
    command line)."""
    return say(word_id, "en", **fields)
