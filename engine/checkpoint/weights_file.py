"""One ``.safetensors`` weights file of a checkpoint: its header parsed once and checked
(:mod:`engine.format.safetensors_file`, the reader sidecars share) before any tensor is read, then a
tensor's bytes mapped in their stored dtype and widened to float64 exactly, a block of rows at a
time, straight into the array the document keeps
(:func:`engine.format.safetensors_file.map_widened`). A bad header is refused naming the file and
the tensor.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.files.regular_file import open_regular
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import Stamp, stamped_header
from engine.format.reader import FloatArray, is_known_finite
from engine.format.safetensors_file import READ, Entry, map_widened
from engine.words.refusals import Refusal


@dataclass(frozen=True)
class Stored(Entry):
    """One tensor of a weights file: its header entry, its offsets counted from the file's
    start, the file, and the file's size and modification time when its header was read."""

    file: Path
    stamp: Stamp


def read_header(path: Path) -> dict[str, Stored]:
    """The tensors of the weights file ``path`` by name, every entry checked against the file
    (:func:`engine.format.safetensors_file.read_header`).

    Raises
    ------
    ScenarioError
        At the file: not regular, unreadable, not a safetensors header, or a tensor whose
        dtype, shape or offsets do not fit (naming the tensor), or two tensors sharing bytes.
    """
    header, stamp = stamped_header(path)
    return {name: Stored(entry.dtype, entry.shape, header.data + entry.start,
                         header.data + entry.end, path, stamp)
            for name, entry in header.entries.items()}


def read_tensor(name: str, stored: Stored, *, transposed: bool = False) -> FloatArray:
    """The tensor's numbers widened to float64 exactly, read-only, through a memory map of its
    file (``transposed``: a 2-D tensor as its transpose, :func:`map_widened`).

    Raises
    ------
    ScenarioError
        At the file, naming the tensor: a dtype the importer does not widen (whole numbers,
        booleans, ``F8_E8M0``), a file that changed or ended since its header was read, or a
        stored number that is NaN or ∞ (:func:`refuse_not_finite`).
    """
    place = str(stored.file)
    if stored.dtype not in READ:
        raise ScenarioError(place, Refusal("tensor_dtype", name=name, dtype=stored.dtype,
                                           read=", ".join(READ)))
    try:
        with open_regular(stored.file, place, "weights") as stream:
            numbers = map_widened(stream, stored.start, stored, transposed=transposed)
    except (OSError, ValueError) as error:
        reason = str(error.strerror or error) if isinstance(error, OSError) else str(error)
        raise ScenarioError(place, Refusal("tensor_unreadable", name=name,
                                           reason=reason)) from None
    if not is_known_finite(numbers):  # the first in the document's row order, as mapped
        found = tuple(int(k) for k in np.argwhere(~np.isfinite(numbers))[0])
        refuse_not_finite(stored.file, name, found[::-1] if transposed else found,
                          float(numbers[found]))
    return numbers


def refuse_not_finite(file: Path, name: str, cell: tuple[int, ...], number: float) -> None:
    """Refuse the tensor ``name`` of ``file`` for its stored number at ``cell`` (the stored
    tensor's own indices), NaN or ∞: the weights file is the place, not the document key it
    would have filled."""
    raise ScenarioError(str(file), Refusal("tensor_not_finite", name=name,
                                           cell=", ".join(map(str, cell)), got=number))


__all__ = ["Stored", "read_header", "read_tensor", "refuse_not_finite"]
