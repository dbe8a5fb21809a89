"""A mixture of experts on the canvas, in the explanations and in the texts, in both languages:
the hand-made document of tests/engine/test_engine_mixture.py (three tokens, three experts, two
chosen), its numbers computed by hand there and here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.describe import FACTS
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.model.presets import preset
from app.texts.lookup import step_text
from app.window.studio import StudioWindow
from engine import Trace, compute, parse_scenario
from engine.arithmetic.cells import explain
from engine.generation.append import extend
from engine.generation.kv_cache import cache_of, next_position
from tests.app.driving import close_window
from tests.engine.test_engine_mixture import document


@pytest.fixture(scope="module")
def trace() -> Trace:
    return compute(parse_scenario(document()))


def _index(trace: Trace, step_id: str) -> int:
    return next(k for k, step in enumerate(trace.steps) if step.id == step_id)


@pytest.mark.parametrize(("lang", "titles"), [
    ("en", ["norm2", "router", "router logits", "shares (▲ chosen)", "chosen experts",
            "weights (÷ their sum)"]),
    ("zh", ["norm2", "router", "路由 logits", "份额（▲ 为选中）", "选中的专家",
            "权重（÷ 它们的和）"]),
])
def test_the_router_frame_prints_every_number_and_marks_the_chosen(
        qapp: object, trace: Trace, lang: str, titles: list[str]) -> None:
    frame = FrameItem(trace, _index(trace, "L1.router"), FrameOptions(lang=lang))
    grids = frame.items_of(MatrixGrid)
    assert [g.spec.title for g in grids] == titles
    shares = grids[3].spec
    np.testing.assert_array_equal(shares.values, trace.arrays["L1.router_shares"])
    assert shares.marked is not None  # the chosen: a corner mark, not a colour alone
    assert np.argwhere(shares.marked).tolist() == [[0, 0], [0, 1], [1, 1], [1, 2], [2, 0],
                                                   [2, 1]]
    np.testing.assert_array_equal(grids[5].spec.values, trace.arrays["L1.router_weights"])


def test_the_experts_frame_shows_each_choice_and_the_weighted_sum(qapp: object,
                                                                  trace: Trace) -> None:
    frame = FrameItem(trace, _index(trace, "L1.experts"), FrameOptions(lang="en"))
    titles = [g.spec.title for g in frame.items_of(MatrixGrid)]
    assert titles == ["norm2", "choice 1: its expert's output", "choice 2: its expert's output",
                      "router_weights", "ffn_out"]


def test_a_share_a_weight_and_an_output_cell_are_explained(trace: Trace) -> None:
    share = explain(trace, "L1.router_shares", (1, 0))  # logits (0, 1, 1)
    assert share.formula.endswith(f"= exp(−1) / (exp(−1) + exp(0) + exp(0)) = "
                                  f"{math.exp(-1) / (math.exp(-1) + 2):.6f}")
    assert share.details[1] == "not among the row's 2 largest shares: this expert does not run " \
                               "for this token"
    weight = explain(trace, "L1.router_weights", (0, 0), "zh")
    e = math.e
    assert weight.formula == (f"L1.router_weights[0,0] = p0 / (p0 + p1) = "
                              f"{e / (e + 1 + e ** -1):.6f} / ({e / (e + 1 + e ** -1):.6f} + "
                              f"{1 / (e + 1 + e ** -1):.6f}) = {e / (e + 1):.6f}")
    assert weight.details == ("选中的 2 个份额除以它们的和：权重之和为 1",)
    out = explain(trace, "L1.ffn_out", (1, 1))  # b: 0.5·e1(b) + 0.5·e2(b) = 0.5·0 + 0.5·(−2)
    assert out.formula == ("L1.ffn_out[1,1] = w0·L1.expert_out[0,1,1] + w1·L1.expert_out[1,1,1]"
                           " = 0.5·0 + 0.5·(−2) = −1")


@pytest.mark.parametrize(("lang", "how", "check"), [
    # a's shares e¹, e⁰, e⁻¹ over their sum: 0.665241, 0.244728; renormalised e/(e + 1)
    ("en", "experts 0, 1 are chosen, with weights [0.731059, 0.268941]",
     "expert 0's share 0.665241 over the chosen shares' sum 0.665241 + 0.244728 gives 0.731059"),
    ("zh", "选中专家 0、1，权重为 [0.731059, 0.268941]",
     "专家 0 的份额 0.665241 除以选中份额之和 0.665241 + 0.244728，得 0.731059"),
])
def test_the_router_is_told_with_the_receivers_numbers(trace: Trace, lang: str, how: str,
                                                      check: str) -> None:
    text = step_text(trace, _index(trace, "L1.router"), lang, receiver=0)
    assert how in text.how and check in text.check


@pytest.mark.parametrize(("top", "lang", "said", "unsaid"), [
    # One expert: a's largest share is expert 0's, divided by itself: weight 1.
    (1, "en", ["runs only one per token", "expert 0 is chosen, with weight [1]",
               "Of 3 experts only one runs", "runs expert 0, and the weighted output"],
     ["experts 0 are", "only 1 run"]),
    (1, "zh", ["每个词元只运行 1 个", "选中专家 0，权重为 [1]"], []),
    # Every expert: nothing is left out, and no text says "only" or "unchosen".
    (3, "en", ["runs every one of them for every token", "All 3 experts run for every token",
               "no share is left out"], ["only 3", "unchosen"]),
    (3, "zh", ["每个词元都全部运行", "全部 3 个专家都为每个词元运行", "没有落选的份额"],
     ["只运行 3 个", "未选中"]),
])
def test_the_texts_follow_how_many_experts_run(top: int, lang: str, said: list[str],
                                               unsaid: list[str]) -> None:
    trace = compute(parse_scenario(document(top=top)))
    texts = [step_text(trace, _index(trace, step), lang, receiver=0)
             for step in ("L1.router", "L1.experts")]
    whole = " ".join(" ".join(text.sections()) for text in texts)
    assert [part for part in said if part not in whole] == []
    assert [part for part in unsaid if part in whole] == []


def test_a_mixtures_activation_is_shown_but_not_offered_for_editing(qtbot: QtBot) -> None:
    window = StudioWindow(preset("mixtral"))
    try:
        editor = window.editor.block_editor
        editor.show_part("layers.0", None)
        box = editor.activation_box
        assert box.currentData() == "silu" and not box.isEnabled()
        assert editor.placement_box.isEnabled()
    finally:
        close_window(window)


def test_a_token_generated_through_the_kv_cache_is_routed_as_a_full_recompute_routes_it(
) -> None:
    document = preset("mixtral")
    cache = cache_of(compute(document))
    for token in (2, 0):
        row = next_position(cache, token)
        document = extend(document, token)
        full = compute(document)
        for scope in ("L1.", "L2."):
            for name in ("router_weights", "router_chosen", "ffn_out"):
                np.testing.assert_allclose(row.arrays[scope + name],
                                           full.arrays[scope + name][-1:], rtol=0, atol=1e-12)
        np.testing.assert_allclose(row.probs, full.arrays["probs"][-1], rtol=0, atol=1e-12)
        cache = row.cache


@pytest.mark.parametrize(("lang", "first"), [
    ("en", "choice 1, expert 1: L1.expert_out, row b: 4, 0"),
    ("zh", "第 1 个选择，专家 1：L1.expert_out 中“b”一行：4, 0"),
])
def test_the_screen_reader_names_each_choice_by_its_expert(trace: Trace, lang: str,
                                                          first: str) -> None:
    step = trace.steps[_index(trace, "L1.experts")]
    facts = FACTS["experts"](trace, step, 1, FrameOptions(lang=lang))  # token b: experts 1, 2
    assert facts[0] == first and len(facts) == 3
    assert facts[2].endswith("2, −1")  # ffn_out of b: 0.5·(4, 0) + 0.5·(0, −2)
