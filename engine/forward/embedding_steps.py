"""A stack's input on the tape: the rows looked up (× ``embedding_scale``), plus the position
rows and the type rows, then the ``embedding_norm``; what comes out is the stack's ``X``.

Names (with the stack's scope, ``enc.`` for the encoder): ``embedded`` is the rows before
anything is added (scaled), ``positions`` and ``type_rows`` the rows added, ``embed_sum`` their
sum when a norm follows, ``X`` what the first layer reads. Without any of these, the looked-up
(or given) rows are ``X`` itself, as in version 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.format.embedding import type_rows
from engine.format.reader import FloatArray
from engine.forward import tape as ops
from engine.forward.positions import added_rows, rope_angles
from engine.forward.tape import Place, Tape
from engine.scenario.modules import EmbeddingNorm, Encoder
from engine.scenario.names import NORM_NAMES
from engine.scenario.positions import Positions
from engine.words import english

if TYPE_CHECKING:
    from engine.scenario.scenario import Scenario

_SUM_TITLES = {(True, False): "title.positions.added", (False, True): "title.input.types",
               (True, True): "title.input.summed"}


@dataclass(frozen=True)
class StackInput:
    """What a stack's first layer reads, before it is computed.

    ``rows`` are the rows as given or looked up (unscaled); ``first`` the position of the
    first row (0, or the new row's position in a KV-cache step); ``prefix`` the document path
    of the stack (``""`` or ``"encoder."``).
    """

    rows: FloatArray
    looked_up: bool
    prefix: str = ""
    first: int = 0
    scale: float | None = None
    positions: Positions | None = None
    first_d_k: int = 0
    types: tuple[int, ...] | None = None
    type_table: FloatArray | None = None
    norm: EmbeddingNorm | None = None


def of_stack(owner: Scenario | Encoder) -> StackInput:
    """The input of the document's own stack or of its encoder."""
    first_d_k = owner.layers[0].attention.d_k
    if isinstance(owner, Encoder):
        return StackInput(rows=owner.X, looked_up=owner.token_ids is not None,
                          prefix="encoder.", scale=owner.embedding_scale,
                          positions=owner.positions, first_d_k=first_d_k,
                          norm=owner.embedding_norm)
    return StackInput(rows=owner.X, looked_up=owner.token_ids is not None,
                      scale=owner.embedding_scale, positions=owner.positions,
                      first_d_k=first_d_k, types=owner.token_types,
                      type_table=owner.type_table, norm=owner.embedding_norm)


def position_rows(positions: Positions, first: int, n: int, d: int) -> FloatArray | None:
    """The rows an additive kind adds at positions ``first … first + n − 1``; None for the
    other kinds."""
    if positions.kind == "learned":
        assert positions.table is not None
        start = positions.offset + first
        rows: FloatArray = positions.table[start:start + n].copy()
        return rows
    table = added_rows(positions, first + n, d)
    return None if table is None else table[first:]


def lay_in(tape: Tape, place: Place, given: StackInput) -> None:
    """The stack's input steps, from its rows to ``{scope}X``."""
    s = place.scope
    n, d = (int(k) for k in given.rows.shape)
    positions = given.positions
    added = None
    if positions is not None and positions.kind != "none":
        tape.positions[place.stack] = (positions, f"{given.prefix}positions")
        added = position_rows(positions, given.first, n, d)
        if positions.kind == "rope":
            r = positions.rotary(given.first_d_k)
            tape.arrays[f"{s}rope_angles"] = rope_angles(given.first + n, r, positions.base,
                                                         positions.scaling)[given.first:]
    types = (type_rows(given.types, given.type_table)
             if given.types is not None and given.type_table is not None else None)
    follows = added is not None or types is not None or given.norm is not None
    start = f"{s}embedded" if follows else f"{s}X"
    rows = given.rows if given.scale is None else given.rows * given.scale
    if given.looked_up:
        ops.embed(tape, place, start, rows, given.scale)
    else:
        tape.arrays[start] = rows
    if added is not None or types is not None:
        start = _summed(tape, place, given, start, added, types)
    if given.norm is not None:
        norm, module = given.norm, f"{given.prefix}embedding_norm"
        ops.normalise(tape, place.at(module), "embedding_norm", "X", start,
                      (f"{module}.gamma", norm.gamma), (f"{module}.beta", norm.beta),
                      norm.norm, norm.eps,
                      english("title.input.embedding_norm", norm=NORM_NAMES[norm.norm]),
                      "input.embedding_norm")


def _summed(tape: Tape, place: Place, given: StackInput, embedded: str,
            added: FloatArray | None, types: FloatArray | None) -> str:
    """Step ``positions`` (or ``types`` without added positions): the token rows plus the
    position rows and the type rows; returns what it writes (``embed_sum`` before a norm)."""
    s = place.scope
    out = f"{s}embed_sum" if given.norm is not None else f"{s}X"
    if tape.replayed():
        return out
    total = tape[embedded]
    reads = [embedded]
    if added is not None:
        tape.arrays[f"{s}positions"] = added
        total = total + added
        reads.append(f"{s}positions")
        assert given.positions is not None
        if given.positions.kind == "learned":
            reads.append(f"{given.prefix}positions.table")
    if types is not None:
        tape.arrays[f"{s}type_rows"] = types
        total = total + types
        reads += [f"{s}type_rows", "type_table"]
    tape.arrays[out] = total
    kind = "positions" if added is not None else "types"
    key = "positions.added" if types is None else "input.types"
    tape.step(place.at(f"{given.prefix}positions" if added is not None else ""), kind,
              english(_SUM_TITLES[added is not None, types is not None]), tuple(reads), (out,), key,
              "positions")
    return out


__all__ = ["StackInput", "lay_in", "of_stack", "position_rows"]
