"""A whole number typed as text (a command-line option, an index of a cell), read or refused in
one line naming where it was typed.

Python's ``int`` reads digits of any script (``"١٢"`` is 12) and refuses more than 4,300 digits
with its own message; here only ASCII digits are read, and only once their count shows the
number can be in range, so no text reaches ``int`` that it could refuse.
"""

from __future__ import annotations

from engine.format.errors import ScenarioError
from engine.format.reader import describe
from engine.words.refusals import Refusal

MOST_DIGITS = 18
"""The most digits read when the caller checks the range itself (every such number fits a
64-bit integer)."""


def read_whole(text: str, place: str, low: int | None = None, high: int | None = None) -> int:
    """``text`` (surrounding spaces and one leading ``-`` allowed) as a whole number, from
    ``low`` to ``high`` when they are given; without them the caller checks the range in words
    of its own (``--steps 9: this document has steps 1 to 5``), and at most
    :data:`MOST_DIGITS` digits are read.

    Raises
    ------
    ScenarioError
        At ``place``: ``not_whole`` for anything but ASCII digits; ``whole_out_of_range`` for a
        number outside ``low`` … ``high`` (one of more than :data:`MOST_DIGITS` digits, and
        more than ``high`` has, described by its count of digits),
        ``whole_too_long`` past :data:`MOST_DIGITS` digits when no range is given.
    """
    cleaned = text.strip()
    digits = cleaned.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise ScenarioError(place, Refusal("not_whole", got=describe(text)))
    significant = len(digits.lstrip("0") or "0")
    if low is None or high is None:
        if significant > MOST_DIGITS:
            raise ScenarioError(place, Refusal("whole_too_long", most=MOST_DIGITS,
                                               digits=significant))
    elif significant > max(MOST_DIGITS, len(str(max(abs(low), abs(high))))):
        raise ScenarioError(place, Refusal("whole_out_of_range", low=low, high=high,
                                           got=Refusal("huge_whole", digits=significant)))
    number = -int(digits) if cleaned.startswith("-") else int(digits)
    if low is not None and high is not None and not low <= number <= high:
        raise ScenarioError(place, Refusal("whole_out_of_range", low=low, high=high, got=number))
    return number


def option_whole(text: str | None, option: str, low: int | None = None,
                 high: int | None = None) -> int | None:
    """:func:`read_whole` of a command-line option's text; None when it was not given."""
    return None if text is None else read_whole(text, option, low, high)


__all__ = ["MOST_DIGITS", "option_whole", "read_whole"]
