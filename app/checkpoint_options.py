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
    """Where the command reads the document's checkpoint, as its options say."""
    from engine.format.checkpoint_reference import Relocation

    folder = args.checkpoint_folder
    return Relocation(folder=Path(folder) if folder else None, any_time=args.checkpoint_as_is)


__all__ = ["add_checkpoint_options", "relocation_of"]
