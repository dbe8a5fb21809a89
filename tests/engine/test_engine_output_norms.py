"""A block's norms of its sub-layers' outputs (``gamma3``/``beta3`` after the attention,
``gamma4``/``beta4`` after the feed-forward: Gemma 2's sandwich), against numpy written here."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.arithmetic.cells import explain
from engine.format.writer import to_document
from engine.forward.retrace import first_reader, retraced
from engine.scenario.edit import with_cell
from tests.engine.v2_documents import document

GAMMA3, GAMMA4 = [1.5, 0.5, 2.0, 1.0], [0.8, 1.2, 1.0, 0.4]


def _rms(x: np.ndarray, gamma: list[float], eps: float) -> np.ndarray:
    return np.asarray(gamma) * x / np.sqrt((x * x).mean(-1, keepdims=True) + eps)


def test_the_residuals_add_the_normed_outputs() -> None:
    doc = document(31, block_keys={"norm": "rmsnorm", "gamma3": GAMMA3, "gamma4": GAMMA4})
    trace = compute(parse_scenario(doc))
    a = trace.arrays
    eps = doc["layers"][0]["block"]["eps"]
    norm3 = _rms(a["L1.attn_out"], GAMMA3, eps)
    norm4 = _rms(a["L1.ffn_out"], GAMMA4, eps)
    assert np.abs(a["L1.norm3"] - norm3).max() < 1e-14
    assert np.abs(a["L1.resid1"] - (a["X"] + norm3)).max() < 1e-14
    assert np.abs(a["L1.norm4"] - norm4).max() < 1e-14
    assert np.abs(a["L1.resid2"] - (a["L1.resid1"] + norm4)).max() < 1e-14
    steps = {step.id: step for step in trace.steps}
    assert steps["L1.resid1"].reads == ("X", "L1.norm3")
    assert steps["L1.resid2"].reads == ("L1.resid1", "L1.norm4")
    assert (steps["L1.norm3"].explain_key, steps["L1.norm4"].explain_key) \
        == ("block.norm3", "block.norm4")
    assert steps["L1.norm3"].reads == ("L1.attn_out", "layers.0.block.gamma3")


def test_the_output_norms_are_written_back_as_read() -> None:
    doc = document(32, block_keys={"gamma3": GAMMA3, "beta4": [0.1, 0.0, -0.1, 0.2]})
    block = to_document(parse_scenario(doc))["layers"][0]["block"]
    assert block["gamma3"] == GAMMA3 and block["beta3"] == [0.0] * 4
    assert block["gamma4"] == [1.0] * 4 and block["beta4"] == [0.1, 0.0, -0.1, 0.2]


@pytest.mark.parametrize("keys", [{"placement": "post"}, {"residual": "parallel"}])
def test_an_output_norm_outside_a_sequential_pre_norm_block_is_refused(keys: dict) -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(document(33, block_keys={**keys, "gamma4": GAMMA4}))
    assert refused.value.place == "layers.0.block.gamma4"
    assert "pre-norm block with sequential residuals" in str(refused.value)


def test_an_edited_output_norm_is_worked_again_from_its_step() -> None:
    scenario = parse_scenario(document(35, block_keys={"norm": "rmsnorm", "gamma4": GAMMA4}))
    before = compute(scenario)
    after = with_cell(scenario, "layers.0.block.gamma4", (1,), 3.0)
    start = first_reader(before, "layers.0.block.gamma4")
    assert before.steps[start].id == "L1.norm4"
    again = retraced(before, after, start)
    assert again is not None
    assert np.array_equal(again.arrays["logits"], compute(after).arrays["logits"])
    assert again.arrays["L1.norm4"][:, 1] == pytest.approx(
        before.arrays["L1.norm4"][:, 1] / GAMMA4[1] * 3.0, abs=1e-14)
    assert explain(again, "L1.resid2", (0, 1)).formula.startswith(
        "L1.resid2[0,1] = L1.resid1[0,1] + L1.norm4[0,1] = ")
