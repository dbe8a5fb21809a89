"""Rows of a settings form: a label whose words follow the interface language, its buddy
widget, and the widget's accessible name."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtWidgets import QFormLayout, QWidget

from app.i18n import LiveTexts
from app.plain_text import PlainLabel

Row = tuple[QWidget, Callable[[], str], Callable[[], str]]
"""A widget, its label's words (with a shortcut mark) and its accessible name."""


def add_rows(form: QFormLayout, texts: LiveTexts, rows: Iterable[Row]) -> None:
    """Add each row to ``form``, binding its words in ``texts``."""
    for widget, label_text, name in rows:
        label = PlainLabel()
        texts.bind(label.setText, label_text)
        texts.bind(widget.setAccessibleName, name)
        label.setBuddy(widget)
        form.addRow(label, widget)
