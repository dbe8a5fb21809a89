"""Reading and writing scenario documents on disk, safely."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.files.outputs import OutputRefusedError
from engine.files.regular_file import open_regular
from engine.files.safe_write import WriteError, replacing_together, write_all, write_bytes
from engine.format.checkpoint_reference import (
    AS_SAVED,
    OVERLAY_KEY,
    Relocation,
    checkpoint_file,
    mapped_files,
    read_as_stored,
    referenced,
)
from engine.format.document import parse_scenario
from engine.format.errors import ScenarioError
from engine.format.json_keys import DuplicateKeyError, unique_keys
from engine.format.mapped_weight import NO_OVERLAY, MappedWeight, Weight
from engine.format.migrate import migrate
from engine.format.reader import MAX_POSITIONS, MAX_VOCAB
from engine.format.sidecar import Resolver, is_reference, owner_of, placed, sidecar_name
from engine.format.sidecar_write import JSON_NUMBERS, sealed, split_arrays, write_safetensors
from engine.format.writer import as_held, by_reference, plain, to_document
from engine.scenario.edit import held_tied
from engine.scenario.scenario import Scenario, number_count
from engine.words.refusals import Refusal

MAX_NUMBER_BYTES = 38
"""The most a saved number takes: 24 characters (``-2.2250738585072014e-308``), ``, `` after it,
and at worst a row of its own (8 spaces of indent, ``[``, ``]``, ``,`` and a line break)."""
MAX_TEXT_BYTES = (MAX_POSITIONS + MAX_VOCAB) * 40 * 6 + 4 * 1024 * 1024
"""More than all of a document's text can take: (512 tokens + 262,144 vocabulary labels) × 40
characters × 6 bytes (a control character is saved as ``\u001b``), the title, the note, the keys
and the sidecar's references (64 MiB)."""
MAX_FILE_BYTES = JSON_NUMBERS * MAX_NUMBER_BYTES + MAX_TEXT_BYTES
"""Documents up to this size are read (368 MiB): every document saves within it, its numbers in
the JSON up to :data:`~engine.format.sidecar_write.JSON_NUMBERS`, past that in its sidecar."""


