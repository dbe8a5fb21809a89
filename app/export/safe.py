"""Safe exports: every file appears whole at the end, or not at all (no Qt).

A single file goes through the one safe writer, :mod:`engine.safe_write` (checked target, hidden
temporary file next to it, verified size, mode kept, one rename). Per-step files are written to a
hidden temporary folder inside the destination folder and moved into place together at the end;
every target is checked before the first move, and if a move fails, the files this run already
moved are removed again. Folders missing on the way to a destination are created, and removed
again if the export fails.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from engine.safe_write import TEMP_PREFIX as WRITER_PREFIX
from engine.safe_write import WriteError, plain_reason, publish, real_target, replacing, write_all
from engine.safe_write import write_bytes as safe_write_bytes

TEMP_PREFIX = f"{WRITER_PREFIX}export-"
"""The hidden staging folder of a per-step export starts with this."""


class ExportError(Exception):
    """An export failed; the message is one line naming the path and the reason."""


class PictureTooLargeError(ExportError):
    """The export was refused before writing (a picture too large to draw); nothing written."""


class ExportCancelled(Exception):  # noqa: N818 - a user's choice, not an error
    """The user cancelled an export; nothing was written."""


def write_error(path: Path, error: OSError) -> ExportError:
    """An :class:`ExportError` naming ``path`` and the reason in plain words."""
    if isinstance(error, WriteError):
        return ExportError(str(error))
    return ExportError(f"cannot write {path}: {plain_reason(error)}")


def _ensure_folder(folder: Path, target: Path | None = None) -> list[Path]:
    """Create ``folder`` and any missing parents; return the folders created, deepest last.

    Errors name ``target`` (the file about to be written), or the folder itself.
    """
    named = target or folder
    created: list[Path] = []
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    if not probe.is_dir():
        raise ExportError(f"cannot write {named}: {probe} is not a folder")
    for path in reversed(missing):
        try:
            path.mkdir()
        except OSError as error:
            _remove_folders(created)
            raise write_error(named, error) from None
        created.append(path)
    return created


def _remove_folders(created: list[Path]) -> None:
    for path in reversed(created):
        with suppress(OSError):
            path.rmdir()


@contextmanager
def atomic_file(path: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success verify it and move it to ``path``.

    On any exception (including :class:`ExportCancelled`) the temporary file is removed, and so
    are folders this call created. ``OSError`` is turned into :class:`ExportError`.
    """
    path = Path(path)
    created = _ensure_folder(path.parent, path)
    try:
        with replacing(path) as temp:
            yield temp
    except OSError as error:
        _remove_folders(created)
        raise write_error(path, error) from None
    except BaseException:
        _remove_folders(created)
        raise


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` safely (folders made as needed); raises :class:`ExportError`."""
    path = Path(path)
    created = _ensure_folder(path.parent, path)
    try:
        safe_write_bytes(path, data)
    except OSError as error:
        _remove_folders(created)
        raise write_error(path, error) from None


class StagedFolder:
    """Files staged in a hidden folder inside ``folder``, published together by :meth:`commit`."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._created = _ensure_folder(self.folder)
        try:
            self.staging = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=self.folder))
        except OSError as error:
            _remove_folders(self._created)
            raise write_error(self.folder, error) from None
        self._names: list[str] = []

    def write(self, name: str, data: bytes) -> None:
        """Stage the file ``name`` with ``data`` (flushed to the disk, its size checked)."""
        path = self.staging / name
        write_all(path, data)
        if path.stat().st_size != len(data):
            raise OSError(f"only part of {name} reached the disk (is it full?)")
        self._names.append(name)

    def commit(self) -> list[Path]:
        """Move every staged file into the folder; on failure undo the moves of this run.

        Every target is checked first (a folder, device or FIFO with a file's name is refused
        before anything moves).
        """
        try:
            for name in self._names:
                real_target(self.folder / name)
        except WriteError:
            self.discard()
            raise
        moved: list[Path] = []
        for name in self._names:
            target = self.folder / name
            try:
                publish(self.staging / name, target)
            except OSError as error:
                for path in moved:
                    path.unlink(missing_ok=True)
                self.discard()
                raise write_error(target, error) from None
            moved.append(target)
        shutil.rmtree(self.staging, ignore_errors=True)
        return moved

    def discard(self) -> None:
        """Remove the staging folder, and the destination folder if this run created it."""
        shutil.rmtree(self.staging, ignore_errors=True)
        _remove_folders(self._created)


@contextmanager
def staged_folder(folder: Path) -> Iterator[StagedFolder]:
    """A :class:`StagedFolder` that is discarded if the block raises (commit it inside)."""
    staged = StagedFolder(folder)
    try:
        yield staged
    except OSError as error:
        staged.discard()
        raise write_error(folder, error) from None
    except BaseException:
        staged.discard()
        raise
