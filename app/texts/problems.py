"""The refusals of a document, worded in the interface language. Imports no Qt.

The engine gives every :class:`~engine.format.errors.ScenarioError` as a refusal id and its values
(:class:`~engine.words.refusals.Refusal`); :func:`problem_words` words it from the catalogue of the
language (:mod:`engine.words`).
"""

from __future__ import annotations

import re

from app.texts.model import check_language
from app.texts.words import say
from engine import ScenarioError
from engine.format.errors import one_line

_BETWEEN_HAN = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef]) (?=[\u3000-\u9fff\uff00-\uffef])")
"""A space the templates put before a value, left between two Chinese characters when the
value is itself a Chinese phrase (得到的是 一个对象)."""


def problem_words(error: ScenarioError, lang: str) -> str:
    """``place: problem`` in ``lang`` (the catalogue's ``refused_at``). The engine's message is
    already in English; a refusal the app words itself (no id) is already in the interface
    language, and is shown as it is."""
    if check_language(lang) == "en" or error.refusal is None:
        return str(error)
    problem = _BETWEEN_HAN.sub("", one_line(error.refusal.words(lang)))
    return say("refused_at", lang, place=error.place, problem=problem) if error.place else problem
