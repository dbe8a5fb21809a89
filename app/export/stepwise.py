"""An export with the interface answering: frames composed a step per event-loop turn, written
by a worker.

The frames are Qt graphics scenes, which only the interface thread may build and paint, so
:class:`BackgroundExport` composes one step each time the event loop comes round (a repaint or
a Cancel click gets in between two steps) and hands the painted result to a worker through a
short queue; the worker encodes and writes it (PNG and GIF encoding, ffmpeg, the PowerPoint
deck). Both halves are those of :func:`app.export.job.run_export`, so the files are the same.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer, Signal

from app.canvas import FrameOptions
from app.export.job import PIPELINES, ExportPlan, Payloads
from app.export.run_pages import Page
from app.export.safe import ExportCancelled
from app.export.settings import ExportRequest
from app.state.jobs import Job
from engine import Trace

AHEAD = 2
"""Steps composed but not yet written, at most: bounds the memory of pictures waiting."""
POLL_SECONDS = 0.05
"""How often a waiting worker looks whether the export was cancelled."""


class _End:
    """The composing half is done (``error`` is ``None``) or failed."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error


class BackgroundExport(QObject):
    """One export: composing here, writing on a worker; ``progressed(done, total)`` as steps are
    written, then ``ended(files, error)`` once the worker has stopped (``error`` is
    :class:`ExportCancelled` after :meth:`cancel`)."""

    progressed = Signal(int, int)
    ended = Signal(object, object)
    _advanced = Signal(int, int)  # emitted by the worker, queued to this object's thread

    def __init__(self, trace: Trace, request: ExportRequest,
                 options: FrameOptions | None = None, parent: QObject | None = None, *,
                 pages: Sequence[Page] | None = None) -> None:
        """``pages``: a generation run's frames, from several traces (see
        :class:`~app.export.job.ExportPlan`)."""
        super().__init__(parent)
        self.plan = ExportPlan(trace, request, options, self._report, pages)
        pipeline = PIPELINES[request.format]
        self._payloads: Payloads = pipeline.compose(self.plan)
        self._queue: queue.Queue[Any] = queue.Queue()
        self._job = Job(lambda _cancelled: pipeline.write(self.plan, self._received()), self)
        self._job.ended.connect(self._finish)
        self._advanced.connect(self.progressed, Qt.ConnectionType.QueuedConnection)
        self._next = QTimer(self)
        self._next.setSingleShot(True)
        self._next.timeout.connect(self._compose)
        self.running = False
        self.written: list[Path] = []
        self.error: BaseException | None = None

    @property
    def cancelled(self) -> threading.Event:
        return self._job.cancelled

    def start(self) -> BackgroundExport:
        self.running = True
        self.progressed.emit(0, self.plan.total)
        self._job.start()
        self._next.start(0)
        return self

    def cancel(self) -> None:
        """Stop: no step is composed any more, the worker stops at its next look and removes
        what it had begun; ``ended`` follows."""
        self._job.cancel()

    def wait(self) -> list[Path]:
        """Run the event loop until the export has ended; the files written.

        Raises
        ------
        ExportCancelled
            :meth:`cancel` was called.
        Exception
            What composing or writing raised (an ``ExportError`` names the file).
        """
        if self.running:
            loop = QEventLoop()
            self.ended.connect(loop.quit)
            loop.exec()
        if self.error is not None:
            raise self.error
        return self.written

    def _compose(self) -> None:
        """Compose the next step (on this thread), unless the worker is far enough behind."""
        if self.cancelled.is_set() or not self._job.running:
            return
        if self._queue.qsize() >= AHEAD:
            self._next.start(10)
            return
        try:
            payload = next(self._payloads)
        except StopIteration:
            self._queue.put(_End())
            return
        except BaseException as error:  # the worker reports it, after removing what it began
            self._queue.put(_End(error))
            return
        self._queue.put(payload)
        self._next.start(0)

    def _received(self) -> Iterator[Any]:
        """The composed payloads, on the worker, until the end or a cancel."""
        while True:
            try:
                item = self._queue.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if self.cancelled.is_set():
                    raise ExportCancelled() from None
                continue
            if isinstance(item, _End):
                if item.error is not None:
                    raise item.error
                return
            yield item

    def _report(self, done: int, total: int) -> bool:
        """The plan's progress callback (on the worker)."""
        self._advanced.emit(done, total)
        return not self.cancelled.is_set()

    def _finish(self, result: object, error: object) -> None:
        self.running = False
        self._next.stop()
        self._payloads.close()  # ends a half-painted PDF's painter here, on its own thread
        if self.cancelled.is_set():
            error = ExportCancelled()
        if isinstance(error, BaseException):
            self.error = error
        else:
            assert isinstance(result, list)
            self.written = result
        self.ended.emit(self.written, self.error)
