"""The one safe writer: a file is replaced whole and verified, or left exactly as it was (no Qt).

Document saves, recovery copies and every export format write through :func:`replacing` (a
library writes a temporary path) or :func:`write_bytes` (the bytes are in memory):

- **The target is checked first.** An existing target must be a regular file or a symbolic link
  that ends at one. A folder, a device (``/dev/null``, ``/dev/full``), a FIFO, a socket or a loop
  of symbolic links is refused: replacing it with a regular file would break the system or lose
  the device, and writing into it would "succeed" without storing anything.
- **A temporary file next to the real target** (the end of a symbolic link, which stays a link)
  receives the content. Its name fits any legal target name: long names are shortened in the
  temporary name only.
- **What was written is verified** before the rename: the file is flushed to the disk (``fsync``)
  and its size must be the number of bytes handed over, or, for a file a library wrote itself,
  more than zero. Libraries that lose write errors (``QPdfWriter`` never reports a full disk) hand
  their bytes to :func:`write_bytes` instead of writing themselves.
- **Mode and owner are kept:** the temporary file gets the old file's permission bits (a new file
  gets 0666 less the umask, or the mode the caller asks for) and, where the process may change
  them, its owner and group; then :func:`os.replace` puts it in place in one step.
- **Hard links:** the target's name gets a new file. Other names hard-linked to the old file keep
  the old content (as with every editor that saves atomically).
- **No input is replaced:** a target the current run reads (:mod:`engine.outputs`: the document,
  its sidecar, a checkpoint's files) is refused with :class:`~engine.outputs.OutputRefusedError`
  before any temporary file exists.
- **Temporary files of a killed run are swept:** each temporary name holds its process id, and
  the next write into the same folder removes those whose process is gone.
- **Every failure** raises :class:`WriteError`, one line naming the file and the reason; the old
  file is untouched and the temporary file is removed.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from engine.outputs import OutputRefusedError, current
from engine.words import say

TEMP_PREFIX = ".qkv-"
"""Every temporary file or folder the writer leaves while working starts with this."""
DEFAULT_NAME_MAX = 255

PLAIN_IDS = {
    errno.ENOSPC: "write_disk_full",
    errno.EDQUOT: "write_quota",
    errno.EACCES: "write_permission",
    errno.EPERM: "write_permission",
    errno.EROFS: "write_read_only",
    errno.ENOTDIR: "write_file_in_path",
    errno.ENOENT: "write_no_folder",
    errno.EISDIR: "write_folder_named",
    errno.ENAMETOOLONG: "write_name_too_long",
    errno.EIO: "write_io_error",
    errno.ELOOP: "write_link_loop",
    errno.EFBIG: "write_too_large",
}
"""An error number → the id of its plain words (:mod:`engine.words`)."""

PLAIN = {number: say(word_id, "en") for number, word_id in PLAIN_IDS.items()}
"""An error number → its plain words in English (the command line's)."""


def plain_reason(error: OSError) -> str:
    """``the disk is full``: what went wrong, without a code or a traceback."""
    if isinstance(error, WriteError | OutputRefusedError):
        return error.reason
    if error.errno in PLAIN:
        return PLAIN[error.errno]
    return str(error.strerror or error).rstrip(".") or "the system refused"


def failure_reason(error: BaseException) -> str:
    """Plain words for any failure of a write, for a message that names the file itself."""
    if isinstance(error, OSError):
        return plain_reason(error)
    text = " ".join(str(error).split())
    return text or type(error).__name__


class WriteError(OSError):
    """A file could not be written; ``str()`` is one line: ``cannot write PATH: REASON``.

    ``path`` is the path the caller asked for, ``reason`` the plain words (for messages that name
    the file themselves).
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = " ".join(reason.split())
        super().__init__(say("cannot_write", "en", path=self.path, reason=self.reason))


def real_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces: ``path``, or where its symbolic links end.

    Raises
    ------
    WriteError
        The target exists and is not a regular file (a folder, device, FIFO or socket), or it
        is a loop of symbolic links.
    OutputRefusedError
        The current run reads the target (:mod:`engine.outputs`).
    """
    given = Path(path)
    current().refuse_target(given)
    target = given
    try:
        if given.is_symlink():
            try:
                target = given.resolve()
            except (RuntimeError, OSError):  # RuntimeError on Python < 3.13
                raise WriteError(given, PLAIN[errno.ELOOP]) from None
            if target.is_symlink():
                raise WriteError(given, PLAIN[errno.ELOOP])
        status = target.stat()
    except FileNotFoundError:
        return target  # a new file (or the missing end of a link): created by the write
    except WriteError:
        raise
    except OSError as error:
        raise WriteError(given, plain_reason(error)) from None
    if not stat.S_ISREG(status.st_mode):
        raise WriteError(given, _kind_refusal(status.st_mode))
    return target


def _kind_refusal(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder has that name"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a file; choose a file name"
    if stat.S_ISFIFO(mode):
        return "it is a pipe (FIFO), not a file; choose a file name"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a file; choose a file name"
    return "it is not a regular file"


@contextmanager
def replacing(path: str | os.PathLike[str], *, mode: int | None = None,
              expected_size: int | None = None) -> Iterator[Path]:
    """Yield a temporary path next to the target; when the block ends, verify it and move it.

    Parameters
    ----------
    mode
        Permission bits for the file, whatever the old file had (a recovery copy is 0600);
        default: the old file's, or 0666 less the umask for a new file.
    expected_size
        The size the written file must have; default: more than zero bytes.

    Raises
    ------
    WriteError
        Anything failed (the block's own ``OSError`` included); the old file is as it was.
    """
    given = Path(path)
    target = real_target(given)
    try:
        temp = _new_temp(target)
    except OSError as error:
        raise WriteError(given, plain_reason(error)) from None
    try:
        yield temp
        _verify(temp, expected_size)
        _publish(temp, target, mode)
    except OutputRefusedError:
        _unlink(temp)
        raise
    except OSError as error:
        _unlink(temp)
        if isinstance(error, WriteError) and error.path == given:
            raise
        raise WriteError(given, plain_reason(error)) from None
    except BaseException:
        _unlink(temp)
        raise


@contextmanager
def replacing_together(paths: Sequence[str | os.PathLike[str]], *, mode: int | None = None
                       ) -> Iterator[list[Path]]:
    """Yield a temporary path for each of several files that are replaced together (a document
    and its sidecar); when the block ends, verify each (more than zero bytes) and move them in
    place in order, the main file (a document that names the others) last. If a move fails, the
    files moved before it get their old content back, so the files are either all new or all
    as they were.

    Raises
    ------
    WriteError
        Naming the last path; every old file is as it was, no temporary file stays.
    """
    givens = [Path(path) for path in paths]
    temps: list[Path] = []
    try:
        targets = [real_target(given) for given in givens]
        for target in targets:
            temps.append(_new_temp(target))
        yield temps
        for temp in temps:
            _verify(temp, None)
        _publish_all(temps, targets, mode)
    except OutputRefusedError:
        for temp in temps:
            _unlink(temp)
        raise
    except OSError as error:
        for temp in temps:
            _unlink(temp)
        if isinstance(error, WriteError):
            raise WriteError(givens[-1], error.reason) from None
        raise WriteError(givens[-1], plain_reason(error)) from None
    except BaseException:
        for temp in temps:
            _unlink(temp)
        raise


def _publish_all(temps: list[Path], targets: list[Path], mode: int | None) -> None:
    """Move each temporary file onto its target; on a failure, put the moved ones back."""
    moved: list[tuple[Path, Path | None]] = []
    backups: list[Path] = []
    try:
        for temp, target in zip(temps, targets, strict=True):
            backup = _backup(target)
            if backup is not None:
                backups.append(backup)
            _publish(temp, target, mode)
            moved.append((target, backup))
    except OSError:
        for target, backup in reversed(moved):
            if backup is None:
                _unlink(target)
            else:
                os.replace(backup, target)
        raise
    finally:
        for backup in backups:
            _unlink(backup)


def _backup(target: Path) -> Path | None:
    """A second name for the old file at ``target`` (None when there is none), to put it back."""
    if not target.exists():
        return None
    for _ in range(100):
        backup = target.with_name(temp_name(target.name, target.parent, "old-"))
        try:
            os.link(target, backup)
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links: a copy
            shutil.copyfile(target, backup)
        return backup
    raise FileExistsError(errno.EEXIST, f"no free temporary name next to {target}")


def write_bytes(path: str | os.PathLike[str], data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` by ``data`` safely (see the module's rules); raises :class:`WriteError`."""
    with replacing(path, mode=mode, expected_size=len(data)) as temp:
        write_all(temp, data)


def write_all(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (created or truncated) and flush it to the disk."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view):]
        os.fsync(handle)
    finally:
        os.close(handle)


def publish(staged: Path, path: str | os.PathLike[str], *, mode: int | None = None) -> None:
    """Move an already written and verified file ``staged`` to ``path`` (checked, mode kept)."""
    given = Path(path)
    target = real_target(given)
    try:
        _publish(staged, target, mode)
    except OSError as error:
        raise WriteError(given, plain_reason(error)) from None


def _publish(temp: Path, target: Path, mode: int | None) -> None:
    try:
        old = target.stat()
    except FileNotFoundError:
        old = None
    if mode is None:
        mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~umask()
    os.chmod(temp, mode)
    if old is not None:
        _keep_owner(temp, old)
    os.replace(temp, target)
    _sync_folder(target.parent)


def _keep_owner(temp: Path, old: os.stat_result) -> None:
    """Give ``temp`` the old file's owner and group where this process may (root, or a group of
    its own); otherwise the new file belongs to this process's user."""
    if (old.st_uid, old.st_gid) == (os.geteuid(), os.getegid()):
        return
    with suppress(OSError):
        os.chown(temp, old.st_uid, old.st_gid)
        return
    with suppress(OSError):
        os.chown(temp, -1, old.st_gid)


def _verify(temp: Path, expected_size: int | None) -> None:
    """Flush ``temp`` to the disk and check its size; ``OSError`` if it is not what was meant."""
    handle = os.open(temp, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(handle)
        size = os.fstat(handle).st_size
    finally:
        os.close(handle)
    if expected_size is not None and size != expected_size:
        raise OSError(f"only {size} of {expected_size} bytes reached the disk (is it full?)")
    if expected_size is None and size == 0:
        raise OSError("nothing reached the disk (is it full?)")


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the system allows opening a folder."""
    with suppress(OSError):
        handle = os.open(folder if str(folder) else ".", os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def temp_name(name: str, folder: Path, marker: str = "") -> str:
    """A hidden temporary name for ``name`` in ``folder``: never longer than the folder allows.

    ``.qkv-<marker><name>.<pid>-<random>.tmp<suffix>`` (the suffix last: some writers choose the
    format by it; the process id lets a later run sweep what a killed one left,
    :func:`sweep`); the copy of ``name`` is shortened (whole characters) when the full name
    would not fit, so a target with a legal 255-byte name can be written.
    """
    try:
        name_max = os.pathconf(folder if str(folder) else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = DEFAULT_NAME_MAX
    suffix = Path(name).suffix
    tail = f".{os.getpid()}-{secrets.token_hex(4)}.tmp{suffix if len(suffix) <= 16 else ''}"
    room = max(0, min(name_max, DEFAULT_NAME_MAX) - len(TEMP_PREFIX) - len(marker) - len(tail))
    short = os.fsencode(name)[:room].decode("utf-8", "ignore") if room else ""
    return f"{TEMP_PREFIX}{marker}{short}{tail}"


_LEFT = re.compile(r"\.(\d+)-[0-9a-f]{8}\.tmp[^/]*$|^\.qkv-export-(\d+)-")
"""A temporary file's process id (``.qkv-doc.json.4242-1a2b3c4d.tmp.json``) or an export's
staging folder's (``.qkv-export-4242-x1y2z3``)."""


def sweep(folder: Path) -> None:
    """Remove what killed runs left in ``folder``: temporary files and staging folders of this
    user whose process is gone (a running writer's, in this process or another, stay)."""
    try:
        with os.scandir(folder if str(folder) else ".") as entries:
            left = [entry for entry in entries if entry.name.startswith(TEMP_PREFIX)]
    except OSError:
        return
    for entry in left:
        found = _LEFT.search(entry.name)
        if found is None or _alive(int(found.group(1) or found.group(2))):
            continue
        with suppress(OSError):
            if entry.stat(follow_symlinks=False).st_uid != os.geteuid():
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    """Whether the process ``pid`` runs (another user's counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _new_temp(target: Path) -> Path:
    """An empty hidden file next to ``target``, readable by its owner only until published
    (what killed runs left beside it swept first)."""
    sweep(target.parent)
    for _ in range(100):
        temp = target.with_name(temp_name(target.name, target.parent))
        try:
            handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            continue
        os.close(handle)
        return temp
    raise FileExistsError(errno.EEXIST, f"no free temporary name next to {target}")


def _unlink(path: Path) -> None:
    with suppress(OSError):
        path.unlink()


def umask() -> int:
    """The process's umask, read without changing it where Linux allows (no race with threads)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current
