"""A big document's step drawn once its big weights are made ready by a worker, the window live
meanwhile (issue 37, item 4).

A Llama-3.2-1B feed-forward's W1, Wg and W2 are 2,048 × 8,192 numbers each, kept in their
checkpoint in bfloat16 and read transposed: widened, and their colour scales and heat maps
worked out, on the interface thread, stepping into the FFN froze the window for 2.2 s. Here a
worker makes them ready (:func:`app.canvas.prepared_drawing.prepare_weight`) while the canvas
keeps the frame it shows, a moving bar and Cancel in the status bar (Cancel goes back to the
step on screen); the step is drawn when they are. Once a step has stayed on screen a second, the
worker makes the next steps' weights ready ahead, so that stepping forward seldom waits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from app.canvas.prepared_drawing import KEPT_BYTES, is_prepared, prepare_weight, step_weights
from app.model.cancel import CancelledError
from app.state.document import DocumentState
from app.state.jobs import SHOW_PROGRESS_AFTER_MS, Job
from app.texts.printed import printed_places
from app.widgets.cancellable_bar import CancellableBar
from engine import Trace
from engine.format.mapped_weight import MappedWeight

AHEAD = 12
"""Steps past the one on screen whose weights are made ready ahead (a Llama layer's steps)."""
AHEAD_AFTER_MS = 1000
"""How long a step stays on screen before the next steps' weights are made ready ahead: the
worker shares the machine with the interface thread, and while someone steps on quickly it
would slow every frame down (on two busy cores, a RoPE step from 0.44 to 0.99 s)."""


def unready(trace: Trace, step: int) -> list[MappedWeight]:
    """The big weights step ``step``'s frame draws whole that are not made ready yet (one
    edited from a weight made ready too: the worker makes it ready from that one)."""
    return [weight for weight in step_weights(trace, trace.steps[step])
            if not is_prepared(weight)]


def ahead(trace: Trace, step: int) -> list[MappedWeight]:
    """The weights of the :data:`AHEAD` steps after ``step`` not made ready yet, in step order,
    within :data:`~app.canvas.prepared_drawing.KEPT_BYTES` (the step on screen's weights
    counted: they stay ready)."""
    room = KEPT_BYTES - sum(w.size * 8 for w in step_weights(trace, trace.steps[step]))
    found: list[MappedWeight] = []
    for later in range(step + 1, min(step + 1 + AHEAD, len(trace.steps))):
        for weight in unready(trace, later):
            if any(weight is other for other in found):
                continue
            room -= weight.size * 8
            if room < 0:
                return found
            found.append(weight)
    return found


class StepWeights(CancellableBar):
    """The status bar's moving bar and Cancel while a step's weights are made ready, and the
    worker that makes them ready.

    :meth:`ready` says whether the window may draw a step now; when it may not, it starts the
    work and calls ``redraw(fit)`` once the weights are ready. Cancel goes back to the step
    whose frame is on screen (:attr:`shown`, told by :meth:`drawn`).
    """

    def __init__(self, state: DocumentState, redraw: Callable[[bool], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(lambda: self.tr("Preparing"), lambda: self.tr(
            "Stop preparing this step's weights and go back to the step shown"), parent)
        self.state = state
        self._redraw = redraw
        self.job: Job | None = None
        self.waiting: tuple[Trace, int] | None = None
        """The trace and step to draw once their weights are ready."""
        self.shown = 0
        """The step whose frame is on screen (drawn last)."""
        self._fit = False
        self._ahead: list[MappedWeight] = []
        """The weights the running worker makes ready ahead (none: it makes a step's ready
        that waits to be drawn)."""
        self._job_for: tuple[Trace, int] | None = None
        """The step the running worker makes weights ready for (none: ahead, or no worker; a
        trace kept after its worker ended kept its document, weights and all, after another
        document was opened)."""
        self._failed: tuple[Trace, int] | None = None
        """A step whose weights the worker failed to make ready: drawn as before, on this
        thread (where a failure is said in the status bar)."""
        self.cancel_button.clicked.connect(self.cancel)
        self.setVisible(False)
        self._show_timer = QTimer(self)
        self._show_timer.setSingleShot(True)
        self._show_timer.timeout.connect(lambda: self.setVisible(self.waiting is not None))
        self._shown_trace: Trace | None = None
        self._ahead_timer = QTimer(self)
        self._ahead_timer.setSingleShot(True)
        self._ahead_timer.timeout.connect(self._make_ready_ahead)

    def ready(self, trace: Trace, step: int, fit: bool) -> bool:
        """Whether step ``step`` of ``trace`` may be drawn now: every big weight its frame
        draws is made ready. If not, they are made ready in a worker and the step is drawn
        then (``fit`` or that of any request meanwhile)."""
        missing = unready(trace, step)
        if self._failed is not None and self._failed[0] is not trace:
            self._failed = None  # another document, or the same edited: tried again
        if self._failed is not None and self._failed[1] == step:
            missing = []
        if not missing:
            self.waiting = None
            self._show_timer.stop()
            self.setVisible(False)
            return True
        self._ahead_timer.stop()
        self._fit = fit or (self._fit and self.waiting is not None)
        self.waiting = (trace, step)
        if not self.isVisible():
            self._show_timer.start(SHOW_PROGRESS_AFTER_MS)
        if self.job is None:
            self._start(trace, missing, keeping=step_weights(trace, trace.steps[step]),
                        waited=(trace, step))
        elif self._ahead and any(all(w is not weight for w in self._ahead) for weight in missing):
            self.job.cancel()  # made ready ahead for other steps: these first, once it stops
        return False

    def drawn(self, trace: Trace, step: int) -> None:
        """Step ``step`` of ``trace`` is on screen: once it has stayed there
        :data:`AHEAD_AFTER_MS`, the next steps' weights are made ready ahead."""
        self.shown, self._shown_trace = step, trace
        self._ahead_timer.start(AHEAD_AFTER_MS)

    def _make_ready_ahead(self) -> None:
        """Make the weights of the steps after the one on screen ready, unless the worker is
        busy or a step waits to be drawn."""
        trace = self._shown_trace
        if self.job is not None or self.waiting is not None or trace is None:
            return
        later = ahead(trace, self.shown)
        if later:
            self._start(trace, later)
            self._ahead = later

    def cancel(self) -> None:
        """Stop making weights ready and go back to the step on screen."""
        if self.job is not None:
            self.job.cancel()
        self.waiting = None
        self._show_timer.stop()
        self.setVisible(False)
        self.state.set_step(self.shown)

    def stop(self) -> None:
        """The window closes: the worker stops at its next weight and nothing waits."""
        if self.job is not None:
            self.job.cancel()
        self._ahead_timer.stop()
        self.set_aside()

    def set_aside(self) -> None:
        """Nothing waits to be drawn any more (the canvas shows a comparison): the bar and
        Cancel go; what the worker makes ready is kept."""
        self.waiting = None
        self._show_timer.stop()
        self.setVisible(False)

    def _start(self, trace: Trace, weights: list[MappedWeight],
               keeping: list[MappedWeight] | None = None,
               waited: tuple[Trace, int] | None = None) -> None:
        """Make ``weights`` ready in a worker, kept with ``keeping`` (the weights of step
        ``waited``, the one the worker is started for; none: ahead)."""
        places = printed_places(trace)
        together = tuple(keeping or ())

        def work(cancelled: threading.Event) -> None:
            for weight in weights:
                if cancelled.is_set():
                    raise CancelledError
                prepare_weight(weight, places, keeping=together)

        self._ahead = []
        self._job_for = waited
        self.job = Job(work, self)
        self.job.ended.connect(self._ended)
        self.job.start()

    def _ended(self, _result: object, error: object) -> None:
        """The worker returned: draw the step waited for (its weights made ready, or the next
        ones the worker starts on then)."""
        waited, self.job, self._ahead, self._job_for = self._job_for, None, [], None
        if error is not None and not isinstance(error, CancelledError) and waited is not None:
            self._failed = waited  # drawn as before, on this thread, where it is said
        if self.waiting is None:
            return
        self._redraw(self._fit)
