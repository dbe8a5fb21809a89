"""Numbers as a person reads them: formatted in this one place for every view and export.

The rules (every grid, arrow label, hover line, status message and editor cell follows them):

* **Fixed point** with the chosen decimals, trailing zeros trimmed: ``0.5``, ``1.414``, ``−2``.
* **Scientific** with a true minus and real superscripts, the mantissa carrying the same
  decimals: ``1.2×10⁸``, ``9.6×10⁻⁷``. Used where fixed point would need more than
  :data:`FIXED_DIGITS` integer digits (``|x| ≥ 10⁷``) or would round a non-zero value to 0.
* **Never a false 0 or 1.** ``0`` is printed only for an exact zero (a masked share, a zero
  weight); a value that rounds to ±1 without being ±1 reads ``≈1`` / ``≈−1``.
* **One format per grid.** :class:`NumberFormat` is chosen once for all the values of a grid:
  when any of them is too large for fixed point, every cell of that grid is scientific, so the
  cells line up and a 10³⁰⁰ in one cell never widens the frame by 300 digits. (The canvas sizes
  a grid's cells for its fixed-point texts, :meth:`NumberFormat.usual`, when the few values
  that round to 0 are rare, and prints those smaller: :mod:`app.canvas.rare_cells`.)
* **Constants exactly.** :func:`format_exact` writes the shortest text that reads back to the
  very same float (ε = ``1.5×10⁻¹²``, ``0.00001``); the canvas, the hover arithmetic, the editor
  and the status line all print ε with it.

The engine's values are never rounded; only their text is.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

import numpy as np
import numpy.typing as npt

MINUS = "\u2212"
TIMES_TEN = "×10"
ABOUT = "≈"
FIXED_DIGITS = 7
"""Fixed point prints at most this many integer digits; from 10⁷ on a number is scientific."""
DECIMAL_CHOICES = (2, 3, 4, 6)
"""The precisions offered by View → Decimals and ``--decimals``."""
DECIMALS_RANGE = (1, 10)
"""The precisions a document's ``display.decimals`` may ask for."""
EXACT_PLAIN = (1e-5, 1e7)
""":func:`format_exact` writes plain decimals for magnitudes in this range, else scientific."""

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_WIDEST_DIGITS = str.maketrans("0123456789⁰¹²³⁴⁵⁶⁷⁸⁹", "8888888888⁴⁴⁴⁴⁴⁴⁴⁴⁴⁴")
"""Digits as ``8`` and exponent digits as ``⁴``, among the widest of their kind."""
_SCIENTIFIC_TEXT = re.compile(r"^\s*([^×]+)×\s*10\s*([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)\s*$")


