"""A big document's feed-forward drawn from weights a worker made ready (issue 37, item 4): the
window never widens a step's big mapped weights on the interface thread, draws the step once
they are ready (their heat maps pixel for pixel those worked out here from every number), and
Cancel while it waits goes back to the step on screen; a big vocabulary's widest label is
measured by the worker that computes the trace, as the interface thread would.

The checkpoint is Llama-3.2-1B's shape cut down (bfloat16, a 24 × 3,000 feed-forward: heat
maps of blocks of three columns); every mapped weight counts as big."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from pytestqt.qtbot import QtBot

import app.canvas.bars
import app.canvas.prepared_drawing
import app.state.big
import app.state.jobs
import app.window.step_weights
from app.canvas import compose
from app.canvas.bars import widest_label
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.prepared_drawing import is_prepared
from app.canvas.theme import font
from app.model.operands import tokens_of
from app.state.prepared import prepared
from app.window.step_weights import ahead, unready
from app.window.studio import StudioWindow
from engine import compute
from engine.format.mapped_weight import MappedWeight
from tests.app.driving import close_window, cut_llama, show_window
from tests.app.test_large_grid_edits import painted_colours

FFN = ("layers.0.block.ffn.W1", "layers.0.block.ffn.Wg", "layers.0.block.ffn.W2")


def small_llama_window(qtbot: QtBot, folder: Path,
                       monkeypatch: pytest.MonkeyPatch) -> StudioWindow:
    """A window on a cut-down Llama checkpoint written into ``folder``, every mapped weight
    counting as big, nothing made ready ahead (a step's weights when it is drawn alone)."""
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 0)
    monkeypatch.setattr(app.window.step_weights, "AHEAD", 0)
    return show_window(qtbot, cut_llama(folder / "small"))


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[StudioWindow]:
    made = small_llama_window(qtbot, tmp_path, monkeypatch)
    yield made
    close_window(made)


def widened_here(monkeypatch: pytest.MonkeyPatch) -> list[MappedWeight]:
    """From now on, each mapped weight widened on the interface thread, in turn."""
    here: list[MappedWeight] = []
    real = MappedWeight.widened

    def noted(self: MappedWeight, room: object = None) -> np.ndarray:
        if threading.current_thread() is threading.main_thread():
            here.append(self)
        return real(self, room)  # type: ignore[arg-type]

    monkeypatch.setattr(MappedWeight, "widened", noted)
    return here


def step_button(window: StudioWindow, step_id: str) -> int:
    return [s.id for s in window.state.trace.steps].index(step_id)


