"""The trace is a tape of typed operations: every step names its op kind and axes."""

from __future__ import annotations

from typing import get_args

from engine import compute, load_scenario
from engine.forward.trace import Op
from tests.examples import EXAMPLES


def test_f11_attention_alone_is_inputs_projection_scores_weights_mix() -> None:
    trace = compute(load_scenario(EXAMPLES / "f11.qkv.json"))
    assert [(s.id, s.op) for s in trace.steps] == [
        ("inputs", "inputs"), ("projections", "projection"), ("scores", "scores"),
        ("weights", "weights"), ("mix", "mix")]
    assert {s.keys for s in trace.steps if s.op in ("scores", "weights", "mix")} == {"tokens"}
    assert {(s.scope, s.layer, s.stack, s.rows) for s in trace.steps} == {
        ("", 0, "decoder", "tokens")}


def test_a_pre_norm_block_names_its_norms_residuals_and_head_by_op() -> None:
    trace = compute(load_scenario(EXAMPLES / "g01.qkv.json"))
    ops = {s.id: s.op for s in trace.steps}
    assert ops["norm1"] == ops["norm2"] == "norm"
    assert ops["resid1"] == ops["resid2"] == "residual"
    assert ops["ffn"] == "ffn"
    assert [s.op for s in trace.steps if s.op in ("logits", "probs")] in ([], ["logits", "probs"])
    assert {s.module for s in trace.steps if s.op == "norm"} == {"block"}


def test_the_printed_trace_carries_the_op_kind() -> None:
    trace = compute(load_scenario(EXAMPLES / "f11.qkv.json"))
    printed = trace.to_json()["steps"]
    assert [step["op"] for step in printed] == ["inputs", "projection", "scores", "weights",
                                                "mix"]
    assert printed[2]["keys"] == "tokens"


def test_every_step_of_every_example_has_a_known_op_and_a_unique_id() -> None:
    for path in sorted(EXAMPLES.glob("*.qkv.json")):
        steps = compute(load_scenario(path)).steps
        assert {s.op for s in steps} <= set(get_args(Op)), path.name
        assert len({s.id for s in steps}) == len(steps), path.name


def test_the_encoders_own_attention_is_told_as_self_attention_not_cross_attention() -> None:
    trace = compute(load_scenario(EXAMPLES / "encoder-decoder.qkv.json"))
    keys = {s.id: s.explain_key for s in trace.steps}
    assert keys["enc.L1.projections"] == "attention.projections"
    assert keys["enc.L1.scores"] == "attention.scores"
    assert keys["L1.projections"] == "attention.projections"
    assert keys["L1.cross.projections"] == "cross_attention.projections"
    assert keys["L1.cross.weights"] == "cross_attention.weights"
