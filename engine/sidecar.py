"""Reading a document's sidecar: arrays too large for JSON, kept in a ``.safetensors`` file beside
it and referenced where a JSON array would stand (``{"$file": "doc.weights.safetensors", "key":
"layers.0.attention.Wq"}``; ``"transpose": true`` for a tied head, the embedding's transpose).

The sidecar is read memory-mapped: each referenced array is widened from its stored dtype (F64,
F32, F16 or BF16) to a read-only float64 array, and the pages it was read from are given back at
once, so reading a model holds its float64 numbers, not its file too. A reference is refused,
naming its place, the file and the key, when the file name leaves the document's folder, the
file is missing or not safetensors, or it holds no such array or one of another kind.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import ScenarioError
from engine.reader import (
    FloatArray,
    describe,
    expect_bool,
    expect_text,
    known_finite,
    refuse_unknown,
)
from engine.refusals import Refusal

SUFFIX = ".weights.safetensors"
FILE_KEY = "$file"
REFERENCE_KEYS = (FILE_KEY, "key", "transpose")
DTYPES: dict[str, np.dtype[Any]] = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"),
                                    "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}
"""The stored dtypes a sidecar may hold, as numpy reads their bytes (bfloat16: its bit patterns)."""
MAX_HEADER_BYTES = 100 * 1024 * 1024
"""safetensors' own limit on the JSON header."""


