"""Recovery copies: unsaved work survives a crash.

Where
    ``QStandardPaths.AppDataLocation/recovery/`` (on Linux
    ``$XDG_DATA_HOME/QKV Studio/QKV Studio/recovery``), a folder only its user may enter (0700).
    Each window is one *session* with a random id and three files there:

    ``<id>.qkv.json``
        the document as it is now, written by the same safe writer as a save, readable by its
        user only (0600);
    ``<id>.meta.json``
        a small sidecar: original path, title, time, process id;
    ``<id>.qkv.json.weights.safetensors``
        only for a document too large for JSON (a whole model): its arrays, written together
        with the copy (:func:`engine.format.io.write_dumped`) and removed with it;
    ``<id>.lock``
        a ``QLockFile`` held by the running session.

When
    While the undo stack is not clean, a change schedules a write after the autosave interval
    (``QKV_STUDIO_AUTOSAVE_MS``, default 5000 ms; tests set it small). A clean stack (saved, or
    undone back to the saved state) removes the copy, and so does closing the window. A big
    document's copy is written in a worker (:func:`app.state.big.is_big`), so the window
    never waits for it; closing waits for a copy being written, then removes it.

Locks
    The lock is taken before the first copy is written and held until the window closes, so two
    running windows, in one process or two, never touch each other's files. A process that was
    killed leaves its lock behind; ``QLockFile`` sees that its process is gone (the lock is
    *stale*), so the next launch may take it: :func:`find_orphans` returns exactly the copies
    whose lock it could take, and :func:`offer_recovery` asks about each one.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLockFile, QObject, QStandardPaths, QTimer, Signal
from PySide6.QtWidgets import QMessageBox

from app.files.loading import placeholder, read_after_showing
from app.files.opening import is_big_file, load_computed
from app.files.saving import document_inputs
from app.model.cancel import CancelledError
from app.plain_text import as_written
from app.state.big import is_big
from app.state.document import DocumentState
from app.state.jobs import Job
from engine import Scenario, ScenarioError, Trace
from engine.files.outputs import Inputs, guarding
from engine.files.safe_write import failure_reason, plain_reason, write_bytes
from engine.format.io import dump_scenario, write_dumped
from engine.format.sidecar import SUFFIX as WEIGHTS_SUFFIX
from engine.format.sidecar import sidecar_name

if TYPE_CHECKING:
    from app.state.shell import Shell

AUTOSAVE_ENV = "QKV_STUDIO_AUTOSAVE_MS"
DEFAULT_AUTOSAVE_MS = 5000
MIN_AUTOSAVE_MS = 10
COPY_SUFFIX = ".qkv.json"
SIDECAR_SUFFIX = ".meta.json"
LOCK_SUFFIX = ".lock"
SIDECAR_FORMAT = "qkv-studio-recovery"
MAX_SIDECAR_BYTES = 64 * 1024
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
"""Recovery copies are readable by their user only, in a folder only that user can enter: a copy
is never more open than the document it saves (whose permissions may be as tight as 0600)."""


def recovery_dir() -> Path:
    """``AppDataLocation/recovery``: where every session keeps its copy."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "recovery"


def autosave_interval() -> int:
    """Milliseconds between a change and its recovery copy (``QKV_STUDIO_AUTOSAVE_MS``)."""
    text = os.environ.get(AUTOSAVE_ENV, "")
    try:
        value = int(text)
    except ValueError:
        return DEFAULT_AUTOSAVE_MS
    return max(MIN_AUTOSAVE_MS, value)


def _lock(path: Path) -> QLockFile:
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    return lock


