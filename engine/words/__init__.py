"""Every word the engine says, one catalogue per language, found by id: :func:`say`.

A catalogue (``en.py``, ``zh.py``) holds ``str.format`` templates in sections, one per kind of
words (the refusals', :data:`REFUSAL_IDS`; the phrases around per-cell arithmetic; why a file
could not be written). Every
language has every id, with the same fields (tests/engine/test_words.py); a third language is
one more file here.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.words import en, zh

LANGUAGES: tuple[str, ...] = ("en", "zh")
"""Language codes, English first (the command line's language)."""

CATALOGUES: dict[str, Mapping[str, str]] = {
    "en": {**en.REFUSALS, **en.PHRASES, **en.WRITING},
    "zh": {**zh.REFUSALS, **zh.PHRASES, **zh.WRITING},
}
"""Each language's templates by id, all sections together."""

REFUSAL_IDS: frozenset[str] = frozenset(en.REFUSALS)
"""The ids a :class:`~engine.refusals.Refusal` may have."""


def say(word_id: str, lang: str, /, **fields: object) -> str:
    """The template ``word_id`` in ``lang`` with its ``fields`` filled in.

    Raises
    ------
    KeyError
        If ``lang`` is not one of :data:`LANGUAGES` or the catalogue has no such id.
    """
    return CATALOGUES[lang][word_id].format(**fields)
