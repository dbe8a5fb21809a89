"""Safe exports: every file appears whole at the end, or not at all (no Qt).

A single file goes through the one safe writer, :mod:`engine.safe_write` (checked target, hidden
temporary file next to it, verified size, mode kept, one rename). Per-step files are written to a
hidden temporary folder inside the destination folder and moved into place together at the end;
every target is checked and every file a move would replace is kept aside before the first
move, and if a move fails, the old files are put back and the new ones removed. Folders missing
on the way to a destination are created, and removed again if the export fails.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from app.texts.sentences import Say, say
from engine.outputs import OutputRefusedError
from engine.safe_write import (
    PLAIN,
    PLAIN_IDS,
    WriteError,
    plain_reason,
    publish,
    real_target,
    replacing,
    sweep,
    write_all,
)
from engine.safe_write import TEMP_PREFIX as WRITER_PREFIX
from engine.safe_write import write_bytes as safe_write_bytes

TEMP_PREFIX = f"{WRITER_PREFIX}export-"
"""The hidden staging folder of a per-step export starts with this (then its process id, so a
later export sweeps what a killed one left: :func:`engine.safe_write.sweep`)."""


class ExportError(Exception):
    """An export failed; the message is one line naming the path and the reason, a sentence of
    the catalogue of words (:mod:`app.texts.words`) in English, in any language by
    :meth:`words`."""

    def __init__(self, said: Say) -> None:
        super().__init__(said.words("en"))
        self.said = said

    def words(self, lang: str) -> str:
        """The message in ``lang``."""
        return self.said.words(lang)


class ExportRefusedError(ExportError):
    """The export was refused before anything was written (exit 2 from the command line)."""


class PictureTooLargeError(ExportRefusedError):
    """The export was refused before writing (a picture too large to draw); nothing written."""


class ExportCancelled(Exception):  # noqa: N818 - a user's choice, not an error
    """The user cancelled an export; nothing was written."""


_PLAIN_REASONS = {PLAIN[number]: say(word_id) for number, word_id in PLAIN_IDS.items()}
"""The plain reasons of :data:`engine.safe_write.PLAIN` by their English words, as sentences
worded in any language (another reason, the system's own, stays as it is)."""


def cannot_write(path: Path, reason: str) -> ExportError:
    """``cannot write PATH: REASON``."""
    return ExportError(say("cannot_write", path=path, reason=_PLAIN_REASONS.get(reason, reason)))


def disk_full(path: Path) -> ExportError:
    """The one message of a full disk, whatever wrote the file."""
    return cannot_write(path, PLAIN[errno.ENOSPC])


def write_error(path: Path, error: OSError) -> ExportError:
    """An :class:`ExportError` naming ``path`` (the asked path of a :class:`WriteError`) and the
    reason in plain words; an :class:`ExportRefusedError` for an output the run reads
    (:mod:`engine.outputs`)."""
    if isinstance(error, OutputRefusedError):
        return refused_output(error)
    if isinstance(error, WriteError):
        return cannot_write(error.path, error.reason)
    return cannot_write(path, plain_reason(error))


def refused_output(error: OutputRefusedError) -> ExportRefusedError:
    """The guard's refusal (:mod:`engine.outputs`) as an export's."""
    return ExportRefusedError(say("cannot_write", path=error.path, reason=error.refusal))


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
        raise ExportError(say("export.not_a_folder", named=named, probe=probe))
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


def _put_back(moved: list[Path], kept: dict[Path, Path]) -> None:
    """Undo the moves of a failed commit: each replaced file back from its kept copy, each new
    file removed."""
    for target in reversed(moved):
        copy = kept.get(target)
        with suppress(OSError):
            if copy is None:
                target.unlink(missing_ok=True)
            else:
                try:
                    os.replace(copy, target)
                except OSError:  # kept on another disk than a linked target: copy it back
                    shutil.copy2(copy, target)


class StagedFolder:
    """Files staged in a hidden folder inside ``folder``, published together by :meth:`commit`."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._created = _ensure_folder(self.folder)
        sweep(self.folder)
        try:
            self.staging = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-",
                                                 dir=self.folder))
        except OSError as error:
            _remove_folders(self._created)
            raise write_error(self.folder, error) from None
        self._names: list[str] = []

    def write(self, name: str, data: bytes) -> None:
        """Stage the file ``name`` with ``data`` (flushed to the disk, its size checked).

        Raises :class:`ExportError` naming the file in the destination folder."""
        path = self.staging / name
        try:
            write_all(path, data)
            if path.stat().st_size != len(data):
                raise OSError(errno.ENOSPC, f"only part of {name} reached the disk")
        except OSError as error:
            raise write_error(self.folder / name, error) from None
        self._names.append(name)

    def commit(self) -> list[Path]:
        """Move every staged file into the folder; on any failure every old file is as it was.

        Every target is checked first (a folder, device or FIFO with a file's name is refused
        before anything moves), and each file a move would replace is kept aside in the staging
        folder (a hard link, or a copy); a failed move puts the kept files back and removes the
        new ones this run moved in.
        """
        try:
            targets = [real_target(self.folder / name) for name in self._names]
            kept = self._keep_old(targets)
        except OSError as error:
            self.discard()
            raise write_error(self.folder, error) from None
        moved: list[Path] = []
        for name, target in zip(self._names, targets, strict=True):
            try:
                publish(self.staging / name, self.folder / name)
            except OSError as error:
                _put_back([*moved, target], kept)  # the failed move may have replaced it
                self.discard()
                raise write_error(self.folder / name, error) from None
            moved.append(target)
        shutil.rmtree(self.staging, ignore_errors=True)
        return [self.folder / name for name in self._names]

    def _keep_old(self, targets: list[Path]) -> dict[Path, Path]:
        """A copy in the staging folder of every target that exists, by target."""
        kept: dict[Path, Path] = {}
        old = self.staging / "old"
        old.mkdir()
        for number, target in enumerate(targets):
            if not target.exists():
                continue
            copy = old / str(number)
            try:
                os.link(target, copy)
            except OSError:
                shutil.copy2(target, copy)
            kept[target] = copy
        return kept

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
