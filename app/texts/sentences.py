"""Sentences by id, filled per language: the one mechanism of every text that is not a widget's.

A text is decided once, without a language: which sentences apply and with which numbers (a
:class:`Say` names a sentence id and its fields; a field may itself be a :class:`Say`, a
:class:`Listed`, a :class:`Token` or an engine's :class:`~engine.words.refusals.Refusal`, words that
differ by language). Each language's catalogue (:mod:`app.texts.words`) holds only the words: a
``str.format`` template per sentence id, filled by :func:`app.texts.words.say` as every other
word of the app is. Headless; Qt's ``.ts`` stays for widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from app.texts import words as catalogue
from app.texts.model import StepText, check_language
from engine.words.refusals import Refusal


def _filled(value: object, lang: str) -> object:
    return value.words(lang) if isinstance(value, Say | Listed | Joined | Token | Refusal) \
        else value


@dataclass(frozen=True)
class Say:
    """The sentence ``sid`` of the catalogue, filled with ``fields``."""

    sid: str
    fields: dict[str, object] = field(default_factory=dict)

    def words(self, lang: str) -> str:
        return catalogue.say(self.sid, lang,
                             **{k: _filled(v, lang) for k, v in self.fields.items()})


def say(sid: str, /, **fields: object) -> Say:
    """The sentence ``sid`` with ``fields``."""
    return Say(sid, fields)


NOTHING = say("nothing")
"""The empty sentence (a part that does not apply)."""


@dataclass(frozen=True)
class Token:
    """A token as a text names it: quoted, “The”, so that a token never reads as a word of the
    sentence ("“The” sees only itself", "“我”只看得到自己")."""

    text: str

    def words(self, lang: str) -> str:
        check_language(lang)
        return f"“{self.text}”"


@dataclass(frozen=True)
class Listed:
    """Items listed with the language's "and": ``a, b and c`` / ``a、b 和 c``."""

    items: Sequence[object]

    def words(self, lang: str) -> str:
        items = [str(_filled(item, lang)) for item in self.items]
        if len(items) <= 1:
            return "".join(items)
        before, last = catalogue.say("list.separator", lang).join(items[:-1]), items[-1]
        word = catalogue.say("list.and", lang)
        return before + _gap(before[-1], word[0]) + word + _gap(word[-1], last[0]) + last


@dataclass(frozen=True)
class Joined:
    """Items joined by the language's separator: ``1, 2`` / ``1、2``."""

    items: Sequence[object]

    def words(self, lang: str) -> str:
        return catalogue.joined((_filled(item, lang) for item in self.items), lang)


T = TypeVar("T")

LISTED_ENTRIES = 10
"""A vocabulary longer than this is listed by its first entries, an ellipsis and its last."""


def some_entries(entries: Sequence[T]) -> list[T | str]:
    """Every entry of a short list (a vocabulary, the kept ids of a draw); of a long one
    (GPT-2's 50,257) the first :data:`LISTED_ENTRIES`, "…" and the last."""
    if len(entries) <= LISTED_ENTRIES + 2:
        return list(entries)
    return [*entries[:LISTED_ENTRIES], "…", entries[-1]]


def _chinese(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff"


def _gap(left: str, right: str) -> str:
    """The space Chinese text sets where a Chinese character meets a Latin letter or digit
    (none beside a space, a Chinese quote or bracket)."""
    plain = not (left.isspace() or right.isspace() or {left, right} & set("“”（）"))
    return " " if plain and _chinese(left) != _chinese(right) else ""


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

