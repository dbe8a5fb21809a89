"""A checkpoint's tensors are read by the importer itself, not by safetensors' ``get_tensor``,
which copies a tensor's bytes holding the interpreter lock: importing a GPT-2 small in the
window's worker froze the window for up to half a second a tensor. The numbers are the same,
bit for bit, in every stored dtype."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from safetensors.numpy import save_file

import engine.checkpoint.folder
from engine.checkpoint.folder import Checkpoint
from tests.engine.hf_reference import FIXTURES


class NoCopies:
    """safetensors' file, its header looked at but no tensor copied out of it."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def __enter__(self) -> NoCopies:
        self.real.__enter__()
        return self

    def __exit__(self, *error: object) -> None:
        self.real.__exit__(*error)

    def keys(self) -> list[str]:
        return list(self.real.keys())

    def get_slice(self, name: str) -> Any:
        return self.real.get_slice(name)

    def get_tensor(self, name: str) -> Any:
        raise AssertionError(f"{name} copied by safetensors, holding the interpreter lock")


@pytest.fixture
def no_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine.checkpoint.folder.safe_open
    monkeypatch.setattr(engine.checkpoint.folder, "safe_open",
                        lambda *args, **kwargs: NoCopies(real(*args, **kwargs)))


@pytest.mark.usefixtures("no_copies")
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_each_stored_dtype_is_read_by_the_importer_exactly(tmp_path: Path, dtype: str) -> None:
    (tmp_path / "config.json").write_text((FIXTURES / "gpt2" / "config.json").read_text())
    (tmp_path / "tokenizer.json").write_text((FIXTURES / "gpt2" / "tokenizer.json").read_text())
    numbers = np.random.default_rng(5).normal(0.0, 3.0, (7, 5))
    kind = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    stored = {"w": numbers.astype(kind), "b": numbers[0].astype(kind)}
    save_file(stored, str(tmp_path / "model.safetensors"))
    checkpoint = Checkpoint(tmp_path)
    for name, shape in (("w", (7, 5)), ("b", (5,))):
        read = checkpoint.tensor(name, shape)
        assert read.dtype == np.float64 and not read.flags.writeable
        np.testing.assert_array_equal(read, stored[name].astype(np.float64))
