"""Per-cell arithmetic of the positional encodings, written out with numbers.

The added rows (sinusoidal, learned), the input after them, RoPE's angles and turned columns, and
ALiBi's bias on the scores. Each function returns the formula line and the detail lines; the
words come from ``say`` (:func:`engine.words.say` in the reader's language).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.format.numbers import format_exact, format_factor, format_number
from engine.format.reader import FloatArray
from engine.forward.positions import rope_pair, sinusoidal_column
from engine.forward.rope_scaling import RopeScaling
from engine.scenario.positions import Positions

Say = Callable[..., str]
Lines = tuple[str, list[str]]

_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _theta(i: int) -> str:
    return "θ" + str(i).translate(_SUBSCRIPTS)


def _cell(name: str, *index: int) -> str:
    return f"{name}[{','.join(str(k) for k in index)}]"


def added_row(name: str, index: tuple[int, ...], value: float, positions: Positions, d: int,
              say: Say, places: int = 6) -> Lines:
    """A cell of the rows the positions add: sin/cos of p / base^(2i/d), or a table cell."""
    p, c = index
    cell = _cell(name, p, c)
    if positions.kind == "learned":
        row = positions.offset + p
        return (f"{cell} = table[{row},{c}] = {format_number(value, places)}",
                [say("learned_row", p=p, offset=positions.offset, row=row)])
    i, even = sinusoidal_column(c, d, positions.layout)
    fn = "sin" if even else "cos"
    base = format_exact(positions.base)
    angle = p / positions.base ** (2 * i / d)
    detail = (say("sinusoidal_halves", c=c, i=i, sines=(d + 1) // 2, fn=fn, p=p)
              if positions.layout == "halves" else say("sinusoidal_column", c=c, i=i, fn=fn, p=p))
    return (f"{cell} = {fn}(p / base^(2i/d)) = {fn}({p} / {base}^({2 * i}/{d})) = "
            f"{fn}({format_number(angle, places)}) = {format_number(value, places)}", [detail])


def position_sum(name: str, index: tuple[int, ...], value: float,
                 terms: list[tuple[str, float]], detail: str, places: int = 6) -> Lines:
    """A cell of the input after the positions (and type rows): the token's row plus the rows
    added (``terms``: each array's name and its number at this cell)."""
    p, c = index
    names = " + ".join(_cell(term, p, c) for term, _ in terms)
    numbers = " + ".join(format_number(number, places) if k == 0 else
                         format_factor(number, places) for k, (_, number) in enumerate(terms))
    return (f"{_cell(name, p, c)} = {names} = {numbers} = {format_number(value, places)}",
            [detail])


def type_row(name: str, index: tuple[int, ...], value: float, kind: int, token: str, say: Say,
             places: int = 6) -> Lines:
    """A cell of the type rows: the row of ``type_table`` the position's type picks."""
    p, c = index
    return (f"{_cell(name, p, c)} = type_table[{kind},{c}] = {format_number(value, places)}",
            [say("type_row", token=token, p=p, t=kind)])


def rope_angle(name: str, index: tuple[int, ...], value: float, base: float, r: int,
               say: Say, places: int = 6, scaling: RopeScaling | None = None) -> Lines:
    """A cell of RoPE's angles: p·θ_i with θ_i = base^(−2i/r), times the scaling's m_i and
    what the scaling did to pair i."""
    p, i = index
    theta = base ** (-2 * i / r)
    power = f"{format_exact(base)}^(−{2 * i}/{r})"
    detail = [say("rope_angle_cell", p=p, i=i, r=r)]
    if scaling is None:
        return (f"{_cell(name, p, i)} = p·{_theta(i)} = {p}·{power} = "
                f"{p}·{format_number(theta, places)} = {format_number(value, places)}", detail)
    key, fields = scaling.reason(i, r, base)
    m = float(scaling.multipliers(r, base)[i])
    written = {field: number if field == "i" else format_exact(number)
               if field in _SETTINGS else format_number(number, places)
               for field, number in fields.items()}
    return (f"{_cell(name, p, i)} = p·{_theta(i)}·m = {p}·{power}·m = "
            f"{p}·{format_number(theta, places)}·{format_factor(m, places)} = "
            f"{format_number(value, places)}", [*detail, say(key, **written)])


_SETTINGS = ("factor", "original", "low", "high")
"""A scaling's settings, written exactly (the rest are computed numbers)."""


def rotated(name: str, index: tuple[int, ...], value: float, source: tuple[str, FloatArray],
            angles: FloatArray, pairing: str, d_k: int, say: Say, places: int = 6,
            scaling: RopeScaling | None = None) -> Lines:
    """A cell of Q_rot or K_rot: the pair it belongs to, turned by the angle p·θ_i (cos and
    sin times the scaling's attention factor, yarn's or longrope's, when it is not 1)."""
    factor = 1.0 if scaling is None else scaling.attention_factor
    p, c = index
    src, rows = source
    head, local = divmod(c, d_k)
    r = 2 * int(angles.shape[1])
    cell = _cell(name, p, c)
    if local >= r:
        return (f"{cell} = {_cell(src, p, c)} = {format_number(value, places)}",
                [say("rope_kept", local=local, head=head + 1, r=r)])
    i = (local if local < r // 2 else local - r // 2) if pairing == "half" else local // 2
    first, second = (head * d_k + k for k in rope_pair(i, r, pairing))
    x, y = float(rows[p, first]), float(rows[p, second])
    angle = float(angles[p, i])
    cos, sin = math.cos(angle), math.sin(angle)
    t = _theta(i)
    left, right = _cell(src, p, first), _cell(src, p, second)
    ends = ("(", ")·a") if factor != 1.0 else ("", "")
    times = ("(", f")·{format_factor(factor, places)}") if factor != 1.0 else ("", "")
    if c == first:
        formula = (f"{cell} = {ends[0]}{left}·cos(p·{t}) − {right}·sin(p·{t}){ends[1]} = "
                   f"{times[0]}{format_factor(x, places)}·{format_factor(cos, places)} − "
                   f"{format_factor(y, places)}·{format_factor(sin, places)}{times[1]} = "
                   f"{format_number(value, places)}")
    else:
        formula = (f"{cell} = {ends[0]}{left}·sin(p·{t}) + {right}·cos(p·{t}){ends[1]} = "
                   f"{times[0]}{format_factor(x, places)}·{format_factor(sin, places)} + "
                   f"{format_factor(y, places)}·{format_factor(cos, places)}{times[1]} = "
                   f"{format_number(value, places)}")
    details = [
        say("rope_pair", i=i, first=first, second=second, head=head + 1,
            pairing=say(f"pairing_{pairing}")),
        say("rope_turn", p=p, theta=t, angle=format_number(angle, places),
            cos=format_number(cos, places), sin=format_number(sin, places)),
    ]
    if factor != 1.0:
        assert scaling is not None
        details.append(say("rope_turn_factor", kind=scaling.type, factor=format_exact(factor)))
    return formula, details


def alibi_cell(name: str, index: tuple[int, ...], value: float, slope: float, default: bool,
               heads: int, causal: bool, say: Say, places: int = 6) -> Lines:
    """A cell of ALiBi's bias: −slope·(i − j), or −slope·|i − j| without the causal mask."""
    h, i, j = index
    distance = f"({i} − {j})" if causal else f"|{i} − {j}|"
    symbol = "(i − j)" if causal else "|i − j|"
    lower = 1 << (heads.bit_length() - 1)
    source = (say("alibi_given") if not default else say("alibi_default", k=h + 1, h=heads)
              if lower == heads else say("alibi_default_mixed", h=heads, m=lower, m2=2 * lower))
    return (f"{_cell(name, h, i, j)} = −slope·{symbol} = −{format_factor(slope, places)}·"
            f"{distance} = "
            f"{format_number(value, places)}",
            [say("alibi_slope", head=h + 1, slope=format_number(slope, places), source=source)])


def biased_score(name: str, index: tuple[int, ...], value: float, qk: tuple[str, float],
                 bias: tuple[str, float], say: Say, places: int = 6) -> Lines:
    """A cell of the scores under ALiBi: the scaled q·k plus the bias."""
    h, i, j = index
    return (f"{_cell(name, h, i, j)} = {_cell(qk[0], h, i, j)} + {_cell(bias[0], h, i, j)} = "
            f"{format_number(qk[1], places)} + {format_factor(bias[1], places)} = "
            f"{format_number(value, places)}",
            [say("alibi_added", i=i, j=j)])


def soft_capped_cell(name: str, index: tuple[int, ...], value: float, cap: float,
                     raw: tuple[str, float], say: Say, places: int = 6) -> Lines:
    """A soft-capped cell: c · tanh(raw / c) (``raw``: the uncapped array's name and number)."""
    c = format_exact(cap)
    where = ",".join(str(k) for k in index)
    return (f"{name}[{where}] = {c} · tanh({raw[0]}[{where}] / {c}) = "
            f"{c} · tanh({format_number(raw[1], places)} / {c}) = "
            f"{format_number(value, places)}", [say("soft_capped", cap=c)])


__all__ = ["added_row", "alibi_cell", "biased_score", "position_sum", "rope_angle", "rotated",
           "soft_capped_cell", "type_row"]
