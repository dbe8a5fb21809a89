"""The logit lens (:mod:`engine.analysis.lens`, ``qkv-studio lens``): each layer's stream read
through the document's own final norm and vocabulary head, checked against a computation written
here, against transformers' hidden states, and at the last layer against the document's own
probabilities, bit for bit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app.model.examples import example_path
from app.model.presets import preset
from engine import ScenarioError, compute, dumps_scenario, load_scenario
from engine.analysis.lens import read_layers, top_tokens
from tests.engine.test_engine_cli import run


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_each_layer_is_read_through_the_final_norm_and_the_head() -> None:
    """three-layers: the stream entering layer 1 (X) and leaving layers 1 to 3 (resid2),
    layer-normed with γ_f, β_f and times the vocabulary head, then softmax."""
    trace = compute(load_scenario(example_path("three-layers")))
    head = trace.scenario.head
    assert head is not None and head.unembed is not None
    readings = read_layers(trace)
    assert [r.stream for r in readings] == ["X", "L1.resid2", "L2.resid2", "L3.resid2"]
    assert [r.layer for r in readings] == [0, 1, 2, 3]
    for reading in readings:
        normed = layer_norm(trace.arrays[reading.stream], head.gamma_f, head.beta_f, head.eps)
        np.testing.assert_allclose(reading.probs, softmax(normed @ head.unembed), atol=1e-14)
    np.testing.assert_array_equal(readings[-1].probs, trace.arrays["probs"])
    # The layers do change the prediction: the readings are not all alike.
    assert np.abs(readings[0].probs - readings[-1].probs).max() > 0.05


@pytest.mark.parametrize("family", ["gpt_neox", "bert", "llama"])
def test_the_last_reading_is_the_documents_probabilities(family: str) -> None:
    """A parallel residual, a post-norm stack read through a masked-LM head's transform, and
    RMSNorm: the last layer's reading is the forward pass's own, bit for bit; the streams are
    each layer's output (post-norm: the norm after the second residual)."""
    trace = compute(preset(family))
    readings = read_layers(trace)
    output = "norm2" if family == "bert" else "resid2"
    assert [r.stream for r in readings] == ["X", f"L1.{output}", f"L2.{output}"]
    np.testing.assert_array_equal(readings[-1].probs, trace.arrays["probs"])
    for reading in readings:
        np.testing.assert_allclose(reading.probs.sum(axis=-1), 1.0, atol=1e-12)


def test_a_document_without_a_vocabulary_head_is_refused() -> None:
    with pytest.raises(ScenarioError, match=r"^head: the logit lens reads each layer through a "
                                            r"vocabulary head \(head\.unembed"):
        read_layers(compute(load_scenario(example_path("f11"))))


def test_top_tokens_most_probable_first_ties_by_id() -> None:
    assert top_tokens(np.array([0.1, 0.4, 0.1, 0.4]), 3) == [(1, 0.4), (3, 0.4), (0, 0.1)]
    assert top_tokens(np.array([0.25, 0.75]), 5) == [(1, 0.75), (0, 0.25)]


def test_the_command_prints_each_layers_top_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "lens", "three-layers", "--top", "2")
    assert (status, err) == (0, "")
    found = json.loads(out)
    trace = compute(load_scenario(example_path("three-layers")))
    vocab = trace.tokens_of("vocab")
    assert found["tokens"] == list(trace.tokens_of("tokens"))
    assert [layer["layer"] for layer in found["layers"]] == [0, 1, 2, 3]
    last = found["layers"][-1]["positions"]
    probs = trace.arrays["probs"]
    for p, position in enumerate(last):
        assert position["position"] == p
        best = np.argsort(-probs[p], kind="stable")[:2]
        assert [t["id"] for t in position["top"]] == [int(i) for i in best]
        assert [t["label"] for t in position["top"]] == [vocab[i] for i in best]
        assert [t["p"] for t in position["top"]] == [float(probs[p, i]) for i in best]


def test_the_command_defaults_to_five_and_refuses_in_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    document = tmp_path / "gpt2.json"
    document.write_text(dumps_scenario(preset("gpt2")), "utf-8")
    status, out, _ = run(capsys, "lens", str(document))
    assert status == 0
    assert {len(p["top"]) for layer in json.loads(out)["layers"]
            for p in layer["positions"]} == {5}
    assert run(capsys, "lens", "f11")[0::2] == (2, "qkv-studio: head: the logit lens reads each "
                                                 "layer through a vocabulary head (head.unembed "
                                                 "and head.vocab): this document has none\n")
    assert run(capsys, "lens", "three-layers", "--top", "0")[0::2] == (
        2, "qkv-studio: --top: expected a whole number from 1 to 3, got 0\n")


def test_the_readings_are_transformers_hidden_states_through_its_head(tmp_path: Path) -> None:
    """A tiny random GPT-2 in float64: transformers' hidden states 0 … L−1 through its ln_f and
    tied head are the readings of layers 0 … L−1 (its last hidden state has ln_f applied
    already: the last reading is its logits' softmax)."""
    torch = pytest.importorskip("torch")
    from engine.checkpoint import import_checkpoint
    from tests.engine.test_engine_checkpoint_transformers import TEXT, build

    model, _ = build("gpt2", tmp_path, 7)
    readings = read_layers(compute(import_checkpoint(tmp_path, TEXT)))
    ids = list(import_checkpoint(tmp_path, TEXT).token_ids or ())
    with torch.no_grad():
        result = model(torch.tensor([ids]), output_hidden_states=True)
        theirs = [torch.softmax(model.lm_head(model.transformer.ln_f(h)), dim=-1)[0].numpy()
                  for h in result.hidden_states[:-1]]
        theirs.append(torch.softmax(result.logits, dim=-1)[0].numpy())
    assert len(readings) == len(theirs) == 3
    for reading, probs in zip(readings, theirs, strict=True):
        assert np.abs(reading.probs - probs).max() <= 1e-10
