"""One ``.safetensors`` weights file of a checkpoint: its header parsed once and checked with
exact integer arithmetic before any tensor is read, then a tensor's bytes read by its offsets.

The file is an 8-byte little-endian header length, a JSON header (each tensor's dtype, shape and
``data_offsets`` into the data after the header; an optional ``__metadata__``), then the data.
Every entry is checked: a dtype of known size, every dimension a whole number from 0, the
tensor's bytes (numbers × size) exactly its offsets' span, inside the file, no two tensors
sharing a byte. A bad header is refused naming the file and the tensor.

Tensors are widened to float64 exactly: float16, float32 and float64 by numpy, bfloat16 as the
upper half of a float32, and the two FP8 formats (``F8_E4M3``: torch's ``float8_e4m3fn``,
``F8_E5M2``) through a 256-entry table of their values built from the formats' definitions.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import ScenarioError
from engine.reader import FloatArray
from engine.refusals import Refusal
from engine.regular_file import open_regular
from engine.sidecar import DTYPES, MAX_HEADER_BYTES, widen

SIZES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I16": 2,
         "U16": 2, "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8,
         "F64": 8}
"""The bytes of one number of each safetensors dtype whose numbers are whole bytes."""
READ = ("F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2")
"""The dtypes the importer widens to float64."""
METADATA = "__metadata__"


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


@dataclass(frozen=True)
class Stored:
    """One tensor of a weights file: its dtype, shape, and its bytes' place in the file."""

    file: Path
    dtype: str
    shape: tuple[int, ...]
    start: int
    end: int

    @property
    def count(self) -> int:
        """The numbers it holds."""
        return math.prod(self.shape)


def read_header(path: Path) -> dict[str, Stored]:
    """The tensors of the weights file ``path`` by name, every entry checked against the file.

    Raises
    ------
    ScenarioError
        At the file: not regular, unreadable, not a safetensors header, or a tensor whose
        dtype, shape or offsets do not fit (naming the tensor), or two tensors sharing bytes.
    """
    place = str(path)
    with open_regular(path, place) as stream:
        size = os.fstat(stream.fileno()).st_size
        try:
            head = stream.read(8)
            if len(head) < 8:
                raise ScenarioError(place, Refusal("weights_too_short", size=size))
            (length,) = struct.unpack("<Q", head)
            if length > min(MAX_HEADER_BYTES, size - 8):
                raise ScenarioError(place, Refusal("weights_header_length", length=length,
                                                   size=size))
            text = stream.read(length)
        except OSError as error:
            raise ScenarioError(place, Refusal("unreadable",
                                               reason=str(error.strerror or error))) from None
    try:
        header = json.loads(text, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict):
        raise ScenarioError(place, Refusal("weights_header_not_json"))
    data = 8 + length
    tensors = {name: _entry(path, name, value, size - data)
               for name, value in header.items() if name != METADATA}
    _check_apart(place, tensors)
    return {name: Stored(path, entry.dtype, entry.shape, data + entry.start, data + entry.end)
            for name, entry in tensors.items()}


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (else not a header)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found


def _entry(path: Path, name: str, value: object, room: int) -> Stored:
    """One header entry, its offsets within the data (``room`` bytes)."""
    place = str(path)
    given = value if isinstance(value, dict) else {}
    dtype, shape, offsets = given.get("dtype"), given.get("shape"), given.get("data_offsets")
    if not (isinstance(dtype, str) and isinstance(shape, list) and isinstance(offsets, list)
            and len(offsets) == 2):
        raise ScenarioError(place, Refusal("tensor_entry", name=name))
    if dtype not in SIZES:
        raise ScenarioError(place, Refusal("tensor_dtype", name=name, dtype=dtype,
                                           read=", ".join(READ)))
    if not all(type(size) is int and size >= 0 for size in shape):
        raise ScenarioError(place, Refusal("tensor_dimensions", name=name,
                                           shape=json.dumps(shape)[:80]))
    start, end = offsets
    count = math.prod(shape)
    if not (type(start) is int and type(end) is int and 0 <= start <= end <= room
            and end - start == count * SIZES[dtype]):
        raise ScenarioError(place, Refusal("tensor_offsets", name=name,
                                           offsets=json.dumps(offsets)[:80], count=count,
                                           width=SIZES[dtype], room=room))
    return Stored(path, dtype, tuple(shape), start, end)


def _check_apart(place: str, tensors: dict[str, Stored]) -> None:
    """Refuse two tensors whose bytes overlap."""
    ordered = sorted((stored.start, stored.end, name) for name, stored in tensors.items()
                     if stored.end > stored.start)
    for (_, end, name), (start, _, other) in itertools.pairwise(ordered):
        if start < end:
            raise ScenarioError(place, Refusal("tensor_overlap", name=name, other=other))


def read_tensor(name: str, stored: Stored) -> FloatArray:
    """The tensor's numbers widened to float64 exactly, read-only.

    Raises
    ------
    ScenarioError
        At the file, naming the tensor: a dtype the importer does not widen (whole numbers,
        booleans, ``F8_E8M0``), or a file that changed or ended since its header was read.
    """
    place = str(stored.file)
    if stored.dtype not in READ:
        raise ScenarioError(place, Refusal("tensor_dtype", name=name, dtype=stored.dtype,
                                           read=", ".join(READ)))
    kind = DTYPES.get(stored.dtype, np.dtype(np.uint8))
    try:
        with open_regular(stored.file, place) as stream:
            stream.seek(stored.start)
            numbers = np.fromfile(stream, dtype=kind, count=stored.count)
    except OSError as error:
        numbers, reason = None, str(error.strerror or error)
    else:
        reason = "the file ends inside the tensor"
    if numbers is None or numbers.size != stored.count:
        raise ScenarioError(place, Refusal("tensor_unreadable", name=name, reason=reason))
    widened = _widened(numbers.reshape(stored.shape), stored.dtype)
    widened.flags.writeable = False
    return widened


def _widened(stored: npt.NDArray[Any], dtype: str) -> FloatArray:
    if dtype in FP8:
        widened: FloatArray = FP8[dtype][stored]
        return widened
    return widen(stored, dtype)


__all__ = ["FP8", "READ", "SIZES", "Stored", "fp8_values", "read_header", "read_tensor"]
