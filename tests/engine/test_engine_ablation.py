"""Head ablation (``attention.ablate_heads``): the listed heads' slices of the concatenated heads
are 0 before Wo, and everything after recomputes — checked against numpy written here (G01),
the independent reference (a three-layer stack) and transformers' GPT-2 with the heads zeroed
by hand before ``c_proj``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli import main
from app.texts.problems import problem_words
from engine import ScenarioError, compute, dumps_scenario, explain, parse_scenario
from engine.format.numbers import format_number
from engine.scenario.resize import Sizes, resize
from tests.engine import reference_v2
from tests.examples import EXAMPLES

Doc = dict[str, Any]


def example(name: str) -> Doc:
    document: Doc = json.loads((EXAMPLES / f"{name}.qkv.json").read_text("utf-8"))
    document.pop("exercises", None)
    return document


def _layer_norm(x: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + eps)


def test_g01_with_its_one_head_ablated_passes_x_unchanged_to_the_feed_forward() -> None:
    doc = example("g01")
    doc["attention"]["ablate_heads"] = [0]
    trace = compute(parse_scenario(doc))
    # By hand: the head's output is 0 and there is no bo, so the first residual is X itself;
    # then G01's pre-norm FFN (0.5·ReLU), the final LayerNorm and the three-word head.
    x = np.array([[1.0, 0.0], [0.0, 2.0]])
    stream = x + 0.5 * np.maximum(_layer_norm(x), 0.0)
    logits = _layer_norm(stream) @ np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.5]])
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    assert np.array_equal(trace.arrays["mixed"], np.zeros((2, 2)))
    assert np.array_equal(trace.arrays["resid1"], x)
    np.testing.assert_allclose(trace.arrays["logits"], logits, rtol=0, atol=1e-12)
    np.testing.assert_allclose(trace.arrays["probs"], probs, rtol=0, atol=1e-12)
    # Row 0 of the stream is [1, 0] + 0.5·[1, 0]: its logits are ±1 and 1·(−1)+(−1)·0.5.
    np.testing.assert_allclose(trace.arrays["logits"][0], [1.0, -1.0, -1.5], atol=1e-4)
    # The shares are still computed and shown; only the head's output is 0.
    assert np.abs(trace.arrays["weights"] - compute(parse_scenario(example("g01")))
                  .arrays["weights"]).max() == 0.0


def test_an_ablated_head_of_layer_two_changes_what_follows_as_the_reference_computes() -> None:
    doc = example("three-layers")
    plain = compute(parse_scenario(doc)).arrays
    doc["layers"][1]["attention"]["ablate_heads"] = [1]
    trace = compute(parse_scenario(doc))
    expected = reference_v2.forward(doc)
    for name in ("L1.attn_out", "L2.weights", "L2.mixed", "L2.attn_out", "L3.weights",
                 "logits", "probs"):
        np.testing.assert_allclose(trace.arrays[name], expected[name], rtol=0, atol=1e-12)
    assert np.array_equal(trace.arrays["L2.mixed"][:, 2:], np.zeros((3, 2)))
    assert np.array_equal(trace.arrays["L2.mixed"][:, :2], plain["L2.mixed"][:, :2])
    assert np.array_equal(trace.arrays["L1.attn_out"], plain["L1.attn_out"])
    assert np.abs(trace.arrays["probs"] - plain["probs"]).max() > 1e-3


def test_the_mix_step_names_the_ablated_heads_one_based() -> None:
    doc = example("three-layers")
    doc["layers"][0]["attention"]["ablate_heads"] = [1, 0]
    steps = {step.id: step.title for step in compute(parse_scenario(doc)).steps}
    assert steps["L1.mix"].endswith("; ablated (output 0): heads 1, 2")
    assert "ablated" not in steps["L2.mix"]


def test_ablate_heads_is_written_back_and_read_again() -> None:
    doc = example("three-layers")
    doc["layers"][2]["attention"]["ablate_heads"] = [1]
    written = json.loads(dumps_scenario(parse_scenario(doc)))
    assert written["layers"][2]["attention"]["ablate_heads"] == [1]
    assert "ablate_heads" not in written["layers"][0]["attention"]
    assert parse_scenario(written).layers[2].attention.ablate_heads == (1,)


@pytest.mark.parametrize(("value", "place", "english", "chinese"), [
    ([2], "layers.0.attention.ablate_heads[0]", "expected a whole number from 0 to 1, got 2",
     "0"),
    ([1, 1], "layers.0.attention.ablate_heads[1]",
     "head 1 is already listed: give each head once", "头 1 已经列出过"),
    ([-1], "layers.0.attention.ablate_heads[0]", "expected a whole number from 0 to 1, got -1",
     "-1"),
    ([True], "layers.0.attention.ablate_heads[0]", "expected a whole number, got true", "true"),
    (1, "layers.0.attention.ablate_heads", "expected a list of head indexes 0 … 1, got 1",
     "应为头编号（0 … 1）的列表"),
])
def test_a_bad_ablate_heads_is_refused_naming_its_place_in_both_languages(
        value: object, place: str, english: str, chinese: str) -> None:
    doc = example("three-layers")
    doc["layers"][0]["attention"]["ablate_heads"] = value
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    assert str(refused.value) == f"{place}: {english}"
    assert refused.value.place == place
    zh = problem_words(refused.value, "zh")
    assert chinese in zh and zh != refused.value.problem


def test_the_cli_refuses_a_repeated_head_with_exit_2_and_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example("three-layers")
    doc["layers"][1]["attention"]["ablate_heads"] = [0, 0]
    path = tmp_path / "twice.qkv.json"
    path.write_text(json.dumps(doc), "utf-8")
    assert main(["compute", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "layers.1.attention.ablate_heads[1]" in err
    assert "Traceback" not in err


def test_explain_says_a_mixed_cell_of_an_ablated_head_is_0_and_attn_out_still_adds_up() -> None:
    doc = example("three-layers")
    doc["layers"][0]["attention"]["ablate_heads"] = [1]
    trace = compute(parse_scenario(doc))
    told = explain(trace, "L1.mixed", (2, 3))
    assert told.formula.startswith("L1.mixed[2,3] = 0")
    assert "head 2 is ablated (ablate_heads lists 1): its output is set to 0" in told.details
    zh = explain(trace, "L1.mixed", (2, 3), lang="zh")
    assert "第 2 个头已消融（ablate_heads 列出 1）：它的输出被置为 0" in zh.details
    kept = explain(trace, "L1.mixed", (2, 1))
    assert "ablated" not in " ".join(kept.details) and "weights" in kept.formula
    # attn_out = mixed · Wo: the ablated columns enter as 0 and the sum is the cell's value.
    out = explain(trace, "L1.attn_out", (2, 0))
    wo = np.array(doc["layers"][0]["attention"]["Wo"], dtype=float)
    by_hand = float(trace.arrays["L1.mixed"][2] @ wo[:, 0])
    assert by_hand == pytest.approx(float(trace.arrays["L1.attn_out"][2, 0]), abs=1e-15)
    assert "0·" in out.formula and out.formula.endswith(f"= {format_number(by_hand, 6)}")


def test_growing_or_shrinking_heads_keeps_only_ablated_heads_that_remain() -> None:
    doc = example("three-layers")
    doc["layers"][0]["attention"]["ablate_heads"] = [1]
    scenario = parse_scenario(doc)
    one = parse_scenario(resize(scenario, Sizes(n=3, d=4, d_k=2, d_v=2, heads=1)).document)
    assert one.layers[0].attention.ablate_heads == ()
    three = parse_scenario(resize(scenario, Sizes(n=3, d=4, d_k=2, d_v=2, heads=3)).document)
    assert three.layers[0].attention.ablate_heads == (1,)

