"""Reading a Hugging Face checkpoint folder: config.json, the weights in ``*.safetensors`` (each
tensor read lazily, only when asked for) and tokenizer.json.

Weights are widened to float64 exactly. bfloat16 is the upper half of a float32, and numpy does
not know it: importing ``ml_dtypes`` registers the type, so ``safetensors``' numpy API reads it
as ``ml_dtypes.bfloat16`` and ``astype(np.float64)`` widens it without rounding (float16 and
float32 widen exactly too).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ml_dtypes  # noqa: F401  (registers bfloat16 with numpy, for safetensors' numpy API)
import numpy as np
from safetensors import SafetensorError, safe_open
from tokenizers import Tokenizer

from engine.errors import ScenarioError
from engine.reader import FloatArray
from engine.refusals import Refusal

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
                stored = weights.get_tensor(name)
        except (SafetensorError, TypeError, OSError) as error:
            raise ScenarioError(str(file), Refusal("tensor_unreadable", name=name,
                                                   reason=str(error))) from None
        if tuple(stored.shape) != shape:
            raise ScenarioError(str(file), Refusal("tensor_shape", name=name,
                                                   expected=_shape(shape),
                                                   got=_shape(stored.shape)))
        widened: FloatArray = np.asarray(stored).astype(np.float64)
        return widened

    def tokenizer(self) -> Tokenizer:
        """The tokenizer of tokenizer.json."""
        try:
            return Tokenizer.from_file(str(self._tokenizer_file))
        except Exception as error:  # tokenizers raises its own Exception for a bad file
            raise ScenarioError(str(self._tokenizer_file),
                                Refusal("tokenizer_unreadable", reason=str(error))) from None


def _shape(shape: tuple[int, ...] | list[int]) -> str:
    return " × ".join(str(size) for size in shape) or "a single number"


def _read_config(path: Path) -> Mapping[str, Any]:
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ScenarioError(str(path), Refusal("config_not_json"))
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
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
