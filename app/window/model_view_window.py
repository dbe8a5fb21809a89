"""View → Model view: the document's every layer × head in a window of its own.

The picture is :class:`~app.canvas.model_view.ModelViewItem`, the item every export paints;
the wheel zooms (the shares print once a cell is large enough), hovering a cell says its share,
and a click on a head opens that layer's shares step with that head in the main window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from app.canvas.model_view import ModelViewItem, ModelViewOptions
from app.i18n import current_language
from app.window.appearance import appearance
from app.window.picture_window import PictureWindow

if TYPE_CHECKING:
    from app.state.shell import Shell


class ModelViewWindow(PictureWindow):
    """The model view of ``shell``'s document as it is now, with its receiver."""

    def __init__(self, shell: Shell, parent: QWidget | None = None) -> None:
        state = shell.state
        options = ModelViewOptions(receiver=state.receiver, lang=current_language(),
                                   theme=appearance().canvas_theme())
        item = ModelViewItem(state.trace, options, open_head=self.open_head)
        super().__init__(shell, item, item.title(), options.theme.color("background"), parent)

    def open_head(self, step: int, head: int) -> None:
        """Show shares step ``step`` with head ``head`` (0-based) in the main window."""
        state = self.shell.state
        state.set_head(head if state.trace.scenario.most_heads > 1 else None)
        state.set_step(step)
