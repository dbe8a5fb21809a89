""":class:`Refusal`: one refusal by its id in the catalogue of words (:mod:`engine.words`), with
its values.

A value is a number, a name, or another :class:`Refusal` (a phrase such as a reason, worded in
the same language as the sentence holding it).
"""

from __future__ import annotations

from typing import TypeAlias

from engine.words import REFUSAL_IDS, say

Value: TypeAlias = "str | int | float | Refusal"


class Refusal:
    """One refusal of :data:`engine.words.REFUSAL_IDS` by its id, with the values its wording
    names."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: Value) -> None:
        if key not in REFUSAL_IDS:
            raise KeyError(f"no refusal has the id {key!r}")
        self.key = key
        self.values = values

    def words(self, lang: str) -> str:
        """The refusal worded in ``lang``, its phrases too."""
        values = {name: value.words(lang) if isinstance(value, Refusal) else value
                  for name, value in self.values.items()}
        return say(self.key, lang, **values)

    def __str__(self) -> str:
        return self.words("en")

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.values.items())
        return f"Refusal({self.key!r}{values})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[object, tuple[str, dict[str, Value]]]:
        """Pickled by id and values."""
        return _rebuilt, (self.key, self.values)


NO_REASON = Refusal("no_reason")
"""No reason given for an expected size."""


def _rebuilt(key: str, values: dict[str, Value]) -> Refusal:
    return Refusal(key, **values)
