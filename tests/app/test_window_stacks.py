"""A stack in the window: the timeline groups steps by layer, the map jumps between layers, the
CLI picks steps by id. The stacks are G01's layer repeated, computed (tests/app/stacks.py)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.context import LayoutContext
from app.canvas.side_by_side import CompareFrameItem
from app.export.job import run_export
from app.export.settings import ExportRequest, parse_steps
from app.model.examples import example_path
from app.texts import step_title
from app.texts.printed import printed_places
from app.window.studio import StudioWindow
from engine import Trace, compute, format_number, load_scenario, parse_scenario
from engine.arithmetic.differences import compare, matching_step
from tests.app.driving import close_window, open_window
from tests.app.stacks import stack_document, stacked, with_encoder
from tests.app.test_canvas_tape import three_positions


@pytest.fixture
def g01_stacked(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "g01")
    trace = stacked(window.state.scenario, 3)
    window.state.show(trace.scenario, trace)
    yield window
    close_window(window)


def test_the_timeline_groups_three_layers_and_the_head(g01_stacked: StudioWindow) -> None:
    timeline = g01_stacked.timeline
    groups = timeline.layer_groups
    assert [g.text() for g in groups] == ["▾ Layer 1", "▾ Layer 2", "▾ Layer 3", "▾ Head"]
    assert [len(g.steps) for g in groups] == [9, 9, 9, 3]
    assert groups[1].steps == list(range(9, 18))
    assert len(timeline.step_group.buttons()) == 30  # 27 layer steps and the head's 3
    assert timeline.step_group.button(9).text() == "10 norm1"  # the group names the layer


def test_a_collapsed_layer_hides_its_steps_but_the_current_one(
        qtbot: QtBot, g01_stacked: StudioWindow) -> None:
    timeline = g01_stacked.timeline
    g01_stacked.state.set_step(g01_stacked.state.trace.step_index("L2.scores"))
    group = timeline.layer_groups[1]
    qtbot.mouseClick(group, Qt.MouseButton.LeftButton)
    assert group.text() == "▸ Layer 2"
    shown = [k for k in group.steps if timeline.step_group.button(k).isVisibleTo(timeline)]
    assert shown == [g01_stacked.state.step] == [11]
    assert "collapsed" in group.accessibleName() and "9 steps" in group.accessibleName()
    qtbot.mouseClick(group, Qt.MouseButton.LeftButton)
    assert all(timeline.step_group.button(k).isVisibleTo(timeline) for k in group.steps)


def test_a_version_1_document_keeps_one_flat_row(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        assert window.timeline.layer_groups == []
        assert window.timeline.step_group.button(0).text() == "1 norm1"
    finally:
        close_window(window)


def map_labels(window: StudioWindow) -> list[str]:
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.route_map is not None
    return [box.label.text for box in frame.route_map.boxes]


def test_the_map_opens_the_current_layer_and_its_layer_boxes_jump_to_the_same_step(
        qtbot: QtBot, g01_stacked: StudioWindow) -> None:
    trace: Trace = g01_stacked.state.trace
    g01_stacked.state.set_step(trace.step_index("L1.scores"))
    labels = map_labels(g01_stacked)
    assert labels[:9] == ["Norm", "Q/K/V", "scores", "mask + softmax", "mix V · Wo",
                          "+ residual", "Norm", "FFN", "+ residual"]
    assert labels[9:11] == ["Layer 2 ▸", "Layer 3 ▸"]
    frame = g01_stacked.canvas.frame
    assert isinstance(frame, FrameItem) and frame.route_map is not None
    box = frame.route_map.boxes[10]
    assert box.step_index == trace.step_index("L3.scores")
    g01_stacked.canvas.fit()
    qtbot.wait(50)
    point = g01_stacked.canvas.mapFromScene(box.mapToScene(box.boundingRect().center()))
    qtbot.mouseClick(g01_stacked.canvas.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(point.x(), point.y()))
    qtbot.waitUntil(lambda: trace.steps[g01_stacked.state.step].id == "L3.scores", timeout=2000)
    assert map_labels(g01_stacked)[:2] == ["Layer 1 ▸", "Layer 2 ▸"]
    assert g01_stacked.canvas.frame.heading.text.endswith(step_title(
        trace.steps[g01_stacked.state.step], trace.scenario, "en"))
    assert g01_stacked.canvas.frame.heading.text.endswith("Layer 3 · Scores q·k, divided by √dₖ")


def test_steps_are_chosen_by_id_range_or_layer() -> None:
    ids = ["embed", "L1.norm1", "L1.scores", "L2.norm1", "L2.scores", "L2.cross.scores",
           "logits"]
    assert parse_steps("L2.scores", 7, ids) == (4,)
    assert parse_steps("L1.scores-L2.scores", 7, ids) == (2, 3, 4)
    assert parse_steps("L2", 7, ids) == (3, 4, 5)
    assert parse_steps("3", 7, ids) == (2,)
    with pytest.raises(ValueError, match=r"step id such as L2\.scores"):
        parse_steps("L9.scores", 7, ids)
    with pytest.raises(ValueError, match="comes after"):
        parse_steps("L2.scores-L1.scores", 7, ids)


def test_an_encoder_shorter_than_the_decoder_steps_in_the_window(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        trace = with_encoder(three_positions().scenario, load_scenario(example_path("g01")))
        window.state.show(trace.scenario, trace)
        window.state.set_receiver(2)
        window.state.set_step(trace.step_index("enc.L1.weights"))
        summary = window.state.shares_summary()
        # The encoder's last row, p2, of G01 unmasked: its LayerNormed rows are ±[1, −1]/σ
        # (σ = √(0.25 + 1e-5), √(1 + 1e-5)), identity Q and K, scaled by √2.
        rows = np.array([[1.0, 0.0], [0.0, 2.0]])
        normed = (rows - rows.mean(axis=1, keepdims=True)) / np.sqrt(
            rows.var(axis=1, keepdims=True) + 1e-5)
        scores = normed @ normed[1] / math.sqrt(2)
        shares = np.exp(scores) / np.exp(scores).sum()
        np.testing.assert_allclose(trace.arrays["enc.L1.weights"][0, 1], shares)
        places = printed_places(trace)  # the frame's decimals: six for this small block
        assert places == 6
        printed = " / ".join(format_number(float(v), places) for v in shares)
        assert summary == f"shares for p2: {printed}"  # the last row of the encoder
        assert window.timeline.layer_groups[0].text() == "▾ Encoder · Layer 1"
        assert window.canvas.frame is not None
    finally:
        close_window(window)


def test_compare_pairs_the_same_layers_step_and_marks_what_differs(qtbot: QtBot) -> None:
    g01 = load_scenario(example_path("g01"))
    a = stacked(g01, 2)
    document = stack_document(g01, 2)
    document["layers"][1]["attention"]["scale"] = False  # layer 2's scores, unscaled
    b = compute(parse_scenario(document))
    np.testing.assert_allclose(b.arrays["L2.scores"], a.arrays["L2.scores"] * math.sqrt(2))
    np.testing.assert_array_equal(b.arrays["L1.scores"], a.arrays["L1.scores"])
    index = a.step_index("L2.scores")
    titles = (step_title(a.steps[index], a.scenario, "en"),
              step_title(b.steps[matching_step(a, b, index)], b.scenario, "en"))
    item = CompareFrameItem(a, b, compare(a, b), index, FrameOptions(), titles=titles)
    assert item.changed == ["L2.scores"]
    assert item.b_frame.heading.text.endswith("B · B: Layer 2 · Scores q·k")
    shown = {name for name, _grid in item.b_frame.context.made}
    assert "L2.scores" in shown and "scores" not in shown
    difference = b.arrays["L2.scores"] - a.arrays["L2.scores"]
    assert item.max_differences["L2.scores"] == format_number(
        float(np.abs(difference).max()), LayoutContext.places_for(a))


def test_a_stack_exports_one_png_per_step_of_a_chosen_layer(
        qtbot: QtBot, tmp_path: Path) -> None:
    trace = stacked(load_scenario(example_path("g01")), 3)
    ids = [s.id for s in trace.steps]
    steps = parse_steps("L2", len(ids), ids)
    request = ExportRequest(format="png", steps=steps, destination=tmp_path, name="stack",
                            width=640)
    written = run_export(trace, request)
    assert [p.name for p in written] == [f"stack-step{k + 1:02d}.png" for k in range(9, 18)]
    assert all(p.stat().st_size > 1000 for p in written)
