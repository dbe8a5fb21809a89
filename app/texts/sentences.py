"""Sentences by id, filled per language: the one mechanism of every text that is not a widget's.

A text is decided once, without a language: which sentences apply and with which numbers (a
:class:`Say` names a sentence id and its fields; a field may itself be a :class:`Say`, a
:class:`Listed` or a :class:`Token`, words that differ by language). Each language's catalogue
(:data:`CATALOGUES`) holds only the words: a ``str.format`` template per sentence id, filled by
:func:`~app.texts.model.fill_word` as every other word table of the texts is. Headless; Qt's
``.ts`` stays for widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.texts import steps_en, steps_zh
from app.texts.model import StepText, check_language, fill_word

CATALOGUES: dict[str, dict[str, str]] = {"en": steps_en.WORDS, "zh": steps_zh.WORDS}
"""Language → sentence id → template."""


def _filled(value: object, lang: str) -> object:
    return value.words(lang) if isinstance(value, Say | Listed | Token) else value


@dataclass(frozen=True)
class Say:
    """The sentence ``sid`` of the catalogue, filled with ``fields``."""

    sid: str
    fields: dict[str, object] = field(default_factory=dict)

    def words(self, lang: str) -> str:
        return fill_word(CATALOGUES, lang, self.sid,
                         **{k: _filled(v, lang) for k, v in self.fields.items()})


def say(sid: str, /, **fields: object) -> Say:
    """The sentence ``sid`` with ``fields``."""
    return Say(sid, fields)


NOTHING = say("nothing")
"""The empty sentence (a part that does not apply)."""


@dataclass(frozen=True)
class Token:
    """A token as a text names it: quoted in Chinese, and in English when the label is empty or
    starts or ends with a space (else the sentence would read “and  's row”)."""

    text: str

    def words(self, lang: str) -> str:
        plain = check_language(lang) == "en" and self.text and self.text.strip() == self.text
        return self.text if plain else f"“{self.text}”"


@dataclass(frozen=True)
class Listed:
    """Items listed with the language's "and": ``a, b and c`` / ``a、b 和 c``."""

    items: Sequence[object]

    def words(self, lang: str) -> str:
        items = [str(_filled(item, lang)) for item in self.items]
        if len(items) <= 1:
            return "".join(items)
        if check_language(lang) == "en":
            return ", ".join(items[:-1]) + " and " + items[-1]
        last = items[-1]
        spaced = not ("\u4e00" <= last[0] <= "\u9fff" or last[0] in "“（")
        return "、".join(items[:-1]) + (" 和 " if spaced else "和") + last


@dataclass(frozen=True)
class Telling:
    """A step text decided once: one sentence for each part of a :class:`StepText`."""

    summary: Say
    why: Say
    how: Say
    pitfalls: Say
    check: Say

    def words(self, lang: str) -> StepText:
        return StepText(summary=self.summary.words(lang), why=self.why.words(lang),
                        how=self.how.words(lang), pitfalls=self.pitfalls.words(lang),
                        check=self.check.words(lang))


def missing_sentences() -> dict[str, set[str]]:
    """Language → the sentence ids some other language has and it lacks (empty when whole)."""
    every = set().union(*(set(words) for words in CATALOGUES.values()))
    return {lang: every - set(words) for lang, words in CATALOGUES.items()
            if every - set(words)}
