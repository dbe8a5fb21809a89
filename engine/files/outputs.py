"""The one guard of every output: nothing a run writes replaces a file the same run reads, and no
two outputs of one run name the same file (no Qt).

A *run* is one command of the command line, one save, export or recovery copy of the window. It
knows its inputs (:class:`Inputs`): the document and its sidecar (recorded as they are opened,
:func:`~engine.files.regular_file.open_regular`), a checkpoint's files, the open document of the
window. Files are the same when their resolved paths are, or their (device, inode) are: a
symbolic or hard link, ``./x`` or ``dir/../x`` is caught.

Two places ask the guard, so nothing is written when it refuses:

- :meth:`Inputs.refuse_outputs` before the work, with every output the run will write (a
  command's ``--out`` and ``--answers``; a dialog's destination);
- :func:`~engine.files.safe_write.real_target`, which every writer goes through, asks the run made
  current by :func:`guarding` (:func:`current`, in the thread that writes) before any temporary
  file exists.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from engine.words import say
from engine.words.refusals import Refusal

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class FileId:
    """A file as the guard compares it: its resolved path, and its (device, inode) if it
    exists."""

    path: Path
    inode: tuple[int, int] | None

    @classmethod
    def of(cls, path: PathLike) -> FileId:
        resolved = Path(os.path.realpath(path))
        try:
            status = os.stat(resolved)
        except (OSError, ValueError):
            return cls(resolved, None)
        return cls(resolved, (status.st_dev, status.st_ino))

    def same(self, other: FileId) -> bool:
        return self.path == other.path or (self.inode is not None and self.inode == other.inode)


class OutputRefusedError(OSError):
    """An output names a file the run reads, or one another output writes; nothing was written.

    ``str()`` is one line: ``cannot write PATH: REASON``; ``refusal`` words the reason in either
    language (:mod:`engine.words`)."""

    def __init__(self, path: PathLike, refusal: Refusal) -> None:
        self.path = Path(path)
        self.refusal = refusal
        self.reason = str(refusal)
        super().__init__(say("cannot_write", "en", path=self.path, reason=self.reason))


CHECKPOINT_FILES = frozenset((
    "config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json",
    "special_tokens_map.json", "added_tokens.json", "vocab.json", "vocab.txt", "merges.txt",
    "tokenizer.model", "spiece.model", "sentencepiece.bpe.model", "chat_template.jinja",
    "chat_template.json", "preprocessor_config.json"))
"""The files a Hugging Face checkpoint folder holds besides its weights: config, tokenizers'
files (a byte-level BPE's vocab.json and merges.txt, a sentencepiece model), chat template."""
CHECKPOINT_SUFFIXES = (".safetensors", ".safetensors.index.json", ".bin", ".bin.index.json",
                       ".pt", ".pth", ".gguf", ".msgpack", ".h5", ".onnx")
"""The weights files (and their indexes) a checkpoint folder may hold."""
SIDECAR_SUFFIX = ".weights.safetensors"
"""How a document's sidecar of weights ends (``doc.qkv.json.weights.safetensors``; before
format 2.1 ``doc.weights.safetensors``): never a checkpoint's file by its name."""


def checkpoint_name(name: str) -> bool:
    """Whether a file called ``name`` in a checkpoint's folder is one of the checkpoint's
    (compared without case: a case-insensitive disk takes ``Config.json`` for the config)."""
    name = name.lower()
    if name.endswith(SIDECAR_SUFFIX):
        return False
    return name in CHECKPOINT_FILES or name.endswith(CHECKPOINT_SUFFIXES)


def checkpoint_of(target: FileId, weights: Iterable[FileId]) -> Path | None:
    """The folder of the checkpoint that ``target`` is a file of, when it is: one of its
    ``weights`` files (by any name or link), or a checkpoint's file by its name
    (:func:`checkpoint_name`) in a folder they are in; else None."""
    folders = set()
    for read in weights:
        if target.same(read):
            return read.path.parent
        folders.add(read.path.parent)
    if target.path.parent in folders and checkpoint_name(target.path.name):
        return target.path.parent
    return None


class Inputs:
    """The files one run reads."""

    def __init__(self, paths: Iterable[PathLike] = ()) -> None:
        self._files: list[FileId] = []
        for path in paths:
            self.add(path)

    def add(self, path: PathLike) -> None:
        """Note that the run reads ``path``."""
        self._files.append(FileId.of(path))

    def refuse_target(self, target: PathLike) -> None:
        """Raise :class:`OutputRefusedError` if writing ``target`` would replace an input."""
        wanted = FileId.of(target)
        if any(wanted.same(read) for read in self._files):
            raise OutputRefusedError(target, Refusal("output_is_input"))
        folder = checkpoint_of(wanted, [read for read in self._files
                                        if read.path.name.endswith(".safetensors")
                                        and (read.path.parent / "config.json").exists()])
        if folder is not None:  # another file of a checkpoint the run reads weights from
            raise OutputRefusedError(target, Refusal("output_is_checkpoint", folder=str(folder)))

    def refuse_outputs(self, targets: Sequence[PathLike | None]) -> None:
        """Before the work: raise :class:`OutputRefusedError` if an output (``None``: not asked
        for) is an input, or two outputs name the same file."""
        named = [target for target in targets if target is not None]
        seen: list[tuple[PathLike, FileId]] = []
        for target in named:
            self.refuse_target(target)
            wanted = FileId.of(target)
            for first, other in seen:
                if wanted.same(other):
                    raise OutputRefusedError(target, Refusal("output_twice", first=str(first)))
            seen.append((target, wanted))


_CURRENT: ContextVar[Inputs | None] = ContextVar("qkv_run_inputs", default=None)


@contextmanager
def guarding(inputs: Inputs) -> Iterator[Inputs]:
    """Make ``inputs`` the current run's (in this thread) while the block runs: reads are noted
    in it, and every write is checked against it."""
    token = _CURRENT.set(inputs)
    try:
        yield inputs
    finally:
        _CURRENT.reset(token)


def current() -> Inputs:
    """The current run's inputs (:func:`guarding`); outside a run an empty set, which notes
    nothing for later and refuses nothing."""
    return _CURRENT.get() or Inputs()


def refuse_parts_over_files(folder: Path, asked: str, names: Sequence[str]) -> None:
    """An output asked as the one file ``asked`` and written as parts ``names`` in ``folder``
    (a split step's ``ffn-1.png`` …, names the user did not choose) refuses to replace a file
    already there under one of them (the user's own ``photo-1.png``).

    Raises
    ------
    OutputRefusedError
        Naming the first part that is a file (or a link) already there.
    """
    if list(names) == [asked]:
        return
    for name in names:
        if os.path.lexists(folder / name):
            raise OutputRefusedError(folder / name, Refusal(
                "part_over_a_file", count=len(names), asked=asked, parts=", ".join(names)))


__all__ = ["Inputs", "OutputRefusedError", "checkpoint_name", "checkpoint_of", "current",
           "guarding", "refuse_parts_over_files"]