def _remove(*paths: Path) -> None:
    """Delete files if they are there; a folder that cannot be reached has nothing to delete."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def _make_private_folder(folder: Path) -> None:
    """Create the recovery folder readable by this user only (0700), and tighten an old one."""
    folder.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) != PRIVATE_FOLDER:
        os.chmod(folder, PRIVATE_FOLDER)


def _lock_failure(lock: QLockFile, path: Path) -> OSError:
    """Why a lock could not be taken, in words that match the cause."""
    if lock.error() == QLockFile.LockError.LockFailedError:
        return OSError(f"the lock {path} is held by another session")
    try:  # the lock file could not be written: find out why (a full disk, no permission…)
        write_bytes(path.with_name(f".probe-{path.name}"), b"probe", mode=PRIVATE_FILE)
    except OSError as error:
        return OSError(error.errno, plain_reason(error))
    finally:
        _remove(path.with_name(f".probe-{path.name}"))
    return OSError(f"the lock {path} could not be created")


class RecoveryWriter(QObject):
    """Keeps the recovery copy of one window's document up to date.

    Parameters
    ----------
    state
        The document to watch.
    interval_ms
        Delay between a change and its copy; default :func:`autosave_interval`.
    directory
        Where copies go; default :func:`recovery_dir` (looked up when first needed).

    Signals
    -------
    written(str)
        A copy was written (its path).
    failed(str)
        A copy could not be written; one line, said once until a write succeeds again.
    """

    written = Signal(str)
    failed = Signal(str)

    def __init__(self, state: DocumentState, interval_ms: int | None = None,
                 directory: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.session_id = uuid.uuid4().hex
        self._directory = directory
        self._lock: QLockFile | None = None
        self._failing = False
        self._job: Job | None = None
        self._again = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(autosave_interval() if interval_ms is None else interval_ms)
        self.timer.timeout.connect(self.write_soon)
        state.undo_stack.indexChanged.connect(self._on_stack)
        state.undo_stack.cleanChanged.connect(self._on_stack)

    # -- where ---------------------------------------------------------------------------
    @property
    def directory(self) -> Path:
        if self._directory is None:
            self._directory = recovery_dir()
        return self._directory

    @property
    def copy_path(self) -> Path:
        return self.directory / f"{self.session_id}{COPY_SUFFIX}"

    @property
    def sidecar_path(self) -> Path:
        return self.directory / f"{self.session_id}{SIDECAR_SUFFIX}"

    @property
    def lock_path(self) -> Path:
        return self.directory / f"{self.session_id}{LOCK_SUFFIX}"

    # -- when ----------------------------------------------------------------------------
    def _on_stack(self, _value: object) -> None:
        with contextlib.suppress(RuntimeError):  # the stack is being destroyed with its window
            self.on_change()

    def on_change(self) -> None:
        """The document changed: schedule a copy, or remove it if the document is saved."""
        if self.state.undo_stack.isClean():
            self.timer.stop()
            self.remove_copy()
        elif not self.timer.isActive():
            self.timer.start()

    def write_now(self) -> bool:
        """Write the copy and its sidecar now (if there is unsaved work); True if written."""
        return self._write(background=False)

    def write_soon(self) -> None:
        """Write the copy: in a worker for a big document (``written`` says when), else now.

        While a copy is being written, the next one waits for it to finish.
        """
        if self._job is not None:
            self._again = True
            return
        self._write(background=is_big(self.state.scenario))

    def _write(self, background: bool) -> bool:
        self.timer.stop()
        self._wait()
        if self.state.undo_stack.isClean():
            self.remove_copy()
            return False
        scenario, sidecar = self.state.scenario, self._sidecar()
        inputs = document_inputs(self.state.path, scenario)
        try:
            _make_private_folder(self.directory)
            if self._lock is None:
                lock = _lock(self.lock_path)
                if not lock.tryLock(0):
                    raise _lock_failure(lock, self.lock_path)
                self._lock = lock
            if background:
                job = Job(lambda cancelled: self._store(scenario, sidecar, inputs, cancelled),
                          self)
                job.done.connect(lambda _none: self._stored())
                job.failed.connect(self._on_failed)
                job.ended.connect(lambda _result, _error: job.deleteLater())
                self._job = job.start()
                return False
            self._store(scenario, sidecar, inputs, threading.Event())
        except Exception as error:
            self._on_failed(error)
            return False
        self._stored()
        return True

    def _store(self, scenario: Scenario, sidecar: bytes, inputs: Inputs,
               cancelled: threading.Event) -> None:
        """Write the copy and the sidecar (in a worker for a big document; reads only its
        arguments, the scenario is frozen), never over one of ``inputs`` (the document's
        files)."""
        dumped = dump_scenario(scenario, self.copy_path)
        if cancelled.is_set():
            raise CancelledError
        with guarding(inputs):
            write_dumped(dumped, self.copy_path, mode=PRIVATE_FILE)
            write_bytes(self.sidecar_path, sidecar, mode=PRIVATE_FILE)

    def _stored(self) -> None:
        self._finished()
        self._failing = False
        self.written.emit(str(self.copy_path))

    def _on_failed(self, error: BaseException) -> None:
        self._finished()
        if not self._failing:  # any failure is said once; the window's work stays open
            self._failing = True
            self.failed.emit(f"recovery copy not written to {self.directory}: "
                             f"{failure_reason(error)}")

    def _finished(self) -> None:
        self._job = None
        if self._again:  # the document changed while the copy was written
            self._again = False
            self.timer.start()

    def _wait(self) -> None:
        """Let a copy being written in a worker finish (its result is then ignored)."""
        if self._job is not None:
            self._job.cancel()
            self._job.wait()
            self._job = None
            self._again = False

    def _sidecar(self) -> bytes:
        path = self.state.path
        info = {"format": SIDECAR_FORMAT, "session": self.session_id,
                "original": str(path) if path is not None else None,
                "title": self.state.scenario.title,
                "time": datetime.now().astimezone().isoformat(timespec="seconds"),
                "pid": os.getpid()}
        return json.dumps(info, ensure_ascii=False, indent=1).encode("utf-8")

    def remove_copy(self) -> None:
        """Delete this session's copy, sidecar and weights (the lock stays while the window
        lives)."""
        if self._directory is None and self._lock is None:
            return  # nothing was ever written
        _remove(self.copy_path, self.sidecar_path, _weights(self.copy_path))

    def close(self) -> None:
        """The window closes: remove the copy and release the lock (deleting its file)."""
        self.timer.stop()
        self._wait()
        self.remove_copy()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


@dataclass
class RecoveryCopy:
    """A copy left by a session that ended without closing; its lock is held while offered."""

    session: str
    document: Path
    sidecar: Path
    lock_path: Path
    original: Path | None
    title: str
    saved_at: datetime
    lock: QLockFile | None = field(default=None, repr=False)

    def time_text(self) -> str:
        """``2024-05-01 14:03``, in local time."""
        return self.saved_at.astimezone().strftime("%Y-%m-%d %H:%M")

    def release(self) -> None:
        """Keep the copy and its sidecar where they are; let go of the lock."""
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None

    def discard(self) -> None:
        """Delete the copy, its sidecar, its weights and its lock."""
        _remove(self.document, self.sidecar, _weights(self.document))
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None
        _remove(self.lock_path)


def _weights(copy: Path) -> Path:
    """The file of a copy's arrays too large for JSON (present only for such a document)."""
    return copy.with_name(sidecar_name(copy))


