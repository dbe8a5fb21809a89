"""The one reader of a ``.safetensors`` header, for a checkpoint's weights files and a document's
sidecar alike: the header parsed once and checked with exact integer arithmetic before any
tensor is read.

The file is an 8-byte little-endian header length, a JSON header (each tensor's dtype, shape and
``data_offsets`` into the data after the header; an optional ``__metadata__``), then the data.
Every entry is checked: a dtype of known size, a shape of at most :data:`MAX_DIMENSIONS` whole
numbers under 2⁶⁴, the tensor's bytes (numbers × size) exactly its offsets' span, inside the
file, no two tensors sharing a byte. What is wrong is a :class:`HeaderError` naming the tensor;
each reader says it at its own place (the weights file; the document's reference).

Stored numbers are widened to float64 exactly: float16, float32 and float64 by numpy, bfloat16
as the upper half of a float32.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from engine.reader import FloatArray
from engine.refusals import Refusal

SIZES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I16": 2,
         "U16": 2, "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8,
         "F64": 8}
"""The bytes of one number of each safetensors dtype whose numbers are whole bytes."""
DTYPES: dict[str, np.dtype[Any]] = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"),
                                    "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}
"""The floating dtypes numpy reads in place (bfloat16: its bit patterns)."""
READ = ("F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2")
"""The dtypes widened to float64 (a document's sidecar holds the first four only)."""
METADATA = "__metadata__"
MAX_DIMENSIONS = 8
"""Dimensions a tensor's shape may list (a weight has 1 or 2; an FP8 scale block a few)."""
MAX_HEADER_BYTES = 100 * 1024 * 1024
"""safetensors' own limit on the JSON header."""


class HeaderError(ValueError):
    """What is wrong with a file's header, as a phrase of :mod:`engine.refusals`; ``whole``:
    the file is not safetensors at all (else one tensor's entry is wrong)."""

    def __init__(self, refusal: Refusal, *, whole: bool = False) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal
        self.whole = whole


@dataclass(frozen=True)
class Entry:
    """One tensor of a header: its dtype, shape, and its bytes' place in the data."""

    dtype: str
    shape: tuple[int, ...]
    start: int
    end: int

    @property
    def count(self) -> int:
        """The numbers it holds."""
        return math.prod(self.shape)


@dataclass(frozen=True)
class Header:
    """A checked header: the tensors by name, where the data starts in the file and how many
    bytes it has, and the ``__metadata__`` (empty when absent or not an object)."""

    entries: dict[str, Entry]
    data: int
    room: int
    metadata: Mapping[str, Any]


def read_header(stream: BinaryIO, limit: int = MAX_HEADER_BYTES) -> Header:
    """The header at the start of ``stream`` (nothing past it is read), its JSON at most
    ``limit`` bytes.

    Raises
    ------
    HeaderError
        The file is too short, its header length is past the file or the limit, its header is
        not a JSON object with each name once, or an entry does not fit (naming the tensor),
        or two tensors share bytes.
    OSError
        The file cannot be read.
    """
    size = os.fstat(stream.fileno()).st_size
    head = stream.read(8)
    if len(head) < 8:
        raise HeaderError(Refusal("weights_too_short", size=size), whole=True)
    (length,) = struct.unpack("<Q", head)
    if length > size - 8:
        raise HeaderError(Refusal("weights_header_length", length=length, size=size),
                          whole=True)
    if length > limit:
        raise HeaderError(Refusal("header_long", size=length, limit=limit), whole=True)
    try:
        header = json.loads(stream.read(length), object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict):
        raise HeaderError(Refusal("weights_header_not_json"), whole=True)
    metadata = header.pop(METADATA, None)
    room = size - 8 - length
    entries = {str(name): _entry(str(name), value, room) for name, value in header.items()}
    _check_apart(entries)
    return Header(entries, 8 + length, room, metadata if isinstance(metadata, dict) else {})


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (else not a header)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found


def _entry(name: str, value: object, room: int) -> Entry:
    """One header entry, its offsets within the data (``room`` bytes); checked as data, not by
    ``assert``, which ``python -O`` removes. A shape of at most 8 numbers under 2⁶⁴ has a
    product of at most 155 digits: no count can be slow to work out."""
    given = value if isinstance(value, dict) else {}
    dtype, shape, offsets = given.get("dtype"), given.get("shape"), given.get("data_offsets")
    if not (isinstance(dtype, str) and isinstance(shape, list) and isinstance(offsets, list)
            and len(offsets) == 2):
        raise HeaderError(Refusal("tensor_entry", name=name))
    if dtype not in SIZES:
        raise HeaderError(Refusal("tensor_dtype", name=name, dtype=dtype, read=", ".join(READ)))
    if len(shape) > MAX_DIMENSIONS or not all(
            type(size) is int and 0 <= size < 1 << 64 for size in shape):
        raise HeaderError(Refusal("tensor_dimensions", name=name,
                                  shape=json.dumps(shape)[:80], most=MAX_DIMENSIONS))
    start, end = offsets
    count = math.prod(shape)
    if not (type(start) is int and type(end) is int and 0 <= start <= end <= room
            and end - start == count * SIZES[dtype]):
        raise HeaderError(Refusal("tensor_offsets", name=name,
                                  offsets=json.dumps(offsets)[:80], count=count,
                                  width=SIZES[dtype], room=room))
    return Entry(dtype, tuple(shape), start, end)


def _check_apart(entries: Mapping[str, Entry]) -> None:
    """Refuse two tensors whose bytes overlap."""
    ordered = sorted((entry.start, entry.end, name) for name, entry in entries.items()
                     if entry.end > entry.start)
    for (_, end, name), (start, _, other) in itertools.pairwise(ordered):
        if start < end:
            raise HeaderError(Refusal("tensor_overlap", name=name, other=other))


def widen(stored: npt.NDArray[Any], dtype: str) -> FloatArray:
    """Stored numbers as float64, exactly (bfloat16 is the upper half of a float32)."""
    if dtype == "BF16":
        return (stored.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return stored.astype(np.float64)


__all__ = ["DTYPES", "MAX_HEADER_BYTES", "READ", "SIZES", "Entry", "Header", "HeaderError",
           "read_header", "widen"]
