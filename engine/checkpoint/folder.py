"""Reading a Hugging Face checkpoint folder: config.json, the weights in ``*.safetensors`` (each
tensor read lazily, only when asked for) and tokenizer.json.

Weights are widened to float64 exactly. ``safetensors``' numpy API reads every dtype numpy knows
(float16, float32, float64 widen without rounding). numpy does not know bfloat16, and the numpy
API refuses it, so a bfloat16 tensor is read here from the file's own layout (an 8-byte header
length, a JSON header of dtypes, shapes and offsets, then the data): bfloat16 is the upper half of
a float32, so its 16 bits shifted up 16 are that float32 exactly. (``ml_dtypes`` would register
the type, but importing it took 1.3 to 1.9 s here, on every start of the window.)
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from safetensors import SafetensorError, safe_open
from tokenizers import Tokenizer

from engine.errors import ScenarioError
from engine.reader import FloatArray
from engine.refusals import Refusal
from engine.sidecar import DTYPES, widen

CONFIG = "config.json"
TOKENIZER = "tokenizer.json"
WEIGHTS = "*.safetensors"
MAX_CONFIG_BYTES = 1 << 20
"""A config.json is a few KB; anything this large is not one."""


class Checkpoint:
    """One checkpoint folder: its config, its tensors by name, its tokenizer."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ScenarioError(str(self.folder), Refusal("checkpoint_not_folder"))
        self.config = _read_config(self._file(CONFIG))
        files = sorted(self.folder.glob(WEIGHTS))
        if not files:
            raise ScenarioError(str(self.folder / WEIGHTS), Refusal("checkpoint_file_missing"))
        self._where: dict[str, Path] = {}
        for file in files:
            for key in _keys(file):
                self._where.setdefault(key, file)
        self._tokenizer_file = self._file(TOKENIZER)

    def _file(self, name: str) -> Path:
        path = self.folder / name
        if not path.is_file():
            raise ScenarioError(str(path), Refusal("checkpoint_file_missing"))
        return path

    def has(self, name: str) -> bool:
        """Whether some weights file holds the tensor ``name``."""
        return name in self._where

    def tensor(self, name: str, shape: tuple[int, ...]) -> FloatArray:
        """The tensor ``name`` widened to float64, checked to have ``shape``.

        Raises
        ------
        ScenarioError
            Naming the weights file when the tensor is missing, of another shape or unreadable.
        """
        file = self._where.get(name)
        if file is None:
            raise ScenarioError(str(self.folder / WEIGHTS), Refusal("tensor_missing", name=name))
        try:
            with safe_open(str(file), framework="np") as weights:
                stored = weights.get_slice(name)
                if tuple(stored.get_shape()) != shape:
                    got = _shape(tuple(stored.get_shape()))
                elif stored.get_dtype() in DTYPES:
                    return _read(file, name, shape, stored.get_dtype())
                else:
                    return _frozen(weights.get_tensor(name).astype(np.float64))
        except (SafetensorError, TypeError, ValueError, KeyError, OSError) as error:
            raise ScenarioError(str(file), Refusal("tensor_unreadable", name=name,
                                                   reason=str(error))) from None
        raise ScenarioError(str(file), Refusal("tensor_shape", name=name,
                                               expected=_shape(shape), got=got))

    def tokenizer(self) -> Tokenizer:
        """The tokenizer of tokenizer.json."""
        try:
            return Tokenizer.from_file(str(self._tokenizer_file))
        except Exception as error:  # tokenizers raises its own Exception for a bad file
            raise ScenarioError(str(self._tokenizer_file),
                                Refusal("tokenizer_unreadable", reason=str(error))) from None


def _read(file: Path, name: str, shape: tuple[int, ...], dtype: str) -> FloatArray:
    """A tensor's bytes read from the file and widened exactly to float64 (bfloat16: each
    16-bit pattern is the upper half of the float32 it stands for). Reading and widening let
    other threads run: safetensors' own ``get_tensor`` copies the bytes holding the interpreter
    lock, which froze the window for up to half a second a tensor while a GPT-2 was imported."""
    with file.open("rb") as stream:
        (length,) = struct.unpack("<Q", stream.read(8))
        start, end = json.loads(stream.read(length))[name]["data_offsets"]
        stream.seek(8 + length + start)
        count = (end - start) // DTYPES[dtype].itemsize
        stored = np.fromfile(stream, dtype=DTYPES[dtype], count=count)
        if stored.size != count:
            raise ValueError("the file ends inside the tensor")
    return _frozen(widen(stored.reshape(shape), dtype))


def _frozen(array: FloatArray) -> FloatArray:
    """``array`` made read-only: the document takes it as it is, without a copy."""
    array.flags.writeable = False
    return array


def _shape(shape: tuple[int, ...] | list[int]) -> str:
    return " × ".join(str(size) for size in shape) or "()"


def _read_config(path: Path) -> Mapping[str, Any]:
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ScenarioError(str(path), Refusal("config_not_json"))
        value = json.loads(path.read_text(encoding="utf-8"))
    # ValueError: not UTF-8, not JSON, or an integer past the 4,300 digits Python converts.
    except (OSError, ValueError, RecursionError):
        raise ScenarioError(str(path), Refusal("config_not_json")) from None
    if not isinstance(value, dict):
        raise ScenarioError(str(path), Refusal("config_not_json"))
    return value


def _keys(file: Path) -> list[str]:
    """The tensor names of one weights file (read from its header only)."""
    try:
        with safe_open(str(file), framework="np") as weights:
            return list(weights.keys())
    except (SafetensorError, OSError) as error:
        raise ScenarioError(str(file), Refusal("weights_unreadable", reason=str(error))) from None
