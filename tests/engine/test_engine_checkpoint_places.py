"""A checkpoint's refusals name the place the problem is in: the config key a refused document
value came from (not the document key it filled), the weights file and tensor holding a NaN (not
the document cell), a folder where a weights file should be, an added token moved past the
embedding (not a tokenizer "of another model"); and a soft cap too small for the numbers it caps
is named at compute."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path
from typing import Any

import pytest

from app.texts.problems import problem_words
from engine import ScenarioError, compute
from engine.checkpoint import import_checkpoint
from tests.engine.fixture_copies import fixture_copy
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat"


def copy(tmp_path: Path, fixture: str, **config: Any) -> Path:
    """A copy of ``fixture`` whose config.json takes ``config`` (values as given, null kept)."""
    return fixture_copy(tmp_path, fixture, config)


def refused(folder: Path, *, mapped: bool = True) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, TEXT, mapped=mapped)
    return caught.value


LINEAR = {"rope_theta": 500.0, "rope_type": "linear"}
CONFIG_PLACES = [
    ("mixtral", {"num_experts_per_tok": 5}, "num_experts_per_tok",
     "layers.0.block.ffn.top_k", "expected a whole number from 1 to 4, got 5"),
    ("qwen3_moe", {"num_experts_per_tok": 9}, "num_experts_per_tok",
     "layers.1.block.ffn.top_k", "expected a whole number from 1 to 4, got 9"),
    ("llama-rope-linear", {"rope_parameters": {**LINEAR, "factor": 0}},
     "rope_parameters.factor", "positions.scaling.factor", "expected a number above 0, got 0.0"),
    ("gemma2-capped", {"rms_norm_eps": -1.0}, "rms_norm_eps", "layers.0.block.eps",
     "ε must not be negative, got -1.0"),
    ("phi3", {"partial_rotary_factor": 0}, "partial_rotary_factor", "positions.rotary_dims",
     "expected a whole number from 2 to 8192, got 0"),
    ("llama", {"rope_theta": 0}, "rope_theta", "positions.base",
     "expected a number above 0, got 0.0"),
]


@pytest.mark.parametrize(("fixture", "config", "key", "document_key", "problem"), CONFIG_PLACES)
def test_a_refused_value_from_the_config_is_refused_at_its_config_key(
        tmp_path: Path, fixture: str, config: dict[str, Any], key: str, document_key: str,
        problem: str) -> None:
    folder = copy(tmp_path, fixture, **config)
    error = refused(folder)
    place = f"{folder}/config.json.{key}"
    assert str(error) == (f"{place}: gives the document's {document_key}, which is refused: "
                          f"{problem}")
    assert problem_words(error, "zh").startswith(
        f"{place}：给出了文档的 {document_key}，而它被拒绝：")


def poisoned(tmp_path: Path, fixture: str, tensor: str, cell: tuple[int, ...],
             number: float) -> Path:
    """A copy of ``fixture`` whose stored ``tensor`` holds ``number`` at ``cell``."""
    folder = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, folder)
    path = folder / "model.safetensors"
    raw = bytearray(path.read_bytes())
    size = struct.unpack("<Q", raw[:8])[0]
    entry = json.loads(raw[8:8 + size])[tensor]
    flat = 0
    for index, length in zip(cell, entry["shape"], strict=True):
        flat = flat * length + index
    start = 8 + size + entry["data_offsets"][0]
    if entry["dtype"] == "F32":
        raw[start + 4 * flat:start + 4 * flat + 4] = struct.pack("<f", number)
    else:  # BF16: the upper half of the float32
        raw[start + 2 * flat:start + 2 * flat + 2] = struct.pack("<f", number)[2:]
    path.write_bytes(bytes(raw))
    return folder


@pytest.mark.parametrize("mapped", [True, False])
@pytest.mark.parametrize(("fixture", "tensor", "cell", "number"), [
    ("mixtral", "lm_head.weight", (1, 2), float("nan")),
    ("mixtral", "model.norm.weight", (3,), float("inf")),
    ("gemma2-capped", "model.embed_tokens.weight", (5, 3), float("nan")),  # the tied head too
    ("mixtral", "model.layers.0.self_attn.q_proj.weight", (2, 1), float("-inf")),
])
def test_a_stored_number_that_is_not_finite_is_refused_at_its_file_and_tensor(
        tmp_path: Path, fixture: str, tensor: str, cell: tuple[int, ...], number: float,
        mapped: bool) -> None:
    folder = poisoned(tmp_path, fixture, tensor, cell, number)
    error = refused(folder, mapped=mapped)
    at = ", ".join(map(str, cell))
    assert str(error) == (f"{folder}/model.safetensors: the tensor {tensor}[{at}] is {number}: "
                          "every number must be finite")
    assert problem_words(error, "zh") == (f"{folder}/model.safetensors：张量 {tensor}[{at}] 是 "
                                          f"{number}：每个数都必须有限")


@pytest.mark.parametrize(("key", "place"), [("final_logit_softcapping", "head.softcap"),
                                            ("attn_logit_softcapping",
                                             "layers.0.attention.softcap")])
def test_a_cap_too_small_for_its_numbers_is_named_at_compute(tmp_path: Path, key: str,
                                                              place: str) -> None:
    scenario = import_checkpoint(copy(tmp_path, "gemma2-capped", **{key: 1e-320}), TEXT)
    with pytest.raises(ScenarioError) as caught:
        compute(scenario)
    assert caught.value.place == place
    assert caught.value.problem.startswith("the soft cap 1×10⁻³²⁰ is too small for the numbers "
                                           "it caps: ")
    assert caught.value.problem.endswith(" / 1×10⁻³²⁰ overflows, so c·tanh(x / c) cannot be "
                                         "computed")
    assert problem_words(caught.value, "zh").startswith(f"{place}：软截断 1×10⁻³²⁰ 对它所截断的数")


def test_a_folder_where_the_weights_file_should_be_is_said_so(tmp_path: Path) -> None:
    folder = tmp_path / "mixtral"
    shutil.copytree(FIXTURES / "mixtral", folder)
    (folder / "model.safetensors").unlink()
    (folder / "model.safetensors").mkdir()
    error = refused(folder)
    assert str(error) == (f"{folder}/model.safetensors: is a folder, where the checkpoint needs "
                          "a weights file (safetensors)")
    assert problem_words(error, "zh").endswith(
        "是文件夹，而检查点在这里需要一个权重文件（safetensors）")


def test_an_added_token_declaring_a_taken_id_is_refused_with_the_id_it_gets(
        tmp_path: Path) -> None:
    """transformers' tokenizer gives the added token the next free id, 48, past the 48 rows:
    the tokenizer is not "another model's", and the highest id really is 48."""
    folder = tmp_path / "mixtral"
    shutil.copytree(FIXTURES / "mixtral", folder)
    tokenizer = json.loads((folder / "tokenizer.json").read_text("utf-8"))
    tokenizer["added_tokens"].append({"id": 47, "content": "<x>", "single_word": False,
                                      "lstrip": False, "rstrip": False, "normalized": False,
                                      "special": False})
    (folder / "tokenizer.json").write_text(json.dumps(tokenizer), "utf-8")
    index = len(tokenizer["added_tokens"]) - 1
    error = refused(folder)
    assert str(error) == (
        f'tokenizer.json.added_tokens[{index}]: declares id 47 for "<x>", an id the vocabulary '
        'already gives "▁the▁cat": the tokenizer (transformers\' too) gives it id 48 instead, '
        "past the 48 rows of the model's embedding")
    assert problem_words(error, "zh").startswith(
        f'tokenizer.json.added_tokens[{index}]：为 "<x>" 声明了编号 47')
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    theirs = transformers.AutoTokenizer.from_pretrained(folder)
    assert theirs.convert_tokens_to_ids("<x>") == 48 and len(theirs) == 49
