"""Writing the arrays of a document too large for JSON into its sidecar ``.safetensors``.

A document of more than :data:`JSON_NUMBERS` numbers keeps each array of at least
:data:`SIDECAR_MIN` numbers in the sidecar under its document path (``layers.0.attention.Wq``);
the JSON holds a ``"$file"`` reference in its place. A tied head's ``unembed`` is written
``"embedding.T"`` (:data:`~engine.format.layers.TIED_UNEMBED`) before it gets here: the
embedding's numbers are stored once.

Each array is stored in the narrowest of F64, F32, BF16 and F16 that holds every one of its
numbers exactly: an imported float32 or bfloat16 weight keeps its checkpoint's dtype, an edited
one goes back in float64 unless its numbers still fit. The file is written in chunks straight
to the safe writer's temporary file, never whole in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.format.mapped_weight import MappedWeight, Weight, widened
from engine.format.reader import FloatArray
from engine.format.safetensors_file import DTYPES
from engine.format.sidecar import DIGEST_KEY, FILE_KEY, OWNER_KEY
from engine.format.writer import plain

JSON_NUMBERS = 1 << 23
"""The most numbers a document keeps in its JSON (what the file limit of
:data:`engine.format.io.MAX_FILE_BYTES` allows): past it, large arrays go to the sidecar."""
SIDECAR_MIN = 1024
"""Arrays of a sidecar document with fewer numbers stay in the JSON (norms' rows, biases)."""
CHUNK = 1 << 20
"""Numbers converted and written at a time."""
PENDING = "0" * 64
"""The digest each reference holds until the sidecar is written (:func:`sealed`)."""


def split_arrays(document: Mapping[str, Any], file: str
                 ) -> tuple[dict[str, Any], dict[str, Weight]]:
    """The document (its arrays as numpy or mapped weights) as JSON values with references to
    ``file``, and the arrays those references name, by key. Each reference's digest is
    :data:`PENDING` until the file is written."""
    stored: dict[str, Weight] = {}

    def value(item: object, place: str) -> object:
        if isinstance(item, np.ndarray | MappedWeight):
            return array(item, place)
        if isinstance(item, Mapping):
            return {key: value(inner, f"{place}.{key}" if place else str(key))
                    for key, inner in item.items()}
        if isinstance(item, list):
            return [value(inner, f"{place}.{k}") for k, inner in enumerate(item)]
        return item

    def array(item: Weight, place: str) -> object:
        if item.size < SIDECAR_MIN:
            return plain(item)
        stored[place] = item
        return {FILE_KEY: file, "key": place, DIGEST_KEY: PENDING}

    result = value(document, "")
    assert isinstance(result, dict)
    return result, stored


def stored_dtype(array: FloatArray) -> str:
    """The narrowest safetensors dtype that holds every number of ``array`` exactly."""
    bfloat16 = half = True
    with np.errstate(over="ignore"):
        for chunk in _chunks(array):
            single = chunk.astype(np.float32)
            if not np.array_equal(single, chunk):
                return "F64"
            bfloat16 = bfloat16 and not bool((single.view(np.uint32) & 0xFFFF).any())
            half = half and bool(np.array_equal(single.astype(np.float16), single))
    return "BF16" if bfloat16 else "F16" if half else "F32"


def _chunks(array: FloatArray) -> Iterator[FloatArray]:
    """``array``'s numbers in C order, a block of rows at a time (each a contiguous copy at most
    :data:`CHUNK` numbers)."""
    if array.ndim < 2:
        flat = np.ascontiguousarray(array).reshape(-1)
        for start in range(0, flat.size, CHUNK):
            yield flat[start:start + CHUNK]
        return
    rows = max(1, CHUNK // max(1, int(array.shape[1])))
    for start in range(0, int(array.shape[0]), rows):
        yield np.ascontiguousarray(array[start:start + rows]).reshape(-1)


def _encoded(chunk: FloatArray, dtype: str) -> npt.NDArray[Any]:
    if dtype == "BF16":
        return (chunk.astype("<f4").view("<u4") >> 16).astype("<u2")
    return chunk.astype(DTYPES[dtype])


def write_safetensors(path: Path, arrays: Mapping[str, Weight], owner: str) -> str:
    """Write ``arrays`` as a safetensors file at ``path`` (flushed to the disk), its header
    naming the document ``owner`` it belongs to; the file's sha256, worked out as it is written.

    The widest dtypes come first, so every tensor starts aligned to its own width. A mapped
    weight is widened when its dtype is decided and again when it is written, one at a time.
    """
    dtypes = {key: stored_dtype(widened(array)) for key, array in arrays.items()}
    order = sorted(arrays, key=lambda key: -DTYPES[dtypes[key]].itemsize)
    header: dict[str, Any] = {"__metadata__": {"format": "qkv-studio", OWNER_KEY: owner}}
    offset = 0
    for key in order:
        size = arrays[key].size * DTYPES[dtypes[key]].itemsize
        header[key] = {"dtype": dtypes[key], "shape": list(arrays[key].shape),
                       "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    digest = hashlib.sha256()
    with path.open("wb") as stream:
        for part in _parts(struct.pack("<Q", len(text)) + text, arrays, order, dtypes):
            digest.update(part)
            stream.write(part)
        stream.flush()
        os.fsync(stream.fileno())
    return digest.hexdigest()


def _parts(head: bytes, arrays: Mapping[str, Weight], order: list[str],
           dtypes: Mapping[str, str]) -> Iterator[bytes | memoryview]:
    yield head
    for key in order:  # a mapped weight widened here, let go before the next one is
        yield from _encoded_chunks(widened(arrays[key]), dtypes[key])


def _encoded_chunks(array: FloatArray, dtype: str) -> Iterator[memoryview]:
    for chunk in _chunks(array):
        yield _encoded(chunk, dtype).data


def sealed(text: str, digest: str) -> str:
    """The document's text with each reference's :data:`PENDING` digest replaced by the
    sidecar's (the same length: the text's size stays what was checked)."""
    return text.replace(f'"{DIGEST_KEY}": "{PENDING}"', f'"{DIGEST_KEY}": "{digest}"')


__all__ = ["JSON_NUMBERS", "SIDECAR_MIN", "sealed", "split_arrays", "stored_dtype",
           "write_safetensors"]
