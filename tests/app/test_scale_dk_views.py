"""An attention's ``scale_dk`` in the window: F11 with its scores divided by √8 in place of
√dₖ = √2 (s = 2 ÷ √8 = 0.707 and 0, recomputed here) — the scores frame's note, the worked row,
the titles and the texts name √8 in both languages."""

from __future__ import annotations

import math

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.texts.lookup import step_text
from app.texts.titles import step_title
from engine import format_number
from tests.app.test_worked_row_and_map import trace_of, worked


def test_a_scale_dk_is_drawn_worked_titled_and_told(qtbot: QtBot) -> None:
    trace = trace_of("f11", scale_dk=8)
    scaled = [format_number(s / math.sqrt(8), 3) for s in (2.0, 0.0)]
    assert scaled == ["0.707", "0"]
    index = trace.step_index("scores")
    np.testing.assert_allclose(trace.arrays["scores"][0, 1], [2 / math.sqrt(8), 0.0], rtol=0,
                               atol=1e-15)
    for lang in ("en", "zh"):
        frame = FrameItem(trace, index, FrameOptions(lang=lang))
        notes = [grid.note for grid in frame.items_of(MatrixGrid)]
        assert any(note.startswith("÷ √8 = 2.828") for note in notes), notes
    assert worked(trace, "scores").cells == [
        ["key", "q·k", "÷ √8 = s"],
        ["我", "2·1 + 0·0 = 2", "2 ÷ √8 = 0.707"],
        ["爱", "2·0 + 0·1 = 0", "0 ÷ √8 = 0"]]
    step = trace.steps[index]
    assert step.title == "Scores q·k, divided by √8"
    assert step_title(step, trace.scenario, "zh") == "分数 q·k，再除以 √8"
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    assert en.summary.endswith("divided by √8: this model's own number under the root, where "
                               "the chapter's formula has dₖ = 2.")
    assert "q_i · k_j ÷ √8, the document's scale_dk" in en.how
    assert "raw 2 and 0, scaled 0.707 and 0." in en.how
    assert "2 ÷ √8 = 2 ÷ 2.828 = 0.707." in en.check
    assert "每个分数再除以 √8" in zh.summary and "dₖ = 2" in zh.summary
    assert "原始值 2 和 0，缩放后 0.707 和 0" in zh.how
    assert "2 ÷ √8 = 2 ÷ 2.828 = 0.707" in zh.check
