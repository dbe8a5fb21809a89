"""Safe writes: every file appears whole at the end or not at all (no Qt).

A single file is written to a hidden temporary file in its destination folder and moved into place
with :func:`os.replace`. Per-step files are written to a hidden temporary folder inside the
destination folder and moved into place together at the end; if a move fails, the files this run
already moved are removed again.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

TEMP_PREFIX = ".qkv-export-"


class ExportError(Exception):
    """An export failed; the message is one line naming the path and the reason."""


class ExportCancelled(Exception):  # noqa: N818 - a user's choice, not an error
    """The user cancelled an export; nothing was written."""


def write_error(path: Path, error: OSError) -> ExportError:
    """An :class:`ExportError` naming ``path`` and the reason the system gave."""
    reason = error.strerror or str(error) or type(error).__name__
    return ExportError(f"cannot write {path}: {reason}")


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
    """Yield a temporary path next to ``path``; on success move it to ``path``.

    On any exception (including :class:`ExportCancelled`) the temporary file is removed, and so
    are folders this call created. ``OSError`` is turned into :class:`ExportError`.
    """
    path = Path(path)
    created = _ensure_folder(path.parent, path)
    try:
        temp = _new_temp_file(path)
    except OSError as error:
        _remove_folders(created)
        raise write_error(path, error) from None
    try:
        yield temp
        os.replace(temp, path)
    except OSError as error:
        _discard(temp, created)
        raise write_error(path, error) from None
    except BaseException:
        _discard(temp, created)
        raise


def _new_temp_file(path: Path) -> Path:
    """An empty hidden file next to ``path``, created with the usual permissions (umask applies).

    ``tempfile.mkstemp`` would create it readable by its owner only, and ``os.replace`` keeps that.
    """
    for _ in range(100):
        temp = path.with_name(f"{TEMP_PREFIX}{path.stem}-{secrets.token_hex(4)}.tmp{path.suffix}")
        try:
            handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(handle)
        return temp
    raise FileExistsError(f"no free temporary name next to {path}")


def _discard(temp: Path, created: list[Path]) -> None:
    with suppress(OSError):
        temp.unlink()
    _remove_folders(created)


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

    def path(self, name: str) -> Path:
        """Where to write the staged file ``name``."""
        self._names.append(name)
        return self.staging / name

    def commit(self) -> list[Path]:
        """Move every staged file into the folder; on failure undo the moves of this run."""
        moved: list[Path] = []
        for name in self._names:
            target = self.folder / name
            try:
                os.replace(self.staging / name, target)
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
