"""Positional encodings read and computed: a document's ``positions`` object checked into its
record (:mod:`engine.scenario.positions`), the rows sinusoidal and learned positions add, and
RoPE's angles and turns (ALiBi's bias: :mod:`engine.forward.alibi`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.reader import (
    MAX_HEADS,
    MAX_POSITIONS,
    MAX_WIDTH,
    FloatArray,
    expect_choice,
    expect_int,
    expect_matrix,
    expect_number,
    expect_object,
    expect_vector,
)
from engine.forward.rope_scaling import RopeScaling, parse_scaling
from engine.scenario.modules import Attention
from engine.scenario.positions import (
    DEFAULT_BASE,
    KINDS,
    PAIRINGS,
    ROPE_LAYOUTS,
    Kind,
    Layout,
    Pairing,
    Positions,
)
from engine.words.refusals import Refusal, Value

_KEYS: dict[str, tuple[str, ...]] = {
    "none": ("kind",),
    "sinusoidal": ("kind", "base", "layout"),
    "learned": ("kind", "table", "offset"),
    "rope": ("kind", "base", "rotary_dims", "pairing", "scaling", "context"),
    "alibi": ("kind", "slopes"),
}
"""The keys each kind takes; any other key is refused, naming the kind it belongs to."""
MAX_CONTEXT = 1 << 24
"""The largest ``context`` a document may give (far past any model's)."""


def parse_positions(value: object, place: str, n: int, d: int) -> Positions:
    """Validate a ``positions`` object for ``n`` positions of width ``d``.

    What depends on the attention (rotary_dims against d_k, the number of slopes against the
    heads) is checked by :func:`check_stack`.

    Raises
    ------
    ScenarioError
        The first problem found, naming its place (``positions.table``).
    """
    obj = expect_object(value, place)
    kind: Kind = expect_choice(obj.get("kind", "none"), f"{place}.kind", KINDS)  # type: ignore[assignment]
    _refuse_foreign_keys(obj, kind, place)
    base = DEFAULT_BASE
    if "base" in obj:
        base = expect_number(obj["base"], f"{place}.base")
        if base <= 0:
            raise ScenarioError(f"{place}.base", Refusal("base_not_positive", got=obj["base"]))
    if kind == "learned":
        return _parse_learned(obj, place, n, d)
    if kind == "rope":
        rotary_dims = None
        if "rotary_dims" in obj:
            rotary_dims = expect_int(obj["rotary_dims"], f"{place}.rotary_dims", 2, MAX_WIDTH)
            if rotary_dims % 2:
                raise ScenarioError(f"{place}.rotary_dims", Refusal("rope_dims_odd",
                                                                    dims=rotary_dims))
        pairing: Pairing = expect_choice(obj.get("pairing", "half"), f"{place}.pairing",
                                         PAIRINGS)  # type: ignore[assignment]
        scaling = (parse_scaling(obj["scaling"], f"{place}.scaling") if "scaling" in obj
                   else None)
        if scaling is not None:
            scaling.check_range(base, place)
        context = (expect_int(obj["context"], f"{place}.context", 1, MAX_CONTEXT)
                   if "context" in obj else None)
        return Positions(kind="rope", base=base, rotary_dims=rotary_dims, pairing=pairing,
                         scaling=scaling, context=context)
    if kind == "alibi":
        slopes = (expect_vector(obj["slopes"], f"{place}.slopes") if "slopes" in obj else None)
        if slopes is not None and not 1 <= slopes.size <= MAX_HEADS:
            raise ScenarioError(f"{place}.slopes", Refusal("alibi_slopes_count", limit=MAX_HEADS,
                                                           got=slopes.size))
        return Positions(kind="alibi", slopes=slopes)
    if kind == "sinusoidal":
        layout: Layout = expect_choice(obj.get("layout", "interleaved"), f"{place}.layout",
                                       ROPE_LAYOUTS)  # type: ignore[assignment]
        return Positions(kind=kind, base=base, layout=layout)
    return Positions(kind=kind, base=base)


def _refuse_foreign_keys(obj: Mapping[str, Any], kind: str, place: str) -> None:
    allowed = _KEYS[kind]
    for key in obj:
        if key in allowed:
            continue
        owners = [k for k, keys in _KEYS.items() if key in keys]
        where = f"{place}.{key}"
        if owners:
            raise ScenarioError(where, Refusal("key_of_other_kind", owners=_either(owners),
                                               kind=kind))
        raise ScenarioError(where, Refusal("unknown_kind_key", kind=kind,
                                           allowed=", ".join(allowed)))


def _either(names: Sequence[str]) -> Value:
    """``a or b or c``, as a phrase of nested alternatives."""
    return names[0] if len(names) == 1 else Refusal("either", first=_either(names[:-1]),
                                                      second=names[-1])


def _parse_learned(obj: Mapping[str, Any], place: str, n: int, d: int) -> Positions:
    if "table" not in obj:
        raise ScenarioError(f"{place}.table", Refusal("learned_table_missing"))
    offset = expect_int(obj.get("offset", 0), f"{place}.offset", 0, MAX_POSITIONS)
    table = expect_matrix(obj["table"], f"{place}.table", max_rows=2 * MAX_POSITIONS)
    rows = int(table.shape[0])
    if rows < offset + n:
        raise ScenarioError(f"{place}.table", Refusal("learned_table_rows", count=offset + n, n=n,
                                                      offset=offset, got=rows))
    if int(table.shape[1]) != d:
        raise ScenarioError(f"{place}.table", Refusal("columns_count", count=d,
                                                      reason=Refusal("match_d", d=d),
                                                      got=int(table.shape[1])))
    return Positions(kind="learned", table=table, offset=offset)


def check_stack(positions: Positions, place: str,
                attentions: Sequence[tuple[str, int, int]]) -> None:
    """Refuse positions that do not fit the self-attentions they reach.

    ``attentions`` holds each one's document path, heads and d_k, in order. RoPE turns the same
    r columns in every layer (one table of angles serves the stack): rotary_dims, or by default
    the first layer's d_k, which must be even and not more than any layer's d_k. ALiBi needs
    one slope per head.
    """
    if positions.kind == "rope" and attentions:
        first_path, _, first_d_k = attentions[0]
        r = positions.rotary(first_d_k)
        given = positions.rotary_dims is not None
        if r % 2:
            raise ScenarioError(f"{place}.rotary_dims", Refusal("odd_d_k", path=first_path,
                                                                d_k=r))
        for path, _, d_k in attentions:
            if r > d_k:
                what = Refusal("rope_dims_given", dims=r) if given \
                    else Refusal("rope_dims_default", dims=r, path=first_path)
                raise ScenarioError(f"{place}.rotary_dims", Refusal("rope_dims_too_many",
                                                                    dims=what, d_k=d_k, path=path))
        scaling = positions.scaling
        if scaling is not None and scaling.type == "longrope" \
                and len(scaling.short_factor) != r // 2:
            raise ScenarioError(f"{place}.scaling.short_factor", Refusal(
                "longrope_factors", count=r // 2, got=len(scaling.short_factor)))
    if positions.kind == "alibi" and positions.slopes is not None:
        for path, heads, _ in attentions:
            if positions.slopes.size != heads:
                raise ScenarioError(f"{place}.slopes", Refusal("alibi_slopes_heads", heads=heads,
                                                               path=path,
                                                               got=positions.slopes.size))


def trace_numbers(positions: Positions | None, n: int, d: int,
                  attentions: Sequence[Attention]) -> int:
    """How many numbers the positions add to a stack's trace: the rows before and added, RoPE's
    angles and turned q and k, ALiBi's q·k and bias (from the shapes, before computing)."""
    if positions is None or positions.kind == "none":
        return 0
    if positions.kind == "rope":
        r = positions.rotary(attentions[0].d_k)
        return n * r // 2 + sum(n * (a.heads + a.groups) * a.d_k for a in attentions)
    if positions.kind == "alibi":
        return sum(2 * a.heads * n * n for a in attentions)
    return 2 * n * d


# -- the arithmetic ---------------------------------------------------------------------------

def sinusoidal_table(n: int, d: int, base: float = DEFAULT_BASE,
                     layout: str = "interleaved") -> FloatArray:
    """P[p, 2i] = sin(p / base^(2i/d)), P[p, 2i+1] = cos(p / base^(2i/d)), p = 0 … n − 1.

    With an odd d the last column is a sine alone. ``halves``: the same columns reordered,
    every sine (columns 0, 2, 4 …) first, then every cosine: [sin … | cos …].
    """
    p = np.arange(n, dtype=np.float64)[:, None]
    pair = np.arange(d) // 2
    angles: FloatArray = p / np.power(base, 2.0 * pair / d)[None, :]
    table: FloatArray = np.where(np.arange(d) % 2 == 0, np.sin(angles), np.cos(angles))
    if layout == "halves":
        halves: FloatArray = np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)
        return halves
    return table


def sinusoidal_column(c: int, d: int, layout: str) -> tuple[int, bool]:
    """Pair i of column ``c`` (its angle p / base^(2i/d)) and whether the column is a sine."""
    if layout == "halves":
        sines = (d + 1) // 2
        return (c, True) if c < sines else (c - sines, False)
    return c // 2, c % 2 == 0


def added_rows(positions: Positions, n: int, d: int) -> FloatArray | None:
    """The rows the additive kinds add to the input (n × d); None for the other kinds."""
    if positions.kind == "sinusoidal":
        return sinusoidal_table(n, d, positions.base, positions.layout)
    if positions.kind == "learned":
        assert positions.table is not None
        rows: FloatArray = positions.table[positions.offset:positions.offset + n].copy()
        return rows
    return None


def rope_frequencies(r: int, base: float = DEFAULT_BASE,
                     scaling: RopeScaling | None = None) -> FloatArray:
    """θ_i = base^(−2i/r) for i = 0 … r/2 − 1, times the scaling's multiplier of pair i."""
    frequencies: FloatArray = np.power(base, -2.0 * np.arange(r // 2) / r)
    if scaling is not None:
        frequencies = frequencies * scaling.multipliers(r, base)
    return frequencies


def rope_angles(n: int, r: int, base: float = DEFAULT_BASE,
                scaling: RopeScaling | None = None) -> FloatArray:
    """The angle p·θ_i of position p and pair i (n × r/2)."""
    angles: FloatArray = (np.arange(n, dtype=np.float64)[:, None]
                          * rope_frequencies(r, base, scaling))
    return angles


def rope_pair(i: int, r: int, pairing: str) -> tuple[int, int]:
    """The two columns of a head (0-based, within the head) that pair i turns, first to second."""
    return (i, i + r // 2) if pairing == "half" else (2 * i, 2 * i + 1)


def rotate(rows: FloatArray, heads: int, angles: FloatArray, pairing: str,
           factor: float = 1.0) -> FloatArray:
    """RoPE: each head's pairs of columns turned by their angles; the other columns kept.

    ``rows`` is n × (heads·d_k); ``angles`` is n × r/2 (:func:`rope_angles`). In pair i of
    position p, (x, y) becomes (x·cos − y·sin, x·sin + y·cos) with the angle p·θ_i: the pair read
    as the complex number x + iy is multiplied by e^{i·p·θ_i}. ``factor`` multiplies cos and
    sin (yarn's attention factor; :attr:`Positions.turn_factor`).
    """
    n, width = rows.shape
    d_k = width // heads
    r = 2 * int(angles.shape[1])
    first, second = zip(*(rope_pair(i, r, pairing) for i in range(r // 2)), strict=True)
    x = rows.reshape(n, heads, d_k)
    out = x.copy()
    cos = np.cos(angles)[:, None, :] * factor
    sin = np.sin(angles)[:, None, :] * factor
    a, b = x[:, :, list(first)], x[:, :, list(second)]
    out[:, :, list(first)] = a * cos - b * sin
    out[:, :, list(second)] = a * sin + b * cos
    turned: FloatArray = out.reshape(n, width)
    return turned


__all__ = [
    "added_rows",
    "check_stack",
    "parse_positions",
    "rope_angles",
    "rope_pair",
    "rotate",
    "sinusoidal_column",
    "sinusoidal_table",
    "trace_numbers",
]
