"""Noticing that the open document's file changed on disk behind the window's back.

Two windows (or another program) on one file: each window remembers the file as it last read or
wrote it (its inode, size and modification time) and watches it with ``QFileSystemWatcher``.
When the file changes, the window asks whether to reload it; before a save over a file that
changed, it asks whether to overwrite it. Nothing is overwritten or reloaded silently.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QObject
from PySide6.QtWidgets import QMessageBox

from app.files.opening import load_computed
from app.plain_text import as_written
from engine import ScenarioError

if TYPE_CHECKING:
    from app.state.shell import Shell

Stamp = tuple[int, int, int, int]
Button = QMessageBox.StandardButton


def file_stamp(path: Path) -> Stamp | None:
    """What tells one version of a file from another: device, inode, size, modification time."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class DiskWatch(QObject):
    """Watches the file of one window's document; asks before overwriting or reloading it."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.path: Path | None = None
        self.stamp: Stamp | None = None
        self._asking = False
        self._writing = False
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_changed)

    def follow(self, path: Path | None) -> None:
        """The document was just read from or written to ``path`` (``None``: no file)."""
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        self.path = path
        self.stamp = file_stamp(path) if path is not None else None
        if path is not None and self.stamp is not None:
            self.watcher.addPath(str(path))

    @contextlib.contextmanager
    def own_write(self) -> Iterator[None]:
        """While this window writes its own file: a big save runs in a worker with the event
        loop turning, and the change the watcher then reports is the save itself. Call
        :meth:`follow` after a successful write, before the loop turns again."""
        self._writing = True
        try:
            yield
        finally:
            self._writing = False

    def changed_on_disk(self) -> bool:
        """True if the file is not the version this window last read or wrote."""
        return self.path is not None and file_stamp(self.path) != self.stamp

    def may_overwrite(self, path: Path) -> bool:
        """Before saving to ``path``: True unless it changed on disk and the user says no."""
        if path != self.path or not self.changed_on_disk() or not path.exists():
            return True
        answer = QMessageBox.question(
            self.shell.widget(), self.tr("File changed on disk"),
            as_written(self.tr("{path} was changed on disk (by another window or program) since "
                               "it was opened or saved here.\n\nOverwrite it with the document "
                               "in this window?").format(path=path)),
            Button.Save | Button.Cancel, Button.Cancel)
        return answer == Button.Save

    def _on_changed(self, name: str) -> None:
        path = Path(name)
        if path.exists() and name not in self.watcher.files():
            self.watcher.addPath(name)  # replaced by a rename: watch the new file
        if self._asking or self._writing or path != self.path or not self.changed_on_disk():
            return
        self._asking = True
        try:
            self._offer_reload(path)
        finally:
            self._asking = False

    def _offer_reload(self, path: Path) -> None:
        modified = self.shell.state.modified
        question = (self.tr("{path} was changed on disk. This window has unsaved changes.\n\n"
                            "Reload the file and lose them? No keeps this window's version; "
                            "saving will ask before overwriting the file.")
                    if modified else
                    self.tr("{path} was changed on disk.\n\nReload it? No keeps this window's "
                            "version; saving will ask before overwriting the file."))
        answer = QMessageBox.question(self.shell.widget(), self.tr("File changed on disk"),
                                      as_written(question.format(path=path)),
                                      Button.Yes | Button.No,
                                      Button.No if modified else Button.Yes)
        if answer != Button.Yes or not path.exists():
            return
        try:
            scenario, trace = load_computed(path)
        except ScenarioError as error:
            self.shell.show_message(self.tr("⚠ not reloaded: {error}").format(
                error=error))
            return
        self.shell.show_document(scenario, path, note=self.tr("Reloaded {name}").format(
            name=path.name), trace=trace)
