"""The positional encodings on the tape: rows added to a stack's input, RoPE's turn of each
self-attention's q and k, and ALiBi's bias on its scores.

:func:`add_positions` runs once per stack, right after its input rows; :func:`turn` and
:func:`score_bias` run inside every self-attention of that stack. Cross-attention gets neither
RoPE nor ALiBi (its queries and keys come from two sequences that share no positions).
"""

from __future__ import annotations

from dataclasses import replace

from engine.modules import Attention
from engine.positions import Positions, added_rows, alibi_bias, rope_angles, rotate
from engine.reader import FloatArray
from engine.tape import Place, Tape

_TITLES = {"sinusoidal": "Positions: each position's sine and cosine row added",
           "learned": "Positions: each position's row of the learned table added"}


def add_positions(tape: Tape, place: Place, positions: Positions | None, module: str,
                  first_d_k: int) -> None:
    """After a stack's input rows ``{scope}X``: keep the stack's positions for its attentions;
    with an additive kind, step ``positions`` makes ``X = embedded + positions``; with RoPE,
    ``{scope}rope_angles`` (n × r/2) is laid out for the rope steps.

    ``module`` is the document path of the positions (``positions``, ``encoder.positions``);
    ``first_d_k`` the first layer's d_k, RoPE's width when ``rotary_dims`` is not given.
    """
    if positions is None or positions.kind == "none":
        return
    tape.positions[place.stack] = (positions, module)
    s = place.scope
    name = f"{s}X"
    rows = tape.arrays.pop(name)
    n, d = (int(k) for k in rows.shape)
    added = added_rows(positions, n, d)
    if added is None:
        tape.arrays[name] = rows
        if positions.kind == "rope":
            r = positions.rotary(first_d_k)
            tape.arrays[f"{s}rope_angles"] = rope_angles(n, r, positions.base)
        return
    tape.arrays[f"{s}embedded"] = rows
    tape.arrays[f"{s}positions"] = added
    tape.arrays[name] = rows + added
    last = tape.steps[-1] if tape.steps else None
    if last is not None and last.op == "embed" and last.scope == s:
        tape.steps[-1] = replace(last, writes=(f"{s}embedded",))
    table = (f"{module}.table",) if positions.kind == "learned" else ()
    tape.step(place.at(module), "positions", _TITLES[positions.kind],
              (f"{s}embedded", f"{s}positions", *table), (name,), "positions.added",
              "positions")


def _own(tape: Tape, place: Place, kind: str) -> tuple[Positions, str] | None:
    """The stack's positions and their path when they are of ``kind`` and ``place`` is a
    self-attention."""
    found = tape.positions.get(place.stack)
    if found is None or found[0].kind != kind or place.keys != place.rows:
        return None
    return found


def turn(tape: Tape, place: Place, a: Attention, q: str, k: str) -> tuple[str, str]:
    """RoPE: step ``{scope}rope`` turns each head's first r columns of ``q`` and ``k`` pair by
    pair into ``{scope}Q_rot`` and ``{scope}K_rot``; returns the names the scores read."""
    found = _own(tape, place, "rope")
    if found is None:
        return q, k
    positions, module = found
    s = place.scope
    angles = ("enc." if place.stack == "encoder" else "") + "rope_angles"
    tape.arrays[f"{s}Q_rot"] = rotate(tape[q], a.heads, tape[angles], positions.pairing)
    tape.arrays[f"{s}K_rot"] = rotate(tape[k], a.groups, tape[angles], positions.pairing)
    tape.step(place, "rope", "RoPE: each pair of q and k turned by p·θ", (q, k, angles),
              (f"{s}Q_rot", f"{s}K_rot"), "positions.rope", "rope", module=module, keys="")
    return f"{s}Q_rot", f"{s}K_rot"


def score_bias(tape: Tape, place: Place, a: Attention,
               q: str) -> tuple[FloatArray | None, tuple[str, ...]]:
    """ALiBi: the bias (h × n × n) the scores add, and the parameters it reads; ``(None, ())``
    without ALiBi."""
    found = _own(tape, place, "alibi")
    if found is None:
        return None, ()
    positions, module = found
    n = int(tape[q].shape[0])
    given = (f"{module}.slopes",) if positions.slopes is not None else ()
    return alibi_bias(positions.head_slopes(a.heads), n, a.causal), given


__all__ = ["add_positions", "score_bias", "turn"]
