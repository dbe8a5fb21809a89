"""What a session remembers between launches, in ``QSettings`` (always read with a type).

Remembered: window geometry and splitter sizes, the last document's path, the current step, the
dwell time, and the canvas's receiver and head. Export options are remembered by the export
dialog itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings

from app.preferences import app_settings

if TYPE_CHECKING:
    from app.state.shell import Shell

GROUP = "session"
NONE = -1
"""Stored for "no receiver / all heads chosen"."""


def save_session(shell: Shell) -> None:
    """Remember the window's layout, document and view for the next launch, which may reopen
    the document (:func:`unfinished_opening`)."""
    settings = app_settings()
    settings.beginGroup(GROUP)
    state = shell.state
    settings.setValue("geometry", shell.widget().saveGeometry())
    settings.setValue("splitter", shell.panel_sizes())
    settings.setValue("document", str(state.path) if state.path is not None else "")
    settings.setValue("step", int(state.step))
    settings.setValue("dwell", shell.dwell())
    receiver, head = state.receiver, state.head
    settings.setValue("receiver", NONE if receiver is None else int(receiver))
    settings.setValue("head", NONE if head is None else int(head))
    settings.remove(OPENING)  # closed normally: whatever it opened did not break the launch
    settings.remove(STAGE)
    settings.endGroup()
    settings.sync()


def last_document() -> Path | None:
    """The document open when the last session ended, if it had a file and the file is there."""
    text = app_settings().value(f"{GROUP}/document", "", type=str)
    if not isinstance(text, str) or not text:
        return None
    path = Path(text)
    return path if path.is_file() else None


def _int(settings: QSettings, key: str, default: int) -> int:
    value = settings.value(key, default, type=int)
    return value if isinstance(value, int) else default


def restore_session(shell: Shell, same_document: bool) -> None:
    """Put back the last session's layout; its step and view only if ``same_document``.

    Any stored value that is missing, of the wrong type or out of range is ignored.
    """
    settings = app_settings()
    settings.beginGroup(GROUP)
    geometry = settings.value("geometry", QByteArray(), type=QByteArray)
    if isinstance(geometry, QByteArray) and not geometry.isEmpty():
        shell.widget().restoreGeometry(geometry)
    sizes = settings.value("splitter", [], type=list)
    try:
        numbers = [int(size) for size in sizes] if isinstance(sizes, list) else []
    except (TypeError, ValueError):
        numbers = []
    shell.set_panel_sizes(numbers)
    stored = settings.value("dwell", 0.0, type=float)
    shell.set_dwell(float(stored) if isinstance(stored, int | float) else 0.0)
    if same_document:
        state = shell.state
        step = _int(settings, "step", 0)
        if 0 <= step < len(state.trace.steps):
            state.set_step(step)
        receiver = _int(settings, "receiver", NONE)
        if 0 <= receiver < state.scenario.n:
            state.set_receiver(receiver)
        head = _int(settings, "head", NONE)
        if 0 <= head < state.scenario.most_heads:
            state.set_head(head)
    settings.endGroup()


OPENING = "opening"
"""The key of the document a launch is opening; removed once its first frame is painted."""
STAGE = "opening_stage"
"""The key of what the launch was doing with it: :data:`READING` or :data:`DRAWING`."""
READING = "reading"
DRAWING = "drawing"


def mark_opening(path: Path | None) -> None:
    """Remember that the launch is opening ``path`` (``None``: an example), before a byte of it
    is read: should the launch never paint it, the next launch does not open it again."""
    settings = app_settings()
    settings.setValue(f"{GROUP}/{OPENING}", str(path) if path is not None else "")
    settings.setValue(f"{GROUP}/{STAGE}", READING)
    settings.sync()


def mark_drawing() -> None:
    """The launch's document was read and computed; its first frame is being drawn."""
    settings = app_settings()
    settings.setValue(f"{GROUP}/{STAGE}", DRAWING)
    settings.sync()


def mark_opened() -> None:
    """The launch's document painted its first frame cleanly (or was refused in words)."""
    settings = app_settings()
    settings.remove(f"{GROUP}/{OPENING}")
    settings.remove(f"{GROUP}/{STAGE}")
    settings.sync()


def opened_cleanly(path: Path) -> bool:
    """Whether ``path`` painted its first frame the last time a launch opened it."""
    text = app_settings().value(f"{GROUP}/{OPENING}", None, type=str)
    return not (isinstance(text, str) and text == str(path))


def unfinished_opening() -> tuple[str, str] | None:
    """The document (``""``: an example) the last launch was opening when it ended, and what it
    was doing (:data:`READING`, :data:`DRAWING`); None when every launch finished opening."""
    settings = app_settings()
    if not settings.contains(f"{GROUP}/{OPENING}"):
        return None
    text = settings.value(f"{GROUP}/{OPENING}", "", type=str)
    text = text if isinstance(text, str) else ""
    stage = settings.value(f"{GROUP}/{STAGE}", READING, type=str)
    return text, stage if stage in (READING, DRAWING) else READING


def forget_document() -> None:
    """Remember no document for the next launch (the last one ended the launch opening it)."""
    settings = app_settings()
    settings.setValue(f"{GROUP}/document", "")
    settings.sync()
