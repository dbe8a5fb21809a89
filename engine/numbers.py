"""Numbers as a person reads them: formatted in this one place for every view and export."""

from __future__ import annotations

import math
from typing import ClassVar

MINUS = "\u2212"


def format_number(value: float, places: int = 6) -> str:
    """Format ``value`` with at most ``places`` decimals, trailing zeros trimmed.

    A true minus sign is used, and a value that rounds to zero is written ``0`` (never ``−0``).

    Examples
    --------
    >>> format_number(2.0)
    '2'
    >>> format_number(-0.5)
    '−0.5'
    >>> format_number(1.41421356, 3)
    '1.414'
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else f"{MINUS}∞"
    text = f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.replace("-", MINUS)


def format_fixed(value: float, places: int = 3) -> str:
    """Format ``value`` with exactly ``places`` decimals (for aligned grids), true minus sign."""
    text = f"{value:.{places}f}"
    if float(text) == 0.0:
        text = text.lstrip("-")
    return text.replace("-", MINUS)


def format_factor(value: float, places: int = 6) -> str:
    """Format a factor inside a product: negative values in parentheses, ``(−1)``."""
    text = format_number(value, places)
    return f"({text})" if text.startswith(MINUS) else text


class NumberTextError(ValueError):
    """Typed text that is not a finite number.

    Attributes
    ----------
    text
        What was typed, stripped.
    reason
        ``"empty"``, ``"not a number"`` or ``"not finite"``: an interface words it in its
        own language; the message is English.
    """

    MESSAGES: ClassVar[dict[str, str]] = {
        "empty": "empty: type a number", "not a number": "“{text}” is not a number",
        "not finite": "“{text}” is not a finite number"}

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(self.MESSAGES[reason].format(text=text))


def parse_number(text: str) -> float:
    """Read a number typed by a person; accepts the true minus sign and a decimal comma.

    Raises
    ------
    NumberTextError
        If the text is not a finite number; the message says why in plain words.
    """
    typed = text.strip()
    cleaned = typed.replace(MINUS, "-").replace("\u2013", "-").replace(",", ".")
    if not cleaned:
        raise NumberTextError(typed, "empty")
    try:
        value = float(cleaned)
    except ValueError:
        raise NumberTextError(typed, "not a number") from None
    if not math.isfinite(value):
        raise NumberTextError(typed, "not finite")
    return value
