"""Weights that stay in their checkpoint (issue 37, item 1): a mapped weight widens to float64
exactly what the eager import gives, whole, by blocks of columns or by looked-up rows; a
document imported ``mapped`` computes a trace equal array by array, bit for bit, to the eager
document's, for every family's fixture; its forward pass never widens the whole embedding or
unembedding; a non-finite stored number is refused at the same cell as the eager import's."""

from __future__ import annotations

import os
import shutil
import weakref
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from safetensors.numpy import save_file

import engine.format.io
import engine.format.mapped_weight
import engine.format.sidecar_write
import engine.forward.tape
from engine import ScenarioError, Trace, compute, explain, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.checkpoint.folder import Checkpoint
from engine.format.mapped_weight import (
    SCAN,
    MappedWeight,
    column_block,
    expect_weight,
    looked_up,
)
from engine.format.safetensors_file import FP8
from engine.format.writer import to_document
from engine.generation.append import extend
from engine.generation.grow import grown
from engine.scenario.edit import with_cell, with_document_value
from engine.scenario.swap import swap_tokens
from tests.engine.hf_reference import FIXTURES
from tests.engine.test_engine_checkpoint_reading import folder_of, raw

FAMILIES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())
TEXT = "the cat sat on the mat"


def stored(tmp_path: Path, numbers: np.ndarray) -> Checkpoint:
    """A mapped checkpoint holding ``numbers`` as the tensor ``w``."""
    save_file({"w": numbers}, str(folder_of(tmp_path) / "model.safetensors"))
    return Checkpoint(tmp_path, mapped=True)


@pytest.mark.parametrize("kind", [np.float64, np.float32, np.float16, ml_dtypes.bfloat16])
@pytest.mark.parametrize("transposed", [False, True])
def test_a_mapped_weight_widens_as_the_eager_import_does(tmp_path: Path, kind: Any,
                                                         transposed: bool) -> None:
    numbers = np.random.default_rng(3).normal(0.0, 2.0, (37, 11)).astype(kind)
    largest = ml_dtypes.finfo(kind) if kind == ml_dtypes.bfloat16 else np.finfo(kind)
    numbers[5, :3] = (largest.max, -largest.max, largest.smallest_subnormal)  # all finite
    checkpoint = stored(tmp_path, numbers)
    weight = checkpoint.weight("w", (37, 11), transposed=transposed)
    assert isinstance(weight, MappedWeight) and checkpoint.used == {"w"}
    assert expect_weight(weight, "Wq", max_rows=4096) is weight
    expected = numbers.astype(np.float64)  # numpy / ml_dtypes widen each number exactly
    expected = expected.T if transposed else expected
    whole = weight.widened()
    np.testing.assert_array_equal(whole, expected)
    assert whole.flags.c_contiguous == (numbers.flags.c_contiguous if not transposed else True)
    eager = Checkpoint(tmp_path).tensor("w", (37, 11), transposed=transposed)
    assert whole.strides == eager.strides
    assert weight.shape == expected.shape and weight.size == 37 * 11
    room = np.full(500, np.nan)  # a buffer reused by the forward pass: written, not copied
    in_room = weight.widened(room)
    np.testing.assert_array_equal(in_room, expected)
    assert np.shares_memory(in_room, room) and in_room.strides == eager.strides
    if transposed:
        for start, stop in ((0, 5), (5, 36), (30, 64)):
            block = column_block(weight, start, stop)
            np.testing.assert_array_equal(block, expected[:, start:stop])
            assert block.flags.c_contiguous  # laid out as the eager array's slice
    else:
        np.testing.assert_array_equal(looked_up(weight, (4, 0, 4, 36)), expected[[4, 0, 4, 36]])
        view = weight.T  # a tied head: the embedding's transpose, as numpy's .T lays it out
        np.testing.assert_array_equal(view.widened(), expected.T)
        assert view.widened().flags.f_contiguous and view.shape == (11, 37)
        block = column_block(view, 3, 9)
        np.testing.assert_array_equal(block, expected.T[:, 3:9])
        assert block.flags.f_contiguous


@pytest.mark.parametrize("dtype", ["F8_E4M3", "F8_E5M2"])
def test_an_fp8_mapped_weight_widens_by_the_formats_table(tmp_path: Path, dtype: str) -> None:
    patterns = np.arange(256, dtype=np.uint8)[np.isfinite(FP8[dtype])].reshape(-1, 2)
    raw(folder_of(tmp_path) / "model.safetensors",
        {"w": {"dtype": dtype, "shape": list(patterns.shape),
               "data_offsets": [0, patterns.size]}}, patterns.tobytes())
    weight = Checkpoint(tmp_path, mapped=True).weight("w", patterns.shape, transposed=True)
    kind = ml_dtypes.float8_e4m3fn if dtype == "F8_E4M3" else ml_dtypes.float8_e5m2
    np.testing.assert_array_equal(np.asarray(weight), patterns.view(kind).astype(np.float64).T)
    assert expect_weight(weight, "Wq", max_rows=4096) is weight