def sidecar_name(document: str | os.PathLike[str]) -> str:
    """The sidecar's file name for a document: ``doc.qkv.json`` → ``doc.weights.safetensors``."""
    name = Path(document).name
    for suffix in (".qkv.json", ".json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)] + SUFFIX
    return name + SUFFIX


def is_reference(value: object) -> bool:
    """Whether a JSON value is a ``"$file"`` reference."""
    return isinstance(value, Mapping) and FILE_KEY in value


@dataclass(frozen=True)
class Reference:
    """Where one array of the document is stored."""

    file: str
    key: str


@dataclass(frozen=True)
class Entry:
    """One tensor of a sidecar's header."""

    dtype: str
    shape: tuple[int, ...]
    start: int
    end: int


class Sidecar:
    """One safetensors file, its header read and its bytes mapped (not read) into memory."""

    def __init__(self, path: Path, name: str, place: str) -> None:
        self.name = name
        try:
            with path.open("rb") as stream:
                self._map = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        except FileNotFoundError:
            raise ScenarioError(place, Refusal("sidecar_missing", file=name)) from None
        except (OSError, ValueError) as error:  # ValueError: an empty file cannot be mapped
            raise ScenarioError(place, Refusal("sidecar_unreadable", file=name,
                                               reason=_reason(error))) from None
        try:
            self.entries, self._data = _header(self._map)
        except ValueError as error:
            self.close()
            raise ScenarioError(place, Refusal("sidecar_unreadable", file=name,
                                               reason=str(error))) from None

    def array(self, key: str, place: str) -> FloatArray:
        """The tensor ``key`` widened to a read-only float64 array (2-D or 1-D)."""
        entry = self.entries.get(key)
        if entry is None:
            raise ScenarioError(place, Refusal("sidecar_key_missing", file=self.name, key=key))
        if entry.dtype not in DTYPES:
            raise ScenarioError(place, Refusal("sidecar_dtype", file=self.name, key=key,
                                               dtype=entry.dtype))
        if len(entry.shape) not in (1, 2):
            raise ScenarioError(place, Refusal("sidecar_dimensions", file=self.name, key=key,
                                               ndim=len(entry.shape)))
        start, end = self._data + entry.start, self._data + entry.end
        stored = np.frombuffer(self._map, dtype=DTYPES[entry.dtype],
                               count=(end - start) // DTYPES[entry.dtype].itemsize, offset=start)
        widened, bad = _widened_finite(stored, entry)
        del stored  # before any refusal: the map closes only once no array reads it
        if bad is not None:
            cell = "".join(f"[{int(k)}]" for k in bad)
            raise ScenarioError(f"{place}{cell}", Refusal("not_finite", got=widened[bad]))
        _give_back(self._map, start, end)
        widened.flags.writeable = False
        known_finite(widened)
        return widened

    def close(self) -> None:
        self._map.close()


def _give_back(data: mmap.mmap, start: int, end: int) -> None:
    """Drop the mapped pages of bytes already widened from this process's memory (they stay in
    the system's file cache); where the system has no ``madvise``, they are dropped on close."""
    advice = getattr(mmap, "MADV_DONTNEED", None)
    if advice is not None and hasattr(data, "madvise"):
        page = start - start % mmap.PAGESIZE
        data.madvise(advice, page, end - page)


CHUNK = 1 << 16
"""Numbers widened and checked at a time, while they are in the processor's cache."""


def _widened_finite(stored: npt.NDArray[Any],
                    entry: Entry) -> tuple[FloatArray, tuple[int, ...] | None]:
    """The flat ``stored`` numbers widened to float64 in ``entry``'s shape, each checked finite
    as it is written (one pass over the numbers, not a second over the widened array), and the
    first cell that is not finite (None: every one is)."""
    widened = np.empty(entry.shape, dtype=np.float64)
    flat = widened.reshape(-1)
    for begin in range(0, flat.size, CHUNK):
        part = flat[begin:begin + CHUNK]
        chunk = stored[begin:begin + CHUNK]  # widened in place: a float is exactly a double
        part[...] = widen(chunk, entry.dtype) if entry.dtype == "BF16" else chunk
        finite = np.isfinite(part)
        if not bool(finite.all()):
            index = np.unravel_index(begin + int(np.argmin(finite)), entry.shape)
            return widened, tuple(int(k) for k in index)
    return widened, None


def widen(stored: npt.NDArray[Any], dtype: str) -> FloatArray:
    """Stored numbers as float64, exactly (bfloat16 is the upper half of a float32)."""
    if dtype == "BF16":
        return (stored.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return stored.astype(np.float64)


def _header(data: mmap.mmap) -> tuple[dict[str, Entry], int]:
    """The tensors a safetensors file holds and where its data starts; ``ValueError`` naming
    what is wrong with a file that is not one."""
    if len(data) < 8:
        raise ValueError("shorter than a safetensors header")
    (length,) = struct.unpack("<Q", data[:8])
    if length > min(MAX_HEADER_BYTES, len(data) - 8):
        raise ValueError("its header length is past the end of the file")
    try:
        header = json.loads(data[8:8 + length])
    except (ValueError, RecursionError):
        raise ValueError("its header is not JSON") from None
    if not isinstance(header, dict):
        raise ValueError("its header is not a JSON object")
    start, size = 8 + length, len(data) - 8 - length
    entries = {}
    for key, value in header.items():
        if key == "__metadata__":
            continue
        entry = _entry(value)
        count = int(np.prod(entry.shape, dtype=np.int64))
        width = DTYPES[entry.dtype].itemsize if entry.dtype in DTYPES else None
        if not 0 <= entry.start <= entry.end <= size or (
                width is not None and entry.end - entry.start != count * width):
            raise ValueError(f"the offsets of {key} do not fit its shape or the file")
        entries[str(key)] = entry
    return entries, start


def _entry(value: object) -> Entry:
    try:
        assert isinstance(value, dict)
        dtype, shape, (start, end) = value["dtype"], value["shape"], value["data_offsets"]
        assert isinstance(dtype, str) and isinstance(shape, list)
        assert all(type(size) is int and size >= 0 for size in shape)
        assert type(start) is int and type(end) is int
    except (AssertionError, KeyError, TypeError, ValueError):
        raise ValueError("its header does not describe tensors") from None
    return Entry(dtype=dtype, shape=tuple(shape), start=start, end=end)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return str(error.strerror or error)
    return str(error)


def check_name(value: object, place: str) -> str:
    """A sidecar's name as a reference gives it: a file beside the document, never a path."""
    name = expect_text(value, f"{place}.{FILE_KEY}", 255)
    if (not name.endswith(".safetensors") or Path(name).name != name or "/" in name
            or "\\" in name or name.startswith(".") or os.path.isabs(name)):
        raise ScenarioError(f"{place}.{FILE_KEY}", Refusal("sidecar_name", got=describe(name)))
    return name


class Resolver:
    """Replaces every reference of a document by its array, opening each sidecar once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.references: dict[str, Reference] = {}
        self._open: dict[str, Sidecar] = {}
        self._read: dict[tuple[str, str], FloatArray] = {}
        """Arrays already widened: a tied head's transpose shares the embedding's numbers."""
        self._stack = ExitStack()

    def resolve(self, value: object, place: str) -> object:
        """``value`` with its references (at any depth) replaced by arrays."""
        if is_reference(value):
            assert isinstance(value, Mapping)
            return self._array(value, place)
        if isinstance(value, Mapping):
            return {key: self.resolve(item, f"{place}.{key}" if place else str(key))
                    for key, item in value.items()}
        if isinstance(value, list) and value and isinstance(value[0], dict | list):
            return [self.resolve(item, f"{place}.{k}") for k, item in enumerate(value)]
        return value

    def _array(self, reference: Mapping[str, Any], place: str) -> FloatArray:
        refuse_unknown(reference, REFERENCE_KEYS, place)
        name = check_name(reference[FILE_KEY], place)
        key = expect_text(reference.get("key"), f"{place}.key", 1000)
        transpose = expect_bool(reference.get("transpose", False), f"{place}.transpose")
        sidecar = self._open.get(name)
        if sidecar is None:
            sidecar = Sidecar(self.folder / name, name, place)
            self._stack.callback(sidecar.close)
            self._open[name] = sidecar
        self.references[place] = Reference(file=name, key=key)
        array = self._read.get((name, key))
        if array is None:
            array = self._read[name, key] = sidecar.array(key, place)
        return array.T if transpose else array

    def close(self) -> None:
        """Unmap every sidecar (the arrays read are copies: they stay)."""
        self._stack.close()


def placed(error: ScenarioError, references: Mapping[str, Reference]) -> ScenarioError:
    """A refusal of an array read from a sidecar, naming that file and key too."""
    for place, reference in references.items():
        if error.place == place or error.place.startswith((f"{place}[", f"{place}.")):
            return ScenarioError(error.place, Refusal("sidecar_mismatch",
                                                      problem=error.refusal or error.problem,
                                                      file=reference.file, key=reference.key))
    return error


__all__ = ["FILE_KEY", "SUFFIX", "Reference", "Resolver", "check_name", "is_reference",
           "placed", "sidecar_name", "widen"]
