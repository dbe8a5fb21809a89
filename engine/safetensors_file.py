"""The one reader of a ``.safetensors`` header, for a checkpoint's weights files and a document's
sidecar alike: the header parsed once and checked with exact integer arithmetic before any
tensor is read.

The file is an 8-byte little-endian header length, a JSON header (each tensor's dtype, shape and
``data_offsets`` into the data after the header; an optional ``__metadata__``), then the data.
Every entry is checked: a dtype of known size, a shape of at most :data:`MAX_DIMENSIONS` whole
numbers under 2⁶⁴, the tensor's bytes (numbers × size) exactly its offsets' span, inside the
file, no two tensors sharing a byte. What is wrong is a :class:`HeaderError` naming the tensor;
each reader says it at its own place (the weights file; the document's reference).

A tensor's bytes are read through a read-only memory map of the file, in their stored dtype,
and widened to float64 exactly a block of rows at a time straight into the array that keeps them
(:func:`widen_into`, for a sidecar's map too; :func:`map_widened` maps a weights file): no
copy of the stored bytes nor a second float64 copy is made, and the pages read are the system's
file cache, given back when the map closes. Float16, float32 and float64 are widened by numpy,
bfloat16 as the upper half of a float32, and the two FP8 formats (``F8_E4M3``: torch's
``float8_e4m3fn``, ``F8_E5M2``) through a 256-entry table of their values
built from the formats' definitions.
"""

from __future__ import annotations

import itertools
import json
import math
import mmap
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from engine.reader import FloatArray, known_finite
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


def fp8_values(exponent_bits: int, finite_top: bool) -> FloatArray:
    """The value of each of the 256 bit patterns of an 8-bit float with ``exponent_bits`` and
    1 sign bit (the rest mantissa), bias 2^(e−1) − 1, subnormals at exponent 0. ``finite_top``:
    the top exponent holds numbers and only its all-ones mantissa is NaN (E4M3 "fn", no
    infinities); otherwise the top exponent is ∞ (mantissa 0) or NaN, as in IEEE 754 (E5M2)."""
    mantissa_bits = 7 - exponent_bits
    bias = (1 << (exponent_bits - 1)) - 1
    top = (1 << exponent_bits) - 1
    values = []
    for pattern in range(256):
        sign = -1.0 if pattern & 0x80 else 1.0
        exponent = (pattern >> mantissa_bits) & top
        mantissa = pattern & ((1 << mantissa_bits) - 1)
        if exponent == top and (not finite_top or mantissa == (1 << mantissa_bits) - 1):
            values.append(math.nan if mantissa or finite_top else sign * math.inf)
        elif exponent == 0:
            values.append(sign * math.ldexp(mantissa, 1 - bias - mantissa_bits))
        else:
            values.append(sign * math.ldexp((1 << mantissa_bits) + mantissa,
                                            exponent - bias - mantissa_bits))
    return np.array(values, dtype=np.float64)


FP8 = {"F8_E4M3": fp8_values(4, finite_top=True), "F8_E5M2": fp8_values(5, finite_top=False)}
"""Each FP8 format's 256 values, indexed by bit pattern."""
BLOCK = 1 << 18
"""Numbers widened at a time: a block's temporaries (2 MiB of float64) stay small."""


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


def map_widened(stream: BinaryIO, start: int, entry: Entry, *,
                transposed: bool = False) -> FloatArray:
    """The tensor ``entry`` whose bytes start at byte ``start`` of the open file ``stream``,
    widened to a new read-only float64 array (``transposed``: a 2-D tensor as its transpose,
    laid out in rows), read through a memory map a block of rows at a time. Each block is
    checked finite as it is written: a tensor of finite numbers is noted so
    (:func:`engine.reader.known_finite`) and not read again when the document is checked; one
    holding a NaN or ∞ is refused there, naming the document's cell.

    Raises
    ------
    OSError, ValueError
        The file cannot be mapped, or ends before the tensor does (it changed since its header
        was read).
    """
    kind = DTYPES.get(entry.dtype, np.dtype(np.uint8))
    if os.fstat(stream.fileno()).st_size < start + entry.count * kind.itemsize:
        raise ValueError("the file ends inside the tensor")
    result, bad = np.empty(entry.shape[::-1] if transposed else entry.shape), None
    if entry.count:
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            page = start - start % mmap.PAGESIZE
            if hasattr(mapped, "madvise"):  # read ahead: the rows are read once, in order
                mapped.madvise(mmap.MADV_WILLNEED, page, start + entry.count * kind.itemsize
                               - page)
            stored = np.frombuffer(mapped, dtype=kind, count=entry.count, offset=start)
            bad = widen_into(result.T if transposed else result, stored, entry)
            del stored  # before the map closes: no view may outlive it
    result.flags.writeable = False
    if bad is None:  # checked while each block was in cache: not read again
        known_finite(result)
    return result


def widen_into(target: FloatArray, stored: npt.NDArray[Any],
               entry: Entry) -> tuple[int, ...] | None:
    """Write the flat ``stored`` numbers of ``entry`` into ``target`` (``entry``'s shape, any
    layout) widened to float64 exactly, a block of rows at a time, each block checked finite
    while it is in cache; the first cell (in ``entry``'s shape) that is not, where the
    widening stops (None: every one is)."""
    rows = stored.reshape(entry.shape[0] if entry.shape else 1, -1)
    flat = target.reshape(rows.shape)
    step = max(1, BLOCK // max(1, rows.shape[-1]))
    halves = np.empty((step, rows.shape[-1]), np.uint32) if entry.dtype == "BF16" else None
    for row in range(0, rows.shape[0], step):
        part, into = rows[row:row + step], flat[row:row + step]
        if halves is not None:  # bfloat16: the upper half of a float32, cast as copied
            upper = halves[:len(part)]
            np.left_shift(part, 16, out=upper, dtype=np.uint32)
            np.copyto(into, upper.view(np.float32))
        elif entry.dtype in FP8:
            into[...] = FP8[entry.dtype][part]
        else:  # float16, 32, 64: cast as copied
            np.copyto(into, part)
        finite = np.isfinite(into)
        if not bool(finite.all()):
            first = row * rows.shape[-1] + int(np.argmin(finite))
            return tuple(int(k) for k in np.unravel_index(first, entry.shape))
    return None


__all__ = ["DTYPES", "FP8", "MAX_HEADER_BYTES", "READ", "SIZES", "Entry", "Header",
           "HeaderError", "fp8_values", "map_widened", "read_header", "widen_into"]
