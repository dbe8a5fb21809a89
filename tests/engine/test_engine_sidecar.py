"""A document's sidecar (issue 25, item 3): arrays too large for JSON stay in a ``.safetensors``
beside the document, referenced by ``"$file"``; saved with the document under the one safe
writer, read back bit for bit, refused naming the file and the key.

The thresholds are lowered here (a sidecar from 10 numbers, arrays of 4 and more in it) so small
documents exercise every path; the whole GPT-2 small lives in
tests/engine/test_engine_whole_model.py and tests/bench/bench_checkpoint.py."""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import save_file

import engine.files.safe_write
import engine.format.io
import engine.format.safetensors_file
import engine.format.sidecar
import engine.format.sidecar_write
from app.cli import main
from engine import ScenarioError, compute, dumps_scenario, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.files.safe_write import WriteError
from engine.scenario.edit import with_cell
from tests.engine.hf_reference import FIXTURES
from tests.examples import EXAMPLES


@pytest.fixture(autouse=True)
def small_sidecars(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)


def dtypes(file: Path) -> dict[str, str]:
    """The stored dtype of each tensor, read by safetensors itself (an independent reader)."""
    with safe_open(str(file), framework="np") as weights:
        return {key: weights.get_slice(key).get_dtype() for key in weights.keys()}  # noqa: SIM118


def saved(tmp_path: Path, example: str, name: str = "doc.qkv.json") -> Path:
    path = tmp_path / name
    save_scenario(load_scenario(EXAMPLES / f"{example}.qkv.json"), path)
    return path


@pytest.mark.parametrize("example", ["continue", "encoder-decoder", "rope", "norms", "training"])
def test_a_saved_sidecar_reads_back_and_computes_bit_for_bit(tmp_path: Path,
                                                            example: str) -> None:
    original = load_scenario(EXAMPLES / f"{example}.qkv.json")
    path = saved(tmp_path, example)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.qkv.json",
                                                          "doc.qkv.json.weights.safetensors"]
    text = path.read_text(encoding="utf-8")
    assert '"$file": "doc.qkv.json.weights.safetensors"' in text
    again = load_scenario(path)
    assert dumps_scenario(again) == dumps_scenario(original)
    ours, theirs = compute(again), compute(original)
    assert ours.arrays.keys() == theirs.arrays.keys()
    for name, array in theirs.arrays.items():
        assert np.array_equal(ours.arrays[name], array), name  # bit for bit: same code, numbers
    for array in again.parameters.values():
        assert array.dtype == np.float64 and not array.flags.writeable


def test_every_reference_names_its_document_path(tmp_path: Path) -> None:
    document = json.loads(saved(tmp_path, "continue").read_text(encoding="utf-8"))
    wq = document["layers"][0]["attention"]["Wq"]
    sidecar = tmp_path / "doc.qkv.json.weights.safetensors"
    assert wq == {"$file": "doc.qkv.json.weights.safetensors", "key": "layers.0.attention.Wq",
                  "sha256": hashlib.sha256(sidecar.read_bytes()).hexdigest()}
    assert "layers.0.attention.Wq" in dtypes(sidecar)


def test_an_imported_checkpoint_keeps_its_dtype_and_its_tied_head_once(tmp_path: Path) -> None:
    scenario = import_checkpoint(FIXTURES / "gpt2", "the cat sat")
    with safe_open(str(FIXTURES / "gpt2" / "model.safetensors"), framework="np") as weights:
        stored = weights.get_slice("transformer.wte.weight").get_dtype()
    save_scenario(scenario, tmp_path / "gpt2.qkv.json", self_contained=True)  # not by reference
    kinds = dtypes(tmp_path / "gpt2.qkv.json.weights.safetensors")
    assert kinds["embedding"] == stored == "F32"
    assert "head.unembed" not in kinds  # the transpose of the embedding, stored once
    document = json.loads((tmp_path / "gpt2.qkv.json").read_text(encoding="utf-8"))
    sidecar = (tmp_path / "gpt2.qkv.json.weights.safetensors").read_bytes()
    assert document["head"]["unembed"] == "embedding.T"
    assert document["embedding"] == {"$file": "gpt2.qkv.json.weights.safetensors",
                                     "key": "embedding",
                                     "sha256": hashlib.sha256(sidecar).hexdigest()}
    again = load_scenario(tmp_path / "gpt2.qkv.json")
    assert again.head is not None and again.embedding is not None
    assert np.array_equal(again.head.unembed, scenario.embedding.T)
    assert again.head.unembed.base is again.embedding  # read once: the head shares its numbers
    assert np.array_equal(compute(again).arrays["probs"], compute(scenario).arrays["probs"])


