"""What the importer refuses, in one line naming the place, and the command that writes nothing
then (``qkv-studio import-hf``, exit 2); and what it imports, through the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli import main
from app.texts.problems import problem_words
from engine import ScenarioError, compute, load_scenario
from engine.checkpoint import import_checkpoint
from tests.engine.fixture_copies import fixture_copy
from tests.engine.hf_reference import FAMILIES, FIXTURES

LONG = "the cat sat on the mat the cat sat on the mat the cat sat on"


def copy(tmp_path: Path, family: str, **config: Any) -> Path:
    """A copy of a fixture, its config.json changed by ``config`` (None removes a key)."""
    return fixture_copy(tmp_path, family, config, drop_nulls=True)


def refusal(folder: Path, text: str = "the cat", layers: str | None = None) -> str:
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, text, layers)
    return str(caught.value)


def test_another_family_or_none_is_refused(tmp_path: Path) -> None:
    assert refusal(copy(tmp_path, "gpt2", model_type="t5")).endswith(
        'config.json.model_type: "t5" is not a family QKV Studio imports: it imports gpt2, '
        "llama, mistral, qwen2, qwen3, gpt_neox, gemma, gemma2, phi, phi3, opt, bert, stablelm, "
        "starcoder2, mixtral, qwen3_moe, olmo2, qwen2_moe, gemma3_text")
    shutil.rmtree(tmp_path / "gpt2")
    assert refusal(copy(tmp_path, "gpt2", model_type=None)).endswith(
        "config.json.model_type: missing")


@pytest.mark.parametrize("name", ["config.json", "tokenizer.json", "model.safetensors"])
def test_a_missing_file_is_named(tmp_path: Path, name: str) -> None:
    folder = copy(tmp_path, "qwen2")
    (folder / name).unlink()
    where = name if name != "model.safetensors" else "*.safetensors"
    assert refusal(folder) == (f"{folder}/{where}: missing: a Hugging Face checkpoint folder "
                               "holds config.json, its weights in *.safetensors and "
                               "tokenizer.json")


def test_a_file_or_a_missing_path_is_not_a_checkpoint(tmp_path: Path) -> None:
    assert refusal(tmp_path / "nowhere").endswith("nowhere: is not a folder: give the folder of "
                                                  "a Hugging Face checkpoint (config.json, "
                                                  "*.safetensors, tokenizer.json)")
    assert refusal(FIXTURES / "gpt2" / "config.json").endswith(": is not a folder: give the "
                                                               "folder of a Hugging Face "
                                                               "checkpoint (config.json, "
                                                               "*.safetensors, tokenizer.json)")


def test_broken_files_are_named(tmp_path: Path) -> None:
    folder = copy(tmp_path, "gpt2")
    (folder / "config.json").write_text("[1, 2]", "utf-8")
    assert refusal(folder) == f"{folder}/config.json: is not a model's config (a JSON object)"
    shutil.rmtree(folder)
    folder = copy(tmp_path, "gpt2")
    (folder / "tokenizer.json").write_text("{}", "utf-8")
    assert refusal(folder).startswith(f"{folder}/tokenizer.json: cannot be read as a tokenizer (")
    shutil.rmtree(folder)
    folder = copy(tmp_path, "gpt2")
    (folder / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00not json")
    assert refusal(folder) == (f"{folder}/model.safetensors: is not safetensors weights: its "
                               "header is not a JSON object of tensors")


def test_a_missing_tensor_or_one_of_another_shape_is_named(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", tie_word_embeddings=False)
    from safetensors.numpy import load_file, save_file

    weights = load_file(str(folder / "model.safetensors"))
    del weights["lm_head.weight"]
    save_file(weights, str(folder / "model.safetensors"))
    assert refusal(folder) == f"{folder}/*.safetensors: no weights file holds the tensor " \
                              "lm_head.weight"
    shutil.rmtree(folder)
    folder = copy(tmp_path, "llama", intermediate_size=16)
    assert refusal(folder) == (f"{folder}/model.safetensors: the tensor "
                               "model.layers.0.mlp.gate_proj.weight is 12 × 8, and config.json "
                               "makes it 16 × 8")


def test_a_tokenizer_of_another_model_or_a_text_too_long_is_refused(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", vocab_size=40)
    assert refusal(folder) == ("tokenizer.json: the tokenizer has 48 entries (ids 0 to 47), "
                               "more than the 40 rows of the model's embedding: it belongs to "
                               "another model")
    # GPT-2's context is 16 positions.
    assert refusal(FIXTURES / "gpt2", LONG) == (
        "text: the text is 24 tokens, more than the model's context of 16 positions")
    assert refusal(FIXTURES / "gpt2", "") == "text: the text gives no tokens: type at least " \
                                             "one word"


@pytest.mark.parametrize("choice", ["0", "3", "2-1", "1-", "a", "1;2", ""])
def test_a_layer_choice_outside_the_model_is_refused(choice: str) -> None:
    assert refusal(FIXTURES / "gpt2", layers=choice) == (
        f'--layers: expected layers such as 1-2, 3 or 1,3-4, from 1 to 2, got "{choice}"')


def test_settings_the_engine_does_not_compute_are_refused(tmp_path: Path) -> None:
    folder = copy(tmp_path, "llama", rope_scaling={"rope_type": "longrope", "factor": 8.0})
    assert refusal(folder).endswith('config.json.rope_scaling: RoPE scaling "longrope" is not '
                                    "computed yet: QKV Studio computes the linear, llama3, yarn "
                                    "and dynamic scalings of Llama-shaped families only")
    shutil.rmtree(folder)
    folder = copy(tmp_path, "gpt2", scale_attn_by_inverse_layer_idx=True)
    assert refusal(folder).endswith("config.json.scale_attn_by_inverse_layer_idx: scores "
                                    "divided by the layer number too are not computed yet: "
                                    "QKV Studio divides by √d_k only")
    shutil.rmtree(folder)
    folder = copy(tmp_path, "gpt2", activation_function="quick_gelu")
    assert 'config.json.activation_function: expected one of "gelu" | ' in refusal(folder)
    shutil.rmtree(folder)
    folder = copy(tmp_path, "gpt2", n_head=0)
    assert refusal(folder).endswith("config.json.n_head: expected a whole number from 1 to "
                                    "16777216, got 0")


def test_a_refusal_reads_in_chinese(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(FIXTURES / "gpt2", LONG)
    assert problem_words(caught.value, "zh") == \
        "text：这段文本有 24 个 Token，超过了模型 16 个位置的上下文"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("family", FAMILIES)
def test_the_command_imports_each_family_and_compute_runs_on_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, family: str) -> None:
    out_path = tmp_path / f"{family}.qkv.json"
    assert run(capsys, "import-hf", str(FIXTURES / family), "--text", "the cat sat",
               "--out", str(out_path)) == (0, "", "")
    status, out, err = run(capsys, "compute", str(out_path))
    assert status == 0 and err == ""
    printed = json.loads(out)
    expected = compute(import_checkpoint(FIXTURES / family, "the cat sat"))
    last = "probs" if "probs" in expected.arrays else "L2.norm2"  # BERT has no head
    np.testing.assert_array_equal(printed["arrays"][last], expected.arrays[last])
    assert printed["arrays"][last][-1] == pytest.approx(expected.arrays[last][-1])
    # Without --out the document is printed, the same one.
    status, out, err = run(capsys, "import-hf", str(FIXTURES / family), "--text", "the cat sat")
    assert status == 0 and err == "" and out == out_path.read_text("utf-8")
    assert load_scenario(out_path).n == expected.scenario.n


def test_the_commands_text_pair_gives_bert_segment_b_and_is_refused_elsewhere(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "pair.qkv.json"
    assert run(capsys, "import-hf", str(FIXTURES / "bert"), "--text", "the cat", "--text-pair",
               "sat", "--out", str(out_path)) == (0, "", "")
    document = json.loads(out_path.read_text("utf-8"))
    assert document["tokens"] == ["[CLS]", "the", "cat", "[SEP]", "sat", "[SEP]"]
    assert document["token_types"] == [0, 0, 0, 0, 1, 1]
    status, out, err = run(capsys, "import-hf", str(FIXTURES / "llama"), "--text", "the cat",
                           "--text-pair", "sat", "--out", str(tmp_path / "no.qkv.json"))
    assert (status, out) == (2, "") and not (tmp_path / "no.qkv.json").exists()
    assert err == ("qkv-studio: --text-pair: a second text is read as segment B by a model with "
                   "token types (BERT); llama has none: put it in the text\n")


def test_the_command_refuses_in_one_line_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "doc.qkv.json"
    status, out, err = run(capsys, "import-hf", str(FIXTURES / "gpt2"), "--text", "the cat",
                           "--layers", "3", "--out", str(out_path))
    assert (status, out) == (2, "")
    assert err == ('qkv-studio: --layers: expected layers such as 1-2, 3 or 1,3-4, from 1 to 2, '
                   'got "3"\n')
    assert not out_path.exists()
    out_path.write_text("kept", "utf-8")
    status, out, err = run(capsys, "import-hf", str(tmp_path), "--text", "the cat",
                           "--out", str(out_path))
    assert status == 2 and out == "" and err.count("\n") == 1 and "config.json: missing" in err
    assert out_path.read_text("utf-8") == "kept"


def test_an_out_file_that_cannot_be_written_exits_with_1(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """As the README says of every command (export did; import-hf exited with 2, as for a
    refused folder)."""
    status, out, err = run(capsys, "import-hf", str(FIXTURES / "gpt2"), "--text", "the cat",
                           "--out", str(tmp_path))
    assert (status, out) == (1, "")
    assert err == f"qkv-studio: cannot write {tmp_path}: a folder has that name\n"
