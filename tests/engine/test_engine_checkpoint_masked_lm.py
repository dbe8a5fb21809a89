"""A BertForMaskedLM folder imports with its masked-language-model head and computes, number by
number, what transformers computes in float64 on a text with ``[MASK]``; BertForPreTraining's
next-sentence head stays ignored; a tied bias stored twice and different is refused."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from engine import ScenarioError, compute
from engine.checkpoint import import_checkpoint
from engine.forward.masked_lm import masked_positions
from tests.engine.hf_reference import FIXTURES
from tests.engine.test_engine_checkpoint_transformers import SIZES, redraw

torch = pytest.importorskip("torch", reason="torch is not installed (pip install torch==2.13.0)")
transformers = pytest.importorskip("transformers", reason="transformers is not installed")

TEXT = "the [MASK] sat on the mat. 我爱[MASK]"


def build(folder: Path, kind: str = "BertForMaskedLM", seed: int = 3) -> Any:
    """A random float64 ``kind`` of the BERT fixture's sizes saved in ``folder`` beside the
    fixture's tokenizer, its weights redrawn large enough that the probabilities differ."""
    shutil.copy(FIXTURES / "bert" / "tokenizer.json", folder / "tokenizer.json")
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))
    config = transformers.AutoConfig.for_model("bert", vocab_size=len(tokenizer), **SIZES["bert"])
    torch.manual_seed(seed)
    model = getattr(transformers, kind)(config).to(torch.float64).eval()
    redraw(model)
    model.save_pretrained(folder)
    return model


def _theirs(model: Any, ids: list[int]) -> np.ndarray:
    with torch.no_grad():
        result = model(torch.tensor([ids]))
    logits = result.logits if hasattr(result, "logits") else result.prediction_logits
    return np.asarray(logits[0].numpy())


@pytest.mark.parametrize("kind", ["BertForMaskedLM", "BertForPreTraining"])
def test_the_masked_lm_head_computes_what_transformers_computes(tmp_path: Path,
                                                                kind: str) -> None:
    model = build(tmp_path, kind)
    scenario = import_checkpoint(tmp_path, TEXT)
    ids = list(scenario.token_ids or ())
    assert ids == transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(tmp_path / "tokenizer.json"))(TEXT)["input_ids"]
    blanks = masked_positions(scenario)
    assert len(blanks) == 2 and all(scenario.tokens[p] == "[MASK]" for p in blanks)
    trace = compute(scenario)
    assert [s.op for s in trace.steps[-3:]] == ["transform", "logits", "probs"]
    logits = _theirs(model, ids)
    probs = torch.softmax(torch.tensor(logits), dim=-1).numpy()
    np.testing.assert_allclose(trace.arrays["logits"], logits, rtol=0, atol=1e-10)
    np.testing.assert_allclose(trace.arrays["probs"], probs, rtol=0, atol=1e-10)
    # the head is not trivial: the blanks' probabilities are far from uniform
    assert all(trace.arrays["probs"][p].max() > 3 / probs.shape[1] for p in blanks)
    head = scenario.head
    assert head is not None and head.transform is not None and not head.final_norm
    np.testing.assert_array_equal(head.unembed, scenario.embedding.T)  # tied, as transformers
    predictions = model.cls.predictions
    np.testing.assert_array_equal(head.bias, predictions.bias.detach().numpy())
    np.testing.assert_array_equal(head.transform.W,
                                  predictions.transform.dense.weight.detach().numpy().T)


def test_a_second_bias_unlike_the_first_is_refused(tmp_path: Path) -> None:
    build(tmp_path)
    weights = load_file(tmp_path / "model.safetensors")
    weights["cls.predictions.decoder.bias"] = weights["cls.predictions.bias"] + 1.0
    save_file(weights, tmp_path / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(ScenarioError) as refused:
        import_checkpoint(tmp_path, TEXT)
    assert "cls.predictions.decoder.bias" in str(refused.value)


def test_a_bert_model_folder_still_ends_with_its_last_layer(tmp_path: Path) -> None:
    build(tmp_path, "BertModel")
    scenario = import_checkpoint(tmp_path, TEXT)
    assert scenario.head is None and masked_positions(scenario) == ()
    assert compute(scenario).steps[-1].op == "norm"