def _special(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else f"{MINUS}∞"
    return None


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def _power(exponent: int) -> str:
    return f"{TIMES_TEN}{str(exponent).translate(_SUPERSCRIPT)}"


def format_scientific(value: float, places: int = 3, *, pad: bool = False) -> str:
    """``value`` as mantissa × power of ten, ``places`` decimals in the mantissa (trimmed
    unless ``pad``).

    >>> format_scientific(9.6e-7)
    '9.6×10⁻⁷'
    >>> format_scientific(-123456789.0, 2)
    '−1.23×10⁸'
    """
    special = _special(value)
    if special is not None:
        return special
    if value == 0:
        return "0"
    mantissa, exponent = f"{value:.{places}e}".split("e")
    mantissa = mantissa if pad else _trim(mantissa)
    return f"{mantissa}{_power(int(exponent))}".replace("-", MINUS)


def format_number(value: float, places: int = 6, *, scientific: bool = False,
                  pad: bool = False) -> str:
    """``value`` as a person reads it: fixed point with ``places`` decimals, else scientific.

    ``scientific`` forces the scientific form (a grid that holds a huge value); ``pad`` keeps
    the trailing zeros of fixed point (``0.500``) for columns of equal width.

    >>> format_number(2.0)
    '2'
    >>> format_number(-0.5)
    '−0.5'
    >>> format_number(1.41421356, 3)
    '1.414'
    >>> format_number(9.6e-7, 3), format_number(0.999999, 3), format_number(1e300, 3)
    ('9.6×10⁻⁷', '≈1', '1×10³⁰⁰')
    """
    special = _special(value)
    if special is not None:
        return special
    if value == 0:
        return f"{0:.{places}f}" if pad else "0"
    text = f"{value:.{places}f}"
    rounded = abs(float(text))
    if scientific or rounded == 0 or rounded >= 10 ** FIXED_DIGITS:
        return format_scientific(value, places)
    if rounded == 1 and abs(value) != 1:
        return f"{ABOUT}{MINUS}1" if value < 0 else f"{ABOUT}1"
    return (text if pad else _trim(text)).replace("-", MINUS)


def format_factor(value: float, places: int = 6) -> str:
    """Format a factor inside a product: negative values in parentheses, ``(−1)``."""
    text = format_number(value, places)
    return f"({text})" if text.startswith(MINUS) or text.startswith(f"{ABOUT}{MINUS}") \
        else text


def format_exact(value: float) -> str:
    """The shortest text that reads back as exactly ``value``: ε and other typed constants.

    Plain decimals for magnitudes from 10⁻⁵ up to 10⁷ (``0.00001``, ``2.5``), scientific
    outside (``1.5×10⁻¹²``).

    >>> format_exact(1.5e-12), format_exact(1e-05), format_exact(-2.0)
    ('1.5×10⁻¹²', '0.00001', '−2')
    """
    special = _special(value)
    if special is not None:
        return special
    if value == 0:
        return "0"
    exact = Decimal(repr(float(value)))
    if EXACT_PLAIN[0] <= abs(value) < EXACT_PLAIN[1]:
        text = format(exact, "f")
        return _trim(text).replace("-", MINUS)
    sign, digits, exponent = exact.as_tuple()
    assert isinstance(exponent, int)
    mantissa = "".join(str(d) for d in digits).rstrip("0") or "0"
    power = exponent + len(digits) - 1
    body = mantissa[0] + (f".{mantissa[1:]}" if len(mantissa) > 1 else "")
    return f"{MINUS if sign else ''}{body}{_power(power)}"


BLOCK = 1 << 20
"""Numbers read at a time from a large array (8 MB): its questions are asked block by block, so
no temporary as large as the array is made (the magnitudes of Llama-3.2-1B's unembedding, 263
million numbers, were a 2 GB array of their own)."""


def in_blocks(values: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
    """``values`` as consecutive flat blocks of at most :data:`BLOCK` numbers, in memory order
    (views, no copy); a small or non-contiguous array as itself."""
    if values.size <= BLOCK or not (values.flags.c_contiguous or values.flags.f_contiguous):
        return [values]
    flat = values.ravel(order="K")
    return [flat[start:start + BLOCK] for start in range(0, flat.size, BLOCK)]


def _extremes(values: npt.NDArray[np.float64]) -> tuple[float, float, bool]:
    """The largest and the smallest non-zero magnitude among the finite ``values`` (0 and 0
    when there is none), and whether any finite value is negative: block by block
    (:func:`in_blocks`)."""
    if values.size <= BLOCK:
        return _block_extremes(values)
    parts = [_block_extremes(block) for block in in_blocks(values)]
    largest = max(part[0] for part in parts)
    if largest == 0:
        return 0.0, 0.0, False
    return (largest, min(part[1] for part in parts if part[0] > 0),
            any(part[2] for part in parts))


def _block_extremes(values: npt.NDArray[np.float64]) -> tuple[float, float, bool]:
    """:func:`_extremes` of one block: one pass per question, no copy of the finite values
    unless some are not finite."""
    finite = values if np.isfinite(values).all() else values[np.isfinite(values)]
    if not finite.size:
        return 0.0, 0.0, False
    magnitudes = np.abs(finite)
    largest = float(magnitudes.max())
    if largest == 0:
        return 0.0, 0.0, False
    smallest = float(np.min(magnitudes, where=magnitudes != 0, initial=np.inf))
    return largest, smallest, bool(finite.min() < 0)


@dataclass(frozen=True)
class Spread:
    """Where an array's values lie: what its colour scale and its :class:`NumberFormat` need.

    Work it out with :meth:`of`; after a few cells of the array are set, :meth:`after` brings
    it up to date from those cells alone when it can (a one-cell edit of a 2.4-million-number
    matrix reads one number instead of every one).
    """

    low: float
    high: float
    """The minimum and the maximum (NaN when a value is NaN, as ``min`` and ``max`` give)."""
    extremes: tuple[float, float, bool]
    """The largest and the smallest non-zero magnitude among the finite values, and whether a
    finite value is negative."""
    finite: bool
    """Whether every value is finite."""

    @classmethod
    def of(cls, values: npt.NDArray[np.float64]) -> Spread:
        if values.size <= BLOCK:
            return cls(float(values.min()), float(values.max()), _block_extremes(values),
                       bool(np.isfinite(values).all()))
        blocks = in_blocks(values)
        return cls(float(np.min([block.min() for block in blocks])),
                   float(np.max([block.max() for block in blocks])), _extremes(values),
                   all(bool(np.isfinite(block).all()) for block in blocks))

    def after(self, before: npt.NDArray[np.float64], after: npt.NDArray[np.float64]
              ) -> Spread | None:
        """The spread once the numbers ``before`` were set to ``after`` (the same cells), or
        None when that needs the other values: a number set was an extreme (it may have been the
        only one), or a number was not finite."""
        largest, smallest, _negative = self.extremes
        if not (self.finite and largest > 0 and np.isfinite(after).all()):
            return None
        magnitudes = np.abs(before)
        if ((before == self.low) | (before == self.high) | (magnitudes == largest)
                | (magnitudes == smallest)).any():
            return None
        low, high = min(self.low, float(after.min())), max(self.high, float(after.max()))
        sizes = np.abs(after)
        nonzero = sizes[sizes != 0]
        if nonzero.size:
            largest = max(largest, float(nonzero.max()))
            smallest = min(smallest, float(nonzero.min()))
        return Spread(low, high, (largest, smallest, low < 0), True)


@dataclass(frozen=True)
class NumberFormat:
    """One format shared by every cell of a grid, so its columns align.

    Build it with :meth:`for_values`; :meth:`text` formats one cell, :meth:`widest` gives the
    widest text any cell can have (to size the cells without formatting them all).
    """

    places: int = 3
    scientific: bool = False

    @classmethod
    def for_values(cls, values: npt.NDArray[np.float64], places: int = 3) -> NumberFormat:
        """Scientific for the whole grid when any finite value needs more than 7 digits."""
        return cls._for_extremes(_extremes(values), places)

    @classmethod
    def with_widest(cls, values: npt.NDArray[np.float64] | Spread, places: int = 3
                    ) -> tuple[NumberFormat, str]:
        """:meth:`for_values` and its :meth:`widest` text, from one look at the values (or
        from their :class:`Spread`)."""
        extremes = values.extremes if isinstance(values, Spread) else _extremes(values)
        found = cls._for_extremes(extremes, places)
        return found, found._widest(extremes)

    @classmethod
    def _for_extremes(cls, extremes: tuple[float, float, bool], places: int) -> NumberFormat:
        largest = extremes[0]
        return cls(places, abs(float(f"{largest:.{places}f}")) >= 10 ** FIXED_DIGITS)

    def text(self, value: float) -> str:
        return format_number(value, self.places, scientific=self.scientific)

    def texts(self, values: npt.NDArray[np.float64]) -> list[str]:
        """:meth:`text` of each of ``values``, the same strings, a few times faster: a value
        that fixed point prints plainly (not near 0, ±1 or 10⁷, which round to another form)
        skips :func:`format_number`'s checks."""
        flat = np.asarray(values, dtype=np.float64).reshape(-1)
        if self.scientific:
            return [self.text(value) for value in flat.tolist()]
        size, step = np.abs(flat), 10.0 ** -self.places
        with np.errstate(invalid="ignore"):
            plain = ((size >= step) & (np.abs(size - 1.0) >= step)
                     & (size < 10.0 ** FIXED_DIGITS - 1))
        places = self.places
        return [f"{value:.{places}f}".rstrip("0").rstrip(".").replace("-", MINUS) if fixed
                else self.text(value) for value, fixed in zip(flat.tolist(), plain.tolist(),
                                                               strict=True)]

    def widest(self, values: npt.NDArray[np.float64]) -> str:
        """A text at least as wide as any cell's: digits drawn as ``8`` and exponent digits as
        ``⁴``, among the widest of their kind — so an edit that moves the smallest value from
        10⁻⁶ to 10⁻⁵ keeps the same widest text (and the document's cached type scale)."""
        return self._widest(_extremes(values))

    def usual(self, values: npt.NDArray[np.float64] | Spread) -> str:
        """:meth:`widest` of the cells printed in fixed point: a value that rounds to 0 counts
        as its padded 0 (``0.000``), not as its scientific text (the widest of a scientific
        grid, or of one whose every value rounds to 0). The largest magnitude's text is as long
        as any fixed-point text (the same decimals, the most integer digits)."""
        extremes = values.extremes if isinstance(values, Spread) else _extremes(values)
        largest, _smallest, negative = extremes
        if self.scientific or abs(float(f"{largest:.{self.places}f}")) == 0:
            return self._widest(extremes)
        return self._widest((largest, largest, negative))

    def _widest(self, extremes: tuple[float, float, bool]) -> str:
        largest, smallest, negative = extremes
        if largest == 0:
            return "0"
        sign = MINUS if negative else ""
        texts = []
        for value in (largest, smallest):
            text = format_number(value, self.places, scientific=self.scientific, pad=True)
            if TIMES_TEN in text:
                text = format_scientific(value, self.places, pad=True)
            texts.append(text.translate(_WIDEST_DIGITS))
        return sign + max(texts, key=len)


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
    """Read a number typed by a person; accepts the true minus sign, a decimal comma and the
    scientific form this module prints (``1.5×10⁻¹²``) as well as ``1.5e-12``.

    Raises
    ------
    NumberTextError
        If the text is not a finite number; the message says why in plain words.
    """
    typed = text.strip()
    scientific = _SCIENTIFIC_TEXT.match(typed)
    if scientific:
        typed_mantissa, power = scientific.groups()
        typed = f"{typed_mantissa.strip()}e{power.translate(_FROM_SUPERSCRIPT)}"
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


def parse_shown(text: str) -> float:
    """The number a shown text stands for (``≈1`` is 1, ``9.6×10⁻⁷`` is 9.6e-7)."""
    return parse_number(text.replace(ABOUT, ""))
