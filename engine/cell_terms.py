"""The text of a cell's arithmetic: sums of terms, shortened past a few, and row-by-column dots."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.numbers import format_factor, format_number
from engine.reader import FloatArray
from engine.words import say

MAX_TERMS = 8


def cell(name: str, index: Sequence[int]) -> str:
    return f"{name}[{','.join(str(k) for k in index)}]"


def sum_text(count: int, term: Callable[[int], tuple[str, str]],
              lang: str = "en") -> tuple[str, str]:
    """The symbols and the values of a sum of ``count`` terms, each joined by `` + ``.

    ``term(t)`` gives the symbol and the value text of term ``t``. A sum of more than
    ``MAX_TERMS`` terms shows its first terms, an ellipsis and its last term, and only the terms
    shown are formatted (a width-256 row costs as little as a short one).
    """
    if count > MAX_TERMS:
        keep = MAX_TERMS - 2
        shown = [term(t) for t in range(keep)]
        last = term(count - 1)
        symbols = [*(sym for sym, _ in shown), say("terms", lang, count=count), last[0]]
        values = [*(num for _, num in shown), "…", last[1]]
    else:
        pairs = [term(t) for t in range(count)]
        symbols = [sym for sym, _ in pairs]
        values = [num for _, num in pairs]
    return " + ".join(symbols), " + ".join(values)


def dot(result: str, left: tuple[str, int, FloatArray], right: tuple[str, int, FloatArray],
         bias: tuple[str, float] | None, value: float, lang: str = "en", places: int = 6) -> str:
    """``Q[1,0] = X[1,0]·Wq[0,0] + … = 1·1 + … = 2``: a row of ``left`` by a column of ``right``."""
    lname, row, lvec = left
    rname, col, rvec = right
    width = len(lvec)
    if len(rvec) != width:
        raise ValueError(f"{result}: {width} terms on the left, {len(rvec)} on the right")

    def term(t: int) -> tuple[str, str]:
        if t == width and bias is not None:
            return f"{bias[0]}[{col}]", format_factor(bias[1], places)
        return (f"{lname}[{row},{t}]·{rname}[{t},{col}]",
                f"{format_factor(float(lvec[t]), places)}·{format_factor(float(rvec[t]), places)}")

    sym, num = sum_text(width + (bias is not None), term, lang)
    return f"{result} = {sym} = {num} = {format_number(value, places)}"


__all__ = ["MAX_TERMS", "cell", "dot", "sum_text"]
