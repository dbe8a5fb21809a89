"""The window at 2026's scale (issue 37, item 4): what kept it from answering on a
Llama-3.2-1B-shaped document, guarded on small documents (tests/bench/bench_window_scale.py
measures the real size)."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.model.presets import preset_document
from engine import compute, parse_scenario


def test_a_gated_feed_forwards_gate_is_multiplied_once_for_every_layout_of_its_frame(
        qtbot: QtBot) -> None:
    trace = compute(parse_scenario(preset_document("llama")))
    index = trace.step_index("L1.ffn")
    ffn = trace.scenario.module("layers.0.block").ffn
    x = trace.arrays["L1.norm2"]
    golden = np.array([[sum(x[t, i] * ffn.Wg[i, j] for i in range(x.shape[1]))
                        for j in range(ffn.Wg.shape[1])] for t in range(x.shape[0])])

    def gate_z() -> np.ndarray:
        frame = FrameItem(trace, index, FrameOptions())
        shown = [grid.spec.values for grid in frame.items_of(MatrixGrid)
                 if grid.spec.title == "z = norm2·Wg"]
        assert len(shown) == 1
        return shown[0]

    first = gate_z()
    np.testing.assert_allclose(first, golden, rtol=1e-13, atol=1e-15)
    assert gate_z() is first, "the product was worked out again"
