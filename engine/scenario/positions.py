"""The ``positions`` of a stack (format 2): which encoding, and its settings, as a record.

Five kinds. ``none`` adds nothing. ``sinusoidal`` and ``learned`` add one row per position to the
input rows. ``rope`` turns pairs of columns of each head's queries and keys by an angle that grows
with the position. ``alibi`` adds a bias to the scores that falls with the distance between query
and key. Positions count from 0 for the first token. Reading a document's object and computing
the encodings: :mod:`engine.forward.positions`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from engine.format.reader import FloatArray
from engine.forward.alibi import alibi_slopes
from engine.scenario.frozen import Frozen

if TYPE_CHECKING:
    from engine.forward.rope_scaling import RopeScaling

KINDS = ("none", "sinusoidal", "learned", "rope", "alibi")
PAIRINGS = ("half", "interleaved")
ROPE_LAYOUTS = ("interleaved", "halves")
DEFAULT_BASE = 10000.0
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
        ``rope``: the long-context scaling of the frequencies (:mod:`engine.forward.rope_scaling`);
        None: θᵢ = base^(−2i/r) as they are.
    context
        ``rope``: the positions the model was made for (an imported checkpoint's
        ``max_position_embeddings``): generation refuses to go past it. None: no such bound.
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
    context: int | None = None

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
            if self.context is not None:
                doc["context"] = self.context
        if self.kind == "alibi" and self.slopes is not None:
            doc["slopes"] = write(self.slopes)
        elif self.kind == "alibi" and heads is not None and heads & (heads - 1):
            doc["slopes"] = write(alibi_slopes(heads))
        return doc


NO_POSITIONS = Positions()


__all__ = ["DEFAULT_BASE", "KINDS", "NO_POSITIONS", "PAIRINGS", "ROPE_LAYOUTS", "Kind", "Layout",
           "Pairing", "Positions"]
