"""Hostile runs of every output (issue 34): no command writes over a file it reads or another of
its outputs writes; a sidecar belongs to one document; crafted, sparse, changed and FIFO
sidecars are refused promptly in bounded memory; a killed export leaves nothing lasting.

Every command runs as a real ``qkv-studio`` process, with a time limit (and, where a file
claims gigabytes, an address-space limit), so a hang or a runaway allocation fails the test
instead of stalling the suite.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine.io
import engine.sidecar_write
from engine import ScenarioError, dumps_scenario, load_scenario, save_scenario
from engine.memory import physical_memory
from engine.outputs import Inputs, OutputRefusedError, guarding
from tests.engine.hf_reference import FIXTURES
from tests.examples import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
SIDECAR = "doc.qkv.json.weights.safetensors"
REFUSED = ("this run reads that file (the document, its sidecar or a checkpoint's files); "
           "writing there would replace it: choose another name")
MEMORY = 1 << 30
"""The address space a command reading a crafted sidecar may take (1 GiB; the file claims
40 GB)."""


def qkv(*args: str | Path, cwd: Path, timeout: float = 120,
        memory: int | None = None) -> subprocess.CompletedProcess[str]:
    """``qkv-studio ARGS`` in a fresh process, killed after ``timeout`` seconds (a
    ``TimeoutExpired`` fails the test)."""
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "app.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limit,
                          check=False)


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) and its bytes, symbolic links as links."""
    return {str(p.relative_to(folder)): (os.readlink(p).encode() if p.is_symlink()
                                         else p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


def small_sidecars(monkeypatch: pytest.MonkeyPatch) -> None:
    """Documents of more than 10 numbers keep arrays of 4 or more in a sidecar."""
    monkeypatch.setattr(engine.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.sidecar_write, "SIDECAR_MIN", 4)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``doc.qkv.json`` (an example with exercises) and its sidecar, a link and a hard link to
    the document."""
    small_sidecars(monkeypatch)
    save_scenario(load_scenario(EXAMPLES / "single-key.qkv.json"), tmp_path / "doc.qkv.json")
    assert (tmp_path / SIDECAR).exists()
    (tmp_path / "link.json").symlink_to("doc.qkv.json")
    os.link(tmp_path / "doc.qkv.json", tmp_path / "hard.json")
    return tmp_path


EXPORT = ("export", "doc.qkv.json", "--steps", "1", "--format")
OUTPUT_CASES = {
    **{f"export {fmt} --out the document": (*EXPORT, fmt, "--out", "doc.qkv.json")
       for fmt in ("pdf", "png", "svg", "gif", "mp4", "pptx")},
    "export pdf --out ./doc.qkv.json": (*EXPORT, "pdf", "--out", "./doc.qkv.json"),
    "export pdf --out a link to it": (*EXPORT, "pdf", "--out", "link.json"),
    "export pdf --out a hard link to it": (*EXPORT, "pdf", "--out", "hard.json"),
    "export pdf --out its sidecar": (*EXPORT, "pdf", "--out", SIDECAR),
    "worksheet --out the document": ("worksheet", "doc.qkv.json", "--out", "doc.qkv.json"),
    "worksheet --answers the document": ("worksheet", "doc.qkv.json", "--out", "s.pdf",
                                         "--answers", "sub/../doc.qkv.json"),
    "worksheet --pptx its sidecar": ("worksheet", "doc.qkv.json", "--out", "s.pdf", "--pptx",
                                     SIDECAR),
    "generate --out the document": ("generate", "doc.qkv.json", "--steps", "1", "--out",
                                    "doc.qkv.json"),
    "generate --out its sidecar": ("generate", "doc.qkv.json", "--steps", "1", "--out",
                                   SIDECAR),
}


@pytest.mark.parametrize("args", OUTPUT_CASES.values(), ids=OUTPUT_CASES.keys())
def test_an_output_naming_an_input_is_refused_and_nothing_is_written(
        folder: Path, args: tuple[str, ...]) -> None:
    (folder / "sub").mkdir()
    before = files(folder)
    result = qkv(*args, cwd=folder)
    assert (result.returncode, result.stdout) == (2, "")
    [line] = result.stderr.splitlines()
    assert line.startswith("qkv-studio: cannot write ") and line.endswith(REFUSED)
    assert files(folder) == before


def test_two_outputs_naming_one_file_are_refused_before_either_is_written(folder: Path) -> None:
    before = files(folder)
    result = qkv("worksheet", "doc.qkv.json", "--out", "s.pdf", "--answers", "./s.pdf",
                 cwd=folder)
    assert result.returncode == 2
    assert result.stderr == ("qkv-studio: cannot write s.pdf: another output of this run "
                             "(s.pdf) writes that file too; each output needs its own\n")
    assert files(folder) == before


@pytest.mark.parametrize("name", ["config.json", "model.safetensors", "tokenizer.json"])
def test_import_hf_never_writes_over_the_checkpoint(tmp_path: Path, name: str) -> None:
    checkpoint = shutil.copytree(FIXTURES / "gpt2", tmp_path / "gpt2")
    before = files(checkpoint)
    result = qkv("import-hf", checkpoint, "--text", "the cat", "--out", checkpoint / name,
                 cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"qkv-studio: cannot write {checkpoint / name}: {REFUSED}\n"
    assert files(checkpoint) == before


def test_x_json_and_x_qkv_json_each_keep_their_own_weights(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small_sidecars(monkeypatch)
    first = load_scenario(EXAMPLES / "single-key.qkv.json")
    second = load_scenario(EXAMPLES / "continue.qkv.json")
    save_scenario(first, tmp_path / "x.qkv.json")
    save_scenario(second, tmp_path / "x.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "x.json", "x.json.weights.safetensors", "x.qkv.json", "x.qkv.json.weights.safetensors"]
    assert dumps_scenario(load_scenario(tmp_path / "x.qkv.json")) == dumps_scenario(first)
    assert dumps_scenario(load_scenario(tmp_path / "x.json")) == dumps_scenario(second)


def test_a_save_never_replaces_a_file_that_is_not_its_own_sidecar(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small_sidecars(monkeypatch)
    scenario = load_scenario(EXAMPLES / "single-key.qkv.json")
    save_scenario(scenario, tmp_path / "y.json")
    theirs = tmp_path / "x.json.weights.safetensors"  # a link to y.json's weights
    theirs.symlink_to("y.json.weights.safetensors")
    before = files(tmp_path)
    with pytest.raises(OutputRefusedError) as caught:
        save_scenario(scenario, tmp_path / "x.json")
    assert str(caught.value) == (
        f"cannot write {theirs}: x.json.weights.safetensors beside it belongs to another "
        f"document (y.json); saving here would replace that document's weights: choose "
        f"another name")
    assert files(tmp_path) == before
    theirs.unlink()
    theirs.write_bytes(b"someone's file")  # no sidecar at all
    with pytest.raises(OutputRefusedError, match="another document \\(its header names none"):
        save_scenario(scenario, tmp_path / "x.json")
    assert theirs.read_bytes() == b"someone's file" and not (tmp_path / "x.json").exists()
    with guarding(Inputs()):  # its own, in a run (a command, the window's Save): replaced
        save_scenario(scenario, tmp_path / "y.json")
    assert dumps_scenario(load_scenario(tmp_path / "y.json")) == dumps_scenario(scenario)


def _flip_last_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01  # a bit of the last number: same size, still finite
    path.write_bytes(bytes(data))


def test_a_sidecar_changed_since_saving_is_refused_even_at_the_same_size(folder: Path) -> None:
    _flip_last_byte(folder / SIDECAR)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(folder / "doc.qkv.json")
    assert caught.value.problem == (
        f"{SIDECAR} changed since the document was saved (its sha256 is not the one the "
        f"document records): it is not the sidecar this document was saved with")


def test_a_document_saved_before_the_digest_still_opens(folder: Path) -> None:
    path = folder / "doc.qkv.json"
    text = path.read_text(encoding="utf-8")
    digest = hashlib.sha256((folder / SIDECAR).read_bytes()).hexdigest()
    assert text.count(f'"sha256": "{digest}"') >= 2
    path.write_text(text.replace(f', "sha256": "{digest}"', ""), encoding="utf-8")
    _flip_last_byte(folder / SIDECAR)  # unchecked: nothing records what it was
    assert load_scenario(path).title == load_scenario(EXAMPLES / "single-key.qkv.json").title


def _sidecar(path: Path, tensors: dict[str, object], data: int = 0,
             sparse: int = 0) -> None:
    """A safetensors file with this header, ``data`` zero bytes after it, or ``sparse`` bytes
    claimed by a hole (no disk taken)."""
    header = json.dumps(tensors).encode()
    header += b" " * (-len(header) % 8)
    with path.open("wb") as stream:
        stream.write(struct.pack("<Q", len(header)) + header + bytes(data))
        if sparse:
            stream.truncate(8 + len(header) + sparse)


def _document(folder: Path, keys: list[str]) -> Path:
    """A one-head document whose Wq is read from ``keys[0]`` of ``side.safetensors``."""
    document = json.loads((EXAMPLES / "single-key.qkv.json").read_text(encoding="utf-8"))
    document["attention"]["Wq"] = {"$file": "side.safetensors", "key": keys[0]}
    path = folder / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


GIB40 = 40 * 10**9
CRAFTED = {
    "shape overflowing int64": (  # numpy's int64 product of the shape is 0
        {"w": {"dtype": "F64", "shape": [2**32, 2**32], "data_offsets": [0, 0]}}, 0, 0,
        "the tensor w lies at data_offsets [0, 0], which do not hold its "
        "18,446,744,073,709,551,616 numbers of 8 bytes within the file's 0 bytes of data"),
    "shape of 2**64": (
        {"w": {"dtype": "F16", "shape": [2**64], "data_offsets": [0, 16]}}, 16, 0,
        "the tensor w has the shape [18446744073709551616]: at most 8 sizes, each a whole "
        "number from 0 below 2⁶⁴"),
    "offsets that do not hold the shape": (
        {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 8]}}, 8, 0,
        "the tensor w lies at data_offsets [0, 8], which do not hold its 4 numbers of 4 bytes "
        "within the file's 8 bytes of data"),
    "negative offset": (
        {"w": {"dtype": "F32", "shape": [2], "data_offsets": [-8, 0]}}, 8, 0,
        "the tensor w lies at data_offsets [-8, 0], which do not hold its 2 numbers of 4 bytes "
        "within the file's 8 bytes of data"),
    "tensors overlapping": (
        {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
         "w": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, 12, 0,
        "the tensors a and w share bytes of the file"),
    "a gap between tensors": (
        {"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
         "w": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}}, 12, 0,
        "the tensor w starts at byte 8 of the data, not at 4 where the one before it ends"),
    "bytes after the tensors": (
        {"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, 4096, 0,
        "its tensors end at byte 8 of its 4096 bytes of data"),
    "sparse 40 GB in one tensor": (
        {"w": {"dtype": "F32", "shape": [100000, 100000], "data_offsets": [0, GIB40]}}, 0,
        GIB40, "the tensor w holds 10000000000 numbers, more than the limit of 2147483648 for "
               "one array"),
    "sparse 4 TiB in many tensors": (  # 8 TiB as float64: more than any computer's memory
        {f"w{k}": {"dtype": "F32", "shape": [1 << 31],
                   "data_offsets": [k * (1 << 33), (k + 1) * (1 << 33)]} for k in range(512)},
        0, 512 * (1 << 33), "its tensors hold 1,099,511,627,776 numbers, about 8192.0 GiB as "
                            "float64, more than this computer's "
                            f"{physical_memory() / (1 << 30):.1f} GiB of memory"),
}


@pytest.mark.parametrize(("tensors", "data", "sparse", "problem"), CRAFTED.values(),
                         ids=CRAFTED.keys())
def test_a_crafted_sidecar_header_is_one_line_before_any_memory_is_taken(
        tmp_path: Path, tensors: dict[str, object], data: int, sparse: int,
        problem: str) -> None:
    _sidecar(tmp_path / "side.safetensors", tensors, data, sparse)
    path = _document(tmp_path, list(tensors))
    started = time.monotonic()
    result = qkv("compute", path, cwd=tmp_path, timeout=60, memory=MEMORY)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"qkv-studio: attention.Wq: side.safetensors cannot be read as "
                             f"safetensors ({problem})\n")
    assert time.monotonic() - started < 30


def test_a_fifo_sidecar_is_refused_promptly(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "side.safetensors")
    path = _document(tmp_path, ["w"])
    result = qkv("compute", path, cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert result.stderr == ("qkv-studio: attention.Wq: side.safetensors is not a regular file "
                             "(a device, a pipe or a socket): nothing was read from it\n")


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".qkv-"))


def test_a_killed_export_leaves_nothing_that_lasts(tmp_path: Path) -> None:
    """SIGKILL an export while it writes (its hidden staging folder exists); the next export
    into the folder removes what it left, and writes its own file."""
    shutil.copy(EXAMPLES / "g01.qkv.json", tmp_path / "doc.qkv.json")
    out = tmp_path / "frames"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    process = subprocess.Popen([sys.executable, "-m", "app.cli", "export", "doc.qkv.json",
                                "--format", "png", "--out", f"{out}/"], cwd=tmp_path, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (out.is_dir() and _temporaries(out)) and process.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL  # killed mid-write, not finished
    [left] = _temporaries(out)
    assert left.startswith(f".qkv-export-{process.pid}-")
    result = qkv("export", "doc.qkv.json", "--format", "pdf", "--steps", "1", "--out",
                 out / "one.pdf", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _temporaries(out) == []
    assert (out / "one.pdf").read_bytes().startswith(b"%PDF")
