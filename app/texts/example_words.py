"""Titles and notes of the built-in examples and presets in every language: the catalogue's
``example.<name>.*`` words (:mod:`app.texts.words`). Imports no Qt.

File → Examples lists each example by its title with its note, in the interface language; a
built-in example's document (whose file holds its title and note in English) or a preset's is
found by its English title and shown with its title and note in the interface language.
"""

from __future__ import annotations

import json
from functools import cache

from app.model.examples import example_names, example_path
from app.model.presets import PRESETS
from app.texts.preset_words import preset_note, preset_title
from app.texts.words import CATALOGUES, say


def example_title(name: str, lang: str) -> str:
    """The example's title in ``lang`` (its file name if it has none)."""
    word_id = f"example.{name}.menu"
    return say(word_id, lang) if word_id in CATALOGUES["en"] else name


def example_label(name: str, lang: str) -> str:
    """``title — note``: one line for a menu."""
    word_id = f"example.{name}.menu"
    if word_id not in CATALOGUES["en"]:
        return name
    return f"{say(word_id, lang)} — {say(f'example.{name}.menu_note', lang)}"


@cache
def _built_in() -> dict[str, str]:
    """A built-in example's English title (as its file has it) → its name."""
    return {json.loads(example_path(name).read_text(encoding="utf-8"))["title"]: name
            for name in example_names()}


def document_words(title: str, note: str, lang: str) -> tuple[str, str]:
    """A document's title and note in ``lang``: a built-in example's or a preset's, found by its
    English ``title``; the document's own ``title`` and ``note`` otherwise."""
    presets = {preset_title(name): name for name in PRESETS}
    if title in presets:
        return preset_title(presets[title], lang), preset_note(presets[title], lang)
    name = _built_in().get(title)
    if name is None:
        return title, note
    return (say(f"example.{name}.title", lang, title=title),
            say(f"example.{name}.note", lang, note=note))
