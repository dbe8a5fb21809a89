"""A config.json value transformers' typed config refuses (a null under a key it types ``int``,
``float``, ``bool`` or ``str``; ``2.0`` under an ``int`` key) is refused at its key, never read
as a default the importer picks; a null transformers takes is taken. transformers itself is the
reference: for every key the importer reads from each fixture's config, the key is set to null
(and an int to the same number with a decimal point) and both are asked."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.texts.problems import problem_words
from engine import ScenarioError
from engine.checkpoint import config as config_module
from engine.checkpoint import import_checkpoint
from tests.engine.fixture_copies import fixture_copy
from tests.engine.hf_reference import FIXTURES

TEXT = "the cat sat"
FAMILY_FIXTURES = ("bert", "gemma", "gemma2-capped", "gemma3_text", "gpt2", "gpt_neox",
                   "llama-rope-yarn", "mistral", "mixtral", "olmo2", "opt", "phi", "phi3",
                   "phi3-longrope", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "stablelm",
                   "starcoder2")


class _Recording(dict[str, Any]):
    """A config's values that note every key read."""

    def __init__(self, values: Any, seen: set[str]) -> None:
        super().__init__(values)
        self.seen = seen

    def get(self, key: Any, default: Any = None) -> Any:
        self.seen.add(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.seen.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.seen.add(str(key))
        return super().__contains__(key)


def keys_read(monkeypatch: pytest.MonkeyPatch, fixture: str) -> list[str]:
    """The top-level config keys the importer reads from ``fixture``'s config.json."""
    seen: set[str] = set()
    original = config_module.Config.__init__

    def recording(self: config_module.Config, values: Any, place: str) -> None:
        original(self, _Recording(values, seen), place)

    with monkeypatch.context() as patch:
        patch.setattr(config_module.Config, "__init__", recording)
        import_checkpoint(FIXTURES / fixture, TEXT)
    return sorted(seen)


def changed(tmp_path: Path, fixture: str, key: str, value: Any) -> Path:
    """A copy of ``fixture`` whose config.json holds ``value`` under ``key`` (null kept)."""
    return fixture_copy(tmp_path, fixture, {key: value}, folder=f"{fixture}-{key}")


def transformers_takes(folder: Path) -> bool:
    """Whether transformers reads the config and builds its model from it."""
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    transformers.logging.set_verbosity_error()
    try:
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            config = transformers.AutoConfig.from_pretrained(folder)
            model = (transformers.AutoModel if config.model_type == "bert"
                     else transformers.AutoModelForCausalLM)
            model.from_config(config)
    except Exception:  # any failure is transformers refusing the config
        return False
    return True


def our_refusal(folder: Path) -> str | None:
    try:
        import_checkpoint(folder, TEXT)
    except ScenarioError as error:
        return str(error)
    return None


def cases(fixture: str, keys: list[str]) -> Iterator[tuple[str, Any]]:
    """Each key read set to null, each whole number written as a decimal, and each decimal
    set to the whole number 1."""
    given = json.loads((FIXTURES / fixture / "config.json").read_text("utf-8"))
    for key in keys:
        if key in ("model_type", "rope_parameters", "rope_scaling"):
            continue  # the family itself; the RoPE settings have tests of their own
        yield key, None
        value = given.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            yield key, float(value)
        if isinstance(value, float):
            yield key, 1


@pytest.mark.parametrize("fixture", FAMILY_FIXTURES)
def test_a_config_value_is_refused_at_its_key_exactly_where_transformers_refuses_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fixture: str) -> None:
    differing = []
    for key, value in cases(fixture, keys_read(monkeypatch, fixture)):
        folder = changed(tmp_path, fixture, key, value)
        theirs, ours = transformers_takes(folder), our_refusal(folder)
        at_key = ours is not None and ours.startswith(f"{folder}/config.json.{key}: ")
        # transformers taking it, ours may still refuse the weights its config now misdescribes
        if theirs == at_key:
            differing.append((key, value, theirs, ours))
        shutil.rmtree(folder)
    assert not differing


@pytest.mark.parametrize(("fixture", "key", "value", "english", "chinese"), [
    ("gemma2-capped", "query_pre_attn_scalar", None, "expected a whole number, got null",
     "应为整数，得到的是 null"),
    ("mixtral", "num_experts_per_tok", None, "expected a whole number, got null",
     "应为整数，得到的是 null"),
    ("olmo2", "rms_norm_eps", None, "expected a number, got null", "应为一个数，得到的是 null"),
    ("gemma", "hidden_act", None, 'expected one of "gelu"', "应为"),
    ("qwen2", "use_sliding_window", None, "expected true or false, got null",
     "应为 true 或 false，得到的是 null"),
    ("gemma3_text", "rope_theta", None, "expected a number, got null",
     "应为一个数，得到的是 null"),
    ("mixtral", "num_experts_per_tok", 2.0,
     "expected a whole number written without a fraction part, got 2.0: transformers' config "
     "refuses a number with a decimal point here",
     "应为不带小数部分的整数，得到的是 2.0：transformers 的配置在此不接受带小数点的数"),
    ("gemma2-capped", "query_pre_attn_scalar", 8.0,
     "expected a whole number written without a fraction part, got 8.0", "应为不带小数部分的整数"),
    ("mistral", "rms_norm_eps", 1,
     "expected a number written with a decimal point (as 1.0), got 1: transformers' config "
     "refuses a whole number here", "应为带小数点的数（如 1.0），得到的是 1"),
    ("gemma2-capped", "final_logit_softcapping", 30,
     "expected a number written with a decimal point (as 1.0), got 30", "应为带小数点的数"),
])
def test_the_audits_nulls_are_refused_in_both_languages(
        tmp_path: Path, fixture: str, key: str, value: Any, english: str, chinese: str) -> None:
    folder = changed(tmp_path, fixture, key, value)
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, TEXT)
    place = f"{folder}/config.json.{key}"
    assert str(caught.value).startswith(f"{place}: {english}")
    assert problem_words(caught.value, "zh").startswith(f"{place}：{chinese}")
    assert not transformers_takes(folder)


@pytest.mark.parametrize(("fixture", "key"), [
    ("gemma2-capped", "final_logit_softcapping"), ("gemma2-capped", "sliding_window"),
    ("mistral", "head_dim"), ("qwen2", "layer_types"), ("gpt2", "n_inner")])
def test_a_null_transformers_takes_is_imported(tmp_path: Path, fixture: str, key: str) -> None:
    folder = changed(tmp_path, fixture, key, None)
    assert transformers_takes(folder)
    import_checkpoint(folder, TEXT)


@pytest.mark.parametrize("quantization", [
    {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},
    {"quant_method": "bitsandbytes", "load_in_4bit": True}])
def test_a_quantized_checkpoint_is_refused_with_the_reason(
        tmp_path: Path, quantization: dict[str, Any]) -> None:
    folder = changed(tmp_path, "llama", "quantization_config", quantization)
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, TEXT)
    method = quantization["quant_method"]
    assert str(caught.value) == (
        f'{folder}/config.json.quantization_config: the weights are quantized ("{method}"): '
        "QKV Studio reads plain float32, float16 and bfloat16 weights only, and transformers "
        "would compute with quantized ones")
    assert problem_words(caught.value, "zh").startswith(
        f'{folder}/config.json.quantization_config：权重经过量化（"{method}"）')
