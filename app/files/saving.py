"""Saving a document: where it goes, the writing (atomic, cancellable before the file is
touched), and what a saved document remembers (its path, the disk watch, clean, recent)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from app.export.settings import slug
from app.files.recent import add_recent
from app.files.watch import DiskWatch
from app.model.cancel import CancelledError
from app.model.examples import SUFFIX
from app.window.state import DocumentState
from engine import Scenario
from engine.io import dump_scenario, write_dumped


def suggested_path(path: Path | None, title: str) -> Path:
    """Where Save as… starts: the document's own file, else its title's slug here."""
    return path or Path.cwd() / f"{slug(title)}{SUFFIX}"


def save_target(chosen: str) -> Path:
    """The file a name chosen in the save dialog stands for: ``.qkv.json`` added unless it
    already ends in ``.json``."""
    target = Path(chosen)
    return target if target.name.endswith(".json") else target.with_name(target.name + SUFFIX)


def writing(scenario: Scenario, path: Path) -> Callable[[threading.Event], None]:
    """The work of writing ``scenario`` to ``path`` atomically, with its sidecar of weights
    beside it when it has one (Save as… writes a new one beside the new name); Cancel is looked
    at once the text is made, before any file is touched (a frozen scenario: safe to read in a
    worker).

    The work raises :class:`~app.model.cancel.CancelledError` on Cancel, and what
    :func:`~engine.io.write_dumped` raises on failure (the old files stay whole).
    """
    def work(cancelled: threading.Event) -> None:
        dumped = dump_scenario(scenario, path)
        if cancelled.is_set():
            raise CancelledError
        write_dumped(dumped, path)

    return work


def mark_saved(state: DocumentState, disk: DiskWatch, scenario: Scenario, path: Path) -> None:
    """``scenario`` was written to ``path``: the document lives there now, the disk watch
    follows it, it is clean unless edited meanwhile, and it leads the recent documents."""
    state.path = path
    disk.follow(path)
    if state.scenario is scenario:
        state.undo_stack.setClean()
    add_recent(path)
