"""Chinese texts say things in Chinese: every route-map box (issue 23), placement is not the word
for positions, and every built-in example has a Chinese title and note."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from pytestqt.qtbot import QtBot

from app.canvas.route_map import step_label
from app.texts.example_words import document_words
from app.texts.words import say
from app.texts.words_en import WORDS as STEPS_EN
from app.texts.words_zh import WORDS as STEPS_ZH
from engine import Trace, compute, parse_scenario
from tests.engine.v2_documents import CASES
from tests.examples import EXAMPLES, trace_of

I18N = Path(__file__).resolve().parents[2] / "resources" / "i18n"
CJK = re.compile(r"[\u4e00-\u9fff]")
ALLOWED = frozenset({"Q", "K", "V", "W", "X", "Wo", "q", "k", "QK", "softmax", "RoPE",
                     "LayerNorm", "RMSNorm", "Token", "ln", "p"})
"""Array names and symbols (ln p: the loss) a Chinese map box may keep, and "Token", which the
chapter itself writes in its Chinese sentences (下一个Token依赖前一个已选结果)."""

EXAMPLE_NAMES = sorted(path.name.removesuffix(".qkv.json") for path in EXAMPLES.glob("*.qkv.json"))
MAP_CASES = ("sinusoidal", "learned", "rope_half", "alibi_default_slopes", "post_norm_2_layers",
             "norm_none", "qk_norm_rmsnorm", "encoder_decoder_pre_sinusoidal")


def english_words(text: str) -> set[str]:
    """The ASCII words in ``text`` that are not allowed names or symbols."""
    return set(re.findall(r"[A-Za-z]+", text)) - ALLOWED


def map_labels(trace: Trace) -> dict[str, str]:
    return {step.id: step_label(trace, step, "zh") for step in trace.steps}


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_map_box_of_an_example_is_chinese(name: str) -> None:
    labels = map_labels(trace_of(name))
    assert {step: label for step, label in labels.items() if english_words(label)} == {}


@pytest.mark.parametrize("case", MAP_CASES)
def test_every_map_box_of_a_generated_document_is_chinese(case: str) -> None:
    labels = map_labels(compute(parse_scenario(CASES[case]())))
    assert {step: label for step, label in labels.items() if english_words(label)} == {}


def test_the_map_names_positions_rope_and_norms_in_both_languages() -> None:
    trace = compute(parse_scenario(CASES["sinusoidal"]()))
    positions = trace.steps[trace.step_index("positions")]
    assert (step_label(trace, positions, "en"), step_label(trace, positions, "zh")) == \
        ("+ positions", "+ 位置编码")
    rope = compute(parse_scenario(CASES["rope_half"]()))
    turn = next(step for step in rope.steps if step.op == "rope")
    assert (step_label(rope, turn, "en"), step_label(rope, turn, "zh")) == \
        ("RoPE turns q, k", "RoPE 转动 q、k")
    g01 = trace_of("g01")
    final = g01.steps[-1 - [s.op for s in reversed(g01.steps)].index("norm")]
    assert (step_label(g01, final, "en"), step_label(g01, final, "zh")) == \
        ("final Norm", "最终规范化")


def placement_translations() -> dict[str, str]:
    """The Chinese interface words of every Qt string about the norm's placement."""
    tree = ElementTree.parse(I18N / "qkv_studio_zh_CN.ts")
    return {message.findtext("source", ""): message.findtext("translation", "")
            for message in tree.iter("message")
            if "placement" in message.findtext("source", "").lower()}


def test_placement_is_not_the_word_for_positions() -> None:
    placement = placement_translations()
    assert set(placement) == {"&Placement", "Norm placement", "the other placement (pre ↔ post)"}
    assert {source: text for source, text in placement.items()
            if "位置" in text or "规范化顺序" not in text} == {}
    assert say("edit.block.placement", "zh", value="post") == "规范化顺序改为 post-norm"
    said_in_english = [key for key, text in STEPS_EN.items() if "placement" in text]
    assert said_in_english == ["resid2_post.check"]
    assert {key: STEPS_ZH[key] for key in said_in_english if "位置" in STEPS_ZH[key]} == {}
    assert "规范化顺序切换为前置" in STEPS_ZH["resid2_post.check"]


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+(?:\.\d+)?", text))


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_example_document_has_a_chinese_title_and_note(name: str) -> None:
    doc = json.loads((EXAMPLES / f"{name}.qkv.json").read_text(encoding="utf-8"))
    title, note = document_words(doc["title"], doc["note"], "zh")
    assert CJK.search(title) and CJK.search(note)
    assert (title, note) != (doc["title"], doc["note"])
    assert numbers(title) == numbers(doc["title"])
    assert set(numbers(doc["note"])) <= set(numbers(note)), "the Chinese note says the same"
    assert document_words(doc["title"], doc["note"], "en") == (doc["title"], doc["note"])


def test_a_document_that_is_no_example_keeps_its_own_words() -> None:
    assert document_words("my heads", "mine", "zh") == ("my heads", "mine")


def test_the_window_title_and_the_frame_subtitle_take_the_examples_chinese_title(
        qtbot: QtBot) -> None:
    from app import i18n
    from app.canvas import FrameItem, FrameOptions
    from app.canvas.layout import TextItem, items_of
    from tests.app.driving import close_window, open_window

    chinese, _note = document_words("F11 · Q/K/V on two positions", "", "zh")
    assert chinese == "F11 · 两个位置上的 Q/K/V"
    window = open_window(qtbot, "f11")
    try:
        i18n.set_language("zh")
        qtbot.waitUntil(lambda: window.windowTitle() == f"QKV Studio — {chinese}[*]")
        frame = FrameItem(window.state.trace, 0, FrameOptions(lang="zh"))
        words = [item.text for item in items_of(frame, TextItem)]
        assert chinese in words and "F11 · Q/K/V on two positions" not in words
    finally:
        close_window(window)
