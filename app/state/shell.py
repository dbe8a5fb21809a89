"""What the window's plug-ins may ask of it: the one narrow interface between the studio window
and the menus, modes and document helpers that attach to it (compare mode, the View menu,
presentation, the documents package).

A plug-in is given a :class:`Shell` and uses nothing else of the window: never its splitter,
timeline, editor or canvas widgets. The window (:class:`app.window.studio.StudioWindow`) implements
it; mypy checks that it does wherever the window hands itself to a plug-in, and the
import-linter contracts in ``pyproject.toml`` keep the plug-ins from importing the window.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QWidget

from app.canvas.context import FrameOptions
from app.canvas.side_by_side import CompareFrameItem
from app.i18n import LiveTexts
from app.state.document import DocumentState
from app.state.showing import Shown
from engine import Scenario, Trace


class Stepping(Protocol):
    """Moving through the steps, as the timeline's buttons do."""

    def previous(self) -> None: ...
    def next(self) -> None: ...
    def first(self) -> None: ...
    def last(self) -> None: ...


class Shell(Protocol):
    """The operations a plug-in needs from the window it is part of."""

    @property
    def state(self) -> DocumentState:
        """The open document and its view (step, receiver, head): the model, never a widget."""

    @property
    def texts(self) -> LiveTexts:
        """The window's words that follow the interface language (bind a plug-in's own)."""

    @property
    def stepping(self) -> Stepping:
        """Previous, next, first, last step."""

    def widget(self) -> QWidget:
        """The window as a widget: the parent of a plug-in's dialogs, its title, its focus."""

    # -- messages and documents --------------------------------------------------------------
    def show_message(self, text: str) -> None:
        """Say ``text`` on the status line."""

    def show_document(self, scenario: Scenario, path: Path | None, modified: bool = False,
                      note: str = "", trace: Trace | None = None,
                      shown: Shown | None = None) -> None:
        """Make ``scenario`` the document, with no undo history; ``modified`` marks restored
        unsaved work (its recovery copy is written at once); ``shown``: ``trace`` already
        checked for showing."""

    def open_path(self, path: Path) -> bool:
        """Open the document at ``path`` here (asking about unsaved changes); False if not."""

    def open_window(self, scenario: Scenario, trace: Trace | None = None) -> Shell:
        """A new window, shown, on ``scenario`` (``trace``: its trace, computed already)."""

    # -- menus and panels --------------------------------------------------------------------
    def add_action(self, action: QAction) -> None:
        """Make ``action``'s shortcut work anywhere in the window (also while menus are
        hidden, as in full screen)."""

    def add_canvas_control(self, control: QWidget, stretch: int = 0) -> None:
        """Put ``control`` in the row above the canvas, before the Fit button (``stretch``:
        its share of the row's spare width, as in ``QBoxLayout.addWidget``)."""

    def add_panel(self, panel: QDockWidget) -> None:
        """Dock ``panel`` on the window's right side (hidden until shown)."""

    def glossary_action(self) -> QAction:
        """The checkable action that shows or hides the glossary side panel."""

    def bind_explanation(self, action: QAction) -> None:
        """Keep the checkable ``action`` and the step explanation's fold-out in step."""

    def set_editor_folded(self, folded: bool) -> None:
        """Fold the editor away (giving the canvas its room) or bring it back as it was."""

    def panel_sizes(self) -> list[int]:
        """The widths of the editor and the canvas column."""

    def set_panel_sizes(self, sizes: list[int]) -> bool:
        """Set those widths; False (nothing changed) unless they fit the panels."""

    def dwell(self) -> float:
        """Seconds Play stays on each step."""

    def set_dwell(self, seconds: float) -> bool:
        """Set the dwell time; False (nothing changed) when out of range."""

    # -- the editor's grids ------------------------------------------------------------------
    def grid_paths(self) -> list[str]:
        """The document paths of the editor's grids, in order."""

    def selected_grid(self) -> str | None:
        """The path of the grid that last had the keyboard focus, if it is still there."""

    # -- the canvas --------------------------------------------------------------------------
    def frame_options(self) -> FrameOptions:
        """What the canvas draws now (receiver, head, theme, language, worked row)."""

    def refresh_canvas(self, fit: bool) -> None:
        """Draw the current frame again (the comparison while comparing)."""

    def show_on_canvas(self, item: CompareFrameItem, fit: bool) -> None:
        """Show ``item`` (a comparison) on the canvas instead of the step's frame."""

    def comparison(self, options: FrameOptions) -> CompareFrameItem | None:
        """The comparison drawn with ``options`` while comparing, else None."""

    def hide_step_texts(self, hidden: bool) -> None:
        """Hide the texts under the timeline (they quote the step's numbers) or show them."""

    def step_title(self, index: int) -> str:
        """The heading of step ``index`` in the interface language."""