@pytest.mark.parametrize("scan", [5, SCAN])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("kind", [np.float64, np.float32, np.float16, ml_dtypes.bfloat16])
def test_a_stored_nan_or_infinity_is_refused_at_the_cell_the_eager_import_names(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: Any, transposed: bool,
        scan: int) -> None:
    """``scan``: the stored numbers read at a time (5: the two cells in different reads). The
    first in the document's row order, refused at the weights file naming the tensor and the
    cell in its stored indices (the document key it fills is not where the problem is)."""
    monkeypatch.setattr(engine.format.mapped_weight, "SCAN", scan)
    numbers = np.arange(24.0).reshape(4, 6)
    numbers[1, 4] = np.nan  # first in the stored order
    numbers[3, 1] = np.inf  # first in the transpose's: its cell (1, 3) before (4, 1)
    checkpoint = stored(tmp_path, numbers.astype(kind))
    weight = checkpoint.weight("w", (4, 6), transposed=transposed)
    with pytest.raises(ScenarioError) as mapped:
        expect_weight(weight, "Wq", max_rows=4096)
    with pytest.raises(ScenarioError) as eager:
        expect_weight(Checkpoint(tmp_path).tensor("w", (4, 6), transposed=transposed), "Wq",
                      max_rows=4096)
    file = tmp_path / "model.safetensors"
    assert str(mapped.value) == str(eager.value) == (
        f"{file}: the tensor w[3, 1] is inf: every number must be finite" if transposed
        else f"{file}: the tensor w[1, 4] is nan: every number must be finite")


@pytest.mark.parametrize("family", FAMILIES)
def test_a_mapped_import_computes_the_eager_trace_bit_for_bit(
        monkeypatch: pytest.MonkeyPatch, family: str) -> None:
    """The unembedding is multiplied a block of columns at a time (here 7 columns: the
    fixtures' vocabularies are a few hundred words), the same blocks mapped or not."""
    width = 64
    monkeypatch.setattr(engine.forward.tape, "VOCABULARY_BLOCK", 7 * width)
    pair = {"pair": "a dog"} if family == "bert" else {}
    eager = import_checkpoint(FIXTURES / family, TEXT, mapped=False, **pair)
    mapped = import_checkpoint(FIXTURES / family, TEXT, **pair)
    kept = [path for path, weight in mapped.parameters.items()
            if isinstance(weight, MappedWeight)]
    assert "embedding" in kept or family == "opt"  # OPT projects its embedding: widened
    # GPT-2's Conv1D and fused c_attn are read eagerly (so are Phi-3's and NeoX's fused ones)
    assert any(path.startswith("layers.") for path in kept) or family == "gpt2"
    assert mapped.parameters.keys() == eager.parameters.keys()
    for path in eager.parameters:
        np.testing.assert_array_equal(mapped.parameter(path), eager.parameter(path))
    ours, theirs = compute(mapped), compute(eager)
    assert [step.id for step in ours.steps] == [step.id for step in theirs.steps]
    assert ours.arrays.keys() == theirs.arrays.keys()
    for name, array in theirs.arrays.items():
        assert np.array_equal(ours.arrays[name], array), name


def test_the_forward_pass_widens_neither_the_embedding_nor_the_unembedding_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    widened: list[str] = []
    real = MappedWeight.widened

    def counted(weight: MappedWeight, room: Any = None) -> Any:
        widened.append(weight.name)
        return real(weight, room)

    document = import_checkpoint(FIXTURES / "llama", TEXT)
    monkeypatch.setattr(MappedWeight, "widened", counted)
    monkeypatch.setattr(engine.forward.tape, "VOCABULARY_BLOCK", 1000)
    compute(document)
    assert "model.embed_tokens.weight" not in widened
    assert "lm_head.weight" not in widened
    assert "model.layers.0.self_attn.q_proj.weight" in widened


def twins(family: str = "llama") -> tuple[Any, Any]:
    """The fixture's document imported eagerly and mapped."""
    return (import_checkpoint(FIXTURES / family, TEXT, mapped=False),
            import_checkpoint(FIXTURES / family, TEXT))


def assert_same_traces(ours: Trace, theirs: Trace) -> None:
    assert ours.arrays.keys() == theirs.arrays.keys()
    for name, array in theirs.arrays.items():
        assert np.array_equal(ours.arrays[name], array), name


