"""File → Open recent: up to eight documents, newest first, kept in ``QSettings``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QMenu, QMessageBox

from app.plain_text import as_written
from app.preferences import app_settings
from app.state.window_lifetime import on_next_turn

if TYPE_CHECKING:
    from app.state.shell import Shell

KEY = "documents/recent"
MAX_RECENT = 8


def recent_files() -> list[Path]:
    """The remembered documents, newest first (whether or not they still exist)."""
    stored = app_settings().value(KEY, [], type=list)
    paths: list[Path] = []
    for item in stored if isinstance(stored, list) else []:
        if isinstance(item, str) and item and Path(item) not in paths:
            paths.append(Path(item))
    return paths[:MAX_RECENT]


def _store(paths: list[Path]) -> None:
    settings = app_settings()
    settings.setValue(KEY, [str(p) for p in paths[:MAX_RECENT]])
    settings.sync()


def _absolute(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def add_recent(path: Path) -> None:
    """Put ``path`` first in the list (once), dropping the oldest beyond eight."""
    path = _absolute(path)
    _store([path, *(p for p in recent_files() if p != path)])


def remove_recent(path: Path) -> None:
    _store([p for p in recent_files() if p != path])


def clear_recent() -> None:
    _store([])


class RecentMenu(QMenu):
    """The submenu, rebuilt each time it opens; a missing file is removed with a message."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell.widget())
        self.setTitle(self.tr("Open &recent"))
        self.shell = shell
        self.setObjectName("recentMenu")
        self.aboutToShow.connect(self.rebuild)
        self.rebuild()

    def rebuild(self) -> None:
        self.clear()
        paths = recent_files()
        for k, path in enumerate(paths, start=1):
            action = self.addAction(f"&{k} {path.name}  —  {path.parent}")
            action.setToolTip(str(path))
            action.setData(str(path))
            action.triggered.connect(lambda _on=False, path=path: self.open_recent(path))
        if not paths:
            empty = self.addAction(self.tr("No recent documents"))
            empty.setEnabled(False)
        self.addSeparator()
        self.clear_action = self.addAction(self.tr("&Clear list"))
        self.clear_action.setEnabled(bool(paths))
        self.clear_action.triggered.connect(self.clear_list)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.setTitle(self.tr("Open &recent"))
            self._rebuild_later()
        super().changeEvent(event)

    def clear_list(self) -> None:
        clear_recent()
        self._rebuild_later()

    def _rebuild_later(self) -> None:
        # Not at once: the action being triggered would be deleted inside its own signal.
        on_next_turn(self, self.rebuild)

    def open_recent(self, path: Path) -> bool:
        """Open ``path``; if it is gone, say so and take it off the list."""
        if not path.is_file():
            remove_recent(path)
            self._rebuild_later()
            QMessageBox.warning(self.shell.widget(), self.tr("Document not found"), as_written(
                self.tr("{path} is no longer there (moved, renamed or deleted). It was removed "
                        "from the recent documents.").format(path=path)))
            return False
        return self.shell.open_path(path)
