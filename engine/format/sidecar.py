"""Reading a document's sidecar: arrays too large for JSON, kept in a ``.safetensors`` file beside
it and referenced where a JSON array would stand (``{"$file": "doc.weights.safetensors", "key":
"layers.0.attention.Wq"}``; ``"transpose": true``: a tied head, the embedding's transpose, as
written before format 2.3).

The sidecar is read memory-mapped: each referenced array is widened from its stored dtype (F64,
F32, F16 or BF16) to a read-only float64 array, and the pages it was read from are given back at
once, so reading a model holds its float64 numbers, not its file too. A reference is refused,
naming its place, the file and the key, when the file name leaves the document's folder, the
file is missing or not safetensors, or it holds no such array or one of another kind.

Since format 2.1 a sidecar belongs to one document: its name is the document's whole file name
and ``.weights.safetensors``, its header's ``__metadata__`` names the document (``"document":
"doc.qkv.json"``), and each reference records the sidecar's sha256 (``"sha256"``): a sidecar
changed since the document was saved, even to the same size, is refused. An older document
without the digest still opens.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import re
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.files.memory import memory_short
from engine.files.outputs import Inputs, guarding
from engine.files.regular_file import open_regular
from engine.format.checkpoint_reference import (
    AS_SAVED,
    OVERLAY_KEY,
    Relocation,
    is_checkpoint_reference,
    mapped,
)
from engine.format.errors import ScenarioError
from engine.format.reader import (
    MAX_WEIGHT_CELLS,
    FloatArray,
    describe,
    expect_bool,
    expect_text,
    known_finite,
    refuse_unknown,
)
from engine.format.safetensors_file import DTYPES, Header, HeaderError, read_header, widen_into
from engine.words.refusals import Refusal

SUFFIX = ".weights.safetensors"
FILE_KEY = "$file"
DIGEST_KEY = "sha256"
REFERENCE_KEYS = (FILE_KEY, "key", "transpose", DIGEST_KEY)
OWNER_KEY = "document"
"""The key of the sidecar's ``__metadata__`` naming the document it belongs to."""
SIDECAR_HEADER_BYTES = 8 * 1024 * 1024
"""The most a document's sidecar's JSON header may take: a document's 48 layers of arrays name a
few hundred tensors (a GPT-2 small's header is about 20 KiB)."""
DIGEST = re.compile("[0-9a-f]{64}")
"""A sha256 as a reference records it: 64 lowercase hexadecimal digits."""
HASH_CHUNK = 1 << 22
"""Bytes read at a time while the sidecar's digest is checked."""


def sidecar_name(document: str | os.PathLike[str]) -> str:
    """The sidecar's file name for a document: its whole file name and ``.weights.safetensors``
    (``doc.qkv.json`` → ``doc.qkv.json.weights.safetensors``), so no two documents' names give
    the same sidecar (``x.json`` and ``x.qkv.json`` did before format 2.1)."""
    return Path(document).name + SUFFIX


def legacy_sidecar_name(document: str | os.PathLike[str]) -> str:
    """The name a sidecar had before format 2.1: ``doc.qkv.json`` and ``doc.json`` both gave
    ``doc.weights.safetensors``."""
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


class Sidecar:
    """One safetensors file, its header read and checked and its bytes mapped (not read) into
    memory.

    The header is checked before anything else is read, with exact integer arithmetic: every
    tensor's shape, dtype and data offsets agree, no tensor holds more than
    :data:`~engine.format.reader.MAX_WEIGHT_CELLS` numbers nor all of them more than this computer's
    memory holds as float64 (:mod:`engine.files.memory`), and the tensors fill the data end to end.
    A crafted header is one refusal naming the file and the tensor, whatever size it claims.
    """

    def __init__(self, path: Path, name: str, place: str) -> None:
        self.name = name
        self._digest: str | None = None
        self.owner: str | None = None
        if not os.path.lexists(path):
            raise ScenarioError(place, Refusal("sidecar_missing", file=name))
        try:
            with open_regular(path, name) as stream:
                header = read_header(stream, SIDECAR_HEADER_BYTES)
                _check_layout(header)
                self._map = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
            owner = header.metadata.get(OWNER_KEY)
            self.owner = owner if isinstance(owner, str) else None
            self.entries, self._data = header.entries, header.data
        except ScenarioError as error:
            raise ScenarioError(place, Refusal("sidecar_file", file=name,
                                               problem=error.refusal or error.problem)) from None
        except HeaderError as error:
            if error.whole:  # not safetensors at all: "doc….safetensors is 2 bytes, …"
                raise ScenarioError(place, Refusal("sidecar_file", file=name,
                                                   problem=error.refusal)) from None
            raise ScenarioError(place, Refusal("sidecar_unreadable", file=name,
                                               reason=error.refusal)) from None
        except (OSError, ValueError) as error:  # ValueError: an empty file cannot be mapped
            raise ScenarioError(place, Refusal("sidecar_unreadable", file=name,
                                               reason=_reason(error))) from None

    def check_digest(self, digest: str, place: str) -> None:
        """Refuse the file unless its sha256 is ``digest``, the one its document recorded when
        it was saved (the whole file is read once, a few megabytes at a time)."""
        if self._digest is None:
            hashed = hashlib.sha256()
            for start in range(0, len(self._map), HASH_CHUNK):
                end = min(len(self._map), start + HASH_CHUNK)
                hashed.update(self._map[start:end])
                _give_back(self._map, start, end)
            self._digest = hashed.hexdigest()
        if self._digest != digest:
            raise ScenarioError(place, Refusal("sidecar_changed", file=self.name))

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
        widened = np.empty(entry.shape)
        bad = widen_into(widened, stored, entry)
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