def _read_sidecar(path: Path) -> dict[str, object]:
    """The sidecar's fields, or ``{}`` if it is missing, too large or not a JSON object."""
    try:
        if path.stat().st_size > MAX_SIDECAR_BYTES:
            return {}
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _copy_from(document: Path, lock: QLockFile) -> RecoveryCopy:
    session = document.name.removesuffix(COPY_SUFFIX)
    sidecar = document.with_name(f"{session}{SIDECAR_SUFFIX}")
    info = _read_sidecar(sidecar)
    original = info.get("original")
    title = info.get("title")
    saved_at: datetime | None = None
    if isinstance(info.get("time"), str):
        try:
            saved_at = datetime.fromisoformat(str(info["time"]))
        except ValueError:
            saved_at = None
    if saved_at is None:
        try:
            saved_at = datetime.fromtimestamp(document.stat().st_mtime).astimezone()
        except OSError:
            saved_at = datetime.now().astimezone()
    return RecoveryCopy(session=session, document=document, sidecar=sidecar,
                        lock_path=document.with_name(f"{session}{LOCK_SUFFIX}"),
                        original=Path(original) if isinstance(original, str) and original
                        else None,
                        title=title if isinstance(title, str) else document.name,
                        saved_at=saved_at, lock=lock)


def find_orphans(directory: Path | None = None) -> list[RecoveryCopy]:
    """Copies left by sessions that are no longer running, newest first.

    A copy belongs to a running session while that session holds its lock; those are skipped.
    The locks of the returned copies are held by this process until each is restored or
    discarded. Sidecars and locks left without a copy are tidied away.
    """
    folder = recovery_dir() if directory is None else directory
    if not folder.is_dir():
        return []
    found: list[RecoveryCopy] = []
    for document in sorted(folder.glob(f"*{COPY_SUFFIX}")):
        session = document.name.removesuffix(COPY_SUFFIX)
        if not session or session.startswith("."):
            continue
        lock = _lock(folder / f"{session}{LOCK_SUFFIX}")
        if lock.tryLock(0):
            found.append(_copy_from(document, lock))
    strays = [*folder.glob(f"*{SIDECAR_SUFFIX}"), *folder.glob(f"*{WEIGHTS_SUFFIX}"),
              *folder.glob(f"*{LOCK_SUFFIX}")]
    for stray in strays:
        session = stray.name.removesuffix(SIDECAR_SUFFIX).removesuffix(
            WEIGHTS_SUFFIX).removesuffix(COPY_SUFFIX).removesuffix(LOCK_SUFFIX)
        copy = folder / f"{session}{COPY_SUFFIX}"
        if copy.exists():
            continue
        lock = _lock(folder / f"{session}{LOCK_SUFFIX}")
        if lock.tryLock(0):
            _remove(folder / f"{session}{SIDECAR_SUFFIX}", _weights(copy),
                    folder / f"{session}{WEIGHTS_SUFFIX}")  # a copy's of before format 2.1
            lock.unlock()
    return sorted(found, key=lambda c: c.saved_at, reverse=True)


