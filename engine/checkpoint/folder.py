"""Reading a Hugging Face checkpoint folder: config.json, the weights in ``*.safetensors`` (each
file's header parsed once, each tensor read only when a layout asks for it) and tokenizer.json.

The weights files are the ones transformers loads: ``model.safetensors`` when the folder has it,
else the files ``model.safetensors.index.json``'s ``weight_map`` names (the index decides; other
``.safetensors`` beside them are not read), else every ``*.safetensors`` of the folder. A tensor
held by two of those files is refused naming both; an index naming a missing file, a file
outside the folder or a tensor its file does not hold is refused. Every file is opened as a
regular file only (a FIFO or a device is refused before it is read). The checkpoint remembers
which tensors were read, so that the importer can refuse the ones no layout used.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

from engine.checkpoint.weights_file import Stored, read_header, read_tensor
from engine.files.regular_file import open_regular
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import MappedWeight, Weight
from engine.format.reader import FloatArray
from engine.format.safetensors_file import READ, Entry
from engine.words.refusals import Refusal

CONFIG = "config.json"
TOKENIZER = "tokenizer.json"
WEIGHTS = "*.safetensors"
SINGLE = "model.safetensors"
INDEX = "model.safetensors.index.json"
MAX_CONFIG_BYTES = 1 << 20
"""A config.json is a few KB; anything this large is not one."""
MAX_INDEX_BYTES = 64 << 20
"""An index names each tensor once: a few MB for the largest models."""
MAX_TOKENIZER_BYTES = 256 << 20
"""A tokenizer.json is at most tens of MB (Gemma's 34)."""


class Checkpoint:
    """One checkpoint folder: its config, its tensors by name, its tokenizer; ``used`` holds
    the names of the tensors read so far; ``mapped``: its weight matrices stay in their files
    (:meth:`weight`)."""

    def __init__(self, folder: str | os.PathLike[str], *, mapped: bool = False) -> None:
        self.folder = Path(folder)
        self.mapped = mapped
        self.tokenizer_text: bytes | None = None
        """tokenizer.json's bytes, once :meth:`tokenizer` has read them."""
        if not self.folder.is_dir():
            raise ScenarioError(str(self.folder), Refusal("checkpoint_not_folder"))
        config = _read_json(self._file(CONFIG), MAX_CONFIG_BYTES)
        if config is None:
            raise ScenarioError(str(self.folder / CONFIG), Refusal("config_not_json"))
        self.config = config
        self.stored = self._weights()
        self._tokenizer_file = self._file(TOKENIZER)
        self.used: set[str] = set()

    def _file(self, name: str) -> Path:
        path = self.folder / name
        if not path.exists():
            raise ScenarioError(str(path), Refusal("checkpoint_file_missing"))
        return path

    def _weights(self) -> dict[str, Stored]:
        """Every tensor of the files transformers loads, by name, from each file's header."""
        if (self.folder / SINGLE).exists() or not (self.folder / INDEX).exists():
            files = [self.folder / SINGLE] if (self.folder / SINGLE).exists() else sorted(
                self.folder.glob(WEIGHTS))
            if not files:
                raise ScenarioError(str(self.folder / WEIGHTS),
                                    Refusal("checkpoint_file_missing"))
            return _gathered(files)
        index = self.folder / INDEX
        weight_map = _weight_map(_read_json(index, MAX_INDEX_BYTES))
        if weight_map is None:
            raise ScenarioError(str(index), Refusal("index_not_json"))
        files = []
        for name in sorted(set(weight_map.values())):
            if Path(name).name != name or name in (".", ".."):
                raise ScenarioError(str(index), Refusal("index_file_outside", file=name))
            files.append(self._file(name))
        stored = _gathered(files)
        for tensor, name in weight_map.items():
            if tensor not in stored or stored[tensor].file.name != name:
                raise ScenarioError(str(index), Refusal("index_tensor_missing", name=tensor,
                                                        file=name))
        return stored

    def has(self, name: str) -> bool:
        """Whether the weights hold the tensor ``name``."""
        return name in self.stored

    def tensor(self, name: str, shape: tuple[int, ...], *, transposed: bool = False) -> FloatArray:
        """The tensor ``name`` widened to float64, checked to have ``shape``, and counted used
        (``transposed``: a 2-D tensor as its transpose, made as it is widened).

        Raises
        ------
        ScenarioError
            Naming the weights file when the tensor is missing, of another shape or unreadable.
        """
        return read_tensor(name, self._used(name, shape), transposed=transposed)

    def weight(self, name: str, shape: tuple[int, int], *, transposed: bool = False) -> Weight:
        """The matrix ``name`` as :meth:`tensor` reads it, or, when the checkpoint is
        ``mapped``, left in its file (:class:`~engine.format.mapped_weight.MappedWeight`)."""
        stored = self._used(name, shape)
        if not self.mapped:
            return read_tensor(name, stored, transposed=transposed)
        if stored.dtype not in READ:
            raise ScenarioError(str(stored.file), Refusal("tensor_dtype", name=name,
                                                          dtype=stored.dtype,
                                                          read=", ".join(READ)))
        entry = Entry(stored.dtype, stored.shape, stored.start, stored.end)
        return MappedWeight(stored.file, name, entry, stored.stamp, transposed=transposed)

    def _used(self, name: str, shape: tuple[int, ...]) -> Stored:
        """The tensor ``name``, checked to have ``shape``, counted used.

        Raises
        ------
        ScenarioError
            Naming the weights file when the tensor is missing or of another shape.
        """
        stored = self.stored.get(name)
        if stored is None:
            raise ScenarioError(str(self.folder / WEIGHTS), Refusal("tensor_missing", name=name))
        if stored.shape != shape:
            raise ScenarioError(str(stored.file), Refusal("tensor_shape", name=name,
                                                          expected=_shape(shape),
                                                          got=_shape(stored.shape)))
        self.used.add(name)
        return stored

    def tokenizer(self) -> Tokenizer:
        """The tokenizer of tokenizer.json."""
        place = str(self._tokenizer_file)
        try:
            with open_regular(self._tokenizer_file, place, "checkpoint") as stream:
                text = stream.read(MAX_TOKENIZER_BYTES + 1)
            if len(text) > MAX_TOKENIZER_BYTES:
                raise ValueError(f"more than {MAX_TOKENIZER_BYTES:,} bytes")
            tokenizer = Tokenizer.from_str(text.decode("utf-8"))
            self.tokenizer_text = text
            return tokenizer
        except ScenarioError:
            raise
        except Exception as error:  # tokenizers raises its own Exception for a bad file
            raise ScenarioError(place, Refusal("tokenizer_unreadable", reason=str(error))) from None


def _gathered(files: list[Path]) -> dict[str, Stored]:
    """The tensors of ``files`` by name; one held by two files is refused naming both."""
    found: dict[str, Stored] = {}
    for file in files:
        for name, stored in read_header(file).items():
            if name in found:
                raise ScenarioError(str(file), Refusal("tensor_twice", name=name,
                                                       first=found[name].file.name,
                                                       second=file.name))
            found[name] = stored
    return found


def _weight_map(index: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The index's tensor → file names (None: not an object of strings)."""
    weight_map = index.get("weight_map") if index is not None else None
    if not isinstance(weight_map, dict) or not weight_map or not all(
            isinstance(file, str) for file in weight_map.values()):
        return None
    return weight_map


def _shape(shape: tuple[int, ...]) -> str:
    return " × ".join(str(size) for size in shape) or "()"


def _read_json(path: Path, limit: int) -> Mapping[str, Any] | None:
    """A JSON object of at most ``limit`` bytes, read from a regular file only (None: the file
    is not one)."""
    with open_regular(path, str(path), "checkpoint") as stream:
        text = stream.read(limit + 1)
    try:
        value = json.loads(text.decode("utf-8")) if len(text) <= limit else None
    except (ValueError, RecursionError):  # not UTF-8, not JSON, a number too long
        value = None
    return value if isinstance(value, dict) else None


__all__ = ["CONFIG", "Checkpoint"]