def test_every_cell_of_a_mapped_trace_is_explained_as_the_eager_one(tmp_path: Path) -> None:
    eager, mapped = twins()
    ours, theirs = compute(mapped), compute(eager)
    for name in ("L1.Q", "L1.K", "L1.V", "L1.attn_out", "L1.ffn_gate", "L1.ffn_up",
                 "L1.ffn_out", "logits", "X"):
        rows, columns = theirs.arrays[name].shape
        for lang in ("en", "zh"):
            for cell in ((0, 0), (rows - 1, columns - 1), (rows // 2, columns // 2)):
                assert explain(ours, name, cell, lang) == explain(theirs, name, cell, lang)


@pytest.mark.parametrize("sidecar", [False, True])
def test_a_mapped_document_saves_self_contained_as_the_eager_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sidecar: bool) -> None:
    """``sidecar``: the numbers go to a safetensors sidecar (past a few numbers here)."""
    if sidecar:
        monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 100)
        monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 8)
    eager, mapped = twins()
    assert to_document(mapped) == to_document(eager)
    alive: list[weakref.ref[Any]] = []
    most = [0]
    real = MappedWeight.widened

    def counted(weight: MappedWeight, room: Any = None) -> Any:
        most[0] = max(most[0], 1 + sum(ref() is not None for ref in alive))
        whole = real(weight, room)
        alive.append(weakref.ref(whole if whole.base is None else whole.base))
        return whole

    monkeypatch.setattr(MappedWeight, "widened", counted)
    save_scenario(mapped, tmp_path / "mapped.qkv.json", self_contained=True)
    assert most[0] == 1 and len(alive) >= 7  # every matrix widened, one at a time
    monkeypatch.setattr(MappedWeight, "widened", real)
    save_scenario(eager, tmp_path / "eager.qkv.json")
    assert (tmp_path / "mapped.qkv.json.weights.safetensors").exists() == sidecar
    again = load_scenario(tmp_path / "mapped.qkv.json")
    assert not any(isinstance(w, MappedWeight) for w in again.parameters.values())
    assert_same_traces(compute(again), compute(load_scenario(tmp_path / "eager.qkv.json")))


@pytest.mark.parametrize(("path", "cells"), [
    ("layers.1.attention.Wq", ((2, 3), (0, 7), (2, 3))),  # the same cell twice: one entry
    ("layers.0.block.ffn.W2", ((5, 1), (7, 0))),
    ("embedding", ()),  # rows the tokens look up: X follows
    ("head.unembed", ((4, 30), (0, 0)))])  # the tied head: the embedding's transpose
def test_an_edited_cell_of_a_mapped_weight_is_an_overlay_computed_as_the_eager_edit(
        path: str, cells: tuple[tuple[int, int], ...]) -> None:
    eager, mapped = twins()
    assert mapped.token_ids is not None
    cells = cells or ((mapped.token_ids[0], 4), (mapped.token_ids[-1], 0))
    stored_bytes = (FIXTURES / "llama" / "model.safetensors").read_bytes()
    ours, theirs = mapped, eager
    for k, cell in enumerate(cells):
        value = 0.25 + k
        ours, theirs = with_cell(ours, path, cell, value), with_cell(theirs, path, cell, value)
    weight = ours.parameters[path]
    assert isinstance(weight, MappedWeight) and weight.overlay is not None
    assert len(weight.overlay.cells) == len(set(cells))
    assert mapped.parameters[path] is not weight  # undo keeps the old document
    assert isinstance(ours.parameters["layers.0.attention.Wk"], MappedWeight)
    np.testing.assert_array_equal(ours.parameter(path), theirs.parameter(path))
    np.testing.assert_array_equal(ours.X, theirs.X)
    assert (FIXTURES / "llama" / "model.safetensors").read_bytes() == stored_bytes
    assert_same_traces(compute(ours), compute(theirs))
    with pytest.raises(IndexError):
        with_cell(mapped, path, (10**6, 0), 1.0)


def test_an_overlay_past_a_quarter_of_the_numbers_becomes_an_array_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    eager, mapped = twins()
    path = "layers.0.attention.Wo"
    monkeypatch.setattr(engine.format.mapped_weight, "DENSE", 2 / mapped.parameters[path].size)
    ours, theirs = mapped, eager
    for cell in ((0, 0), (1, 1), (2, 2)):
        ours, theirs = with_cell(ours, path, cell, -1.5), with_cell(theirs, path, cell, -1.5)
        assert isinstance(ours.parameters[path], MappedWeight) == (cell != (2, 2))
    array = ours.parameters[path]
    assert isinstance(array, np.ndarray) and array.strides == theirs.parameters[path].strides
    assert_same_traces(compute(ours), compute(theirs))