translate = QCoreApplication.translate


def offer_recovery(shell: Shell, copies: list[RecoveryCopy] | None = None) -> list[Shell]:
    """Ask about each orphaned copy; restore the accepted ones, delete the declined ones.

    The first restored copy replaces the document of ``shell`` (a window fresh from launch);
    further ones open in new windows. A restored document is marked modified and remembers its
    original path, so Save writes it back there.

    Returns
    -------
    list
        The windows that now show restored work.
    """
    restored: list[Shell] = []
    for copy in find_orphans() if copies is None else copies:
        where = (translate("Recovery", "of {path}").format(path=copy.original)
                 if copy.original else translate("Recovery", "never saved to a file"))
        answer = QMessageBox.question(
            shell.widget(), translate("Recovery", "Restore unsaved work"),
            as_written(translate(
                "Recovery", "Restore unsaved work from {time}?\n\n“{title}”, {where}. QKV Studio "
                "ended before it was saved. No deletes this copy.").format(
                time=copy.time_text(), title=copy.title, where=where)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            copy.discard()
            continue
        if is_big_file(copy.document):  # read after the window shows, with Cancel
            target = shell.open_window(placeholder()) if restored else shell
            _restore_later(target, copy)
            restored.append(target)
            continue
        try:
            scenario, trace = load_computed(copy.document)
        except ScenarioError as error:
            _cannot_restore(shell, copy, error)
            continue
        target = shell.open_window(scenario) if restored else shell
        _restore(target, copy, scenario, trace)
        restored.append(target)
    return restored


def _restore(target: Shell, copy: RecoveryCopy, scenario: Scenario,
             trace: Trace | None = None) -> None:
    """Show the restored work in ``target``, modified, then let the old copy go."""
    # modified: its own recovery copy is written at once, before the old copy goes
    target.show_document(scenario, copy.original, modified=True, trace=trace,
                         note=translate("Recovery", "Restored unsaved work from {time}")
                         .format(time=copy.time_text()))
    copy.discard()


def _cannot_restore(shell: Shell, copy: RecoveryCopy, error: BaseException) -> None:
    QMessageBox.warning(shell.widget(), translate("Recovery", "Cannot restore"), as_written(
        translate("Recovery", "The copy from {time} cannot be read. It was kept, unchanged, at\n"
                  "{path}\n{error}").format(time=copy.time_text(), path=copy.document,
                                             error=error)))
    copy.release()


def _restore_later(shell: Shell, copy: RecoveryCopy) -> None:
    """Read a big copy in a worker; Cancel keeps it, unchanged, for the next launch."""
    def cancelled() -> None:
        copy.release()
        shell.show_message(translate(
            "Recovery", "Not restored: cancelled. The copy was kept at {path}").format(
                path=copy.document))

    label = translate("Recovery", "Restoring unsaved work from {time}…").format(
        time=copy.time_text())
    read_after_showing(shell, copy.document, label,
                       lambda target, scenario, trace: _restore(target, copy, scenario, trace),
                       lambda error: _cannot_restore(shell, copy, error), cancelled)
