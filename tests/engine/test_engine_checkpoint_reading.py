"""A checkpoint's weights files are read by the importer itself: each file's header parsed once
and checked with exact integer arithmetic before any tensor is read (a crafted header is one
line naming the file and the tensor), each tensor's bytes read by its offsets (not by
safetensors' ``get_tensor``, which holds the interpreter lock) and widened to float64 exactly,
every file opened only when it is a regular file."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from safetensors.numpy import save_file

import engine.checkpoint.folder
import engine.format.reader
from engine import ScenarioError
from engine.checkpoint import import_checkpoint
from engine.checkpoint.folder import Checkpoint
from engine.format.reader import expect_matrix
from engine.format.safetensors_file import FP8
from tests.engine.hf_reference import FIXTURES
from tests.engine.test_engine_checkpoint_refusals import copy, refusal, run

ROOT = Path(__file__).resolve().parents[2]


def raw(path: Path, header: object, data: bytes = b"") -> None:
    """A weights file of exactly this header and data."""
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def folder_of(tmp_path: Path) -> Path:
    """A folder with GPT-2's config and tokenizer, for weights written by the test."""
    for name in ("config.json", "tokenizer.json"):
        (tmp_path / name).write_text((FIXTURES / "gpt2" / name).read_text())
    return tmp_path


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_each_stored_dtype_is_read_by_the_importer_exactly(tmp_path: Path, dtype: str) -> None:
    numbers = np.random.default_rng(5).normal(0.0, 3.0, (7, 5))
    kind = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    stored = {"w": numbers.astype(kind), "b": numbers[0].astype(kind)}
    save_file(stored, str(folder_of(tmp_path) / "model.safetensors"))
    checkpoint = Checkpoint(tmp_path)
    for name, shape in (("w", (7, 5)), ("b", (5,))):
        read = checkpoint.tensor(name, shape)
        assert read.dtype == np.float64 and not read.flags.writeable
        np.testing.assert_array_equal(read, stored[name].astype(np.float64))
    assert checkpoint.used == {"w", "b"}


@pytest.mark.parametrize("transposed", [False, True])
def test_a_bf16_weight_is_widened_from_its_map_into_one_float64_array(
        tmp_path: Path, transposed: bool) -> None:
    """Before: the stored bytes were read whole, widened through a uint32 and a float32 copy
    (14 bytes a number at once), and an ``nn.Linear`` transposed by a second float64 copy."""
    rows, columns = 1536, 1024
    numbers = np.random.default_rng(7).standard_normal((rows, columns), dtype=np.float32).astype(
        ml_dtypes.bfloat16)
    save_file({"w": numbers}, str(folder_of(tmp_path) / "model.safetensors"))
    checkpoint = Checkpoint(tmp_path)
    tracemalloc.start()
    try:
        read = checkpoint.tensor("w", (rows, columns), transposed=transposed)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    expected = numbers.astype(np.float64)
    np.testing.assert_array_equal(read, expected.T if transposed else expected)
    assert read.flags.c_contiguous and read.flags.owndata and not read.flags.writeable
    assert 8 * rows * columns <= peak < 8 * rows * columns + (4 << 20)


def test_a_weight_checked_finite_as_widened_is_not_read_again_and_a_nan_is_still_refused(
        tmp_path: Path) -> None:
    numbers = np.arange(12.0).reshape(3, 4).astype(np.float32)
    broken = numbers.copy()
    broken[2, 1] = np.nan
    save_file({"w": numbers, "b": broken}, str(folder_of(tmp_path) / "model.safetensors"))
    checkpoint = Checkpoint(tmp_path)
    read = checkpoint.tensor("w", (3, 4), transposed=True)
    assert expect_matrix(read, "Wq", weights=True) is read  # no copy, no second check
    assert engine.format.reader._known_finite(read)
    with pytest.raises(ScenarioError) as caught:  # refused as read: at its file and tensor
        checkpoint.tensor("b", (3, 4), transposed=True)
    assert str(caught.value) == (f"{tmp_path / 'model.safetensors'}: the tensor b[2, 1] is nan: "
                                 "every number must be finite")


@pytest.mark.parametrize(("dtype", "kind"), [("F8_E4M3", ml_dtypes.float8_e4m3fn),
                                             ("F8_E5M2", ml_dtypes.float8_e5m2)])
def test_fp8_is_widened_exactly_by_the_formats_table(tmp_path: Path, dtype: str,
                                                     kind: Any) -> None:
    every = np.arange(256, dtype=np.uint8)
    expected = every.view(kind).astype(np.float64)
    np.testing.assert_array_equal(FP8[dtype], expected)  # NaN where ml_dtypes has NaN
    assert np.isnan(FP8[dtype]).sum() == (2 if dtype == "F8_E4M3" else 6)
    patterns = every[np.isfinite(expected)].reshape(-1, 2)  # the finite values only
    raw(folder_of(tmp_path) / "model.safetensors",
        {"w": {"dtype": dtype, "shape": list(patterns.shape),
               "data_offsets": [0, patterns.size]}}, patterns.tobytes())
    read = Checkpoint(tmp_path).tensor("w", patterns.shape)
    np.testing.assert_array_equal(read, patterns.view(kind).astype(np.float64))


def test_a_whole_number_tensor_is_refused_by_its_dtype(tmp_path: Path) -> None:
    save_file({"w": np.arange(6, dtype=np.int64).reshape(2, 3)},
              str(folder_of(tmp_path) / "model.safetensors"))
    with pytest.raises(ScenarioError) as caught:
        Checkpoint(tmp_path).tensor("w", (2, 3))
    assert str(caught.value) == (f"{tmp_path}/model.safetensors: the tensor w is stored as I64; "
                                 "the importer reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2")


