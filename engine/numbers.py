"""Numbers as a person reads them: formatted in this one place for every view and export."""

from __future__ import annotations

import math

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


def parse_number(text: str) -> float:
    """Read a number typed by a person; accepts the true minus sign and a decimal comma.

    Raises
    ------
    ValueError
        If the text is not a finite number; the message says why in plain words.
    """
    cleaned = text.strip().replace(MINUS, "-").replace("\u2013", "-").replace(",", ".")
    if not cleaned:
        raise ValueError("empty: type a number")
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(f"“{text.strip()}” is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"“{text.strip()}” is not a finite number")
    return value
