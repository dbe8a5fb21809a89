"""What a norm step reads: the source and γ, and β only where the norm adds it. RMSNorm has no
shift, so its steps read no β (a frame's "reads:" line and every consumer follow the step); an
edit of a β that RMSNorm does not use changes the document and no number."""

from __future__ import annotations

import numpy as np
import pytest

from engine import compute, explain, parse_scenario
from engine.forward.retrace import first_reader, retraced
from engine.scenario.edit import with_cell
from tests.engine.test_engine_retrace import assert_same
from tests.engine.v2_documents import CASES

RMS_CASES = ["pre_norm_rmsnorm_head_default_norm", "post_norm_rmsnorm_2_layers_default_head_norm",
             "encoder_decoder_rmsnorm_default_final_norm"]


@pytest.mark.parametrize("case", RMS_CASES)
def test_an_rmsnorm_step_reads_its_source_and_gamma_only(case: str) -> None:
    trace = compute(parse_scenario(CASES[case]()))
    norms = [step for step in trace.steps if step.op == "norm"]
    assert len(norms) >= 4
    for step in norms:
        assert len(step.reads) == 2, step.id
        assert step.reads[1].rsplit(".", 1)[-1].startswith("gamma"), step.id
        assert not any("beta" in name for name in step.reads), step.id


def test_a_layernorm_step_still_reads_beta() -> None:
    trace = compute(parse_scenario(CASES["parallel_residual"]()))
    step = trace.steps[trace.step_index("L1.norm1")]
    assert step.reads == ("X", "layers.0.block.gamma1", "layers.0.block.beta1")


def test_an_rmsnorm_cell_is_explained_with_gamma_and_no_shift() -> None:
    scenario = parse_scenario(CASES["pre_norm_rmsnorm_head_default_norm"]())
    trace = compute(scenario)
    x, gamma = trace.arrays["X"][1], scenario.parameter("layers.0.block.gamma1")
    want = x[2] / np.sqrt(np.mean(x ** 2) + 1e-5) * gamma[2]
    assert trace.arrays["L1.norm1"][1, 2] == pytest.approx(want, abs=1e-12)
    said = explain(trace, "L1.norm1", (1, 2))
    assert said.text().startswith("L1.norm1[1,2] = x / √(mean(x²) + ε) · γ = 0.91 / √(")
    assert f"= {want:.6f}" in said.text() and "β" not in said.text()


@pytest.mark.parametrize("case", RMS_CASES[:2])
def test_an_edit_of_an_unused_beta_changes_the_document_and_no_number(case: str) -> None:
    scenario = parse_scenario(CASES[case]())
    before = compute(scenario)
    for path in ("layers.0.block.beta1", "layers.1.block.beta2"):
        after = with_cell(scenario, path, (1,), 7.5)
        assert after.parameter(path)[1] == 7.5 and scenario.parameter(path)[1] != 7.5
        assert first_reader(before, path) == 0  # no step reads it: worked again from the start
        again = compute(after)
        assert_same(retraced(before, after, first_reader(before, path)), again)
        for name, array in before.arrays.items():
            assert np.array_equal(again.arrays[name], array), name