def owner_of(path: Path) -> str | None:
    """The document a sidecar at ``path`` belongs to, by its header (``None``: a file that is
    no sidecar of this format, an older sidecar that does not say, or one that cannot be
    read)."""
    try:
        with guarding(Inputs()):  # looked at by a writer, not read by its run
            sidecar = Sidecar(path, path.name, path.name)
    except ScenarioError:
        return None
    sidecar.close()
    return sidecar.owner


def _give_back(data: mmap.mmap, start: int, end: int) -> None:
    """Drop the mapped pages of bytes already widened from this process's memory (they stay in
    the system's file cache); where the system has no ``madvise``, they are dropped on close."""
    advice = getattr(mmap, "MADV_DONTNEED", None)
    if advice is not None and hasattr(data, "madvise"):
        page = start - start % mmap.PAGESIZE
        data.madvise(advice, page, end - page)


def _check_layout(header: Header) -> None:
    """A sidecar's own checks past the shared header's: no tensor is larger than one array may
    be nor are all together, and they follow each other from byte 0 to the end of the data."""
    total = 0
    for key, entry in header.entries.items():
        if entry.count > MAX_WEIGHT_CELLS:
            raise HeaderError(Refusal("sidecar_tensor_large", key=key, count=entry.count,
                                      limit=MAX_WEIGHT_CELLS))
        total += entry.count
    short = memory_short(total)
    if short is not None:
        raise HeaderError(Refusal("sidecar_total_large", count=total, need=short[0],
                                  have=short[1]))
    expected = 0
    for key, entry in sorted(header.entries.items(), key=lambda item: item[1].start):
        if entry.start != expected:
            raise HeaderError(Refusal("sidecar_layout", key=key, start=entry.start,
                                      expected=expected))
        expected = entry.end
    if expected != header.room:
        raise HeaderError(Refusal("sidecar_trailing", end=expected, size=header.room))


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

    def __init__(self, folder: Path, as_stored: set[tuple[str, str]] | None = None,
                 relocation: Relocation = AS_SAVED) -> None:
        self.folder = folder
        self.as_stored = as_stored or set()
        """The checkpoint tensors the document reads as stored
        (:func:`~engine.format.checkpoint_reference.read_as_stored`)."""
        self.relocation = relocation
        """Where the checkpoint's files are read from, as the user said."""
        self.references: dict[str, Reference] = {}
        self._open: dict[str, Sidecar] = {}
        self._read: dict[tuple[str, str], FloatArray] = {}
        """Arrays already widened: a tied head's transpose shares the embedding's numbers."""
        self._stack = ExitStack()

    def resolve(self, value: object, place: str) -> object:
        """``value`` with its references (at any depth) replaced by arrays, and a checkpoint's
        tensors by mapped weights."""
        if is_reference(value):
            assert isinstance(value, Mapping)
            return self._array(value, place)
        if is_checkpoint_reference(value):
            assert isinstance(value, Mapping)
            overlay = value.get(OVERLAY_KEY)
            if overlay is not None:
                overlay = self.resolve(overlay, f"{place}.{OVERLAY_KEY}")
            return mapped(value, overlay, place, self.as_stored, self.relocation)
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
        digest = reference.get(DIGEST_KEY)
        if digest is not None:
            digest = expect_text(digest, f"{place}.{DIGEST_KEY}", 64)
            if not DIGEST.fullmatch(digest):
                raise ScenarioError(f"{place}.{DIGEST_KEY}",
                                    Refusal("sidecar_digest", got=describe(digest)))
        sidecar = self._open.get(name)
        if sidecar is None:
            sidecar = Sidecar(self.folder / name, name, place)
            self._stack.callback(sidecar.close)
            self._open[name] = sidecar
        if digest is not None:  # a document saved before format 2.1 records none
            sidecar.check_digest(digest, place)
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


__all__ = ["DIGEST_KEY", "FILE_KEY", "OWNER_KEY", "SUFFIX", "Reference", "Resolver",
           "check_name", "is_reference", "legacy_sidecar_name", "owner_of", "placed",
           "sidecar_name"]
