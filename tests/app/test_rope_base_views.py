"""A layer's own RoPE in the window: its RoPE frame draws the layer's own angles (base 100, not
the stack's 10000; or the stack's unscaled), and its titles and texts name the base, or the
scaling it leaves out, in both languages."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.texts.lookup import step_text
from app.texts.titles import step_title
from engine import compute, parse_scenario
from tests.engine.test_engine_rope_base import _document
from tests.engine.test_engine_rope_scaled import _document as _unscaled_document


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


def test_a_layer_leaving_the_scaling_out_is_drawn_titled_and_told(qtbot: QtBot) -> None:
    """Under yarn (pair 1 divided by 4), layer 3 turns by the stack's base unscaled: its frame
    draws the plain angles and says they are not scaled, its title and texts say it in both
    languages; layer 1's keep the scaling's words."""
    trace = compute(parse_scenario(_unscaled_document()))
    index = trace.step_index("L3.rope")
    plain = np.arange(3, dtype=np.float64)[:, None] * 10000.0 ** (-np.arange(0, 4, 2) / 4)
    notes = {"en": "θᵢ not scaled: this layer leaves out the stack's yarn scaling",
             "zh": "θᵢ 未经缩放：本层不采用这一栈的 yarn 缩放"}
    for lang, note in notes.items():
        frame = FrameItem(trace, index, FrameOptions(lang=lang))
        assert any(np.array_equal(grid.spec.values, plain)
                   for grid in frame.items_of(MatrixGrid))
        assert note in " ".join(t.text for t in frame.items_of(TextItem))
        scaled = FrameItem(trace, trace.step_index("L1.rope"), FrameOptions(lang=lang))
        assert note not in " ".join(t.text for t in scaled.items_of(TextItem))
    step = trace.steps[index]
    assert step_title(step, trace.scenario, "zh") == \
        "第 3 层 · RoPE：q 和 k 的每一对列按位置转过 p·θ，不用这一栈的缩放"
    assert step_title(trace.steps[trace.step_index("L2.rope")], trace.scenario, "zh") == \
        "第 2 层 · RoPE：q 和 k 的每一对列按位置转过 p·θ，θ 取自本层的基数 100，不用这一栈的缩放"
    english, chinese = step_text(trace, index, "en").how, step_text(trace, index, "zh").how
    assert english.endswith("This layer leaves out the stack's yarn scaling: its θᵢ stay as "
                            "the base gives them, while the other layers' are scaled.")
    assert chinese.endswith("本层不采用这一栈的 yarn 缩放：它的 θᵢ 就是基数给出的值，其他层的 θᵢ "
                            "则经过缩放。")
    assert "scaled (yarn)" not in english
    first = step_text(trace, trace.step_index("L1.rope"), "en").how
    assert "scaled (yarn)" in first and "leaves out" not in first
