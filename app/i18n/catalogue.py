"""Reading a Qt Linguist ``.ts`` catalogue (XML) without Qt: for tests and the update script."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Message:
    """One entry: its context (the class), the English source and the translation."""

    context: str
    source: str
    translation: str
    finished: bool
    """Translated and not marked unfinished, vanished or obsolete."""


def read_catalogue(path: Path) -> list[Message]:
    """Every message of the ``.ts`` file at ``path``, in file order."""
    root = ET.parse(path).getroot()
    messages = []
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            node = message.find("translation")
            text = (node.text or "") if node is not None else ""
            kind = node.get("type", "") if node is not None else "unfinished"
            messages.append(Message(name, source, text, bool(text) and not kind))
    return messages


def translations(path: Path) -> dict[tuple[str, str], str]:
    """``(context, source) → translation`` for every finished message."""
    return {(m.context, m.source): m.translation for m in read_catalogue(path) if m.finished}
