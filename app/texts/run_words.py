"""How a generation run's tokens are named, on the timeline and in exported frames, in every
language. Imports no Qt."""

from __future__ import annotations

from app.model.run import RunPlace

RUN_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "token": "token {t} “{label}”",
        "token_of": "Token {t} of {count} “{label}”",
    },
    "zh": {
        "token": "第 {t} 个 Token“{label}”",
        "token_of": "第 {t} 个 Token（共 {count} 个）“{label}”",
    },
}


def token_name(t: int, label: str, lang: str) -> str:
    """Token ``t`` of a run (from 1) by its label: ``token 2 “爱”``."""
    return RUN_WORDS[lang]["token"].format(t=t, label=label)


def token_of(place: RunPlace, lang: str) -> str:
    """Where a token stands in its run: ``Token 2 of 3 “爱”``."""
    return RUN_WORDS[lang]["token_of"].format(t=place.t, count=place.count, label=place.label)


def in_run(place: RunPlace | None, words: str, lang: str) -> str:
    """``words`` (a heading, the map's title) after the token's place in its run:
    ``Token 2 of 3 “爱” · Step 32 of 32 · …``; ``words`` alone without a place."""
    return words if place is None else f"{token_of(place, lang)} · {words}"


__all__ = ["RUN_WORDS", "in_run", "token_name", "token_of"]
