"""The command line's answer to a document whose checkpoint moved or changed since it was saved:
``--checkpoint-folder DIR`` (where its files are now, looked up by name) and
``--checkpoint-as-is`` (a file whose size and header are the ones saved, its modification time
not: the user's word that it is the same checkpoint), as the window asks
(:mod:`app.files.relocating`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line reads the engine only once a command runs
    from engine.format.checkpoint_reference import Relocation
    from engine.scenario.scenario import Scenario


def add_checkpoint_options(parser: argparse.ArgumentParser) -> None:
    """The two options, for a command that reads a document."""
    parser.add_argument("--checkpoint-folder", default=None, metavar="DIR",
                        help="where the document's checkpoint files are now, when its folder "
                             "was moved or copied since the document was saved")
    parser.add_argument("--checkpoint-as-is", action="store_true",
                        help="read a checkpoint file whose size and header are the ones saved "
                             "although its modification time is not (a copy or a restore of "
                             "the same file; the document cannot tell it from a fine-tune "
                             "saved over it)")


def relocation_of(args: argparse.Namespace) -> Relocation:
    """Where the command reads the document's checkpoint, as its options say.

    Raises
    ------
    ScenarioError
        At ``--checkpoint-folder``: no such folder (an empty name included).
    """
    from engine import ScenarioError
    from engine.format.checkpoint_reference import Relocation
    from engine.words.refusals import Refusal

    folder = args.checkpoint_folder
    if folder is not None and (not folder or not Path(folder).is_dir()):
        raise ScenarioError("--checkpoint-folder",
                            Refusal("checkpoint_folder_missing", folder=repr(folder)))
    return Relocation(folder=Path(folder) if folder else None, any_time=args.checkpoint_as_is)


def load_document(path: Path, args: argparse.Namespace) -> Scenario:
    """The document at ``path``, its checkpoint read where the options say; a checkpoint away
    is refused naming the option that answers it.

    Raises
    ------
    ScenarioError
        As :func:`engine.load_scenario`, or at ``--checkpoint-folder``.
    """
    from engine import ScenarioError, load_scenario
    from engine.words.refusals import Refusal

    try:
        return load_scenario(path, relocation_of(args))
    except ScenarioError as error:
        # the refusals of a checkpoint away, worded with the command line's own options (the
        # window's say what its dialog offers)
        key = error.refusal.key if error.refusal is not None else ""
        if key == "checkpoint_gone":
            raise ScenarioError(error.place, Refusal("checkpoint_gone_command_line")) from None
        if key == "checkpoint_modified_since_saved":
            raise ScenarioError(error.place,
                                Refusal("checkpoint_modified_command_line")) from None
        raise


__all__ = ["add_checkpoint_options", "load_document", "relocation_of"]
