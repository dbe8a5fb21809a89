"""How a generation run's tokens are named, on the timeline and in exported frames, in every
language. Imports no Qt."""

from __future__ import annotations

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


def token_of(t: int, count: int, label: str, lang: str) -> str:
    """Where token ``t`` stands in a run of ``count``: ``Token 2 of 3 “爱”``."""
    return RUN_WORDS[lang]["token_of"].format(t=t, count=count, label=label)


__all__ = ["RUN_WORDS", "token_name", "token_of"]
