"""What the texts of the positional encodings (added rows P, RoPE) and of the QK-norm say,
decided once for every language from the open document's :class:`Facts`. Imports no Qt.
"""

from __future__ import annotations

import numpy as np

from app.model.operands import module_of
from app.texts.facts import Facts
from app.texts.sentences import NOTHING, Say, Telling, Token, say
from engine.format.numbers import format_exact
from engine.scenario.positions import Positions


def _length(f: Facts, name: str) -> str:
    return f.num(float(np.linalg.norm(f.array(name)[f.receiver])))


def added(f: Facts) -> Telling:
    tokens, table, x = f.step.reads[0], f.step.reads[1], f.step.writes[0]
    return Telling(
        summary=say("added.summary"),
        why=say("added.why"),
        how=say("added.how", token=Token(f.token), position=f.receiver,
                tokens=f.receiver_row(tokens), table=f.receiver_row(table), x=f.receiver_row(x)),
        pitfalls=say("added.pitfalls"),
        check=say("added.check", token=Token(f.token), position=f.receiver,
                  table=f.receiver_row(table)),
    )


def typed(f: Facts) -> Telling:
    """The sum with type rows (BERT's segments): token rows (+ P) + T."""
    terms = [name for name in f.step.reads if name in f.trace.arrays]
    out = f.step.writes[0]
    types = f.scenario.token_types or ()
    kind = types[f.receiver] if f.receiver < len(types) else 0
    with_p = any(name.endswith("positions") for name in terms)
    short = out.rsplit(".", 1)[-1]
    table = next(name for name in terms if name.endswith("type_rows"))
    return Telling(
        summary=say("types.summary_positions" if with_p else "types.summary", out=short),
        why=say("types.why"),
        how=say("types.how", out=short, token=Token(f.token), position=f.receiver, kind=kind,
                rows=" + ".join(f.receiver_row(name) for name in terms),
                x=f.receiver_row(out)),
        pitfalls=say("types.pitfalls"),
        check=say("types.check", out=short, token=Token(f.token), kind=kind,
                  table=f.receiver_row(table)),
    )


def _scaled(f: Facts) -> Say:
    """What RoPE's scaling does to the layer's frequencies (nothing without one)."""
    stack: Positions = module_of(f.trace, f.step)
    positions = f.attention.turned_by(stack)
    scaling = positions.scaling
    if scaling is None:
        return NOTHING
    r = 2 * int(f.array(f.step.reads[2]).shape[1])
    numbers = scaling.described(r, positions.base)
    return say(f"rope.scaled_{scaling.type}", **{
        key: format_exact(value) if key == "factor" else f.num(value)
        for key, value in numbers.items()})


def _own_base(f: Facts) -> Say:
    """The layer's own RoPE base beside the stack's (nothing without one)."""
    base = f.attention.rope_base
    if base is None:
        return NOTHING
    positions: Positions = module_of(f.trace, f.step)
    return say("rope.own_base", base=format_exact(base), stack=format_exact(positions.base))


def _unscaled(f: Facts) -> Say:
    """The stack's scaling this layer leaves out (nothing when it takes it)."""
    scaling = module_of(f.trace, f.step).scaling
    if f.attention.rope_scaled or scaling is None:
        return NOTHING
    return say("rope.unscaled", kind=scaling.type)


def rope(f: Facts) -> Telling:
    q, q_rot = f.step.reads[0], f.step.writes[0]
    return Telling(
        summary=say("rope.summary"),
        why=say("rope.why"),
        how=say("rope.how", token=Token(f.token), position=f.receiver, q=f.receiver_row(q),
                turned=f.receiver_row(q_rot), scaled=_scaled(f), own=_own_base(f),
                unscaled=_unscaled(f)),
        pitfalls=say("rope.pitfalls"),
        check=say("rope.check", token=Token(f.token), before=_length(f, q),
                  after=_length(f, q_rot), first=Token(f.tokens[0]), q=q, turned=q_rot),
    )


def _head(f: Facts) -> Say:
    whole = f.modules.attention.qk_norm_over == "all_heads"
    return say("qk_norm.head", head=f.head + 1) if f.heads > 1 and not whole else NOTHING


def qk_norm(f: Facts) -> Telling:
    m = f.norm_facts
    kind = say(f"norm.{f.norm}")
    a = f.modules.attention
    shifted = a.beta_q is not None
    q, normed = f.row(f.qk_norm_row(m.source)), f.row(f.qk_norm_row(m.name))
    whole = a.qk_norm_over == "all_heads"
    how = (say("qk_norm.how_all", norm=kind, width=a.qk_norm_width("q"), eps=f.eps,
               suffix=m.suffix, k_width=a.qk_norm_width("k"), token=Token(f.token), q=q,
               normed=normed) if whole else
           say("qk_norm.how", norm=kind, d_k=f.d_k, eps=f.eps, suffix=m.suffix, head=_head(f),
               token=Token(f.token), q=q, normed=normed))
    pitfalls = "qk_norm.pitfalls_shift" if shifted else "qk_norm.pitfalls"
    return Telling(
        summary=say("qk_norm.summary_all" if whole else "qk_norm.summary", norm=kind),
        why=say("qk_norm.why_all" if whole else "qk_norm.why"),
        how=how,
        pitfalls=say(pitfalls + ("_all" if whole else "")),
        check=say("qk_norm.check_shift" if shifted else "qk_norm.check", suffix=m.suffix,
                  token=Token(f.token), head=_head(f), square=f.num(f.qk_unscaled_mean_square)),
    )
