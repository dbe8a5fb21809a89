"""A weight saved by reference (format 2.2, docs/format-v2.md, "Weights that stay in their
checkpoint"): in place of a mapped weight's numbers the document names the checkpoint tensor
it reads (``{"$checkpoint": "/abs/model.safetensors", "key": "…", "transpose": true,
"header_sha256": "…", "size": …, "modified": …}``) and its edited cells (``"overlay"``: a k × 2
array of flat indices and numbers, in the JSON or the sidecar as any array). Opening it checks
the file is the one the document was saved with (its size, modification time and header's
sha256) before any number is read, and refuses a moved or changed checkpoint by name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.files.outputs import FileId, checkpoint_of
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import (
    NO_OVERLAY,
    MappedWeight,
    Overlay,
    Stamp,
    stamped_header,
)
from engine.format.reader import (
    FloatArray,
    describe,
    expect_bool,
    expect_matrix,
    expect_text,
    refuse_unknown,
)
from engine.format.safetensors_file import READ, Entry
from engine.words.refusals import Refusal

CHECKPOINT_KEY = "$checkpoint"
OVERLAY_KEY = "overlay"
KEYS = (CHECKPOINT_KEY, "key", "transpose", "header_sha256", "size", "modified", OVERLAY_KEY)


def is_checkpoint_reference(value: object) -> bool:
    """Whether ``value`` names a checkpoint tensor in place of an array."""
    return isinstance(value, Mapping) and CHECKPOINT_KEY in value


def referenced(weight: MappedWeight) -> dict[str, Any]:
    """The reference a document holds in place of ``weight``'s numbers (its overlay, when
    edited, as a k × 2 float64 array: exact, a matrix holding fewer than 2³¹ numbers).

    It names the file as the document read it (its stamp), whatever the file is now: a
    document whose checkpoint was moved or changed since is still saved, edits and all, and
    opens again once the checkpoint is back as it was (until then it is refused by name)."""
    reference: dict[str, Any] = {
        CHECKPOINT_KEY: str(weight.file.absolute()), "key": weight.name,
        "transpose": weight.transposed, "header_sha256": weight.stamp.header,
        "size": weight.stamp.size, "modified": weight.stamp.modified}
    if weight.overlay is not None:
        reference[OVERLAY_KEY] = np.column_stack([weight.overlay.cells.astype(np.float64),
                                                  weight.overlay.values])
    return reference


def mapped_files(parameters: Mapping[str, object]) -> tuple[Path, ...]:
    """The checkpoint files the weights among ``parameters`` are read from."""
    return tuple(dict.fromkeys(weight.file for weight in parameters.values()
                               if isinstance(weight, MappedWeight)))


def checkpoint_away(parameters: Mapping[str, object]) -> ScenarioError | None:
    """Why the checkpoint the weights among ``parameters`` are read from is not as the
    document read it (a file moved, deleted or changed since), naming the first such file;
    None when every one is (nothing is read but the files' status)."""
    for weight in parameters.values():
        if isinstance(weight, MappedWeight):
            try:
                weight.check()
            except ScenarioError as error:
                return error
    return None


def checkpoint_file(path: Path, mapped: tuple[Path, ...]) -> Path | None:
    """:func:`~engine.files.outputs.checkpoint_of` ``path`` among the ``mapped`` weights
    files."""
    return checkpoint_of(FileId.of(path), [FileId.of(file) for file in mapped])


def read_as_stored(document: object) -> set[tuple[str, str]]:
    """The (file, key) of every checkpoint tensor ``document`` reads as stored: a transposed
    reference to one of them is its transpose as numpy's ``.T`` lays it out (a tied head)."""
    return {(str(value[CHECKPOINT_KEY]), str(value.get("key")))
            for value in _references(document) if value.get("transpose", False) is False}


def _references(value: object) -> Iterator[Mapping[str, Any]]:
    if is_checkpoint_reference(value):
        assert isinstance(value, Mapping)
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _references(item)
    elif isinstance(value, list) and value and isinstance(value[0], dict | list):
        for item in value:
            yield from _references(item)


@dataclass(frozen=True)
class Relocation:
    """Where a document's checkpoint is now, as the user says when opening it: ``folder``
    holds its weights files (by name) after they were moved or copied; ``any_time``: a file
    whose size and header are the ones saved is read although its modification time is not
    (a copy or a restore gives a file a new time, and so does a fine-tune saved over it: only
    the user can tell which, the numbers saved are not in the document)."""

    folder: Path | None = None
    any_time: bool = False

    def file(self, saved: Path) -> Path:
        """Where the weights file the document saved as ``saved`` is read from."""
        return saved if self.folder is None else self.folder / saved.name


AS_SAVED = Relocation()
"""Every weights file where the document saved it, and as it was."""


def mapped(reference: Mapping[str, Any], overlay: object, place: str,
           as_stored: set[tuple[str, str]], relocation: Relocation = AS_SAVED) -> MappedWeight:
    """The mapped weight ``reference`` names (``overlay``: its resolved overlay, or None), its
    file checked to be the one the document was saved with (read where ``relocation`` says).

    Raises
    ------
    ScenarioError
        At ``place`` for a malformed reference; at the file when it is gone, changed (size or
        header), modified since (its time; unless ``relocation.any_time``) or does not hold
        the tensor.
    """
    refuse_unknown(reference, KEYS, place)
    saved = Path(expect_text(reference[CHECKPOINT_KEY], f"{place}.{CHECKPOINT_KEY}", 4096))
    if not saved.is_absolute():
        raise ScenarioError(f"{place}.{CHECKPOINT_KEY}",
                            Refusal("checkpoint_relative", got=describe(str(saved))))
    key = expect_text(reference.get("key"), f"{place}.key", 1000)
    transpose = expect_bool(reference.get("transpose", False), f"{place}.transpose")
    digest = expect_text(reference.get("header_sha256"), f"{place}.header_sha256", 64)
    size, modified = (_whole(reference.get(name), f"{place}.{name}")
                      for name in ("size", "modified"))
    file = relocation.file(saved)
    entry, stamp = _opened(file, key)
    if stamp.size != size or stamp.header != digest:
        raise ScenarioError(str(file), Refusal("checkpoint_changed_since_saved"))
    if stamp.modified != modified and not relocation.any_time:
        raise ScenarioError(str(file), Refusal("checkpoint_modified_since_saved"))
    view = transpose and (str(saved), key) in as_stored
    weight = MappedWeight(file, key, entry, stamp, transposed=transpose, view=view)
    if overlay is None:
        return weight
    return MappedWeight(file, key, entry, stamp, transposed=transpose, view=view,
                        overlay=_overlay(overlay, f"{place}.{OVERLAY_KEY}", weight.size))


def _whole(value: object, place: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(place, Refusal("not_whole", got=describe(value)))
    return value


def _opened(file: Path, key: str) -> tuple[Entry, Stamp]:
    """The tensor ``key``'s entry in ``file`` (offsets from the file's start) and the file's
    stamp."""
    place = str(file)
    if not os.path.lexists(file):
        raise ScenarioError(place, Refusal("checkpoint_gone"))
    header, stamp = stamped_header(file)
    entry = header.entries.get(key)
    if entry is None:
        raise ScenarioError(place, Refusal("tensor_missing", name=key))
    if entry.dtype not in READ:
        raise ScenarioError(place, Refusal("tensor_dtype", name=key, dtype=entry.dtype,
                                           read=", ".join(READ)))
    return Entry(entry.dtype, entry.shape, header.data + entry.start,
                 header.data + entry.end), stamp


def _overlay(value: object, place: str, size: int) -> Overlay:
    """The edited cells: k rows of a flat index (a whole number below ``size``, increasing)
    and its number."""
    pairs: FloatArray = expect_matrix(value, place, cols=2, max_rows=max(1, size))
    cells = pairs[:, 0]
    whole = (cells == np.trunc(cells)) & (cells >= 0) & (cells < size)
    if not bool(whole.all()) or bool((np.diff(cells) <= 0).any()):
        raise ScenarioError(place, Refusal("overlay_cells", size=size))
    if not len(cells):
        return NO_OVERLAY
    return Overlay(cells.astype(np.int64), np.array(pairs[:, 1]))


__all__ = ["AS_SAVED", "CHECKPOINT_KEY", "OVERLAY_KEY", "Relocation", "is_checkpoint_reference",
           "mapped", "read_as_stored", "referenced"]
