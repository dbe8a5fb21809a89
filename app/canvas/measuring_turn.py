"""A frame's layout search spread over turns of the event loop.

Composing a frame measures steps (each a dozen layouts or so), and a new document's frame laid
out by itself measures its step under every arrangement, heat-map size and arrow choice: about
170 layouts, 0.2 s, for a Llama-3.2-1B-shaped projections step once Generate next lengthens the
document. Within :func:`measuring_for` a step measured once the turn's time is up raises
:class:`Unmeasured` instead; the steps measured so far are kept
(:mod:`app.canvas.compose` caches each by what decides its sizes), so the same frame asked for
at the next turn goes on where this one stopped and is laid out, in the end, by the same
composition as in one go.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


class Unmeasured(BaseException):
    """A step left to measure at a later turn (:func:`measuring_for`). Not an
    :class:`Exception`: a painter's failure is caught and said as the step's problem, this
    passes through to whoever asked for the frame in a turn of its own."""


@dataclass
class _Turn:
    until: float
    """When the turn's time is up (:func:`time.perf_counter`)."""
    measured: bool = False
    """Whether a step was measured in it: one always is, so every turn gets on."""


_TURN: ContextVar[_Turn | None] = ContextVar("measuring_turn", default=None)


@contextmanager
def measuring_for(ms: float) -> Iterator[None]:
    """Within: once a step has been measured and ``ms`` milliseconds have passed, measuring
    another raises :class:`Unmeasured`."""
    token = _TURN.set(_Turn(time.perf_counter() + ms / 1000))
    try:
        yield
    finally:
        _TURN.reset(token)


def measuring_step() -> None:
    """A step is about to be measured: raises :class:`Unmeasured` when the turn's time is up
    (:func:`measuring_for`; outside it, never)."""
    turn = _TURN.get()
    if turn is None:
        return
    if turn.measured and time.perf_counter() > turn.until:
        raise Unmeasured
    turn.measured = True
