"""View → Decimals: how many decimals the frames print, saved with the document."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from app.canvas.context import LayoutContext
from app.i18n import LiveTexts
from app.model.edits import SetOption
from app.state.document import DocumentState
from engine.format.numbers import DECIMAL_CHOICES


class DecimalsMenu(QObject):
    """A submenu of ``menu`` with one checkable action per precision.

    Choosing one writes ``display.decimals`` into the document (one undo step, saved with it);
    the checked action follows the document: its own choice, else the default it gets.
    Parented to the window, like the View menu's other helpers (parented to the menu, its
    wrapper outlived the C++ object and the garbage collector crashed the process).
    """

    def __init__(self, state: DocumentState, menu: QMenu, texts: LiveTexts,
                 parent: QObject) -> None:
        super().__init__(parent)
        self.state = state
        self.menu = menu.addMenu("")
        texts.bind(self.menu.setTitle, lambda: self.tr("&Decimals"))
        group = QActionGroup(self)
        group.setExclusive(True)
        self.actions: dict[int, QAction] = {}
        for places in DECIMAL_CHOICES:
            action = QAction(f"&{places}", self)
            action.setCheckable(True)
            action.setData(places)
            group.addAction(action)
            self.menu.addAction(action)
            self.actions[places] = action
        group.triggered.connect(self._on_triggered)
        state.traceChanged.connect(self.show_current)
        self.show_current()

    def current(self) -> int:
        """The decimals the frames print now."""
        return LayoutContext.places_for(self.state.trace)

    def show_current(self) -> None:
        current = self.current()
        for places, action in self.actions.items():
            action.setChecked(places == current)

    def _on_triggered(self, action: QAction) -> None:
        self.choose(int(action.data()))

    def choose(self, places: int) -> None:
        """Save ``places`` in the document unless it already prints that many."""
        if self.state.scenario.decimals != places:
            self.state.apply(SetOption("display.decimals", places))
        self.show_current()