def test_each_weights_header_is_parsed_once_per_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: every tensor's header three times (its name, its slice, its offsets)."""
    parsed: list[str] = []
    real = engine.checkpoint.folder.read_header

    def counted(path: Path) -> Any:
        parsed.append(path.name)
        return real(path)

    monkeypatch.setattr(engine.checkpoint.folder, "read_header", counted)
    import_checkpoint(FIXTURES / "gpt2", "the cat sat")
    assert parsed == ["model.safetensors"]


F32 = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
CRAFTED: list[tuple[str, bytes | None, object, bytes, str]] = [
    ("short", b"\x01\x02", None, b"",
     "is 2 bytes, shorter than a safetensors file's 8-byte header length"),
    ("length past the file", struct.pack("<Q", 1 << 63) + b"{}", None, b"",
     "is not safetensors weights: its header is said to be 9,223,372,036,854,775,808 bytes, "
     "and the file is 10"),
    ("not JSON", None, "[1, 2]", b"",
     "is not safetensors weights: its header is not a JSON object of tensors"),
    ("a name twice", b"", None, b"", ""),
    ("entry", None, {"w": 3}, b"",
     "the header's entry for the tensor w is not an object of dtype, shape and data_offsets"),
    ("dtype", None, {"w": {**F32, "dtype": "F7"}}, bytes(8),
     "the tensor w is stored as F7; the importer reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2"),
    ("negative", None, {"w": {**F32, "shape": [-1, -2]}}, bytes(8),
     "the tensor w has the shape [-1, -2]: at most 8 sizes, each a whole number from 0 below "
     "2⁶⁴"),
    ("not whole", None, {"w": {**F32, "shape": [True, 2.0]}}, bytes(8),
     "the tensor w has the shape [true, 2.0]: at most 8 sizes, each a whole number from 0 "
     "below 2⁶⁴"),
    ("int64 overflow", None, {"w": {**F32, "shape": [1 << 62, 4]}}, bytes(8),
     "the tensor w lies at data_offsets [0, 8], which do not hold its "
     "18,446,744,073,709,551,616 numbers of 4 bytes within the file's 8 bytes of data"),
    ("2 to the 64", None, {"w": {**F32, "shape": [1 << 64]}}, bytes(8),
     "the tensor w has the shape [18446744073709551616]: at most 8 sizes, each a whole number "
     "from 0 below 2⁶⁴"),
    ("nine dimensions", None, {"w": {**F32, "shape": [1] * 8 + [2]}}, bytes(8),
     "the tensor w has the shape [1, 1, 1, 1, 1, 1, 1, 1, 2]: at most 8 sizes, each a whole "
     "number from 0 below 2⁶⁴"),
    ("past the file", None, {"w": F32}, bytes(4),
     "the tensor w lies at data_offsets [0, 8], which do not hold its 2 numbers of 4 bytes "
     "within the file's 4 bytes of data"),
    ("backwards", None, {"w": {**F32, "data_offsets": [8, 0]}}, bytes(8),
     "the tensor w lies at data_offsets [8, 0], which do not hold its 2 numbers of 4 bytes "
     "within the file's 8 bytes of data"),
    ("overlap", None, {"a": F32, "b": {**F32, "data_offsets": [4, 12]}}, bytes(12),
     "the tensors a and b share bytes of the file"),
]


@pytest.mark.parametrize(("case", "whole", "header", "data", "expected"), CRAFTED,
                         ids=[case[0] for case in CRAFTED])
def test_a_crafted_header_is_one_line_naming_the_file_and_the_tensor(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, whole: bytes | None,
        header: object, data: bytes, expected: str) -> None:
    folder = copy(tmp_path, "gpt2")
    weights = folder / "model.safetensors"
    if case == "a name twice":
        text = b'{"w": %s, "w": %s}' % (json.dumps(F32).encode(), json.dumps(F32).encode())
        weights.write_bytes(struct.pack("<Q", len(text)) + text + bytes(8))
        expected = "is not safetensors weights: its header names \"w\" twice"
    elif whole is not None:
        weights.write_bytes(whole)
    else:
        raw(weights, header, data)
    tracemalloc.start()
    try:
        assert refusal(folder) == f"{weights}: {expected}"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20  # nothing the size of the claimed tensor was made
    status, out, err = run(capsys, "import-hf", str(folder), "--text", "the cat")
    assert (status, out, err) == (2, "", f"qkv-studio: {weights}: {expected}\n")


@pytest.mark.parametrize("name", ["model.safetensors", "config.json", "tokenizer.json",
                                  "model.safetensors.index.json"])
def test_a_fifo_in_place_of_a_file_is_refused_at_once(tmp_path: Path, name: str) -> None:
    """Before: a FIFO as the weights file hung import-hf forever (open waits for a writer)."""
    folder = copy(tmp_path, "gpt2")
    if name == "model.safetensors.index.json":
        (folder / "model.safetensors").rename(folder / "model-00001-of-00001.safetensors")
    else:
        (folder / name).unlink()
    os.mkfifo(folder / name)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())",
         "import-hf", str(folder), "--text", "the cat"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"qkv-studio: {folder / name}: is not a regular file (a device, a "
                           "pipe or a socket): nothing was read from it\n")
    assert time.monotonic() - started < 30