def test_an_edited_array_goes_back_in_float64(tmp_path: Path) -> None:
    scenario = load_scenario(EXAMPLES / "continue.qkv.json")
    edited = with_cell(scenario, "layers.0.attention.Wq", (0, 0), 0.1)  # no float32 holds 0.1
    save_scenario(edited, tmp_path / "doc.qkv.json")
    kinds = dtypes(tmp_path / "doc.qkv.json.weights.safetensors")
    assert kinds["layers.0.attention.Wq"] == "F64"
    assert kinds["layers.0.attention.Wk"] == "BF16"  # small whole numbers: exact in 16 bits
    assert load_scenario(tmp_path / "doc.qkv.json").layers[0].attention.Wq[0, 0] == 0.1


def test_save_as_writes_a_sidecar_beside_the_new_name(tmp_path: Path) -> None:
    first = saved(tmp_path, "continue", "first.qkv.json")
    save_scenario(load_scenario(first), tmp_path / "copy.qkv.json")
    for name in ("first.qkv.json", "first.qkv.json.weights.safetensors"):
        (tmp_path / name).unlink()
    copy = load_scenario(tmp_path / "copy.qkv.json")
    assert dumps_scenario(copy) == dumps_scenario(load_scenario(EXAMPLES / "continue.qkv.json"))


def rewrite(path: Path, change: object) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    document["layers"][0]["attention"]["Wq"] = change
    path.write_text(json.dumps(document), encoding="utf-8")


def refusal(path: Path) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return str(caught.value)


def test_a_missing_sidecar_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = saved(tmp_path, "continue")
    (tmp_path / "doc.qkv.json.weights.safetensors").unlink()
    assert refusal(path) == ("embedding: doc.qkv.json.weights.safetensors is missing: the "
                             "document keeps "
                             "this array there, beside it")


def test_a_wrong_key_is_refused_naming_the_key_and_the_file(tmp_path: Path) -> None:
    path = saved(tmp_path, "continue")
    rewrite(path, {"$file": "doc.qkv.json.weights.safetensors", "key": "layers.9.attention.Wq"})
    assert refusal(path) == ("layers.0.attention.Wq: doc.qkv.json.weights.safetensors holds no "
                             "array "
                             "layers.9.attention.Wq")


def test_a_wrong_shape_is_refused_naming_the_key_and_the_file(tmp_path: Path) -> None:
    path = saved(tmp_path, "continue")
    rewrite(path, {"$file": "doc.qkv.json.weights.safetensors", "key": "layers.0.block.gamma1"})
    assert refusal(path) == ("layers.0.attention.Wq: expected a matrix, got 1 dimensions (the "
                             "array layers.0.block.gamma1 of doc.qkv.json.weights.safetensors)")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_a_number_that_is_not_finite_is_refused_naming_its_cell(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dtype: type) -> None:
    """Checked as the stored numbers are widened, past the first chunk of them: the place and
    cell are the document's, as for a number in the JSON."""
    monkeypatch.setattr(engine.format.safetensors_file, "BLOCK", 3)  # a row a block
    path = saved(tmp_path, "continue")
    bad = load_scenario(path).parameter("layers.0.attention.Wq").astype(dtype)
    bad[2, 1] = -np.inf
    save_file({"bad": bad}, str(tmp_path / "other.safetensors"))
    rewrite(path, {"$file": "other.safetensors", "key": "bad"})
    assert refusal(path) == ("layers.0.attention.Wq[2][1]: -inf is not allowed: every number "
                             "must be finite")
    bad[2, 1] = 0.5
    save_file({"bad": bad}, str(tmp_path / "other.safetensors"))
    np.testing.assert_array_equal(load_scenario(path).parameter("layers.0.attention.Wq"), bad)


