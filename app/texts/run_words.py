"""How a generation run's tokens are named, on the timeline and in exported frames (the words:
``run.*`` of :mod:`app.texts.words`). Imports no Qt."""

from __future__ import annotations

from app.model.operands import shown_token
from app.model.run import RunPlace
from app.texts.words import say


def token_name(t: int, label: str, lang: str) -> str:
    """Token ``t`` of a run (from 1) by its label: ``token 2 “爱”``."""
    return say("run.token", lang, t=t, label=shown_token(label))


def token_of(place: RunPlace, lang: str) -> str:
    """Where a token stands in its run: ``Token 2 of 3 “爱”``."""
    return say("run.token_of", lang, t=place.t, count=place.count,
               label=shown_token(place.label))


def in_run(place: RunPlace | None, words: str, lang: str) -> str:
    """``words`` (a heading, the map's title) after the token's place in its run:
    ``Token 2 of 3 “爱” · Step 32 of 32 · …``; ``words`` alone without a place."""
    return words if place is None else f"{token_of(place, lang)} · {words}"


__all__ = ["in_run", "token_name", "token_of"]
