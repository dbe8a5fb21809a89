"""Step texts and glossary entries as small rich-text documents with linked terms (no Qt).

Every glossary term found by :func:`app.texts.linked_terms` becomes an anchor ``term:ID``; a
view that shows the HTML turns a click on it into "show this term in the glossary".
"""

from __future__ import annotations

from html import escape

from app.texts import HEADINGS, GlossaryEntry, StepText, linked_terms

TERM_SCHEME = "term"


def term_href(term_id: str) -> str:
    """The anchor of a glossary term: ``term:shares``."""
    return f"{TERM_SCHEME}:{term_id}"


def term_from_href(href: str) -> str | None:
    """The term id of a ``term:`` anchor, or None for any other link."""
    scheme, colon, rest = href.partition(":")
    return rest if colon and scheme == TERM_SCHEME and rest else None


def linked_html(text: str, lang: str, *, skip: str | None = None) -> str:
    """``text`` as escaped HTML with every glossary term an anchor (``skip`` stays plain)."""
    parts: list[str] = []
    cursor = 0
    for start, end, term_id in linked_terms(text, lang):
        parts.append(escape(text[cursor:start]))
        words = escape(text[start:end])
        parts.append(words if term_id == skip else
                     f'<a href="{escape(term_href(term_id))}">{words}</a>')
        cursor = end
    parts.append(escape(text[cursor:]))
    return "".join(parts)


def step_html(text: StepText, lang: str) -> str:
    """The four headings of a step, each with its text, terms linked."""
    blocks = [f"<h4>{escape(heading)}</h4><p>{linked_html(body, lang)}</p>"
              for heading, body in zip(HEADINGS[lang], text.sections(), strict=True)]
    return "".join(blocks)


def step_plain(text: StepText, lang: str) -> str:
    """The same four headings and texts as plain text (for screen readers' descriptions)."""
    return "\n".join(f"{heading}: {body}"
                     for heading, body in zip(HEADINGS[lang], text.sections(), strict=True))


def entry_html(entry: GlossaryEntry, lang: str, example_heading: str) -> str:
    """A glossary entry: the term, its definition and its worked example, other terms linked."""
    return (f"<h3>{escape(entry.term)}</h3>"
            f"<p>{linked_html(entry.definition, lang, skip=entry.term_id)}</p>"
            f"<p><b>{escape(example_heading)}</b> "
            f"{linked_html(entry.example, lang, skip=entry.term_id)}</p>")
