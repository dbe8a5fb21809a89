"""The positional encodings on the tape: rows added to a stack's input, RoPE's turn of each
self-attention's q and k, and ALiBi's bias on its scores.

:func:`add_positions` runs once per stack, right after its input rows; :func:`turn` and
:func:`score_bias` run inside every self-attention of that stack. Cross-attention gets neither
RoPE nor ALiBi (its queries and keys come from two sequences that share no positions).
"""

from __future__ import annotations

from engine.format.numbers import format_exact
from engine.format.reader import FloatArray
from engine.forward.alibi import alibi_bias
from engine.forward.positions import rope_angles, rotate
from engine.forward.tape import Place, Tape
from engine.scenario.modules import Attention
from engine.scenario.positions import Positions
from engine.words import english


def _own(tape: Tape, place: Place, kind: str) -> tuple[Positions, str] | None:
    """The stack's positions and their path when they are of ``kind`` and ``place`` is a
    self-attention."""
    found = tape.positions.get(place.stack)
    if found is None or found[0].kind != kind or place.keys != place.rows:
        return None
    return found


def turn(tape: Tape, place: Place, a: Attention, q: str, k: str) -> tuple[str, str]:
    """RoPE: step ``{scope}rope`` turns each head's first r columns of ``q`` and ``k`` pair by
    pair into ``{scope}Q_rot`` and ``{scope}K_rot``; returns the names the scores read. An
    attention with angles of its own (its own ``rope_base``, or ``rope_scaled`` false) turns by
    ``{scope}rope_angles`` (the full pass's rows are positions 0 … n − 1; the KV cache turns
    its new row itself)."""
    found = _own(tape, place, "rope")
    if found is None:
        return q, k
    stack, module = found
    s = place.scope
    if tape.replayed():
        return f"{s}Q_rot", f"{s}K_rot"
    angles = ("enc." if place.stack == "encoder" else "") + "rope_angles"
    positions = a.turned_by(stack)
    if a.own_rope:
        angles = f"{s}rope_angles"
        tape.arrays[angles] = rope_angles(int(tape[q].shape[0]), positions.rotary(a.d_k),
                                          positions.base, positions.scaling)
    factor = positions.turn_factor
    tape.arrays[f"{s}Q_rot"] = rotate(tape[q], a.heads, tape[angles], positions.pairing, factor)
    tape.arrays[f"{s}K_rot"] = rotate(tape[k], a.groups, tape[angles], positions.pairing, factor)
    own = "" if a.rope_base is None else english("title.rope_own_base",
                                                  base=format_exact(a.rope_base))
    unscaled = "" if a.rope_scaled else english("title.rope_unscaled")
    tape.step(place, "rope", english("title.positions.rope", own=own, unscaled=unscaled),
              (q, k, angles), (f"{s}Q_rot", f"{s}K_rot"), "positions.rope", "rope",
              module=module, keys="")
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


__all__ = ["score_bias", "turn"]
