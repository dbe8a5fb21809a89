"""QK-norm is a norm of an attention's queries and keys: the map names it and the frame draws it
(a document with ``qk_norm`` crashed the route map, which asked the attention for a block norm)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.route_map import step_label
from app.model.examples import example_path
from engine import Trace, compute, parse_scenario
from tests.engine.v2_documents import CASES


def qk_trace(case: str) -> Trace:
    return compute(parse_scenario(CASES[case]()))


@pytest.mark.parametrize(("case", "en", "zh"), [
    ("qk_norm_rmsnorm", "QK-RMSNorm", "QK RMSNorm"),
    ("qk_norm_layernorm_then_rope", "QK-LayerNorm", "QK LayerNorm"),
])
def test_the_map_names_qk_norm_with_its_kind(case: str, en: str, zh: str) -> None:
    trace = qk_trace(case)
    step = trace.steps[trace.step_index("L1.qk_norm")]
    assert step_label(trace, step, "en") == en
    assert step_label(trace, step, "zh") == zh
    block_norm = trace.steps[trace.step_index("L1.norm1")]
    assert step_label(trace, block_norm, "en") == "Norm"


def test_every_frame_of_a_qk_norm_document_draws_and_the_norm_shows_q_and_k(
        qtbot: QtBot) -> None:
    trace = qk_trace("qk_norm_rmsnorm")
    for k in range(len(trace.steps)):
        assert FrameItem(trace, k, FrameOptions(lang="zh")).route_map is not None
    frame = FrameItem(trace, trace.step_index("L1.qk_norm"), FrameOptions())
    shown = {grid.spec.title: grid.spec.values for grid in frame.items_of(MatrixGrid)}
    assert list(shown) == ["Q", "gamma_q", "Q_normed", "K", "gamma_k", "K_normed"]
    q = trace.arrays["L1.Q"]
    d_k = 2
    heads = q.reshape(q.shape[0], -1, d_k)
    eps = trace.scenario.module("layers.0.attention").qk_eps
    expected = heads / np.sqrt((heads ** 2).mean(axis=-1, keepdims=True) + eps) * [1.2, 0.7]
    np.testing.assert_allclose(shown["Q_normed"], expected.reshape(q.shape))
    np.testing.assert_array_equal(shown["gamma_q"], [[1.2, 0.7]])


def test_a_cross_attentions_qk_norm_labels_k_by_the_encoders_tokens(qtbot: QtBot) -> None:
    document = json.loads(example_path("encoder-decoder").read_text(encoding="utf-8"))
    document["layers"][0]["cross_attention"]["qk_norm"] = "rmsnorm"
    trace = compute(parse_scenario(document))
    frame = FrameItem(trace, trace.step_index("L1.cross.qk_norm"), FrameOptions())
    rows = {grid.spec.title: list(grid.spec.row_labels) for grid in frame.items_of(MatrixGrid)}
    assert rows["Q_normed"] == ["<s>", "我"]
    assert rows["K"] == rows["K_normed"] == ["I", "love", "you"]


def test_a_layernorm_qk_norm_with_shifts_draws_plus_beta(qtbot: QtBot) -> None:
    document = CASES["qk_norm_layernorm_then_rope"]()
    attention = document["layers"][0]["attention"]
    attention.update(beta_q=[0.5, -0.25, 0, 1], beta_k=[0.125, 1.0, 0, 0])
    trace = compute(parse_scenario(document))
    frame = FrameItem(trace, trace.step_index("L1.qk_norm"), FrameOptions())
    shown = {grid.spec.title: grid.spec.values for grid in frame.items_of(MatrixGrid)}
    assert list(shown) == ["Q", "gamma_q", "beta_q", "Q_normed", "K", "gamma_k", "beta_k",
                           "K_normed"]
    np.testing.assert_array_equal(shown["beta_k"], [[0.125, 1.0, 0, 0]])
    q = trace.arrays["L1.Q"]
    heads = q.reshape(q.shape[0], -1, 4)
    mean = heads.mean(axis=-1, keepdims=True)
    var = ((heads - mean) ** 2).mean(axis=-1, keepdims=True)
    eps = trace.scenario.module("layers.0.attention").qk_eps
    gamma = np.array(attention.get("gamma_q", [1.0] * 4))
    expected = (heads - mean) / np.sqrt(var + eps) * gamma + [0.5, -0.25, 0, 1]
    np.testing.assert_allclose(shown["Q_normed"], expected.reshape(q.shape), rtol=1e-12)
