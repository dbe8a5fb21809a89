"""A mixture's shared expert (Qwen2-MoE: ``shared`` and its gate ``shared_gate`` in the
mixture's keys): every token runs it, its output times σ(x · w_g) added to the chosen experts'
sum, against numbers computed here by hand; the document written and read back, explained cell
by cell, resized, and its refusals by place. (The import of Qwen2-MoE against transformers in
float64 is in test_engine_checkpoint_transformers.py.)"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from engine import compute, explain, parse_scenario
from engine.format.errors import ScenarioError
from engine.format.writer import to_document
from engine.scenario.resize import Sizes, resize
from tests.engine.test_engine_mixture import X, document

SHARED = {"W1": [[1.0], [0.5]], "W2": [[0.5, -0.5]]}  # relu(x₀ + x₁/2) · (½, −½)
GATE = [[1.0], [-1.0]]  # z = x₀ − x₁


def shared_document() -> dict[str, Any]:
    """The mixture's three tokens, its router and experts, and a shared expert."""
    doc = document()
    doc["layers"][0]["block"]["ffn"].update(shared_gate=GATE, shared=SHARED)
    return doc


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def test_every_token_adds_the_shared_experts_output_times_its_gate() -> None:
    routed = compute(parse_scenario(document())).arrays["L1.ffn_out"]
    a = compute(parse_scenario(shared_document())).arrays
    # a = (1, 0): z = 1, hidden 1; b = (0, 2): z = −2, hidden 1; c = (1, −1): z = 2, hidden ½.
    gates = [_sigmoid(1.0), _sigmoid(-2.0), _sigmoid(2.0)]
    np.testing.assert_allclose(a["L1.shared_weight"], [[g] for g in gates], rtol=0, atol=1e-16)
    np.testing.assert_array_equal(a["L1.shared_out"], [[0.5, -0.5], [0.5, -0.5], [0.25, -0.25]])
    expected = routed + [[g * h, -g * h] for g, h in zip(gates, (0.5, 0.5, 0.25), strict=True)]
    np.testing.assert_allclose(a["L1.ffn_out"], expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(a["L1.resid2"], np.array(X) + expected, rtol=0, atol=1e-15)


def test_the_experts_step_reads_the_gate_and_writes_its_weight() -> None:
    trace = compute(parse_scenario(shared_document()))
    step = next(s for s in trace.steps if s.op == "experts")
    assert step.writes == ("L1.expert_out", "L1.shared_weight", "L1.shared_out", "L1.ffn_out")
    assert "layers.0.block.ffn.shared_gate" in step.reads
    assert "layers.0.block.ffn.shared.W1" in step.reads
    assert step.title.endswith("the chosen feed-forwards and the gated shared one, summed")


def test_the_gate_its_output_and_the_sum_are_explained_with_their_numbers() -> None:
    trace = compute(parse_scenario(shared_document()))
    gate = explain(trace, "L1.shared_weight", (1, 0))
    assert gate.formula == f"L1.shared_weight[1,0] = σ(z[1]) = σ(−2) = {_sigmoid(-2):.6f}"
    assert gate.details[0].startswith("z[1] = ")
    assert "= −2" in gate.details[0]
    assert "shared expert's gate" in gate.details[1]
    out = explain(trace, "L1.shared_out", (2, 1))
    assert out.formula == "L1.shared_out[2,1] = shared(L1.norm2[2,·])[1] = −0.25"
    total = explain(trace, "L1.ffn_out", (0, 0))
    g = _sigmoid(1.0)
    assert "g·L1.shared_out[0,0]" in total.formula
    assert f"{g:.6f}·0.5" in total.formula
    assert total.details[-1] == ("plus the shared expert's output times its gate "
                                 "g = L1.shared_weight[0,0]")
    assert "共享专家" in explain(trace, "L1.shared_weight", (0, 0), lang="zh").details[1]


def test_the_document_written_reads_back_as_the_same_numbers() -> None:
    scenario = parse_scenario(shared_document())
    written = to_document(scenario)
    ffn = written["layers"][0]["block"]["ffn"]
    assert ffn["shared_gate"] == GATE
    assert ffn["shared"]["W1"] == SHARED["W1"]
    again = parse_scenario(json.loads(json.dumps(written)))
    first, second = compute(scenario), compute(again)
    for name in ("L1.shared_weight", "L1.shared_out", "L1.ffn_out"):
        np.testing.assert_array_equal(first.arrays[name], second.arrays[name])


def test_a_wider_model_pads_the_gate_with_a_zero_row() -> None:
    scenario = parse_scenario(shared_document())
    old = Sizes.of(scenario)
    wider = resize(scenario, Sizes(n=old.n, d=old.d + 1, d_k=old.d_k, d_v=old.d_v + 1,
                                   heads=old.heads))
    ffn = wider.document["layers"][0]["block"]["ffn"]
    np.testing.assert_array_equal(ffn["shared_gate"], [*GATE, [0.0]])
    np.testing.assert_array_equal(ffn["shared"]["W1"], [*SHARED["W1"], [0.0]])
    parse_scenario(wider.document)


@pytest.mark.parametrize(("change", "place", "words"), [
    (lambda f: f.pop("shared_gate"), "layers.0.block.ffn.shared_gate", "missing"),
    (lambda f: f.pop("shared"), "layers.0.block.ffn.shared", "missing"),
    (lambda f: f.update(shared_gate=[[1.0, 0.0], [0.0, 1.0]]), "layers.0.block.ffn.shared_gate",
     "(the shared expert's gate gives each token one number), got 2"),
    (lambda f: f.update(shared_gate=[[1.0]]), "layers.0.block.ffn.shared_gate", "d=2"),
    (lambda f: f["shared"].pop("W2"), "layers.0.block.ffn.shared.W2", "missing"),
    (lambda f: f["shared"].update(W1=[[1.0]]), "layers.0.block.ffn.shared.W1", "d=2"),
])
def test_a_wrong_shared_expert_is_refused_at_its_place(change: Any, place: str,
                                                        words: str) -> None:
    doc = copy.deepcopy(shared_document())
    change(doc["layers"][0]["block"]["ffn"])
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert refused.value.place == place
    assert words in str(refused.value)
