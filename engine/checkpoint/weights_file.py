"""One ``.safetensors`` weights file of a checkpoint: its header parsed once and checked
(:mod:`engine.safetensors_file`, the reader sidecars share) before any tensor is read, then a
tensor's bytes read by its offsets. A bad header is refused naming the file and the tensor.

Tensors are widened to float64 exactly: float16, float32 and float64 by numpy, bfloat16 as the
upper half of a float32, and the two FP8 formats (``F8_E4M3``: torch's ``float8_e4m3fn``,
``F8_E5M2``) through a 256-entry table of their values built from the formats' definitions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine import safetensors_file
from engine.errors import ScenarioError
from engine.reader import FloatArray
from engine.refusals import Refusal
from engine.regular_file import open_regular
from engine.safetensors_file import DTYPES, READ, Entry, HeaderError, widen


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
class Stored(Entry):
    """One tensor of a weights file: its header entry, its offsets counted from the file's
    start, and the file."""

    file: Path


def read_header(path: Path) -> dict[str, Stored]:
    """The tensors of the weights file ``path`` by name, every entry checked against the file
    (:func:`engine.safetensors_file.read_header`).

    Raises
    ------
    ScenarioError
        At the file: not regular, unreadable, not a safetensors header, or a tensor whose
        dtype, shape or offsets do not fit (naming the tensor), or two tensors sharing bytes.
    """
    place = str(path)
    with open_regular(path, place) as stream:
        try:
            header = safetensors_file.read_header(stream)
        except HeaderError as error:
            raise ScenarioError(place, Refusal("weights_header", problem=error.refusal)) from None
        except OSError as error:
            raise ScenarioError(place, Refusal("unreadable",
                                               reason=str(error.strerror or error))) from None
    return {name: Stored(entry.dtype, entry.shape, header.data + entry.start,
                         header.data + entry.end, path) for name, entry in header.entries.items()}


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


__all__ = ["FP8", "Stored", "fp8_values", "read_header", "read_tensor"]
