"""Opening a whole model without freezing the window (issue 25, "Speed and size"): a document
with a sidecar of weights is read in the worker, the first frame of a document laid out frame by
frame measures only its own step, and the editor builds only the grids of the part it shows."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QElapsedTimer, QPoint, QSizeF, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

import app.canvas.compose as compose_module
import app.files.opening
import app.files.reading
import app.state.big
import engine.format.io
import engine.format.sidecar_write
from app.canvas.compose import (
    FRAME_BY_FRAME_UNDER,
    Fits,
    compose,
    forget,
    legible_composition,
)
from app.canvas.context import FrameOptions, LayoutContext
from app.canvas.frame import FrameItem
from app.editor.model import MatrixModel
from app.editor.pane import SCROLL_MARGIN
from app.editor.table import MatrixTable
from app.model.examples import example_names, example_path
from app.model.parts import part_of
from app.window.studio import StudioWindow
from engine import Scenario, Trace, compute, load_scenario, save_scenario
from engine.format.checkpoint_reference import Relocation
from tests.app.driving import close_window, open_window, type_into
from tests.app.test_editor_stacks import choose_part
from tests.bench.timing import gpt2_shaped

SLOW_READ = 0.8
"""Seconds the slowed reader takes: the window's timer must tick all along."""


class Gaps:
    """A 10-ms timer noting its ticks and the longest gap between them."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.ticks = 0
        self.longest = 0
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.clock.start()
        self.timer.start()

    def _tick(self) -> None:
        self.ticks += 1
        self.longest = max(self.longest, self.clock.restart())


def test_a_document_with_a_sidecar_is_read_in_the_worker_while_the_window_answers(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)  # F11 gets a sidecar
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)
    path = tmp_path / "f11.qkv.json"
    save_scenario(load_scenario(example_path("f11")), path)
    assert (tmp_path / "f11.qkv.json.weights.safetensors").exists()
    readers: list[threading.Thread] = []

    def slowed(file: Path, relocation: Relocation) -> Scenario:
        readers.append(threading.current_thread())
        time.sleep(SLOW_READ)
        return load_scenario(file, relocation)

    for module in (app.files.opening, app.files.reading):
        monkeypatch.setattr(module, "load_scenario", slowed)
    gaps = Gaps()
    assert window.open_path(path)
    gaps.timer.stop()
    assert readers and all(reader is not threading.main_thread() for reader in readers)
    assert gaps.ticks >= 10, "the window's timer stood still while the file was read"
    assert gaps.longest < SLOW_READ * 1000 / 2
    assert window.state.path == path
    assert window.state.scenario.attention.Wq.tobytes() == \
        load_scenario(example_path("f11")).attention.Wq.tobytes()


@pytest.fixture(scope="module")
def gpt2() -> Trace:
    return compute(gpt2_shaped())


Measured = list[tuple[int, float]]


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[Measured]:
    """Every step measured from now on (from empty caches): its index, and the largest scale
    its picture fits at."""
    forget()
    seen: Measured = []
    measure = compose_module._measure_step

    def counted(ctx: LayoutContext, index: int, area: QSizeF) -> tuple[Fits, tuple[str, ...]]:
        fits, shown = measure(ctx, index, area)
        seen.append((index, max(picture for _wrap, picture, _whole in fits)))
        return fits, shown

    monkeypatch.setattr(compose_module, "_measure_step", counted)
    yield seen
    forget()


@pytest.mark.usefixtures("qapp")
@pytest.mark.parametrize("step", [0, 4, 11])
def test_a_frame_of_a_document_under_its_one_scale_measures_no_more_steps_than_needed(
        gpt2: Trace, measured: Measured, step: int) -> None:
    """GPT-2's one scale is under :data:`FRAME_BY_FRAME_UNDER` (0.42): a frame is laid out by
    itself. Its own step is measured first, then the others in order, only until one fits
    under that scale alone (the projections, 64-number slices of a head): a whole model's
    first frame measured all 118 steps."""
    frame = FrameItem(gpt2, step, FrameOptions())
    first = list(dict.fromkeys(index for index, _best in measured))
    one_scale = compose(gpt2, FrameOptions(), frame.area.size()).scale
    best: dict[int, float] = {}
    for index, scale in measured:  # the first measure of a step is its plain layout's
        best.setdefault(index, scale)
    assert sorted(best) == list(range(len(gpt2.steps)))  # compose measured every step
    order = [step, *(k for k in range(len(gpt2.steps)) if k != step)]
    needed = next(k for k, index in enumerate(order) if best[index] < FRAME_BY_FRAME_UNDER)
    assert first == order[:needed + 1]
    assert len(first) <= 3
    assert frame.picture_scale > one_scale


@pytest.mark.usefixtures("qapp")
@pytest.mark.parametrize("name", example_names())
def test_the_shared_composition_is_composes_whenever_it_is_legible(name: str) -> None:
    """Every built-in example: :func:`legible_composition` is :func:`compose`'s composition
    when its scale reaches :data:`FRAME_BY_FRAME_UNDER` (each frame identical), else None."""
    trace = compute(load_scenario(example_path(name)))
    options = FrameOptions()
    area = QSizeF(1840.0, 880.0)
    forget()
    cold = legible_composition(trace, options, area, 0)
    whole = compose(trace, options, area)
    expected = whole if whole.scale >= FRAME_BY_FRAME_UNDER else None
    assert cold == expected
    assert legible_composition(trace, options, area, len(trace.steps) - 1) == expected


def built_grids(window: StudioWindow) -> list[str]:
    """The paths of the array grids the editor has built (not the token tables)."""
    models = (table.model() for table in window.editor.findChildren(MatrixTable))
    return [model.path for model in models if isinstance(model, MatrixModel)]


def test_the_editor_builds_the_grids_of_the_part_it_shows_and_edits_them(
        qtbot: QtBot, stack: StudioWindow) -> None:
    editor = stack.editor
    part = editor.part
    assert sorted(built_grids(stack)) == sorted(p for p in editor.tables if part_of(p) == part)
    assert len(built_grids(stack)) < len(editor.tables) == len(stack.state.scenario
                                                                .parameter_paths())
    choose_part(qtbot, stack, "Layer 3")
    layer3 = [p for p in editor.tables if p.startswith("layers.2.")]
    assert layer3 and set(layer3) <= set(built_grids(stack))
    assert all(editor.tables[p].isVisibleTo(stack) for p in layer3)
    assert not any(editor.tables[p].isVisibleTo(stack) for p in built_grids(stack)
                   if not p.startswith("layers.2."))
    old = stack.state.scenario.parameter("layers.2.block.ffn.W2").copy()
    type_into(qtbot, editor.tables["layers.2.block.ffn.W2"], 1, 0, "4.5")
    assert stack.state.scenario.parameter("layers.2.block.ffn.W2")[1, 0] == 4.5
    assert editor.tables["layers.2.block.ffn.W2"].model().index(1, 0).data() == "4.5"
    stack.undo_action.trigger()
    np.testing.assert_array_equal(stack.state.scenario.parameter("layers.2.block.ffn.W2"), old)
    assert editor.tables["layers.2.block.ffn.W2"].model().index(1, 0).data() != "4.5"
    unbuilt = next(p for p in editor.tables if p not in built_grids(stack))
    assert not editor.tables[unbuilt].isVisibleTo(stack), "built on demand, hidden"


def test_a_big_documents_grids_are_built_one_a_turn_above_first(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every document is big here (``BIG_CELLS = 0``): the grids of a part shown are built
    after the window answers again, one a turn of the event loop; a grid asked for at once is
    built with the part's grids above it, so none is pushed down later."""
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    window = open_window(qtbot, "three-layers")
    try:
        editor = window.editor
        editor.layer_bar.choose("layers.2")  # as the Show box does
        layer3 = [p for p in editor.tables if p.startswith("layers.2.")]
        assert not set(layer3) & set(built_grids(window)), "built before the window answered"
        qtbot.waitUntil(lambda: set(layer3) <= set(built_grids(window)), timeout=3000)
        editor.widget().layout().activate()
        tops = [editor.tables[p].mapTo(editor.widget(), QPoint(0, 0)).y() for p in layer3]
        assert tops == sorted(tops) and all(editor.tables[p].isVisibleTo(window)
                                            for p in layer3)
        editor.layer_bar.choose("layers.1")
        layer2 = [p for p in editor.tables if p.startswith("layers.1.")]
        w2 = editor.tables["layers.1.block.ffn.W2"]
        above = layer2[:layer2.index("layers.1.block.ffn.W2")]
        assert set(above) <= set(built_grids(window))
        type_into(qtbot, w2, 0, 1, "-2.5")
        assert window.state.scenario.parameter("layers.1.block.ffn.W2")[0, 1] == -2.5
        window.state.undo_stack.undo()
        assert window.state.scenario.parameter("layers.1.block.ffn.W2")[0, 1] != -2.5
        qtbot.waitUntil(lambda: set(layer2) <= set(built_grids(window)), timeout=3000)
    finally:
        close_window(window)


def test_a_big_documents_editor_scrolls_to_the_steps_grids_before_the_rest_are_built(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stepping into layer 3's block scrolls its first grid to the top of the editor at once,
    as when every grid was built on opening: enough grids below it are built to scroll that
    far, and those built later go below them."""
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    window = open_window(qtbot, "three-layers")
    try:
        window.resize(1280, 560)
        QApplication.processEvents()
        editor = window.editor
        k = window.state.trace.step_index("L3.ffn")
        module = window.state.trace.steps[k].module
        first = next(p for p in editor.tables if p.startswith(f"{module}."))
        window.state.set_step(k)
        assert set(editor.tables) - set(built_grids(window)), "some grids are still to come"
        bar = editor.verticalScrollBar()

        def top() -> int:
            return editor.titles[first].mapTo(editor.widget(), QPoint(0, 0)).y() - SCROLL_MARGIN

        assert bar.value() == top() > 0
        layer3 = [p for p in editor.tables if p.startswith("layers.2.")]
        qtbot.waitUntil(lambda: set(layer3) <= set(built_grids(window)), timeout=3000)
        QApplication.processEvents()
        assert bar.value() == top()
    finally:
        close_window(window)
