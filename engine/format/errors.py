"""The one error a scenario document can be refused with."""

from __future__ import annotations

from engine.words import english
from engine.words.refusals import Refusal


def one_line(text: str) -> str:
    """``text`` with line breaks and other unprintable characters escaped (``\\n``, ``\\u2028``).

    A refusal is always shown as one line, whatever a document's keys, strings or file name hold.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


class ScenarioError(ValueError):
    """A document was refused.

    The message is one line: the place in the document, a colon, and the problem, for example
    ``attention.Wk: expected 2 rows to match d=2, got 3``. The engine gives the problem as a
    :class:`~engine.words.refusals.Refusal` (kept as :attr:`refusal`, so that the app can word it in
    its own language); the app's own refusals may give words already in the interface language.
    """

    def __init__(self, place: str, problem: Refusal | str) -> None:
        self.place = one_line(place)
        self.refusal = problem if isinstance(problem, Refusal) else None
        self.problem = one_line(str(problem))
        super().__init__(english("refused_at", place=self.place, problem=self.problem)
                         if self.place else self.problem)

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[str, Refusal | str]]:
        """Pickled by place and refusal (id and values), so a refusal crosses from a reading
        process intact."""
        return ScenarioError, (self.place, self.refusal or self.problem)
