"""A mixture of experts (``ffn`` with a ``router``): the router's step and the experts' step,
against numbers computed here by hand, ties chosen as ``torch.topk`` chooses them, the document
written and read back, and its refusals. (The import of Mixtral against transformers in float64
is in test_engine_checkpoint_transformers.py.)"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from engine import compute, parse_scenario
from engine.format.errors import ScenarioError
from engine.format.writer import to_document
from engine.forward.top_k import top_k
from engine.scenario.resize import Sizes, resize

X = [[1.0, 0.0], [0.0, 2.0], [1.0, -1.0]]
ROUTER = [[1.0, 0.0, -1.0], [0.0, 0.5, 0.5]]  # d = 2, E = 3
EXPERTS = [{"W1": [[1.0], [0.0]], "W2": [[1.0, 1.0]]},  # expert e: relu(x · W1) · W2
           {"W1": [[0.0], [1.0]], "W2": [[2.0, 0.0]]},
           {"W1": [[1.0], [1.0]], "W2": [[0.0, -1.0]]}]


def document(router: Any = ROUTER, top: int = 2, normalize: bool = True) -> dict[str, Any]:
    """Three tokens through one layer with no norms and a zero attention (Wv = 0), so the
    feed-forward reads X itself."""
    zeros = [[0.0, 0.0], [0.0, 0.0]]
    return {"format": "qkv-studio", "version": 2, "tokens": ["a", "b", "c"], "X": X,
            "layers": [{"attention": {"heads": 1, "Wq": zeros, "Wk": zeros, "Wv": zeros},
                        "block": {"norm": "none", "placement": "pre",
                                  "ffn": {"router": router, "top_k": top, "normalize": normalize,
                                          "experts": EXPERTS}}}]}


def test_the_router_chooses_and_weighs_and_the_chosen_experts_are_summed() -> None:
    trace = compute(parse_scenario(document()))
    a = trace.arrays
    # Token a = (1, 0): logits (1, 0, −1); token b = (0, 2): (0, 1, 1); token c: (1, −0.5, −1.5).
    logits = [[1.0, 0.0, -1.0], [0.0, 1.0, 1.0], [1.0, -0.5, -1.5]]
    np.testing.assert_array_equal(a["L1.router_logits"], logits)
    for i, row in enumerate(logits):
        total = sum(math.exp(v) for v in row)
        np.testing.assert_allclose(a["L1.router_shares"][i], [math.exp(v) / total for v in row],
                                   rtol=0, atol=1e-15)
    # Token b ties experts 1 and 2 (logits 1 and 1): torch.topk gives them as (1, 2).
    np.testing.assert_array_equal(a["L1.router_chosen"], [[0, 1], [1, 2], [0, 1]])
    # Renormalised: a's two shares e¹ : e⁰, b's equal, c's e¹ : e^−0.5.
    expected = [[math.e / (math.e + 1), 1 / (math.e + 1)], [0.5, 0.5],
                [1 / (1 + math.exp(-1.5)), math.exp(-1.5) / (1 + math.exp(-1.5))]]
    np.testing.assert_allclose(a["L1.router_weights"], expected, rtol=0, atol=1e-15)
    # Experts: e0(x) = relu(x₀)·(1, 1), e1(x) = relu(x₁)·(2, 0), e2(x) = relu(x₀ + x₁)·(0, −1).
    first = [[1.0, 1.0], [4.0, 0.0], [1.0, 1.0]]  # a: e0, b: e1, c: e0
    second = [[0.0, 0.0], [0.0, -2.0], [0.0, 0.0]]  # a: e1, b: e2, c: e1
    np.testing.assert_array_equal(a["L1.expert_out"], [first, second])
    out = [[expected[i][0] * first[i][j] + expected[i][1] * second[i][j] for j in range(2)]
           for i in range(3)]
    np.testing.assert_allclose(a["L1.ffn_out"], out, rtol=0, atol=1e-15)
    np.testing.assert_allclose(a["L1.resid2"], np.array(X) + out, rtol=0, atol=1e-15)
    assert [s.op for s in trace.steps if s.layer == 1][-3:] == ["router", "experts", "residual"]


def test_without_normalize_the_weights_are_the_chosen_shares() -> None:
    trace = compute(parse_scenario(document(top=1, normalize=False)))
    shares, weights = trace.arrays["L1.router_shares"], trace.arrays["L1.router_weights"]
    np.testing.assert_array_equal(weights[:, 0], shares.max(axis=1))
    assert weights[0, 0] < 1


def test_a_router_of_zeros_chooses_the_experts_torch_chooses() -> None:
    # Every share is 1/3: torch.topk (2.13, CPU) gives experts 0 and 1.
    trace = compute(parse_scenario(document(router=[[0.0] * 3, [0.0] * 3])))
    np.testing.assert_array_equal(trace.arrays["L1.router_chosen"], [[0, 1]] * 3)
    np.testing.assert_array_equal(trace.arrays["L1.router_weights"], [[0.5, 0.5]] * 3)


@pytest.mark.parametrize(("experts", "chosen"), [(3, [0, 1]), (4, [2, 3]), (8, [6, 5])])
def test_equal_shares_are_chosen_in_torch_topks_order(experts: int, chosen: list[int]) -> None:
    # torch.topk(torch.full((1, E), 1 / E), 2).indices, printed by torch 2.13 on the CPU: not
    # the lower expert first (its nth_element's pivots). Checked live on tie-filled rows in
    # test_engine_checkpoint_transformers.py.
    np.testing.assert_array_equal(top_k(np.full((1, experts), 1 / experts), 2), [chosen])


def test_the_document_written_reads_back_as_the_same_numbers() -> None:
    scenario = parse_scenario(document(normalize=False))
    again = parse_scenario(json.loads(json.dumps(to_document(scenario))))
    assert not again.layers[0].block.ffn.normalize  # type: ignore[union-attr]
    first, second = compute(scenario), compute(again)
    for name in ("L1.router_weights", "L1.expert_out", "L1.ffn_out"):
        np.testing.assert_array_equal(first.arrays[name], second.arrays[name])


@pytest.mark.parametrize(("change", "place", "words"), [
    (lambda f: f["experts"].pop(), "layers.0.block.ffn.experts",
     "expected a list of 3 feed-forwards (one per router column)"),
    (lambda f: f.update(top_k=4), "layers.0.block.ffn.top_k", "3"),
    (lambda f: f.update(router=[[1.0, 2.0, 3.0]]), "layers.0.block.ffn.router", "d=2"),
    (lambda f: f["experts"][2].pop("W2"), "layers.0.block.ffn.experts.2.W2", "missing"),
    (lambda f: f.update(normalize="yes"), "layers.0.block.ffn.normalize", "true or false"),
])
def test_a_wrong_mixture_is_refused_at_its_place(change: Any, place: str, words: str) -> None:
    doc = copy.deepcopy(document())
    change(doc["layers"][0]["block"]["ffn"])
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert refused.value.place == place
    assert words in str(refused.value)


def test_a_wider_model_keeps_the_routers_numbers_and_pads_its_new_row_with_zeros() -> None:
    scenario = parse_scenario(document())
    old = Sizes.of(scenario)
    # no Wo: the value columns are the block's width, so d_v widens with d
    wider = resize(scenario, Sizes(n=old.n, d=old.d + 1, d_k=old.d_k, d_v=old.d_v + 1,
                                   heads=old.heads))
    router = wider.document["layers"][0]["block"]["ffn"]["router"]
    np.testing.assert_array_equal(router, [*ROUTER, [0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(wider.document["layers"][0]["block"]["ffn"]["experts"][1]["W1"],
                                  [[0.0], [1.0], [0.0]])
    parse_scenario(wider.document)  # the engine reads it back


def test_a_mixtures_output_is_normed_by_the_blocks_output_norm() -> None:
    """Gemma 2's output norm (gamma4) applies to the mixture's ffn_out as to any feed-forward's:
    resid2 = resid1 + RMSNorm(ffn_out) · γ₄, computed here from the trace's ffn_out."""
    doc = document()
    block = doc["layers"][0]["block"]
    block.update(norm="rmsnorm", eps=1e-6, gamma4=[2.0, 0.5], beta4=[0.0, 0.0])
    a = compute(parse_scenario(doc)).arrays
    out = a["L1.ffn_out"]
    normed = out / np.sqrt((out ** 2).mean(axis=1, keepdims=True) + 1e-6) * [2.0, 0.5]
    np.testing.assert_allclose(a["L1.norm4"], normed, rtol=0, atol=1e-14)
    np.testing.assert_allclose(a["L1.resid2"], a["L1.resid1"] + normed, rtol=0, atol=1e-14)
    assert np.abs(normed - out).max() > 0.1  # the norm is no formality here
