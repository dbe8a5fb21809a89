"""A layer's own RoPE base in the window: its RoPE frame draws the layer's own angles (base 100,
not the stack's 10000), and its titles and texts name the base in both languages."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.texts.lookup import step_text
from app.texts.titles import step_title
from engine import compute, parse_scenario
from tests.engine.test_engine_rope_base import _document


def test_a_layers_own_base_is_drawn_titled_and_told(qtbot: QtBot) -> None:
    trace = compute(parse_scenario(_document()))
    index = trace.step_index("L2.rope")
    own = np.arange(3, dtype=np.float64)[:, None] * 100.0 ** (-np.arange(0, 4, 2) / 4)
    for lang in ("en", "zh"):
        frame = FrameItem(trace, index, FrameOptions(lang=lang))
        drawn = [grid.spec.values for grid in frame.items_of(MatrixGrid)
                 if grid.spec.values.shape == own.shape]
        assert any(np.array_equal(values, own) for values in drawn)
        assert not any(np.array_equal(values, trace.arrays["rope_angles"]) for values in drawn)
    step = trace.steps[index]
    assert step_title(step, trace.scenario, "zh") == \
        "第 2 层 · RoPE：q 和 k 的每一对列按位置转过 p·θ，θ 取自本层的基数 100"
    assert step_title(trace.steps[trace.step_index("L1.rope")], trace.scenario, "zh") == \
        "第 1 层 · RoPE：q 和 k 的每一对列按位置转过 p·θ"
    assert step_text(trace, index, "en").how.endswith(
        "This layer has its own base, 100, where the stack's is 10000: its θᵢ are "
        "100^(−2i/r), so its pairs turn at other speeds than the other layers'.")
    assert step_text(trace, index, "zh").how.endswith(
        "本层有自己的基数 100，而这一栈的基数是 10000：本层的 θᵢ 是 100^(−2i/r)，各对列的转速"
        "因此与其他层不同。")
    assert "own base" not in step_text(trace, trace.step_index("L1.rope"), "en").how
