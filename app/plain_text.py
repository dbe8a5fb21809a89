"""Texts shown as written, never read as HTML.

Qt shows a label's, tooltip's or message box's text as rich text when its first line holds
something like a tag (``Qt::mightBeRichText``): a tokenizer's ``<s>`` (every Llama 2, Mistral and
TinyLlama text starts with it) then vanished from the step's check line and struck through the
rest of it, and a title typed as ``<b>…</b>`` came out bold. The interface puts a document's
words (tokens, titles, notes, typed cells, file names) into such texts, and none of its own
texts is HTML: every label is a :class:`PlainLabel`, and tooltips and message boxes that carry
a document's words go through :func:`as_written`.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QWidget


class PlainLabel(QLabel):
    """A label whose text is plain text, whatever it holds."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)


def as_written(text: str) -> str:
    """``text`` for a tooltip or a message box, which Qt reads as rich text when it looks like
    it: unchanged when Qt shows it as plain text anyway, else escaped, its spaces and line
    breaks kept, so that Qt shows the same characters."""
    if not GuiQt.mightBeRichText(text):
        return text
    return f'<p style="white-space:pre-wrap">{escape(text, quote=False)}</p>'
