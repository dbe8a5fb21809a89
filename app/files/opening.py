"""Reading a document for the window: valid *and* computable, or one ScenarioError (no Qt).

A big file is read in another process: turning 30 MB of JSON text into numbers holds the
interpreter lock for seconds, which no thread could share with the window.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from app.model.cancel import CancelledError
from app.state.prepared import prepared
from engine import Scenario, Trace, compute, load_scenario
from engine.format.checkpoint_reference import AS_SAVED, Relocation
from engine.format.sidecar import legacy_sidecar_name, sidecar_name

BACKGROUND_BYTES = 1 << 20
"""Files larger than this are read in a separate process (about 30 ms of parsing here)."""


def load_checked(path: str | os.PathLike[str]) -> Scenario:
    """Read, migrate and validate a document, then check that its trace can be computed.

    A document can be well formed and still overflow (``X`` holding ``1e308``); the window
    must refuse it before it touches the open document.

    Raises
    ------
    ScenarioError
        The first problem, naming the file, the place in the document, or ``computation``.
    """
    return load_computed(path)[0]


def load_computed(path: str | os.PathLike[str], cancelled: threading.Event | None = None,
                  relocation: Relocation = AS_SAVED) -> tuple[Scenario, Trace]:
    """:func:`load_checked` with the trace it computed (its checkpoint read where
    ``relocation`` says); a big file is read in a process.

    ``cancelled`` is looked at between reading and computing.

    Raises
    ------
    ScenarioError
        As :func:`load_checked`.
    CancelledError
        ``cancelled`` was set.
    """
    scenario = (_read_elsewhere(path, relocation) if is_big_file(path)
                else load_scenario(path, relocation))
    return computed(scenario, cancelled)


def computed(scenario: Scenario,
             cancelled: threading.Event | None = None) -> tuple[Scenario, Trace]:
    """``scenario`` with its trace; ``cancelled`` is looked at before and after computing.

    Raises
    ------
    ScenarioError
        The trace cannot be computed (``computation: …``).
    CancelledError
        ``cancelled`` was set.
    """
    if cancelled is not None and cancelled.is_set():
        raise CancelledError
    trace = prepared(compute(scenario))
    if cancelled is not None and cancelled.is_set():
        raise CancelledError
    return scenario, trace


def is_big_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is read in another process (larger than
    :data:`BACKGROUND_BYTES`); a file that cannot be looked at is not (reading says why), nor
    one with a sidecar of weights beside it: its numbers are read by numpy, and sending a whole
    model back from a process would copy it."""
    try:
        return Path(path).stat().st_size > BACKGROUND_BYTES and not has_sidecar(path)
    except OSError:
        return False


def has_sidecar(path: str | os.PathLike[str]) -> bool:
    """Whether a sidecar of weights lies beside the document at ``path``: its arrays are too
    large for JSON (a whole GPT-2 small's take over a second to read, widen and check)."""
    file = Path(path)
    return any(file.with_name(name(file)).exists() for name in (sidecar_name, legacy_sidecar_name))


def _read_elsewhere(path: str | os.PathLike[str], relocation: Relocation) -> Scenario:
    """:func:`~engine.load_scenario` in a fresh process (spawned: Qt's threads do not fork)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(load_scenario, os.fspath(path), relocation).result()
