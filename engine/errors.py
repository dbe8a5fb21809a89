"""The one error a scenario document can be refused with."""

from __future__ import annotations


class ScenarioError(ValueError):
    """A document was refused.

    The message is one line: the place in the document, a colon, and the problem, for example
    ``attention.Wk: expected 2 rows to match d=2, got 3``.
    """

    def __init__(self, place: str, problem: str) -> None:
        self.place = place
        self.problem = problem
        super().__init__(f"{place}: {problem}" if place else problem)
