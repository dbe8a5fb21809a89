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
from app.state.document import DocumentState
from app.texts.problems import problem_words
from engine import Scenario, ScenarioError
from engine.files.outputs import Inputs, OutputRefusedError, guarding
from engine.files.safe_write import failure_reason
from engine.format.checkpoint_reference import mapped_files
from engine.format.io import dump_scenario, write_dumped
from engine.format.sidecar import legacy_sidecar_name, sidecar_name


def suggested_path(path: Path | None, title: str) -> Path:
    """Where Save as… starts: the document's own file, else its title's slug here."""
    return path or Path.cwd() / f"{slug(title)}{SUFFIX}"


def save_target(chosen: str) -> Path:
    """The file a name chosen in the save dialog stands for: ``.qkv.json`` added unless it
    already ends in ``.json``."""
    target = Path(chosen)
    return target if target.name.endswith(".json") else target.with_name(target.name + SUFFIX)


def is_open_document(target: Path, open_path: Path | None) -> bool:
    """Whether ``target`` is the document's own file (by another spelling or link too)."""
    if open_path is None:
        return False
    if target.exists() and open_path.exists():
        return target.samefile(open_path)
    return target.resolve() == open_path.resolve()


def failure_words(error: BaseException, lang: str) -> str:
    """Why a save failed, for a message naming the file: an output the guard refused
    (:class:`~engine.files.outputs.OutputRefusedError`) in ``lang``, any other failure in plain
    words."""
    if isinstance(error, OutputRefusedError):
        return problem_words(ScenarioError("", error.refusal), lang)
    if isinstance(error, ScenarioError):  # a checkpoint gone or changed since it was read
        return problem_words(error, lang)
    return failure_reason(error)


def document_inputs(path: Path | None, scenario: Scenario) -> Inputs:
    """The files of the open document (``scenario``, saved at ``path``) that no output of the
    window may replace (:mod:`engine.files.outputs`): the document and the sidecars of weights
    beside it, and the checkpoint files its weights are read from (and so the rest of that
    checkpoint: its config, tokenizer and index)."""
    inputs = Inputs(mapped_files(scenario.parameters))
    if path is not None:
        for mine in (path, path.with_name(sidecar_name(path)),
                     path.with_name(legacy_sidecar_name(path))):
            inputs.add(mine)
    return inputs


def writing(scenario: Scenario, path: Path, inputs: Inputs | None = None, *,
            self_contained: bool = False) -> Callable[[threading.Event], None]:
    """The work of writing ``scenario`` to ``path`` atomically, with its sidecar of weights
    beside it when it has one (Save as… writes a new one beside the new name); weights left in
    their checkpoint by reference, or their numbers when ``self_contained``. Cancel is looked
    at once the text is made, before any file is touched (a frozen scenario: safe to read in a
    worker). Nothing replaces one of ``inputs`` (the open document's files, for Save as…).

    The work raises :class:`~app.model.cancel.CancelledError` on Cancel, and what
    :func:`~engine.format.io.write_dumped` raises on failure (the old files stay whole), an
    :class:`~engine.files.outputs.OutputRefusedError` among them.
    """
    def work(cancelled: threading.Event) -> None:
        with guarding(inputs or Inputs()) as guard:
            guard.refuse_outputs([path])
            dumped = dump_scenario(scenario, path, self_contained=self_contained)
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
