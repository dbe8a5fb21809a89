"""The soft caps in the window: the logits' step and a capped scores step draw the uncapped and
the capped numbers, the map, timeline, worked row and titles name the cap, and the texts say it
in both languages with the document's own numbers (recomputed here)."""

from __future__ import annotations

import math

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.route_map import step_label as map_label
from app.texts.lookup import step_text
from app.texts.step_labels import step_label
from app.texts.titles import step_title
from engine import compute, format_number
from tests.app.test_worked_row_and_map import trace_of, worked
from tests.engine.capped_head import CAP, capped_scenario


def _three(value: float) -> str:
    return f"{value:.3f}".replace("-", "−")


def test_the_softcap_frame_shows_both_grids_with_the_capped_numbers(qtbot: QtBot) -> None:
    trace = compute(capped_scenario())
    index = trace.step_index("softcap")
    raw = trace.arrays["logits_uncapped"]
    for lang, titles in (("en", ["uncapped logits", "logits (capped at ±0.5)"]),
                         ("zh", ["未截断的 logits", "logits（截断在 ±0.5）"])):
        frame = FrameItem(trace, index, FrameOptions(lang=lang))
        shown = {grid.spec.title: grid.spec.values for grid in frame.items_of(MatrixGrid)}
        assert list(shown) == titles
        np.testing.assert_array_equal(shown[titles[0]], raw)
        np.testing.assert_allclose(shown[titles[1]], CAP * np.tanh(raw / CAP), rtol=0,
                                   atol=1e-15)
    step = trace.steps[index]
    assert map_label(trace, step, "en") == "soft cap c·tanh"
    assert map_label(trace, step, "zh") == "软截断 c·tanh"
    assert (step_label(step, "en"), step_label(step, "zh")) == ("softcap", "软截断")
    assert step_title(step, trace.scenario, "zh") == "软截断：0.5 · tanh(logits / 0.5)"


def test_the_softcap_texts_quote_the_receivers_numbers_in_both_languages() -> None:
    trace = compute(capped_scenario())
    index = trace.step_index("softcap")
    raw = trace.arrays["logits_uncapped"][-1]  # the receiver: the last position
    top = int(np.argmax(raw))
    entry = trace.scenario.head.vocab[top] if trace.scenario.head is not None else ""
    value = _three(CAP * float(np.tanh(raw[top] / CAP)))
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    assert en.summary.startswith("Each logit is bent by c · tanh(logit / c) with c = 0.5")
    assert f"Recompute the largest one, {entry}: 0.5 · tanh({_three(raw[top])} / 0.5) = " \
           f"{value}." == en.check
    assert f"{entry}：0.5 · tanh({_three(raw[top])} / 0.5) = {value}" in zh.check
    capped = ", ".join(_three(v) for v in CAP * np.tanh(raw / CAP))
    assert f"give [{capped}]" in en.how and f"得到 [{capped}]" in zh.how
    # the logits step before it tells its own, uncapped, numbers
    logits = step_text(trace, trace.step_index("logits"), "en")
    assert f"gives [{', '.join(_three(v) for v in raw)}]" in logits.how


def test_a_capped_scores_step_draws_works_and_tells_the_cap(qtbot: QtBot) -> None:
    """F11 with its scores capped at 1: s = 2 ÷ √2 = 1.414 and 0, capped 1·tanh(s) (recomputed
    here) = 0.888 and 0; the frame shows both grids, the worked row a column for the cap, and
    the texts say it in both languages."""
    trace = trace_of("f11", softcap=1.0)
    capped = [format_number(math.tanh(s), 3) for s in (2 / math.sqrt(2), 0.0)]
    assert capped == ["0.888", "0"]
    index = trace.step_index("scores")
    for lang, titles in (("en", ["scores before the cap", "scores, capped at ±1"]),
                         ("zh", ["截断前的分数", "分数（截断在 ±1）"])):
        frame = FrameItem(trace, index, FrameOptions(lang=lang))
        shown = {grid.spec.title: grid.spec.values for grid in frame.items_of(MatrixGrid)}
        assert titles[0] in shown and titles[1] in shown
        np.testing.assert_allclose(shown[titles[1]], np.tanh(shown[titles[0]]), rtol=0,
                                   atol=1e-15)
    assert worked(trace, "scores").cells == [
        ["key", "q·k", "÷ √2 = s", "c · tanh(s / c), the soft cap"],
        ["我", "2·1 + 0·0 = 2", "2 ÷ √2 = 1.414", "1 · tanh(1.414 / 1) = 0.888"],
        ["爱", "2·0 + 0·1 = 0", "0 ÷ √2 = 0", "1 · tanh(0 / 1) = 0"]]
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    assert "Then each is soft-capped, 1 · tanh(s / 1), as Gemma 2 does: 0.888 and 0;" in en.how
    assert en.check.endswith("Capped: 1 · tanh(1.414 / 1) = 0.888.")
    assert "软截断，1 · tanh(s / 1)：0.888" in zh.how
    assert zh.check.endswith("截断后：1 · tanh(1.414 / 1) = 0.888。")
    step = trace.steps[index]
    assert step_title(step, trace.scenario, "zh") == \
        "分数 q·k，再除以 √dₖ，再软截断：1 · tanh(s / 1)"
