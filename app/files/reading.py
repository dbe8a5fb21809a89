"""File → Open before the window changes: the file read, computed and checked for showing.

A big file is read in another process and computed in a worker, a document with a sidecar of
weights read and computed in a worker (``run`` decides where: the window's progress dialog with
Cancel); a small one is read here. The document comes back with its first frame already built
(:class:`~app.state.showing.Shown`), or the reason it is refused.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.canvas import FrameOptions
from app.files.opening import computed, has_sidecar, is_big_file, load_computed
from app.model.examples import EXAMPLES_DIR
from app.state.big import is_big
from app.state.showing import Shown, check_showing
from engine import Trace, load_scenario
from engine.format.checkpoint_reference import AS_SAVED, Relocation

Run = Callable[[Callable[[threading.Event], Any], bool], Any]
"""Runs a piece of work (given a cancel flag) and returns its result: in a worker with
progress and Cancel when the flag ``big`` is set."""


def read_to_show(path: Path, run: Run, options: Callable[[Trace], FrameOptions],
                 relocation: Relocation = AS_SAVED) -> Shown:
    """The document at ``path`` with its trace and first frame, drawn with ``options(trace)``
    (its checkpoint read where ``relocation`` says).

    Raises
    ------
    ScenarioError
        The file cannot be read or its trace computed.
    ShowingError
        A step's title or the first step's text, frame or description fails.
    CancelledError
        Cancel was pressed while reading or computing.
    """
    if is_big_file(path) or has_sidecar(path):  # read (a big file in another process) and
        # computed off this thread
        _scenario, trace = run(lambda cancelled: load_computed(path, cancelled, relocation),
                               True)
    else:  # read here (quick), computed off this thread if the document is big
        read = load_scenario(path, relocation)
        _scenario, trace = run(lambda cancelled: computed(read, cancelled), is_big(read))
    return check_showing(trace, options(trace))


def kept_path(path: Path) -> Path | None:
    """Where a document opened from ``path`` is saved back to: nowhere for a built-in example
    (saving asks for a place; it is kept out of the recent documents)."""
    return None if path.parent == EXAMPLES_DIR else path
