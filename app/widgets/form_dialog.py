"""The parts the export dialogs share: a path field with its Browse… button, and the form laid
out above OK and Cancel."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


def path_field(edit: QLineEdit, browse: QPushButton) -> QWidget:
    """The path's line edit, taking the width, with its Browse… button beside it: one field."""
    field = QWidget()
    row = QHBoxLayout(field)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(edit, 1)
    row.addWidget(browse)
    return field


def lay_out_with_buttons(dialog: QDialog, form: QFormLayout, ok: str, cancel: str,
                         on_ok: Callable[[], object]) -> tuple[QDialogButtonBox, QPushButton]:
    """The dialog's *form* above OK and Cancel, each button's text and accessible name given;
    OK calls *on_ok* (which closes the dialog when it is done), Cancel rejects. Returns the
    button box and its OK button."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    for which, text in ((QDialogButtonBox.StandardButton.Ok, ok),
                        (QDialogButtonBox.StandardButton.Cancel, cancel)):
        button = buttons.button(which)
        button.setText(text)
        button.setAccessibleName(text)
    layout = QVBoxLayout(dialog)
    layout.addLayout(form)
    layout.addWidget(buttons)
    buttons.accepted.connect(on_ok)
    buttons.rejected.connect(dialog.reject)
    return buttons, buttons.button(QDialogButtonBox.StandardButton.Ok)