def read_document(path: str | os.PathLike[str]) -> object:
    """Read a file as a JSON value, refusing what cannot be a scenario before reading it whole.

    Raises
    ------
    ScenarioError
        For a missing file, a folder, an oversized or binary file, or invalid JSON (with line and
        column).
    """
    file = Path(path)
    name = file.name or str(file)
    with open_regular(file, name) as stream:  # a folder, a device or a pipe: refused unread
        try:
            size = os.fstat(stream.fileno()).st_size
            if size <= MAX_FILE_BYTES:
                raw = stream.read(MAX_FILE_BYTES + 1)  # the file may have grown since
                size = max(size, len(raw))
        except OSError as error:
            raise ScenarioError(name, Refusal("unreadable",
                                              reason=str(error.strerror or error))) from None
    if size > MAX_FILE_BYTES:
        shown, limit = _size_text(size), _size_text(MAX_FILE_BYTES)
        if shown == limit:
            shown, limit = f"{size} bytes", f"{MAX_FILE_BYTES} bytes"
        raise ScenarioError(name, Refusal("file_too_large", size=shown, limit=limit))
    encoding = wide_encoding(raw)
    if encoding is not None:
        raise ScenarioError(name, Refusal("wide_encoding", encoding=encoding))
    if b"\x00" in raw[:8192]:
        raise ScenarioError(name, Refusal("binary_file"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ScenarioError(name, Refusal("not_utf8", byte=error.start)) from None
    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKeyError as error:
        raise ScenarioError(name, Refusal("duplicate_key", key=error.key)) from None
    except json.JSONDecodeError as error:
        raise ScenarioError(name, Refusal("invalid_json", line=error.lineno, column=error.colno,
                                          reason=error.msg)) from None
    except RecursionError:
        raise ScenarioError(name, Refusal("nested_too_deeply")) from None
    except ValueError:
        # Python refuses integer literals of more than 4300 digits with a plain ValueError.
        raise ScenarioError(name, Refusal("too_many_digits")) from None


_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
              (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def wide_encoding(raw: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` for text in those encodings (by its byte-order mark, or by
    the zero bytes between ASCII letters), else ``None``: such files are text, not binary."""
    for mark, name in _WIDE_BOMS:
        if raw.startswith(mark):
            return name
    head = raw[:64]
    if len(head) >= 8 and head[1::2].count(0) == len(head[1::2]) and 0 not in head[::2]:
        return "UTF-16"
    if len(head) >= 8 and head[::2].count(0) == len(head[::2]) and 0 not in head[1::2]:
        return "UTF-16"
    return None


def _size_text(size: int) -> str:
    """A byte count for a message, precise enough that a file just over the limit reads so."""
    if size < 1024:
        return f"{size} bytes"
    for unit, factor in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= factor:
            text = f"{size / factor:.1f}".removesuffix(".0")
            return f"{text} {unit}"
    return f"{size} bytes"


def load_scenario(path: str | os.PathLike[str], relocation: Relocation = AS_SAVED) -> Scenario:
    """Read and validate a scenario document, its ``"$file"`` references read from the sidecar
    beside it (:mod:`engine.format.sidecar`), its checkpoint's where ``relocation`` says.

    Raises
    ------
    ScenarioError
        The first problem, naming the file or the place in the document (and, for an array of
        the sidecar, that file and key).
    """
    file = Path(path)
    read = read_document(file)
    resolver = Resolver(file.parent, read_as_stored(read), relocation)
    try:
        document = resolver.resolve(read, "")
    finally:
        resolver.close()
    try:
        return parse_scenario(migrate(document))
    except ScenarioError as error:
        raise placed(error, resolver.references) from None


@dataclass(frozen=True, eq=False)
class Dumped:
    """A document ready to write: its JSON text and the arrays its sidecar holds (none for a
    document JSON holds whole)."""

    text: str
    sidecar: Mapping[str, Weight]
    checkpoint: tuple[Path, ...] = ()
    """The checkpoint files the document's weights are read from: never written over."""


def needs_sidecar(scenario: Scenario, *, self_contained: bool = False) -> bool:
    """Whether the document holds more numbers than its JSON may
    (:data:`~engine.format.sidecar_write.JSON_NUMBERS`): by reference, its mapped weights
    count only their edited cells (two numbers each)."""
    count = number_count(scenario)
    if not self_contained:
        for weight in scenario.parameters.values():
            if isinstance(weight, MappedWeight):
                count += 2 * len((weight.overlay or NO_OVERLAY).cells) - weight.size
    return count > JSON_NUMBERS


def dump_scenario(scenario: Scenario, path: str | os.PathLike[str], *,
                  self_contained: bool = False) -> Dumped:
    """The document to be written at ``path``: its text, and its sidecar's arrays when it holds
    more numbers than JSON may (the references name the sidecar beside ``path``). A weight left
    in its checkpoint is saved by reference (format 2.2) or, ``self_contained``, with its
    numbers, widened one matrix at a time as it is written."""
    read_from = mapped_files(scenario.parameters)
    if self_contained:
        scenario = held_tied(scenario)
    if not needs_sidecar(scenario, self_contained=self_contained):
        return Dumped(dumps_scenario(scenario, self_contained=self_contained), {}, read_from)
    document, arrays = split_arrays(
        to_document(scenario, as_held if self_contained else by_reference), sidecar_name(path))
    return Dumped(_format(document, 0) + "\n", arrays, read_from)


def dumps_scenario(scenario: Scenario, *, self_contained: bool = False) -> str:
    """The document as UTF-8-ready JSON text, every array in it: readable, rows on one line
    each (a weight left in its checkpoint by reference unless ``self_contained``)."""
    return _format(to_document(scenario, plain if self_contained else plain_reference),
                   0) + "\n"


def plain_reference(weight: Weight) -> object:
    """A weight's JSON value in a document saved by reference: a mapped weight's reference with
    its edited cells as lists, an array's numbers."""
    if not isinstance(weight, MappedWeight):
        return plain(weight)
    reference = referenced(weight)
    if OVERLAY_KEY in reference:
        reference[OVERLAY_KEY] = plain(reference[OVERLAY_KEY])
    return reference


def _format(value: object, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if is_reference(value):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_format(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value and isinstance(value[0], list):
        rows = [f"{inner}{json.dumps(row, ensure_ascii=False)}" for row in value]
        return "[\n" + ",\n".join(rows) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def save_scenario(scenario: Scenario, path: str | os.PathLike[str], *,
                  self_contained: bool = False) -> None:
    """Write the document with the one safe writer (:mod:`engine.files.safe_write`), and its sidecar
    beside it when it has one (both replaced together); its weights left in their checkpoint
    by reference unless ``self_contained`` (:func:`dump_scenario`).

    If anything fails, the files that were at ``path`` and beside it are left as they were. A
    symbolic link is followed (the file it points to is replaced, the link stays), a replaced
    file keeps its permission bits and, where allowed, its owner; a new file gets 0666 less the
    umask.

    Raises
    ------
    WriteError
        One line naming ``path`` and the reason: the target is not a regular file, the disk is
        full, the document is larger than :data:`MAX_FILE_BYTES` (it could not be opened again)…
    """
    write_dumped(dump_scenario(scenario, path, self_contained=self_contained), path)


def write_dumped(dumped: Dumped, path: str | os.PathLike[str], *, mode: int | None = None
                 ) -> None:
    """Write a document from :func:`dump_scenario` as :func:`save_scenario` does (a worker
    makes it first and may stop before the file is touched); ``mode``: the files' permission
    bits (default: as :func:`~engine.files.safe_write.replacing` chooses).

    Raises
    ------
    WriteError
        As :func:`save_scenario`.
    OutputRefusedError
        When ``path`` or its sidecar is a file of the checkpoint the document's weights are
        read from (its config, tokenizer, weights or their index): nothing is written.
    """
    for target in (Path(path), Path(path).with_name(sidecar_name(path))):
        folder = checkpoint_file(target, dumped.checkpoint)
        if folder is not None:
            raise OutputRefusedError(target, Refusal("output_is_checkpoint", folder=str(folder)))
    try:
        data = dumped.text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise WriteError(path, f"the document holds text that is not valid Unicode (character "
                         f"{error.start}: a lone surrogate)") from None
    if len(data) > MAX_FILE_BYTES:
        raise WriteError(path, f"the document would be {_size_text(len(data))}; documents are "
                         f"limited to {_size_text(MAX_FILE_BYTES)} and could not be opened again")
    if not dumped.sidecar:
        write_bytes(path, data, mode=mode)
        return
    beside = Path(path).with_name(sidecar_name(path))
    _refuse_foreign(beside, Path(path).name)
    with replacing_together([beside, path], mode=mode) as (sidecar, document):
        digest = write_safetensors(sidecar, dumped.sidecar, Path(path).name)
        write_all(document, sealed(dumped.text, digest).encode("utf-8"))


def _refuse_foreign(sidecar: Path, document: str) -> None:
    """Raise :class:`~engine.files.outputs.OutputRefusedError` unless the file at the sidecar's name
    is missing or is this document's own sidecar (its header names ``document``): a save never
    replaces another document's weights, nor a file that is no sidecar of this format."""
    if not os.path.lexists(sidecar):
        return
    owner = owner_of(sidecar)
    if owner != document:
        raise OutputRefusedError(sidecar, Refusal("sidecar_owned", file=sidecar.name,
                                             owner=owner or Refusal("owner_unknown")))
