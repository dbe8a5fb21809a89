"""The painter reads the tape: every picture of a stacked trace shows its own layer's arrays.

The stacks are G01's layer repeated (tests/app/stacks.py), computed by the engine: layer 2 reads
layer 1's output, so its numbers are G01's layer computed on those rows, and a picture that read
version-1 names (``scores`` instead of ``L2.scores``) would show layer 1's numbers, or fail on a
name the trace does not have.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.arrows import AttentionArrows
from app.canvas.describe import describe_frame
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.route_map import step_label
from app.model.examples import example_path
from app.model.operands import display_name, module_of
from app.texts import step_text, step_title
from app.texts.step_labels import step_groups
from engine import Trace, compute, format_number, load_scenario, parse_scenario
from tests.app.stacks import layer_on, stacked, with_encoder
from tests.examples import trace_of


def g01(layers: int) -> Trace:
    return stacked(load_scenario(example_path("g01")), layers)


def second_layer(trace: Trace) -> Trace:
    """G01's layer computed alone on the rows that layer 1 of ``trace`` hands on: layer 2's
    numbers, computed apart from the stack."""
    return layer_on(load_scenario(example_path("g01")), trace.arrays["L1.resid2"])


def grids(trace: Trace, step_id: str) -> dict[str, MatrixGrid]:
    frame = FrameItem(trace, trace.step_index(step_id), FrameOptions(receiver=1))
    return {grid.spec.title: grid for grid in frame.items_of(MatrixGrid)}


def test_every_step_of_a_two_layer_stack_draws_its_own_layers_arrays(qtbot: QtBot) -> None:
    plain = compute(load_scenario(example_path("g01")))
    trace = g01(2)
    alone = second_layer(trace)
    compared = 0
    for step in trace.steps:
        if step.layer != 2:
            continue
        version1 = step.id.removeprefix("L2.")
        shown = grids(trace, step.id)
        version1_titles = list(grids(plain, version1))
        own = [f"resid2{title[1:]}" if title.split(" ")[0] == "X" else title
               for title in version1_titles]  # layer 2 reads layer 1's output
        assert list(shown) == own, step.id
        for (title, grid), version1_title in zip(shown.items(), version1_titles, strict=True):
            name = version1_title.split(" ")[0]
            if name in alone.arrays and alone.arrays[name].ndim == 2 and name != "X":
                np.testing.assert_allclose(grid.spec.values, alone.arrays[name],
                                           err_msg=f"{step.id}: {title}")
                assert not np.array_equal(grid.spec.values, plain.arrays[name]), (step.id, title)
                compared += 1
    assert compared >= 8


def test_layer_two_shares_and_arrows_are_layer_twos_own(qtbot: QtBot) -> None:
    trace = g01(2)
    expected = second_layer(trace).arrays["weights"]
    shares = grids(trace, "L2.weights")["shares"]
    np.testing.assert_allclose(shares.spec.values, expected[0])
    assert not np.allclose(shares.spec.values, trace.arrays["L1.weights"][0])
    frame = FrameItem(trace, trace.step_index("L2.weights"), FrameOptions(receiver=1))
    (arrows,) = frame.items_of(AttentionArrows)
    np.testing.assert_allclose(arrows.spec.weights, expected)


def test_norm_statistics_come_from_the_layers_own_trace_array(qtbot: QtBot) -> None:
    trace = g01(2)
    stats = grids(trace, "L2.norm2")["per row"]
    np.testing.assert_array_equal(stats.spec.values, trace.arrays["L2.norm2_stats"])
    assert not np.allclose(stats.spec.values, trace.arrays["L1.norm2_stats"])
    source = compute(load_scenario(example_path("g01"))).arrays["resid1"]  # layer 1's rows
    np.testing.assert_allclose(trace.arrays["L1.norm2_stats"][:, 1], source.var(axis=1))
    rows = second_layer(trace).arrays["resid1"]  # layer 2's rows, computed apart
    np.testing.assert_allclose(stats.spec.values[:, 1], rows.var(axis=1))


def test_titles_name_the_layer_in_both_languages(qtbot: QtBot) -> None:
    trace = g01(2)
    step = trace.steps[trace.step_index("L2.scores")]
    plain = compute(load_scenario(example_path("g01")))
    shorthand = plain.steps[plain.step_index("scores")]
    assert step.title == "Layer 2: " + shorthand.title  # the engine's label
    assert step_title(step, trace.scenario, "en") == "Layer 2 · " + shorthand.title
    assert step_title(step, trace.scenario, "zh").startswith("第 2 层 · 分数")
    assert step_title(shorthand, plain.scenario, "en") == shorthand.title


def test_texts_and_map_labels_follow_the_layer(qtbot: QtBot) -> None:
    trace = g01(2)
    index = trace.step_index("L2.resid1")
    text = step_text(trace, index, "en", receiver=1)
    row = second_layer(trace).arrays["resid1"][1]  # layer 2's resid1, row p2
    assert f"= [{format_number(row[0], 6)}, {format_number(row[1], 6)}]." in text.how
    assert format_number(trace.arrays["L1.resid1"][1, 1], 6) not in text.how
    assert step_label(trace, trace.steps[index], "en") == "+ residual"


def test_timeline_groups_a_stack_by_layer_and_keeps_version_1_flat(qtbot: QtBot) -> None:
    trace = g01(3)
    groups = step_groups(trace.steps, "en")
    assert groups.count("Layer 1") == groups.count("Layer 2") == groups.count("Layer 3") == 9
    assert groups[-3:] == ["Head"] * 3
    assert step_groups(trace.steps, "zh")[0] == "第 1 层"
    plain = compute(load_scenario(example_path("g01")))
    assert step_groups(plain.steps, "en") == [""] * 12


def test_the_engines_layer_label_becomes_the_titles_layer_prefix(qtbot: QtBot) -> None:
    trace = g01(2)
    step = trace.steps[trace.step_index("L2.scores")]
    assert step.title == "Layer 2: Scores q·k, divided by √dₖ"
    assert step_title(step, trace.scenario, "en") == "Layer 2 · Scores q·k, divided by √dₖ"
    cross = replace(step, keys="enc.tokens")
    assert step_title(cross, trace.scenario, "en") == \
        "Layer 2 · Cross-attention · Scores q·k, divided by √dₖ"
    assert step_title(cross, trace.scenario, "zh").startswith("第 2 层 · 交叉注意力 · 分数")


def test_cross_attention_steps_are_told_with_the_encoders_tokens(qtbot: QtBot) -> None:
    trace = trace_of("encoder-decoder")
    text = step_text(trace, trace.step_index("L1.cross.scores"), "en", receiver=1)
    assert "“I”'s key" in text.how and "“love”'s key" in text.how
    zh = step_text(trace, trace.step_index("L1.cross.scores"), "zh", receiver=1)
    assert "I" in zh.how


def three_positions() -> Trace:
    """G01 with a third position (p3 = [1, 1]): a decoder longer than G01 as an encoder."""
    document = json.loads(example_path("g01").read_text(encoding="utf-8"))
    document["tokens"] = ["p1", "p2", "p3"]
    document["X"] = [*document["X"], [1, 1]]
    return compute(parse_scenario(document))


def test_encoder_steps_label_rows_with_the_encoders_tokens(qtbot: QtBot) -> None:
    trace = with_encoder(three_positions().scenario, load_scenario(example_path("g01")))
    for step in trace.steps[:9]:  # receiver p3 has no row in the two-token encoder
        item = FrameItem(trace, trace.step_index(step.id), FrameOptions(receiver=2))
        for name, grid in item.context.made:  # every trace array's rows, untransposed
            if name in trace.arrays and not grid.spec.title.startswith("Kᵀ"):
                assert list(grid.spec.row_labels) == ["p1", "p2"], (step.id, name)
        assert step_text(trace, trace.step_index(step.id), "en", receiver=2).summary
    weights = FrameItem(trace, trace.step_index("enc.L1.weights"), FrameOptions(receiver=2))
    (arrows,) = weights.items_of(AttentionArrows)
    assert list(arrows.spec.tokens) == ["p1", "p2"] and arrows.spec.receiver == 1
    norm = FrameItem(trace, trace.step_index("enc.L1.norm1"), FrameOptions(receiver=2))
    assert titled_grid(norm, "per row").spec.highlight_rows == frozenset({1})
    assert step_groups(trace.steps, "en")[:9] == ["Encoder · Layer 1"] * 9
    assert describe_frame(trace, 0, FrameOptions(receiver=2), "t").count("p2") >= 1


def titled_grid(item: FrameItem, title: str) -> MatrixGrid:
    return next(g for g in item.items_of(MatrixGrid) if g.spec.title == title)


def test_parameters_at_any_module_path_show_their_short_names() -> None:
    assert display_name("encoder.layers.0.block.gamma1") == "γ1"
    assert display_name("head.beta_f") == "βf"
    assert display_name("layers.2.attention.Wq") == "Wq"
    assert display_name("block.gamma2") == "γ2"


def test_a_negative_row_mean_is_bracketed_after_the_minus(qtbot: QtBot) -> None:
    document = json.loads(example_path("g01").read_text(encoding="utf-8"))
    document["X"] = [[1, 0], [-1, -2]]  # row p2: μ = −1.5
    trace = compute(parse_scenario(document))
    item = FrameItem(trace, trace.step_index("norm1"), FrameOptions(receiver=1))
    lines = [t.text for t in item.items_of(TextItem)]
    divisor = format_number(math.sqrt(0.25 + 1e-5), 6)  # σ² of [−1, −2] is 0.25
    assert f"row p2: (x − (−1.5)) / {divisor} · γ + β" in lines


def test_the_encoders_final_norm_is_named_and_told_as_a_norm(qtbot: QtBot) -> None:
    plain = compute(load_scenario(example_path("g01")))
    step = replace(plain.steps[plain.step_index("final_norm")], stack="encoder",
                   explain_key="encoder.final_norm")
    assert step_title(step, plain.scenario, "zh") == "编码器 · 最终规范化（LayerNorm）"
    trace = Trace(scenario=plain.scenario, arrays=plain.arrays, visible=plain.visible,
                  steps=(*plain.steps[:-3], step))
    text = step_text(trace, len(trace.steps) - 1, "en", receiver=1)
    assert "logit" not in text.summary + text.how  # the norm's text, not the head's


@pytest.mark.parametrize("head", [None, 1])
def test_a_stack_whose_layers_differ_in_heads_draws_every_step(
        qtbot: QtBot, head: int | None) -> None:
    """Layer 3 of three-layers with one head (its `heads` left out): each attention step draws
    its own layer's heads, and a head chosen for the others falls back to the one there is."""
    document = json.loads(example_path("three-layers").read_text(encoding="utf-8"))
    del document["layers"][2]["attention"]["heads"]
    trace = compute(parse_scenario(document))
    weights = [s for s in trace.steps if s.op == "weights"]
    assert [module_of(trace, s).heads for s in weights] == [2, 2, 1]
    options = FrameOptions(head=head)
    drawn = []
    for index, step in enumerate(trace.steps):
        frame = FrameItem(trace, index, options)
        assert describe_frame(trace, index, options, step.title)
        for lang in ("en", "zh"):
            assert step_text(trace, index, lang, head=head or 0)
        if step.op == "weights":
            (arrows,) = frame.items_of(AttentionArrows)
            drawn.append(list(arrows.spec.heads))
    assert drawn == ([[0, 1], [0, 1], [0]] if head is None else [[1], [1], [0]])
