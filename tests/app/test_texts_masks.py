"""The texts and frames say what hides a key and who shares K/V heads, from the step's own
attention: the causal mask, a sliding window of w (position i reads keys i − w + 1 … i), a key
mask (the padding keys named), and g K/V heads read by h query heads (issue: the Mistral preset's
shares step said "Causal mask" while half its hidden cells were the window's)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.model.presets import mistral
from app.texts import step_text, step_title
from engine import Trace, compute, parse_scenario
from tests.engine.v2_documents import attention, document

CAUSAL_EN = "the causal mask (position i reads keys 0 … i)"
CAUSAL_ZH = "因果掩码（位置 i 读键 0 … i）"


def _trace(doc: dict[str, Any]) -> Trace:
    return compute(parse_scenario(doc))


def _text(trace: Trace, step_id: str, lang: str) -> str:
    text = step_text(trace, trace.step_index(step_id), lang)
    return " ".join([text.summary, *text.sections()])


def _title(trace: Trace, step_id: str, lang: str) -> str:
    return step_title(trace.steps[trace.step_index(step_id)], trace.scenario, lang)


def _frame(trace: Trace, step_id: str, lang: str) -> FrameItem:
    return FrameItem(trace, trace.step_index(step_id), FrameOptions(lang=lang))


def _frame_words(trace: Trace, step_id: str, lang: str) -> str:
    """Every line of text the frame draws, joined (a wrapped sentence reads whole again)."""
    return " ".join(t.text for t in _frame(trace, step_id, lang).items_of(TextItem))


def _visible(n: int, causal: bool, window: int | None = None,
             key_mask: list[int] | None = None) -> np.ndarray:
    """Which keys each query reads, worked out here from the rules the texts name."""
    seen = np.ones((n, n), dtype=bool)
    for i in range(n):
        for j in range(n):
            later = causal and j > i
            outside = window is not None and i - j >= window
            padding = key_mask is not None and not key_mask[j]
            seen[i, j] = not (later or outside or padding)
    return seen


@pytest.fixture(scope="module")
def windowed() -> Trace:
    """The Mistral preset: causal, a window of 2, one K/V head for two query heads."""
    return _trace(mistral())


def test_the_window_of_the_mistral_preset_is_named_with_its_numbers(windowed: Trace) -> None:
    w = mistral()["layers"][0]["attention"]["window"]
    assert w == 2
    n = windowed.scenario.n
    assert np.array_equal(windowed.visible_for("L1."), _visible(n, True, w))
    window_en = f"the window of {w} (position i reads keys i − {w - 1} … i)"
    window_zh = f"大小为 {w} 的窗口（位置 i 读键 i − {w - 1} … i）"
    for layer in (1, 2):
        scores = f"L{layer}.scores"
        assert (f"Hatched scores stay in the table, but the next step discards them because of "
                f"{CAUSAL_EN} and {window_en}.") in _text(windowed, scores, "en")
        assert f"斜线格的分数仍在表中，但{CAUSAL_ZH}和{window_zh}会让下一步把它们排除。" in \
            _text(windowed, scores, "zh")
        shares = f"L{layer}.weights"
        assert _title(windowed, shares, "en") == \
            f"Layer {layer} · Causal mask, window of {w} and softmax shares"
        assert _title(windowed, shares, "zh") == \
            f"第 {layer} 层 · 因果掩码、大小为 {w} 的窗口和 softmax 份额"
        assert (f"Keys hidden by {CAUSAL_EN} and {window_en} are removed") in \
            _text(windowed, shares, "en")
        assert f"先去掉被{CAUSAL_ZH}和{window_zh}挡住的键" in _text(windowed, shares, "zh")
        assert "Causal mask and softmax" not in _title(windowed, shares, "en")
        assert "drop the keys the mask hides (later positions)" not in \
            _text(windowed, shares, "en")


def test_the_mistral_scores_frame_says_which_rule_hatches_its_cells(qtbot: QtBot,
                                                                    windowed: Trace) -> None:
    en = _frame_words(windowed, "L1.scores", "en")
    assert (f"Hatched cells are hidden by {CAUSAL_EN} and the window of 2 (position i reads "
            f"keys i − 1 … i).") in en
    zh = _frame_words(windowed, "L1.scores", "zh")
    assert f"斜线格被{CAUSAL_ZH}和大小为 2 的窗口（位置 i 读键 i − 1 … i）遮住。" in zh


def test_one_shared_kv_head_is_told_in_text_and_frame(qtbot: QtBot, windowed: Trace) -> None:
    a = windowed.scenario.layers[0].attention
    assert (a.heads, a.groups) == (2, 1)
    assert ("K and V have a single head, shared by the 2 query heads: query heads 1–2 read K/V "
            "head 1.") in _text(windowed, "L1.projections", "en")
    assert "K 和 V 只有 1 个头，由 2 个 Query 头共用：Query 头 1–2 读 K/V 头 1。" in \
        _text(windowed, "L1.projections", "zh")
    notes = {g.spec.title: g.note for g in
             _frame(windowed, "L1.projections", "en").items_of(MatrixGrid)}
    note = "shared K/V (g = 1, h = 2): query heads 1–2 read K/V head 1"
    assert notes["K = norm1·Wk"] == notes["V = norm1·Wv"] == note
    assert notes["Q = norm1·Wq"] == ""


def test_grouped_heads_name_the_query_heads_of_each_kv_head(qtbot: QtBot) -> None:
    trace = _trace(document(91, attention_keys={"heads": 4, "kv_heads": 2}))
    groups = [i * 2 // 4 for i in range(4)]  # query head i reads K/V head ⌊i·g/h⌋
    assert groups == [0, 0, 1, 1]
    assert [trace.scenario.layers[0].attention.kv_head(i) for i in range(4)] == groups
    reads_en = "query heads 1–2 read K/V head 1 and query heads 3–4 read K/V head 2"
    assert f"K and V have 2 heads, shared by the 4 query heads: {reads_en}." in \
        _text(trace, "L1.projections", "en")
    assert "K 和 V 只有 2 个头，由 4 个 Query 头共用：Query 头 1–2 读 K/V 头 1 和 Query 头 3–4 " \
        "读 K/V 头 2。" in _text(trace, "L1.projections", "zh")
    notes = {g.spec.title: g.note for g in
             _frame(trace, "L1.projections", "zh").items_of(MatrixGrid)}
    assert notes["K = norm1·Wk"] == \
        "共用的 K/V（g = 2，h = 4）：Query 头 1–2 读 K/V 头 1 和 Query 头 3–4 读 K/V 头 2"


def test_own_kv_heads_say_nothing_of_sharing() -> None:
    trace = _trace(document(93))
    assert "K/V head" not in _text(trace, "L1.projections", "en")
    assert "K/V 头" not in _text(trace, "L1.projections", "zh")


def test_the_key_mask_names_its_padding_keys(qtbot: QtBot) -> None:
    mask = [1, 0, 0, 1]
    trace = _trace(document(90, attention_keys={"key_mask": mask}))
    assert np.array_equal(trace.visible_for("L1."), _visible(4, True, key_mask=mask))
    padding = [t for t, kept in zip(trace.scenario.tokens, mask, strict=True) if not kept]
    assert padding == ["w1", "w2"]
    rule_en = f"{CAUSAL_EN} and the key mask (padding keys “w1” and “w2” are never read)"
    rule_zh = f"{CAUSAL_ZH}和键掩码（填充键“w1”和“w2”从不被读）"
    assert f"because of {rule_en}." in _text(trace, "L1.scores", "en")
    assert f"但{rule_zh}会让下一步" in _text(trace, "L1.scores", "zh")
    assert _title(trace, "L1.weights", "en") == "Layer 1 · Causal mask, key mask and softmax shares"
    assert _title(trace, "L1.weights", "zh") == "第 1 层 · 因果掩码、键掩码和 softmax 份额"
    assert f"Hatched cells are hidden by {rule_en}." in _frame_words(trace, "L1.scores", "en")
    assert f"斜线格被{rule_zh}遮住。" in _frame_words(trace, "L1.scores", "zh")


@pytest.fixture(scope="module")
def stack() -> Trace:
    """Layer 1: causal only. Layer 2: no causal mask, a window of 3."""
    doc = document(92, layers=2)
    doc["layers"][1]["attention"] = attention(np.random.default_rng(94), 4, causal=False,
                                              window=3)
    return _trace(doc)


def test_each_layer_names_its_own_mask(qtbot: QtBot, stack: Trace) -> None:
    assert np.array_equal(stack.visible_for("L1."), _visible(4, True))
    assert np.array_equal(stack.visible_for("L2."), _visible(4, False, 3))
    window_en = "the window of 3 (position i reads no key before i − 2)"
    window_zh = "大小为 3 的窗口（位置 i 不读 i − 2 之前的键）"
    assert _title(stack, "L1.weights", "en") == "Layer 1 · Causal mask and softmax shares"
    assert _title(stack, "L2.weights", "en") == "Layer 2 · Window of 3 and softmax shares"
    assert _title(stack, "L2.weights", "zh") == "第 2 层 · 大小为 3 的窗口和 softmax 份额"
    assert "the causal mask makes the next step discard it" in _text(stack, "L1.scores", "en")
    assert f"because of {window_en}." in _text(stack, "L2.scores", "en")
    assert "causal" not in _text(stack, "L2.scores", "en")
    assert f"但{window_zh}会让下一步" in _text(stack, "L2.scores", "zh")
    notes = [g.note for g in _frame(stack, "L1.scores", "en").items_of(MatrixGrid)]
    assert notes.count("÷ √2 = 1.414; hatched cells are hidden by the causal mask in the next "
                       "step") == 2  # one scores grid per head
    zh = [g.note for g in _frame(stack, "L1.scores", "zh").items_of(MatrixGrid)]
    assert zh.count("÷ √2 = 1.414；斜线格在下一步被因果掩码遮住") == 2
    assert "Hatched cells are hidden by" not in _frame_words(stack, "L1.scores", "en")
    assert f"Hatched cells are hidden by {window_en}." in _frame_words(stack, "L2.scores", "en")
    assert f"斜线格被{window_zh}遮住。" in _frame_words(stack, "L2.scores", "zh")
