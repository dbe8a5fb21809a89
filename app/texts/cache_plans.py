"""The KV cache's sentence, added to what an attention step's text says when the document's
last token was generated: which rows came from the cache and which one was computed. Imports
no Qt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from app.model.cache_rows import CacheRows, cache_rows
from app.texts.facts import Facts
from app.texts.sentences import NOTHING, Say, Telling, Token, say

Plan = Callable[[Facts], Telling]


def _cache(f: Facts, marks: CacheRows) -> Say:
    """The sentence of ``marks``, with the document's numbers."""
    where = dict(t=marks.token, token=Token(f.tokens[marks.new]), p=marks.new)
    if marks.role == "memory":
        return say("cache.memory", m=marks.memory, **where)
    if marks.role == "queries":
        return say("cache.queries", seen=marks.seen, earlier=marks.new, n=marks.new + 1,
                   **where)
    window = (say("cache.window", dropped=len(marks.dropped), w=marks.window)
              if marks.dropped else NOTHING)
    groups = (say("cache.groups_one" if marks.groups == 1 else "cache.groups_many",
                  g=marks.groups, h=marks.heads)
              if marks.groups < marks.heads else NOTHING)
    return say("cache.projection", earlier=marks.new, n=marks.new + 1, window=window,
               groups=groups, **where)


def with_cache(plan: Plan) -> Plan:
    """``plan``, its summary followed by the cache's sentence when the cache concerns the
    step (the summary is what the window shows first)."""
    def told(f: Facts) -> Telling:
        telling = plan(f)
        marks = cache_rows(f.trace, f.step)
        if marks is None:
            return telling
        return replace(telling, summary=say("cache.after", told=telling.summary,
                                            cache=_cache(f, marks)))
    return told


__all__ = ["with_cache"]
