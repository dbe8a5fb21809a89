"""What the KV cache reuses at an attention step of a document whose last token was generated.

A document with a generation run (``generation.chosen``) ends on a token the run appended; its row
was computed with the KV cache (:mod:`engine.generation.kv_cache`): at each self-attention of the
main stack the keys and values of the earlier positions come from the cache and only the new row's
q, k and v are computed; the scores, shares and mix are worked out for the new query alone; a
cross-attention's keys and values (the encoder's memory) were computed once. Imports no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.model.operands import ROLES, attention_of
from engine import Step, Trace

CacheRole = Literal["projection", "memory", "queries"]
"""``projection``: a self-attention's Q, K and V (K and V of earlier rows cached);
``memory``: a cross-attention's projections (the memory's K and V computed once);
``queries``: scores, shares and mix (the earlier query rows computed at earlier tokens)."""


@dataclass(frozen=True)
class CacheRows:
    """The rows of one attention step the KV cache accounts for.

    Attributes
    ----------
    role
        What the step's cache marks say (see :data:`CacheRole`).
    token
        Which token of the run the last row is (1-based: the run's ``len(chosen)``-th).
    new
        The new row: the last position, ``n − 1``.
    reused
        The earlier rows whose K and V the new query reads from the cache (inside the window).
    dropped
        The earlier rows that left the sliding window: still computed, no longer read.
    heads, groups
        The attention's query heads and the K/V heads the cache holds per position.
    window
        The sliding window (None: every earlier key is read).
    memory
        The encoder rows a cross-attention reads (0 for a self-attention).
    seen
        The keys the new query reads (after the mask, the window and the key mask).
    """

    role: CacheRole
    token: int
    new: int
    reused: tuple[int, ...]
    dropped: tuple[int, ...]
    heads: int
    groups: int
    window: int | None
    memory: int
    seen: int

    @property
    def earlier(self) -> tuple[int, ...]:
        """Every row before the new one."""
        return tuple(range(self.new))


def generated_tokens(trace: Trace) -> int:
    """How many tokens the document's run appended (0: no run, or nothing the cache reuses:
    a main stack with an attention that is not causal recomputes every row)."""
    run = trace.scenario.generation
    if run is None or trace.row_order is not None:
        return 0
    if not all(layer.attention.causal for layer in trace.scenario.layers):
        return 0
    return len(run.chosen)


def cache_rows(trace: Trace, step: Step) -> CacheRows | None:
    """What the cache reuses at ``step``; None for a step it does not concern (no run, an
    encoder step, a step outside attention)."""
    token = generated_tokens(trace)
    cached = ROLES[step.op].cached
    if token == 0 or not cached or step.stack != "decoder":
        return None
    att = attention_of(trace, step)
    visible = trace.visible_for(step.scope)
    new = int(visible.shape[0]) - 1
    cross = bool(step.keys) and step.keys != step.rows
    window = None if cross else att.window
    earlier = range(new)
    dropped = tuple(j for j in earlier if window is not None and new - j >= window)
    role: CacheRole = ("queries" if cached == "queries" else
                       "memory" if cross else "projection")
    return CacheRows(role=role, token=token, new=new,
                     reused=() if cross else tuple(j for j in earlier if j not in dropped),
                     dropped=dropped, heads=att.heads, groups=att.groups, window=window,
                     memory=int(visible.shape[1]) if cross else 0,
                     seen=int(visible[new].sum()))


__all__ = ["CacheRole", "CacheRows", "cache_rows", "generated_tokens"]
