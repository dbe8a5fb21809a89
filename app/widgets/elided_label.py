"""A one-line label that ends in “…” when its text does not fit; the whole text is its tooltip
and its accessible description."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTextBoundaryFinder
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.plain_text import PlainLabel, as_written

ELLIPSIS = "…"
SEPARATORS = " ·:,;—–-"
"""Left off before the “…” of a cut (“Layer 1 · Score…” is cut to “Layer 1…”)."""
LEAST_KEPT = 4
"""The fewest characters of a short form's words worth showing before its “…”: “1/5 · On…”
says less than “1/5”."""


def elided(text: str, metrics: QFontMetrics, room: int) -> str:
    """As much of ``text``'s start as fits in ``room`` pixels with “…”, cut after a whole word
    (“Step 1 of 5 · One input, three…”, never “three paramete…”); a text with no word end
    that fits (a long Chinese run, one long word) is cut between characters."""
    if metrics.horizontalAdvance(text) <= room:
        return text
    cut = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
    kept = len(cut.removesuffix(ELLIPSIS))
    if kept == 0 or kept >= len(text):
        return cut
    words = QTextBoundaryFinder(QTextBoundaryFinder.BoundaryType.Word, text)
    words.setPosition(kept)
    end = kept if words.isAtBoundary() else max(0, words.toPreviousBoundary())
    head = text[:end].rstrip(SEPARATORS)
    # A word end well inside the room; else the characters' cut is the better of the two.
    if not head or metrics.horizontalAdvance(head) < room // 2:
        return cut
    return head + ELLIPSIS


class ElidedLabel(PlainLabel):
    """Shows as much of its text's start as fits, then “…”; it never widens its layout for a
    long text (a long step title such as “Encoder · Layer 1 · …” would squeeze the editor
    beside it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self._whole = ""
        self._short = ""
        self._least = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str, short: str = "", least: str = "") -> None:
        """Show ``text``, or when it does not fit, ``short`` (the same words without what the
        window shows elsewhere), cut at its end if it does not fit either; ``least`` (the
        start of ``short`` that must stay, such as “1/5”) alone when the cut would keep fewer
        than :data:`LEAST_KEPT` characters after it."""
        self._whole, self._short, self._least = text, short, least
        self.setToolTip(as_written(text))
        self.setAccessibleDescription(text)
        self._fit()

    def clear(self) -> None:
        self.setText("")

    def text(self) -> str:
        """The whole text, whatever is shown of it."""
        return self._whole

    def shown_text(self) -> str:
        """What the label shows: the text, or its short form, or the beginning of one and
        “…”."""
        return super().text()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        metrics, room = self.fontMetrics(), self.contentsRect().width()
        text = self._whole
        if self._short and metrics.horizontalAdvance(text) > room:
            text = self._short
        shown = elided(text, metrics, room)
        if self._least and text == self._short and shown != text:
            kept = shown.removesuffix(ELLIPSIS).removeprefix(self._least).lstrip(SEPARATORS)
            if len(kept) < LEAST_KEPT:
                shown = elided(self._least, metrics, room)
        super().setText(shown)
