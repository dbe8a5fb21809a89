"""The masked-language-model head on the canvas: the transform's frame (its grids and values),
the probabilities frame that fills [MASK], its map box, title and hover, in both languages."""

from __future__ import annotations

import numpy as np
import pytest

from app.canvas import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.pieces import TextItem
from app.canvas.route_map import step_label
from app.model.presets import preset
from app.texts.titles import step_title
from engine import Trace, compute


@pytest.fixture(scope="module")
def trace() -> Trace:
    return compute(preset("bert"))


def _frame(trace: Trace, step: str, lang: str) -> FrameItem:
    return FrameItem(trace, trace.step_index(step), FrameOptions(lang=lang, receiver=1))


def test_the_transform_frame_shows_dense_activation_and_its_layer_norm(
        qapp: object, trace: Trace) -> None:
    frame = _frame(trace, "transform", "en")
    grids = {grid.spec.title: grid.spec for grid in frame.items_of(MatrixGrid)}
    t = trace.scenario.head.transform
    np.testing.assert_array_equal(grids["z = norm2·W + b"].values, trace.arrays["transform_pre"])
    np.testing.assert_array_equal(grids["transform (to the vocabulary)"].values,
                                  trace.arrays["transform"])
    np.testing.assert_array_equal(grids["W"].values, t.W)
    np.testing.assert_array_equal(grids["transform_hidden"].values,
                                  trace.arrays["transform_hidden"])
    np.testing.assert_array_equal(grids["γ"].values[0], t.gamma)
    words = [item.text for item in frame.items_of(TextItem)]
    assert "→ LayerNorm, ε = 1×10⁻¹², then ·γ + β →" in words
    assert "→ gelu →" in words
    zh = [item.text for item in _frame(trace, "transform", "zh").items_of(TextItem)]
    assert "→ LayerNorm，ε = 1×10⁻¹²，再 ·γ + β →" in zh
    step = trace.steps[trace.step_index("transform")]
    assert step_title(step, trace.scenario, "zh") == \
        "掩码语言模型的变换：全连接、激活，再 LayerNorm"
    assert step_label(trace, step, "en") == "MLM transform"
    assert step_label(trace, step, "zh") == "掩码变换"


def test_the_probabilities_frame_fills_the_blank_in_both_languages(
        qapp: object, trace: Trace) -> None:
    probs = trace.arrays["probs"][1]
    order = np.argsort(-probs)
    vocab = trace.scenario.head.vocab
    best, second, third = (vocab[k] for k in order[:3])
    p = [f"{probs[k]:.3f}".rstrip("0") for k in order[:3]]
    en = [item.text for item in _frame(trace, "probs", "en").items_of(TextItem)]
    zh = [item.text for item in _frame(trace, "probs", "zh").items_of(TextItem)]
    assert (f"Fill the blank: [MASK] at position 1 → {best} ({p[0]}); then {second} {p[1]}, "
            f"{third} {p[2]}") in en
    assert (f"填空：第 1 个位置的 [MASK] → {best}（{p[0]}）；其次是 {second} {p[1]}、"
            f"{third} {p[2]}") in zh


def test_a_next_token_head_fills_no_blank(qapp: object) -> None:
    trace = compute(preset("gpt2"))
    words = [item.text for item in FrameItem(trace, trace.step_index("probs"),
                                             FrameOptions()).items_of(TextItem)]
    assert not any(text.startswith("Fill the blank") for text in words)
