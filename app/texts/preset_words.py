"""What File → New from architecture says of each preset, in every language: the catalogue's
``preset.<family>.*`` words (:mod:`app.texts.words`). Imports no Qt.

Each family has its menu entry (its name and a one-line note) and its document's title and note:
what makes the family what it is, and where the preset is smaller than the real model. A
preset's document holds the English title and note; the other languages' are found by its title
(:func:`app.texts.example_words.document_words`).
"""

from __future__ import annotations

from app.texts.words import say


def preset_name(name: str, lang: str) -> str:
    """The family's name on the menu (``GPT-2``)."""
    return say(f"preset.{name}.name", lang)


def preset_menu_note(name: str, lang: str) -> str:
    """The family's one-line note on the menu (``learned positions, …``)."""
    return say(f"preset.{name}.menu", lang)


def preset_label(name: str, lang: str) -> str:
    """``GPT-2 — learned positions, …``: the preset's menu entry in ``lang``."""
    return f"{preset_name(name, lang)} — {preset_menu_note(name, lang)}"


def preset_title(name: str, lang: str = "en") -> str:
    """The preset's document title (English: as its document holds it)."""
    return say(f"preset.{name}.title", lang)


def preset_note(name: str, lang: str = "en") -> str:
    """The preset's document note (English: as its document holds it)."""
    return say(f"preset.{name}.note", lang, sizes=say("preset.sizes", lang))
