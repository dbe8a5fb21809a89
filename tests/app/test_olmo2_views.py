"""OLMo 2's constructs as the window shows them: the QK-norm over all heads (frame, title, texts
in both languages, with numbers from numpy written here) and a block without pre-norms (no
norm1/norm2 steps; the output norms' and residuals' texts say the sub-layers read the stream)."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.route_map import step_label
from app.texts.lookup import step_text
from app.texts.titles import step_title
from engine import Trace, compute, format_number, parse_scenario
from tests.engine.test_engine_olmo2_constructs import GAMMA_Q, olmo2_document


def _trace() -> Trace:
    return compute(parse_scenario(olmo2_document(41)))


def _row(values: np.ndarray) -> str:
    shown = [format_number(float(v), 3) for v in values]
    return "[" + ", ".join(shown[:4] + (["…"] if len(shown) > 4 else [])) + "]"


def test_the_frame_draws_the_whole_projection_normed(qtbot: QtBot) -> None:
    trace = _trace()
    index = trace.step_index("L1.qk_norm")
    for lang, operator in (("en", "→ RMSNorm over all heads ·"), ("zh", "→ 所有头一起 RMSNorm ·")):
        frame = FrameItem(trace, index, FrameOptions(lang=lang))
        texts = [item.text for item in frame.items_of(TextItem)]
        shown = {grid.spec.title: grid.spec.values for grid in frame.items_of(MatrixGrid)}
        assert list(shown) == ["Q", "gamma_q", "Q_normed", "K", "gamma_k", "K_normed"]
        q = trace.arrays["L1.Q"]
        expected = q / np.sqrt((q ** 2).mean(axis=-1, keepdims=True) + 1e-5) * GAMMA_Q
        np.testing.assert_allclose(shown["Q_normed"], expected, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(shown["gamma_q"], [GAMMA_Q])
        assert operator in texts, texts
    step = trace.steps[index]
    assert step_label(trace, step, "en") == "QK-RMSNorm"


def test_the_title_and_texts_say_all_heads_in_both_languages() -> None:
    trace = _trace()
    index = trace.step_index("L1.qk_norm")
    step = trace.steps[index]
    assert step_title(step, trace.scenario, "en").endswith(
        "QK-norm (RMSNorm) of all heads' queries and keys")
    assert step_title(step, trace.scenario, "zh").endswith(
        "QK 规范化（RMSNorm）：所有头的 q 一起规范化，k 也一样")
    q = trace.arrays["L1.Q"][-1]  # all six columns of the last position
    normed = q / np.sqrt(np.mean(q ** 2) + 1e-5) * np.array(GAMMA_Q)
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    assert "RMSNorm of all 6 columns of q at once (ε = 0.00001)" in en.how
    assert "k likewise over its 2 columns" in en.how
    assert f"q {_row(q)} becomes {_row(normed)}" in en.how
    assert "对 q 的全部 6 列一起做 RMSNorm（ε = 0.00001）" in zh.how
    assert f"q {_row(q)} 变为 {_row(normed)}" in zh.how
    assert "in head" not in en.how + en.check and "个头）" not in zh.how + zh.check
    assert en.summary.startswith("All heads' q columns are normed together")
    assert zh.summary.startswith("所有头的 q 列放在一起")


def test_a_block_without_pre_norms_tells_that_its_sub_layers_read_the_stream() -> None:
    trace = _trace()
    ids = [step.id for step in trace.steps]
    assert "L1.norm1" not in ids and "L1.norm2" not in ids
    told = {name: (step_text(trace, trace.step_index(name), "en"),
                   step_text(trace, trace.step_index(name), "zh"))
            for name in ("L1.norm3", "L1.resid1", "L1.norm4", "L1.resid2")}
    assert "norms nothing before its sub-layers" in told["L1.norm3"][0].why
    assert "子层之前不做任何规范化" in told["L1.norm3"][1].why
    assert "the very rows attention read" in told["L1.resid1"][0].pitfalls
    assert "norm1" not in told["L1.resid1"][0].pitfalls + told["L1.resid1"][1].pitfalls
    assert "This block has no γ2" in told["L1.norm4"][0].pitfalls
    assert "没有 γ2" in told["L1.norm4"][1].pitfalls
    assert "norm2" not in told["L1.resid2"][0].pitfalls + told["L1.resid2"][1].pitfalls
