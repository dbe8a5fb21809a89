"""Frames name the rows they draw: cross-attention's K and V come from the encoder memory, and
RoPE's scores multiply the rotated rows."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.model.examples import example_path
from engine import Trace, compute, load_scenario


def trace_of(example: str) -> Trace:
    return compute(load_scenario(example_path(example)))


def titled(trace: Trace, step_id: str, lang: str = "en") -> dict[str, MatrixGrid]:
    frame = FrameItem(trace, trace.step_index(step_id), FrameOptions(receiver=1, lang=lang))
    return {grid.spec.title: grid for grid in frame.items_of(MatrixGrid)}


def test_cross_attention_projections_draw_the_encoder_memory_as_k_and_vs_source(
        qtbot: QtBot) -> None:
    trace = trace_of("encoder-decoder")
    scenario = trace.scenario
    assert scenario.encoder is not None
    memory = trace.arrays["enc.L1.norm2"]  # the encoder's last layer's rows
    shown = titled(trace, "L1.cross.projections")
    grid = shown["encoder memory"]
    np.testing.assert_array_equal(grid.spec.values, memory)
    assert list(grid.spec.row_labels) == list(scenario.encoder.tokens)
    assert len(grid.spec.row_labels) == 3 and len(shown["norm1"].spec.row_labels) == 2
    assert {"Q = norm1·Wq", "K = memory·Wk", "V = memory·Wv"} <= set(shown)
    # K is the memory times Wk: three rows, one per encoder token
    wk = scenario.parameter("layers.0.cross_attention.Wk")
    np.testing.assert_allclose(shown["K = memory·Wk"].spec.values, memory @ wk)
    zh = titled(trace, "L1.cross.projections", "zh")
    assert {"编码器记忆", "K = 记忆·Wk", "V = 记忆·Wv"} <= set(zh)


def test_rope_scores_name_the_rotated_rows(qtbot: QtBot) -> None:
    trace = trace_of("rope")
    step = next(s for s in trace.steps if s.op == "scores")
    shown = titled(trace, step.id)
    assert {"Q_rot", "K_rotᵀ"} <= set(shown)
    assert not {"Q", "Kᵀ"} & set(shown)
    np.testing.assert_array_equal(shown["Q_rot"].spec.values, trace.arrays[step.reads[0]])
