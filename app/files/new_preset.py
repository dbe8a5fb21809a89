"""File → New from architecture: a submenu of the model families, each a tiny preset document
(:mod:`app.model.presets`) shown as a new, unsaved document with no undo history.

As with File → Open checkpoint…, the open document is replaced only when it holds no unsaved
work; otherwise the preset opens in a new window beside it.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMenu

from app.i18n import current_language
from app.model.presets import PRESETS, preset
from app.texts.preset_words import preset_label, preset_menu_note, preset_name, preset_note

if TYPE_CHECKING:
    from app.state.shell import Shell

translate = QCoreApplication.translate


def new_from_architecture(shell: Shell, name: str) -> None:
    """Show the preset ``name`` (a family of :data:`app.model.presets.PRESETS`), unsaved."""
    scenario = preset(name, preset_note(name))
    lang = current_language()
    said = translate("Presets", "New {family} preset: {note}").format(
        family=preset_name(name, lang), note=preset_menu_note(name, lang))
    if shell.state.undo_stack.isClean():
        shell.show_document(scenario, None, note=said)
    else:  # the open document's unsaved work stays where it is
        shell.open_window(scenario).show_message(said)


def _label(name: str) -> str:
    return preset_label(name, current_language())


def presets_menu(shell: Shell, parent: QMenu) -> QMenu:
    """The submenu under ``parent``: one entry per family, its words in the interface language."""
    menu = parent.addMenu("")
    shell.texts.bind(menu.setTitle, lambda: translate("Presets", "New from &architecture"))
    for name in PRESETS:
        action = menu.addAction("")
        action.setObjectName(f"preset-{name}")
        shell.texts.bind(action.setText, partial(_label, name))
        action.triggered.connect(
            lambda _on=False, name=name: new_from_architecture(shell, name))
    return menu
