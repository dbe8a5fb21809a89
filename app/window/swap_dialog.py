"""Edit → Swap tokens…: two tokens trade places, as one undo step.

The dialog names each position by its token; OK makes :class:`app.model.edits.SwapTokens` on the
document. Without positions (and without a causal mask) the shares only trade rows and columns;
View → Compare with “B = two tokens swapped” shows that side by side, rows paired by token.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QMenu,
    QWidget,
)

from app.i18n import LiveTexts
from app.model.edits import SwapTokens
from app.model.operands import shown_token
from app.plain_text import PlainLabel

if TYPE_CHECKING:
    from app.state.shell import Shell


def _plain(text: Callable[[], str]) -> str:
    """A label's words without its shortcut mark."""
    return text().replace("&", "")


def position_names(tokens: tuple[str, ...]) -> list[str]:
    """``0 · 我``: each position with its token, as the choosers list them."""
    return [f"{k} · {shown_token(token)}" for k, token in enumerate(tokens)]


class SwapDialog(QDialog):
    """Two choosers of a position and OK; the first two positions are proposed."""

    def __init__(self, tokens: tuple[str, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.texts = LiveTexts()
        self.texts.bind(self.setWindowTitle, lambda: self.tr("Swap tokens"))
        form = QFormLayout(self)
        self.first_box = QComboBox()
        self.second_box = QComboBox()
        for box, label_text, start in ((self.first_box, lambda: self.tr("&Token"), 0),
                                       (self.second_box, lambda: self.tr("&with token"), 1)):
            box.addItems(position_names(tokens))
            box.setCurrentIndex(min(start, len(tokens) - 1))
            label = PlainLabel()
            self.texts.bind(label.setText, label_text)
            self.texts.bind(box.setAccessibleName, partial(_plain, label_text))
            label.setBuddy(box)
            form.addRow(label, box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def pair(self) -> tuple[int, int]:
        """The two positions chosen."""
        return self.first_box.currentIndex(), self.second_box.currentIndex()


class SwapTokensAction(QObject):
    """The Edit menu's “Swap tokens…” and the dialog it opens (``dialog`` while open)."""

    def __init__(self, shell: Shell, menu: QMenu) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.texts = LiveTexts()
        self.action = QAction(self)
        self.texts.bind(self.action.setText, lambda: self.tr("S&wap tokens…"))
        self.action.triggered.connect(self.open_dialog)
        menu.addAction(self.action)
        self.dialog: SwapDialog | None = None
        shell.state.documentChanged.connect(self._enable)
        shell.widget().installEventFilter(self)
        self._enable()

    def _enable(self) -> None:
        self.action.setEnabled(self.shell.state.scenario.n >= 2)

    def open_dialog(self) -> None:
        """Open the dialog (window-modal, not blocking); OK swaps."""
        self.dialog = SwapDialog(self.shell.state.scenario.tokens, self.shell.widget())
        self.dialog.accepted.connect(self._swap)
        self.dialog.finished.connect(self.dialog.deleteLater)
        self.dialog.open()

    def _swap(self) -> None:
        if self.dialog is None:
            return
        i, j = self.dialog.pair()
        self.dialog = None
        self.shell.state.apply(SwapTokens.of(self.shell.state.scenario, i, j))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
        return False
