"""Texts that follow the interface language: bound once, set again on every language change."""

from __future__ import annotations

from collections.abc import Callable

Setter = Callable[[str], object]
Source = Callable[[], str]


class LiveTexts:
    """Remembers where each translated text goes, so a widget's ``retranslate`` is one call.

    Bind a setter to a function that returns the text in the current language, written with
    ``self.tr("…")`` so that ``pyside6-lupdate`` finds the string::

        self.texts.bind(menu.setTitle, lambda: self.tr("&File"))

    The text is set at once and again on every :meth:`apply`. A binding whose object Qt has
    deleted in the meantime is dropped.
    """

    def __init__(self) -> None:
        self._bindings: list[tuple[Setter, Source]] = []

    def bind(self, setter: Setter, text: Source) -> None:
        """Set ``setter(text())`` now and on every :meth:`apply`."""
        setter(text())
        self._bindings.append((setter, text))

    def apply(self) -> None:
        """Set every bound text again, in the current language."""
        alive: list[tuple[Setter, Source]] = []
        for setter, text in self._bindings:
            try:
                setter(text())
            except RuntimeError:  # the C++ object behind the setter was deleted
                continue
            alive.append((setter, text))
        self._bindings = alive

    def __len__(self) -> int:
        return len(self._bindings)