def test_an_option_edit_keeps_the_weights_in_their_checkpoint() -> None:
    eager, mapped = twins()
    softer = with_document_value(mapped, "layers.0.attention.window", 3)
    assert isinstance(softer.parameters["layers.0.attention.Wq"], MappedWeight)
    assert_same_traces(compute(softer),
                       compute(with_document_value(eager, "layers.0.attention.window", 3)))


def test_a_mapped_document_generates_swaps_and_grows_as_the_eager_one() -> None:
    eager, mapped = twins()
    longer = [extend(document, 7) for document in (mapped, eager)]
    assert_same_traces(compute(longer[0]), compute(longer[1]))
    traces = [grown(compute(document), more) for document, more in
             zip((mapped, eager), longer, strict=True)]
    assert traces[0] is not None and traces[1] is not None
    assert_same_traces(traces[0], traces[1])
    swapped = [swap_tokens(document, 0, 2) for document in (mapped, eager)]
    assert_same_traces(compute(swapped[0]), compute(swapped[1]))


def copied_llama(tmp_path: Path) -> Path:
    """The llama fixture copied to ``tmp_path`` (its weights file changed there, not here)."""
    folder = tmp_path / "llama"
    shutil.copytree(FIXTURES / "llama", folder)
    return folder


@pytest.mark.parametrize("change", ["touched", "rewritten", "removed"])
def test_a_checkpoint_changed_or_removed_after_import_is_refused_by_name(
        tmp_path: Path, change: str) -> None:
    folder = copied_llama(tmp_path)
    document = import_checkpoint(folder, TEXT)
    weights = folder / "model.safetensors"
    status = weights.stat()
    if change == "touched":  # the same bytes, modified later: the stamp differs
        os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
    elif change == "rewritten":  # one byte more: another size
        weights.write_bytes(weights.read_bytes() + b" ")
    else:
        weights.unlink()
    key = "checkpoint_gone" if change == "removed" else "checkpoint_changed"
    for work in (lambda: compute(document),
                 lambda: save_scenario(document, tmp_path / "saved.qkv.json",
                                       self_contained=True),
                 lambda: with_cell(document, "layers.0.attention.Wq", (0, 0), 0.5)
                 .parameter("layers.0.attention.Wq")):
        with pytest.raises(ScenarioError) as refused:
            work()
        assert refused.value.place == str(weights)
        assert refused.value.refusal is not None and refused.value.refusal.key == key
        assert "\n" not in str(refused.value)
    assert str(refused.value).startswith(f"{weights}: ")
    assert ("is gone" if change == "removed" else "changed after") in str(refused.value)
    assert ("不见了" if change == "removed" else "被改动过") in refused.value.refusal.words("zh")
    assert not (tmp_path / "saved.qkv.json").exists()


@pytest.mark.parametrize("change", ["moved", "touched"])
def test_edits_of_a_checkpoint_gone_or_changed_are_saved_and_open_once_it_is_back(
        tmp_path: Path, change: str) -> None:
    """Nothing is lost: saved by reference, the edits and the file as the document read it
    are written; the saved document is refused by name while the checkpoint is away or
    changed, and opens with the edit once it is back as it was."""
    folder = copied_llama(tmp_path)
    weights = folder / "model.safetensors"
    original = weights.read_bytes()
    status = weights.stat()
    document = with_cell(import_checkpoint(folder, TEXT), "layers.0.attention.Wq", (0, 0), 0.5)
    if change == "moved":
        weights.rename(folder / "away.safetensors")
    else:
        os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
    saved = tmp_path / "saved.qkv.json"
    save_scenario(document, saved)
    with pytest.raises(ScenarioError) as refused:
        load_scenario(saved)
    assert refused.value.place == str(weights)
    if change == "moved":
        (folder / "away.safetensors").rename(weights)
    else:
        os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert weights.read_bytes() == original
    again = load_scenario(saved)
    assert again.parameter("layers.0.attention.Wq")[0, 0] == 0.5
    assert np.array_equal(compute(again).arrays["logits"], compute(document).arrays["logits"])


def test_a_checkpoint_put_back_as_it_was_is_read_again(tmp_path: Path) -> None:
    folder = copied_llama(tmp_path)
    document = import_checkpoint(folder, TEXT)
    expected = compute(document).arrays["logits"]
    weights = folder / "model.safetensors"
    status = weights.stat()
    os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    with pytest.raises(ScenarioError):
        compute(document)
    os.utime(weights, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert np.array_equal(compute(document).arrays["logits"], expected)