@pytest.mark.parametrize(("array", "message"), [
    (np.ones((2, 2), dtype=np.int32), "is stored as I32; a document's arrays are F64, F32, F16 "
                                      "or BF16"),
    (np.ones((2, 2, 2), dtype=np.float32), "has 3 dimensions; a document's arrays have 1 or 2"),
])
def test_a_wrong_dtype_or_rank_is_refused(tmp_path: Path, array: np.ndarray,
                                          message: str) -> None:
    path = saved(tmp_path, "continue")
    save_file({"bad": array}, str(tmp_path / "other.safetensors"))
    rewrite(path, {"$file": "other.safetensors", "key": "bad"})
    assert refusal(path) == f"layers.0.attention.Wq: the array bad of other.safetensors {message}"


@pytest.mark.parametrize("name", ["../doc.qkv.json.weights.safetensors",
                                  "/tmp/doc.qkv.json.weights.safetensors",
                                  "sub/doc.qkv.json.weights.safetensors", ".hidden.safetensors",
                                  "doc.qkv.json"])
def test_a_hostile_file_name_is_refused_before_anything_is_opened(tmp_path: Path,
                                                                 name: str) -> None:
    path = saved(tmp_path, "continue")
    rewrite(path, {"$file": name, "key": "layers.0.attention.Wq"})
    shown = name if len(name) <= 20 else name[:17] + "..."
    assert refusal(path) == (f'layers.0.attention.Wq.$file: expected the name of a .safetensors '
                             f'file beside the document (no folder, no path), got "{shown}"')


def test_a_file_that_is_not_safetensors_is_refused(tmp_path: Path) -> None:
    path = saved(tmp_path, "continue")
    (tmp_path / "doc.qkv.json.weights.safetensors").write_bytes(b"\xff" * 64)
    assert refusal(path) == ("embedding: doc.qkv.json.weights.safetensors is not safetensors "
                             "weights: its header is said to be 18,446,744,073,709,551,615 "
                             "bytes, and the file is 64")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_a_failed_save_leaves_the_old_document_and_sidecar_intact(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = saved(tmp_path, "continue")
    before = snapshot(tmp_path)
    edited = with_cell(load_scenario(path), "layers.0.attention.Wq", (0, 0), 0.1)

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(engine.format.io, "write_all", full)  # the document fails after the sidecar
    with pytest.raises(WriteError, match="the disk is full"):
        save_scenario(edited, path)
    assert snapshot(tmp_path) == before


def test_a_failed_move_puts_the_moved_sidecar_back(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = saved(tmp_path, "continue")
    before = snapshot(tmp_path)
    edited = with_cell(load_scenario(path), "layers.0.attention.Wq", (0, 0), 0.1)
    publish = engine.files.safe_write._publish
    moves: list[Path] = []

    def second_fails(temp: Path, target: Path, mode: int | None) -> None:
        moves.append(target)
        if len(moves) == 2:
            raise OSError(errno.EIO, "input/output error")
        publish(temp, target, mode)

    monkeypatch.setattr(engine.files.safe_write, "_publish", second_fails)
    with pytest.raises(WriteError):
        save_scenario(edited, path)
    assert [target.name for target in moves] == ["doc.qkv.json.weights.safetensors", "doc.qkv.json"]
    assert snapshot(tmp_path) == before  # no file changed, no temporary file left


def test_compute_prints_only_the_named_arrays(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, "continue")
    assert main(["compute", str(path), "--arrays", "logits,L1.weights"]) == 0
    printed = json.loads(capsys.readouterr().out)
    trace = compute(load_scenario(EXAMPLES / "continue.qkv.json"))
    assert list(printed["arrays"]) == ["logits", "L1.weights"]
    assert printed["arrays"]["logits"] == trace.arrays["logits"].tolist()
    assert printed["arrays"]["L1.weights"] == trace.arrays["L1.weights"].tolist()
    assert main(["compute", str(path), "--arrays", "logits,L9.weights"]) == 2
    assert capsys.readouterr().err.startswith(
        'qkv-studio: --arrays: the trace has no array "L9.weights" (its arrays: ')


def test_explain_works_on_a_document_with_a_sidecar(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, "continue")
    assert main(["explain", str(path), "probs[0,0]"]) == 0
    from_json = capsys.readouterr().out
    assert main(["explain", "continue", "probs[0,0]"]) == 0
    assert capsys.readouterr().out == from_json
