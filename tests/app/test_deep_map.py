"""The map of where you are for a model of any depth: the layers away from the current one are
folded into ranges (``Layers 8–12 ▸``), so a 12-layer GPT-2's map prints its words about 6.5 px
tall in a 1024 × 768 window with View → Focus (its 23 boxes printed 4.8 px), and a 40-layer
model's map has as many boxes as a 12-layer one's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from app.canvas import FrameItem, FrameOptions
from app.canvas.context import LayoutContext
from app.canvas.route_map import SIZE, RouteMap, route_map
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import Trace, load_scenario
from tests.app.driving import close_window
from tests.app.legibility import device_scale, digit_ink, focused_window
from tests.app.stacks import stacked
from tests.bench.timing import gpt2_stack
from tests.conftest import settings_in

pytestmark = pytest.mark.usefixtures("qapp")

LAYER_STEPS = ["Norm", "Q/K/V", "scores", "mask + softmax", "mix V · Wo", "+ residual", "Norm",
               "FFN", "+ residual"]
"""G01's layer on the map."""


@pytest.fixture(scope="module")
def g01() -> dict[int, Trace]:
    """G01's layer stacked 3, 12 and 40 deep."""
    scenario = load_scenario(example_path("g01"))
    return {layers: stacked(scenario, layers) for layers in (3, 12, 40)}


def labels(trace: Trace, step: str, lang: str = "en") -> list[str]:
    """The labels of the map a frame of ``step`` draws (the map alone: a 40-layer document's
    first frame measures all its 363 steps for its type scale, 25 s of this module's time)."""
    drawn = route_map(LayoutContext(trace, FrameOptions(lang=lang)),
                      trace.steps[trace.step_index(step)])
    return [box.label.text for box in drawn.boxes]


def test_the_layers_away_from_the_current_one_fold_into_ranges(g01: dict[int, Trace]) -> None:
    """At layer 6 of 12: layers 1–4 and 8–12 are one box each, 5 and 7 keep theirs; each
    range jumps to the same step in its layer nearest to layer 6 and says so on hover."""
    trace = g01[12]
    assert labels(trace, "L6.scores") == ["Layers 1–4 ▸", "Layer 5 ▸", *LAYER_STEPS,
                                          "Layer 7 ▸", "Layers 8–12 ▸", "final Norm", "logits",
                                          "probs"]
    assert labels(trace, "L6.scores", "zh")[:2] == ["第 1–4 层 ▸", "第 5 层 ▸"]
    assert labels(trace, "L6.scores", "zh")[-4] == "第 8–12 层 ▸"
    frame = FrameItem(trace, trace.step_index("L6.scores"), FrameOptions())
    assert frame.route_map is not None
    boxes = frame.route_map.boxes
    assert [trace.steps[boxes[k].step_index].id for k in (0, 1, 11, 12)] == \
        ["L4.scores", "L5.scores", "L7.scores", "L8.scores"]
    assert boxes[0].description == "Layers 1–4: the same step in Layer 4"
    assert boxes[12].description == "Layers 8–12: the same step in Layer 8"


def test_the_ends_of_the_stack_keep_the_layer_next_to_them(g01: dict[int, Trace]) -> None:
    """At layer 1 layer 2 keeps its box and 3–12 are one; at the head the last layer keeps its
    box and 1–11 are one."""
    trace = g01[12]
    assert labels(trace, "L1.norm1") == [*LAYER_STEPS, "Layer 2 ▸", "Layers 3–12 ▸",
                                         "final Norm", "logits", "probs"]
    assert labels(trace, "probs") == ["Layers 1–11 ▸", "Layer 12 ▸", "final Norm", "logits",
                                      "probs"]


@pytest.mark.slow
def test_any_depth_has_the_same_number_of_boxes(g01: dict[int, Trace]) -> None:
    """40 layers draw as many boxes as 12 at the same place, never more than 16 (9 steps of
    the layer, the head's 3, two layers next to it, two ranges); 3 layers keep a box each."""
    for step in ("L1.scores", "L6.scores", "probs"):
        assert len(labels(g01[40], step)) == len(labels(g01[12], step)), step
    for step in ("L6.scores", "L20.ffn", "L39.mix", "L40.norm1"):
        assert len(labels(g01[40], step)) <= 16, step
    assert labels(g01[3], "probs") == ["Layer 1 ▸", "Layer 2 ▸", "Layer 3 ▸", "final Norm",
                                       "logits", "probs"]
    assert labels(g01[3], "L1.scores")[-5:-3] == ["Layer 2 ▸", "Layer 3 ▸"]


@pytest.fixture(scope="module")
def gpt2_12(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioWindow]:
    """A GPT-2-small-shaped model of 12 layers (d 768, 12 heads, 20 tokens; a vocabulary of
    1000 keeps it quick) in the window at 1024 × 768, View → Focus on the frame, made with
    settings of its own (with a session another test saved, L1.weights' map printed 6.0 px)."""
    settings_in(tmp_path_factory.mktemp("settings"))
    window = focused_window(gpt2_stack())
    yield window
    close_window(window)


MAP_DIGITS = 6.3
"""The map's digits in the window at 1024 × 768 with Focus, px (23 boxes: 4.8)."""


@pytest.mark.parametrize("step", ["L1.weights", "L6.scores", "L12.ffn", "probs"])
def test_a_12_layer_map_is_readable_in_the_window(gpt2_12: StudioWindow, step: str) -> None:
    trace = gpt2_12.state.trace
    assert len(trace.steps) == 12 * 9 + 3  # final norm, logits, probs
    gpt2_12.state.set_step(trace.step_index(step))
    QApplication.processEvents()
    assert gpt2_12.canvas.fitted
    frame = gpt2_12.canvas.frame
    assert isinstance(frame, FrameItem)
    (route,) = frame.items_of(RouteMap)
    assert len(route.boxes) <= 16
    pixels = digit_ink(SIZE) * device_scale(route.boxes[0].label, gpt2_12.canvas)
    assert pixels >= MAP_DIGITS, (step, pixels)