def test_the_ffn_step_is_drawn_from_weights_a_worker_made_ready(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = window.state.trace.scenario
    weights = [scenario.weight(path) for path in FFN]
    assert all(isinstance(w, MappedWeight) for w in weights)
    here = widened_here(monkeypatch)
    index = step_button(window, "L1.ffn")
    qtbot.mouseClick(window.timeline.step_group.button(index), Qt.MouseButton.LeftButton)
    assert window.state.step == index

    def ffn_grids() -> list[MatrixGrid]:
        frame = window.canvas.frame
        if frame is None or frame.step_index != index:
            return []
        return [g for g in frame.items_of(MatrixGrid) if g.spec.values.shape[1] == 3000
                or g.spec.values.shape[0] == 3000]

    qtbot.waitUntil(lambda: len(ffn_grids()) >= 3)
    assert not any(w is weight for w in here for weight in weights)
    drawn = {grid.spec.values.shape: grid for grid in ffn_grids() if grid.heat}
    for weight in weights:
        whole = np.asarray(weight, dtype=np.float64)
        grid = next(g for g in ffn_grids() if g.spec.values.shape == whole.shape
                    and np.array_equal(g.spec.values, whole))
        assert grid.heat
        fresh = MatrixGrid(dataclasses.replace(grid.spec, values=whole.copy()), grid.theme)
        assert np.array_equal(painted_colours(grid), painted_colours(fresh)), weight.name
    assert (24, 3000) in drawn and (3000, 24) in drawn


def test_cancel_while_a_steps_weights_are_made_ready_goes_back_to_the_step_shown(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.jobs, "SHOW_PROGRESS_AFTER_MS", 0)
    monkeypatch.setattr(app.window.step_weights, "SHOW_PROGRESS_AFTER_MS", 0)
    release = threading.Event()
    real = app.canvas.prepared_drawing.prepare_weight

    def held(weight: MappedWeight, places: int, unembedding: bool = False,
                 keeping: Sequence[MappedWeight] = ()) -> None:
        release.wait(10)
        real(weight, places, unembedding, keeping)

    monkeypatch.setattr(app.window.step_weights, "prepare_weight", held)
    before = step_button(window, "L1.norm2")
    qtbot.mouseClick(window.timeline.step_group.button(before), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.canvas.frame is not None
                    and window.canvas.frame.step_index == before)
    ffn = step_button(window, "L1.ffn")
    qtbot.mouseClick(window.timeline.step_group.button(ffn), Qt.MouseButton.LeftButton)
    indicator = window.step_weights
    qtbot.waitUntil(indicator.isVisible)
    assert window.state.step == ffn and window.canvas.frame.step_index == before
    qtbot.mouseClick(indicator.cancel_button, Qt.MouseButton.LeftButton)
    assert window.state.step == before and not indicator.isVisible()
    release.set()
    qtbot.waitUntil(lambda: indicator.job is None)
    assert window.state.step == before and window.canvas.frame.step_index == before


def test_a_big_vocabularys_widest_label_is_measured_by_the_worker_as_here(
        qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(app.canvas.prepared_drawing, "LABELS_MEASURED_FROM", 0)
    trace = compute(cut_llama(tmp_path / "small", vocab_size=700))
    vocab = tuple(tokens_of(trace, "vocab"))  # as the painter labels them (␣ for a space)
    metrics = QFontMetricsF(font(NUMBER_SIZE))
    here = max(metrics.horizontalAdvance(label) for label in vocab)
    widest_label.cache_clear()
    worker = threading.Thread(target=prepared, args=(trace,))
    worker.start()
    worker.join()

    def refused(_font: object) -> None:
        raise AssertionError("a label measured on the interface thread")

    monkeypatch.setattr(app.canvas.bars, "QFontMetricsF", refused)
    assert widest_label(vocab, NUMBER_SIZE) == here > 0


def test_the_next_steps_weights_are_made_ready_ahead_in_step_order_within_the_room(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 0)
    trace = compute(cut_llama(tmp_path / "small"))
    scenario = trace.scenario
    attention = [scenario.weight(f"layers.0.attention.{name}")
                 for name in ("Wq", "Wk", "Wv", "Wo")]
    ffn = [scenario.weight(path) for path in ("layers.0.block.ffn.W1",
                                              "layers.0.block.ffn.Wg",
                                              "layers.0.block.ffn.W2")]
    start = trace.step_index("L1.norm1")
    assert ahead(trace, start) == [*attention, *ffn]  # projections, mix, ffn
    room = sum(w.size * 8 for w in attention) + ffn[0].size * 8
    monkeypatch.setattr(app.window.step_weights, "KEPT_BYTES", room)
    assert ahead(trace, start) == [*attention, ffn[0]]
    assert unready(trace, trace.step_index("L1.ffn")) == ffn
    app.canvas.prepared_drawing.prepare_weight(ffn[1], 3)
    assert unready(trace, trace.step_index("L1.ffn")) == [ffn[0], ffn[2]]


def test_the_next_steps_weights_are_made_ready_once_a_step_stays_on_screen(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.window.step_weights, "AHEAD", 12)
    monkeypatch.setattr(app.window.step_weights, "AHEAD_AFTER_MS", 400)
    scenario = window.state.trace.scenario
    weights = [scenario.weight(path) for path in FFN]
    norm = step_button(window, "L1.norm1")
    qtbot.mouseClick(window.timeline.step_group.button(norm), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.canvas.frame is not None
                    and window.canvas.frame.step_index == norm)
    qtbot.wait(150)  # stepping on now would find nothing made ready ahead
    assert not any(is_prepared(w) for w in weights) and window.step_weights.job is None
    qtbot.waitUntil(lambda: all(is_prepared(w) for w in weights), timeout=10_000)
    here = widened_here(monkeypatch)
    ffn = step_button(window, "L1.ffn")
    qtbot.mouseClick(window.timeline.step_group.button(ffn), Qt.MouseButton.LeftButton)
    assert window.canvas.frame.step_index == ffn  # drawn at once: nothing waited for
    assert not any(w is weight for w in here for weight in weights)


def test_the_projections_small_weights_are_made_ready_with_the_big_one_and_drawn_as_here(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wq big (256 × 256 here, 2,048 × 2,048 in Llama-3.2-1B), Wk and Wv (256 × 64 here,
    2,048 × 512 there) under the size made ready alone: the worker makes them ready with Wq,
    so that the interface thread widens none of the step's weights, and their heat maps are
    those worked out here from every number."""
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(app.window.step_weights, "AHEAD", 0)
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 256 * 256)
    monkeypatch.setattr(app.canvas.prepared_drawing, "ALONG_FROM", 256 * 64)
    window = show_window(qtbot, cut_llama(tmp_path / "wide", hidden_size=256,
                                          num_attention_heads=4, head_dim=64,
                                          intermediate_size=32))
    scenario = window.state.trace.scenario
    weights = [scenario.weight(f"layers.0.attention.{name}") for name in ("Wq", "Wk", "Wv")]
    assert [w.shape for w in weights] == [(256, 256), (256, 64), (256, 64)]
    here = widened_here(monkeypatch)
    index = step_button(window, "L1.projections")
    qtbot.mouseClick(window.timeline.step_group.button(index), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.canvas.frame is not None
                    and window.canvas.frame.step_index == index)
    assert here == []
    assert all(is_prepared(w) for w in weights)
    grids = window.canvas.frame.items_of(MatrixGrid)
    for weight in weights:
        whole = np.asarray(weight, dtype=np.float64)
        grid = next(g for g in grids if np.array_equal(g.spec.values, whole))
        assert grid.heat, weight.name
        fresh = MatrixGrid(dataclasses.replace(grid.spec, values=whole.copy()), grid.theme)
        assert np.array_equal(painted_colours(grid), painted_colours(fresh)), weight.name
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 256 * 256 + 1)
    assert app.canvas.prepared_drawing.step_weights(
        window.state.trace, window.state.trace.steps[index]) == []  # none big: none waits
    close_window(window)


def test_a_first_frame_finds_the_document_too_small_to_read_before_widening_a_weight(
        qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a document's frames share one scale is known as soon as one step is too small
    to read at it: the steps whose frames would widen a big mapped weight (the projections,
    the mix, the feed-forward) are measured last, and the first frame widens none (it widened
    Wq, Wk and Wv, Llama-3.2-1B's 5 million numbers, to find its projections under); it is
    the frame measured in the steps' own order."""
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 0)
    trace = compute(cut_llama(tmp_path / "small", hidden_size=512, head_dim=64,
                              num_attention_heads=8, num_key_value_heads=2))
    ids = [step.id for step in trace.steps]
    order = [ids[k] for k in compose._measuring_order(trace, 0)]
    assert order[0] == "embed" and order[-3:] == ["L1.projections", "L1.mix", "L1.ffn"]
    assert sorted(order) == sorted(ids)
    here = widened_here(monkeypatch)
    compose.forget()
    first = FrameItem(trace, 0, FrameOptions())
    assert compose.legible_composition(trace, FrameOptions(), first.area.size(), 0) is None
    assert here == []  # and each frame is laid out by itself
    monkeypatch.setattr(compose, "_measuring_order",
                        lambda trace, first: iter((first, *(k for k in range(len(trace.steps))
                                                            if k != first))))
    compose.forget()
    in_order = FrameItem(trace, 0, FrameOptions())
    assert [weight.shape for weight in here] == [(512, 512), (512, 128), (512, 128)]
    assert in_order.composition == first.composition
    compose.forget()
