"""Find glossary terms in a text, so an interface can link them."""

from __future__ import annotations

import re
from functools import lru_cache

from app.texts.model import check_language
from app.texts.words import GLOSSARIES

_WORD = "A-Za-z0-9_"


def _pattern(form: str) -> re.Pattern[str]:
    """A form as a regular expression: a lower-case form ignores case, and a form that starts or
    ends with a Latin letter or digit must not continue a Latin word (``Wo`` is not in ``Word``).
    """
    body = re.escape(form)
    if re.match(f"[{_WORD}]", form[0]):
        body = f"(?<![{_WORD}])" + body
    if re.match(f"[{_WORD}]", form[-1]):
        body += f"(?![{_WORD}])"
    return re.compile(body, re.IGNORECASE if form == form.lower() else 0)


@lru_cache(maxsize=len(GLOSSARIES))
def _patterns(lang: str) -> tuple[tuple[re.Pattern[str], str | None], ...]:
    """Every form of ``lang`` with its term id (``None`` for a blocker), longest first."""
    forms: list[tuple[str, str | None]] = [(form, term_id)
                                           for term_id, group in GLOSSARIES[lang].forms.items()
                                           for form in group]
    forms += [(blocker, None) for blocker in GLOSSARIES[lang].blockers]
    forms.sort(key=lambda item: -len(item[0]))
    return tuple((_pattern(form), term_id) for form, term_id in forms)


def linked_terms(text: str, lang: str) -> list[tuple[int, int, str]]:
    """Spans of glossary terms in ``text``.

    Longer forms are placed first and a span never overlaps another, so ``"LayerNorm"`` links
    to LayerNorm rather than Norm. Blocking phrases (``"vocabulary head"``, ``"概率归一化"``)
    take their place without producing a link.

    Parameters
    ----------
    text
        Any text, typically a step text, a title or a glossary definition.
    lang
        The language of the text, ``"en"`` or ``"zh"``.

    Returns
    -------
    list of (start, end, term_id)
        Sorted by ``start``; ``text[start:end]`` is the matched words.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    """
    taken = [False] * len(text)
    spans: list[tuple[int, int, str]] = []
    for pattern, term_id in _patterns(check_language(lang)):
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(taken[start:end]):
                continue
            taken[start:end] = [True] * (end - start)
            if term_id is not None:
                spans.append((start, end, term_id))
    return sorted(spans)
