"""Opening a file to read only when it is a regular file: a FIFO, a device or a socket has no
size to check and may never end (a FIFO blocks ``open`` itself until a writer comes), so it is
refused before any byte is read, wherever the engine reads a file (documents, sidecars, a
checkpoint's config, weights, index and tokenizer, matrix imports)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO, Literal

from engine.files.outputs import current
from engine.format.errors import ScenarioError
from engine.words.refusals import Refusal


def open_regular(path: str | os.PathLike[str], place: str,
                 kind: Literal["document", "weights", "checkpoint"] = "document") -> BinaryIO:
    """``path`` opened for reading in binary, refused at ``place`` unless it is a regular file
    (a folder is refused as where ``kind`` was needed: a scenario document, a checkpoint's
    weights file, or another file of a checkpoint).

    The file is opened without blocking (a FIFO's ``open`` would wait for a writer), checked on
    the open descriptor (no gap between the check and the open), then read normally. The
    current run notes it as an input (:func:`engine.files.outputs.current`).

    Raises
    ------
    ScenarioError
        ``is_folder``, ``not_regular_file``, or ``unreadable`` with the system's reason.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise ScenarioError(place, Refusal("folder_weights" if kind == "weights"
                                           else "folder_checkpoint_file" if kind == "checkpoint"
                                           else "is_folder")) from None
    except OSError as error:
        raise ScenarioError(place, Refusal("unreadable",
                                           reason=str(error.strerror or error))) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise ScenarioError(place, Refusal("folder_weights" if kind == "weights"
                                               else "folder_checkpoint_file"
                                               if kind == "checkpoint" else "is_folder"))
        if not stat.S_ISREG(mode):
            raise ScenarioError(place, Refusal("not_regular_file"))
        os.set_blocking(descriptor, True)
        current().add(path)  # no output of the run may replace it (engine.files.outputs)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def check_regular(path: str | os.PathLike[str], place: str) -> int:
    """The size of ``path``, refused at ``place`` unless it is a regular file (nothing is read)."""
    with open_regular(Path(path), place) as stream:
        return os.fstat(stream.fileno()).st_size


__all__ = ["check_regular", "open_regular"]
