"""A :class:`~app.state.session.Session` without a window, for tests: a runner the test runs
when it says, and a listener that writes down what it hears."""

from __future__ import annotations

from collections.abc import Callable

from app.state.change import Change
from app.state.session import Session
from engine import Scenario, ScenarioError, Trace


class QueuedRunner:
    """Holds each computation until :meth:`finish` runs it, as a worker whose result arrives
    later; a cancelled one is never delivered."""

    def __init__(self) -> None:
        self.queue: list[tuple[Callable[[], Trace], Callable[[Trace], None],
                               Callable[[BaseException], None], list[bool]]] = []
        self.previews = 0
        """How many previews (not whole traces) it was given."""

    def __call__(self, work: Callable[[], Trace], done: Callable[[Trace], None],
                 failed: Callable[[BaseException], None],
                 whole: bool = True) -> Callable[[], None]:
        cancelled = [False]
        self.queue.append((work, done, failed, cancelled))
        if not whole:
            self.previews += 1
        return lambda: cancelled.__setitem__(0, True)

    def finish(self) -> None:
        """Run what is queued, and what that queued (a preview's rest), to the end."""
        while self.queue:
            self.finish_one_round()

    def finish_one_round(self) -> None:
        """Run what is queued now (what it queues waits)."""
        queue, self.queue = self.queue, []
        for work, done, failed, cancelled in queue:
            try:
                trace = work()
            except ScenarioError as error:
                if not cancelled[0]:
                    failed(error)
                continue
            if not cancelled[0]:
                done(trace)


class Heard:
    """What the session told, in order."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.busy: list[bool] = []
        self.moved: list[bool] = []
        self.computed: list[str] = []
        self.failed: list[tuple[str, str]] = []

    def session_changed(self, change: Change) -> None:
        self.changes.append(change)

    def session_busy(self, busy: bool) -> None:
        self.busy.append(busy)

    def session_moved(self, index: bool) -> None:
        self.moved.append(index)

    def session_computed(self, label: str) -> None:
        self.computed.append(label)

    def session_failed(self, label: str, error: BaseException) -> None:
        self.failed.append((label, str(error)))


def session_of(scenario: Scenario) -> tuple[Session, QueuedRunner, Heard]:
    runner, heard = QueuedRunner(), Heard()
    return Session(scenario, runner, heard), runner, heard


