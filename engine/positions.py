"""Positional encodings: how a stack learns where each token sits (``positions`` of format 2).

Five kinds. ``none`` adds nothing. ``sinusoidal`` and ``learned`` add one row per position to the
input rows. ``rope`` turns pairs of columns of each head's queries and keys by an angle that grows
with the position. ``alibi`` adds a bias to the scores that falls with the distance between query
and key. Positions count from 0 for the first token.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from engine.errors import ScenarioError
from engine.modules import Attention, Frozen
from engine.reader import (
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
from engine.refusals import Refusal, Value
from engine.rope_scaling import RopeScaling, parse_scaling

KINDS = ("none", "sinusoidal", "learned", "rope", "alibi")
PAIRINGS = ("half", "interleaved")
LAYOUTS = ("interleaved", "halves")
DEFAULT_BASE = 10000.0
_KEYS: dict[str, tuple[str, ...]] = {
    "none": ("kind",),
    "sinusoidal": ("kind", "base", "layout"),
    "learned": ("kind", "table", "offset"),
    "rope": ("kind", "base", "rotary_dims", "pairing", "scaling"),
    "alibi": ("kind", "slopes"),
}
"""The keys each kind takes; any other key is refused, naming the kind it belongs to."""

Kind = Literal["none", "sinusoidal", "learned", "rope", "alibi"]
Pairing = Literal["half", "interleaved"]
Layout = Literal["interleaved", "halves"]


@dataclass(frozen=True, eq=False)
class Positions(Frozen):
    """A validated ``positions`` object.

    Attributes
    ----------
    kind
        One of :data:`KINDS`.
    base
        The wavelength base of ``sinusoidal`` and ``rope``.
    table
        ``learned``: the N × d table whose rows ``offset … offset + n − 1`` are added.
    offset
        ``learned``: the table row of position 0.
    rotary_dims
        ``rope``: how many of each head's first columns turn (even); None: all d_k.
    pairing
        ``rope``: ``half`` pairs columns i and i + r/2 (Llama, GPT-NeoX); ``interleaved`` pairs
        2i and 2i + 1 (GPT-J, RoFormer).
    slopes
        ``alibi``: one slope per head; None: the ALiBi paper's default (:func:`alibi_slopes`).
    layout
        ``sinusoidal``: ``interleaved`` puts pair i's sine and cosine in columns 2i and 2i + 1
        (the 2017 paper); ``halves`` puts every sine first, then every cosine (Marian).
    scaling
        ``rope``: the long-context scaling of the frequencies (:mod:`engine.rope_scaling`);
        None: θᵢ = base^(−2i/r) as they are.
    """

    kind: Kind = "none"
    base: float = DEFAULT_BASE
    table: FloatArray | None = None
    offset: int = 0
    rotary_dims: int | None = None
    pairing: Pairing = "half"
    slopes: FloatArray | None = None
    layout: Layout = "interleaved"
    scaling: RopeScaling | None = None

    @property
    def turn_factor(self) -> float:
        """What RoPE's cos and sin are multiplied by (yarn's attention factor; else 1)."""
        return 1.0 if self.scaling is None else self.scaling.attention_factor

    def rotary(self, d_k: int) -> int:
        """How many columns of a head of width ``d_k`` turn under RoPE."""
        return self.rotary_dims if self.rotary_dims is not None else d_k

    def head_slopes(self, heads: int) -> FloatArray:
        """ALiBi's slope of each of ``heads`` heads (the document's, or the default)."""
        return self.slopes if self.slopes is not None else alibi_slopes(heads)

    def to_document(self, write: Callable[[FloatArray], Any],
                    heads: int | None = None) -> dict[str, Any]:
        """The JSON object of the document (only the keys this kind takes, and only those set).

        ``write`` turns an array into what the document holds (nested lists for a file).
        ``heads``: the one head count of the stack's layers (None when they differ); ALiBi's
        default slopes for h not a power of two are written out, so the saved document keeps
        its meaning whatever a later default says.
        """
        doc: dict[str, Any] = {"kind": self.kind}
        if self.kind in ("sinusoidal", "rope"):
            doc["base"] = int(self.base) if float(self.base).is_integer() else self.base
        if self.kind == "sinusoidal" and self.layout != "interleaved":
            doc["layout"] = self.layout
        if self.kind == "learned" and self.table is not None:
            doc["table"] = write(self.table)
            if self.offset:
                doc["offset"] = self.offset
        if self.kind == "rope":
            if self.rotary_dims is not None:
                doc["rotary_dims"] = self.rotary_dims
            doc["pairing"] = self.pairing
            if self.scaling is not None:
                doc["scaling"] = self.scaling.to_document()
        if self.kind == "alibi" and self.slopes is not None:
            doc["slopes"] = write(self.slopes)
        elif self.kind == "alibi" and heads is not None and heads & (heads - 1):
            doc["slopes"] = write(alibi_slopes(heads))
        return doc


NO_POSITIONS = Positions()


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
        return Positions(kind="rope", base=base, rotary_dims=rotary_dims, pairing=pairing,
                         scaling=scaling)
    if kind == "alibi":
        slopes = (expect_vector(obj["slopes"], f"{place}.slopes") if "slopes" in obj else None)
        if slopes is not None and not 1 <= slopes.size <= MAX_HEADS:
            raise ScenarioError(f"{place}.slopes", Refusal("alibi_slopes_count", limit=MAX_HEADS,
                                                           got=slopes.size))
        return Positions(kind="alibi", slopes=slopes)
    if kind == "sinusoidal":
        layout: Layout = expect_choice(obj.get("layout", "interleaved"), f"{place}.layout",
                                       LAYOUTS)  # type: ignore[assignment]
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


def _geometric(heads: int) -> FloatArray:
    """2^(−8k/h), k = 1 … h."""
    slopes: FloatArray = np.power(2.0, -8.0 * np.arange(1, heads + 1) / heads)
    return slopes


def alibi_slopes(heads: int) -> FloatArray:
    """ALiBi's default slopes, the paper's rule (as MPT and BLOOM): for h a power of two
    2^(−8k/h), k = 1 … h (h = 8: 1/2, 1/4, … 1/256); otherwise the slopes of the nearest
    lower power of two m, then every other slope of 2m, for the h − m heads left (h = 3:
    1/16, 1/256, then 1/4)."""
    lower = 1 << (heads.bit_length() - 1)
    if lower == heads:
        return _geometric(heads)
    extra: FloatArray = _geometric(2 * lower)[0::2][:heads - lower]
    slopes: FloatArray = np.concatenate([_geometric(lower), extra])
    return slopes


def alibi_bias(slopes: FloatArray, n: int, causal: bool) -> FloatArray:
    """The h × n × n bias added to the scores: −slope·(i − j), or −slope·|i − j| non-causal.

    Under the causal mask the cells j > i are hidden anyway; their bias is −slope·(i − j) too.
    """
    offsets = np.arange(n)[:, None] - np.arange(n)[None, :]
    distance = offsets if causal else np.abs(offsets)
    bias: FloatArray = slopes[:, None, None] * -distance[None, :, :]  # 0, not −0, at i = j
    return bias


__all__ = ["KINDS", "LAYOUTS", "NO_POSITIONS", "PAIRINGS", "Positions", "added_rows", "alibi_bias",
           "alibi_slopes", "check_stack", "parse_positions", "rope_angles", "rope_pair",
           "rotate", "sinusoidal_column", "sinusoidal_table", "trace_numbers"]
