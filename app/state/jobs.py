"""Long work off the interface thread: a worker runs it, the result comes back as a signal.

A :class:`Job` runs one function on a Python thread (numpy releases the interpreter lock for
large array work, so the interface keeps running) and delivers its result or its error on the
interface thread, unless it was cancelled first. The function must only read what it is given:
hand it immutable inputs (a :class:`~engine.Scenario` is frozen) and never a widget.

:func:`run_with_progress` is the blocking form for open and save: a window-modal progress
dialog with Cancel while the event loop keeps running, so the window repaints and timers fire.

Small documents stay on the interface thread: :func:`app.state.big.is_big` says when a
scenario's work is large enough to hand to a worker.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from app.model.cancel import CancelledError

SHOW_PROGRESS_AFTER_MS = 300
"""A progress dialog appears only for work that takes longer than this."""


def _done(_cancelled: threading.Event) -> None:
    """What a job holds in place of its function once that has run."""


class LibraryPanicError(RuntimeError):
    """A failure that is not an :class:`Exception` (a Rust library's panic: pyo3's
    ``PanicException`` derives from ``BaseException``), carried as one, so that whoever waits
    for the work says it like any other error instead of letting it past."""

    def __init__(self, failure: BaseException) -> None:
        kind = type(failure).__name__
        super().__init__(f"{kind}: {failure}" if str(failure) else kind)


_ALIVE: set[Job] = set()
"""Jobs whose worker has not reported yet: kept alive until it has, whoever dropped them."""


class Job(QObject):
    """One function run on a worker thread; ``done(result)`` or ``failed(error)`` back here.

    ``cancel()`` sets :attr:`cancelled` (the function may look at it between phases and raise
    :class:`CancelledError`); a cancelled job emits neither ``done`` nor ``failed``, only
    ``ended(result, error)``, which always comes once the function has returned.
    """

    done = Signal(object)
    failed = Signal(object)
    ended = Signal(object, object)
    _finished = Signal(object, object)

    def __init__(self, work: Callable[[threading.Event], Any],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cancelled = threading.Event()
        self.running = False
        self._work = work
        # Emitted by the worker; Qt queues it to this object's (the interface) thread.
        self._finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._thread = threading.Thread(target=self._run, daemon=True, name="qkv-job")

    def start(self) -> Job:
        self.running = True
        _ALIVE.add(self)
        self._thread.start()
        return self

    def cancel(self) -> None:
        self.cancelled.set()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the worker has returned (the result is still delivered later)."""
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        work, self._work = self._work, _done  # what the work read is freed once it has run
        try:
            result, error = work(self.cancelled), None
        except Exception as problem:  # delivered to the interface, never lost in a thread
            result, error = None, problem
        except BaseException as problem:  # a library's panic (pyo3's PanicException) too
            result, error = None, LibraryPanicError(problem)
        del work
        try:
            self._finished.emit(result, error)
        except RuntimeError:  # "Signal source has been deleted": its window closed meanwhile
            _ALIVE.discard(self)

    def _deliver(self, result: object, error: object) -> None:
        self.running = False
        _ALIVE.discard(self)
        self.ended.emit(result, error)
        if self.cancelled.is_set():
            return
        if error is not None:
            self.failed.emit(error)
        else:
            self.done.emit(result)


def progress_dialog(parent: QWidget, label: str, cancel: str, total: int = 0) -> QProgressDialog:
    """A window-modal progress dialog with a Cancel button called ``cancel``, shown once the
    work has taken :data:`SHOW_PROGRESS_AFTER_MS`; ``total`` 0: a busy bar. It stays open
    until closed."""
    dialog = QProgressDialog(label, cancel, 0, total, parent)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(SHOW_PROGRESS_AFTER_MS)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    return dialog


def run_with_progress(parent: QWidget, label: str, work: Callable[[threading.Event], Any],
                      finish_on_cancel: bool = False) -> Any:
    """Run ``work`` in a worker while a progress dialog with Cancel shows; its result.

    The event loop keeps running meanwhile (the dialog is window-modal, so the window cannot
    be edited underneath). Cancel returns at once and drops the result, unless
    ``finish_on_cancel``: then the dialog says it is stopping and waits (still responsive) for
    ``work`` to raise :class:`CancelledError` at its next check, or to finish what it had begun
    (a save that has started writing), whose outcome then counts.

    Raises
    ------
    CancelledError
        The user pressed Cancel and the work stopped (or its result was dropped).
    Exception
        Whatever ``work`` raised.
    """
    job = Job(work)
    dialog = progress_dialog(parent, label, QCoreApplication.translate("Progress", "Cancel"))
    outcome: dict[str, object] = {}
    loop = QEventLoop()

    def finish(key: str, value: object) -> None:
        outcome[key] = value
        loop.quit()

    def ended(result: object, error: object) -> None:
        if error is not None:
            finish("error", CancelledError() if isinstance(error, CancelledError) else error)
        else:
            finish("result", result)

    def cancel() -> None:
        job.cancel()
        if not finish_on_cancel:
            finish("error", CancelledError())
            return
        dialog.setLabelText(QCoreApplication.translate("Progress", "Stopping…"))
        dialog.setCancelButton(None)
        dialog.show()

    job.ended.connect(ended)
    dialog.canceled.connect(cancel)
    show = QTimer(dialog)
    show.setSingleShot(True)
    show.timeout.connect(dialog.show)
    job.start()
    show.start(SHOW_PROGRESS_AFTER_MS)
    if job.running:
        loop.exec()
    show.stop()
    shown = dialog.isVisible()
    dialog.hide()
    dialog.deleteLater()
    if shown:  # the window the dialog held takes the keys again (Ctrl+Z right after it)
        parent.window().activateWindow()
    if "error" in outcome:
        error = outcome["error"]
        assert isinstance(error, BaseException)
        raise error
    return outcome.get("result")
