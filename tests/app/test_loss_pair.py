"""Issue 24 item 4, the pair: the loss step sets training (one forward pass, every position's
loss, the causal mask's role marked) beside generation (one greedy pass per token from the
first token). The passes are checked against greedy decoding done here by recomputing each
longer document in full (no KV cache, no :func:`engine.generation.run.generate`)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.describe import describe_frame
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.model.examples import example_path
from app.model.passes import generation_passes
from app.texts import step_text
from engine import Trace, compute, format_number, load_scenario, parse_scenario
from engine.format.writer import as_array, to_document
from tests.engine.generation_documents import cases

Doc = dict[str, Any]


def training_doc(causal: bool = True) -> Doc:
    doc = to_document(load_scenario(example_path("training")), as_array)
    doc["layers"][0]["attention"]["causal"] = causal
    return doc


def with_targets(name: str) -> Doc:
    """A generation case with every position's target the next token (the last: its own)."""
    doc = copy.deepcopy(cases()[name])
    ids = doc["token_ids"]
    doc["targets"] = [*ids[1:], ids[-1]]
    return doc


DOCS = {"training": training_doc(), "training, mask off": training_doc(causal=False),
        "three-layers": with_targets("three-layers"), "alibi": with_targets("alibi"),
        "window": with_targets("window")}


def greedy_by_hand(doc: Doc) -> list[tuple[list[str], int, float]]:
    """For k = 1 … n: the tokens pass k reads, the most probable entry (lowest id among equals)
    at its last position and its probability, each pass a full computation of the document of
    the first token and the k − 1 chosen."""
    vocab = doc["head"]["vocab"]
    ids, labels = [doc["token_ids"][0]], [doc["tokens"][0]]
    passes = []
    for _ in range(len(doc["token_ids"])):
        short = {key: value for key, value in doc.items() if key != "targets"}
        short["token_ids"], short["tokens"] = list(ids), list(labels)
        probs = compute(parse_scenario(short)).arrays["probs"][-1]
        chosen = int(np.argmax(probs))
        passes.append((list(labels), chosen, float(probs[chosen])))
        ids.append(chosen)
        labels.append(vocab[chosen])
    return passes


def trace_of(doc: Doc) -> Trace:
    return compute(parse_scenario(doc))


def loss_frame(trace: Trace, lang: str = "en") -> FrameItem:
    index = next(k for k, step in enumerate(trace.steps) if step.op == "loss")
    return FrameItem(trace, index, FrameOptions(lang=lang))


def grid_titled(frame: FrameItem, start: str) -> MatrixGrid:
    [grid] = [g for g in frame.items_of(MatrixGrid) if g.spec.title.startswith(start)]
    return grid


def words(frame: FrameItem) -> str:
    return " ".join(item.text for item in frame.items_of(TextItem))


@pytest.mark.parametrize("name", list(DOCS))
def test_generation_takes_one_pass_per_token_each_reading_the_tokens_chosen_so_far(
        name: str) -> None:
    doc = DOCS[name]
    passes = generation_passes(parse_scenario(doc))
    expected = greedy_by_hand(doc)
    assert passes.refused is None and passes.count == len(doc["token_ids"])
    assert [p.number for p in passes.passes] == list(range(1, passes.count + 1))
    assert [list(p.reads) for p in passes.passes] == [reads for reads, _, _ in expected]
    assert [p.chosen for p in passes.passes] == [chosen for _, chosen, _ in expected]
    np.testing.assert_allclose([p.p for p in passes.passes], [p for _, _, p in expected],
                               rtol=1e-12)


def test_the_training_example_generates_its_first_word_four_times() -> None:
    """The model copies: from 我 it repeats 我 with p = 0.993, where training scores 爱 你 。。"""
    passes = generation_passes(parse_scenario(DOCS["training"]))
    assert [p.label for p in passes.passes] == ["我"] * 4
    assert [round(p.p, 3) for p in passes.passes] == [0.993] * 4


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pair_draws_one_row_per_pass_and_both_counts(qtbot: QtBot, lang: str) -> None:
    doc = DOCS["three-layers"]
    expected = greedy_by_hand(doc)
    frame = loss_frame(trace_of(doc), lang)
    title = {"en": "Each pass: reads → chooses", "zh": "每一次：读入 → 选出"}[lang]
    grid = grid_titled(frame, title)
    vocab = doc["head"]["vocab"]
    row = {"en": "pass {k}: {reads} → {chosen}", "zh": "第 {k} 次：{reads} → {chosen}"}[lang]
    assert list(grid.spec.row_labels) == [
        row.format(k=k + 1, reads=" ".join(reads), chosen=vocab[chosen])
        for k, (reads, chosen, _) in enumerate(expected)]
    np.testing.assert_allclose(grid.spec.values[:, 0], [p for _, _, p in expected], rtol=1e-12)
    text = words(frame)
    heads = {"en": ("Training · 1 forward pass", "all 3 positions at once",
                    "the whole target row is known: 爱 你 你",
                    "Generation · 3 forward passes", "one per token, from the prompt “我”",
                    "forward passes: training 1 · generation 3"),
             "zh": ("训练 · 1 次前向计算", "3 个位置一次算出", "整行目标已知：爱 你 你",
                    "生成 · 3 次前向计算", "每个 Token 一次，从提示“我”开始",
                    "前向计算次数：训练 1 · 生成 3")}[lang]
    assert all(head in text for head in heads), text


TIPS = {"en": ["爱 · p1 reads 我 · p0",
               "the causal mask hides 爱 · p1 from 我 · p0 · ◣ the token 我 · p0 must predict"],
        "zh": ["爱 · p1 读 我 · p0", "因果掩码对 我 · p0 遮住 爱 · p1 · ◣ 我 · p0 要预测的 Token"]}
"""The hover of a cell read and of one the mask hides (the answer's)."""


def test_the_training_panel_dashes_what_the_mask_hides_and_marks_each_answer(
        qtbot: QtBot) -> None:
    """Row i reads keys 0 … i (1); keys after i are a dash, key i + 1 (the token row i must
    predict) marked."""
    trace = trace_of(DOCS["training"])
    later = np.triu(np.ones((4, 4), dtype=bool), 1)
    for lang, title, said in (("en", "Who each position reads", "—: hidden by the causal mask"),
                              ("zh", "每个位置读哪些位置", "“—”：被因果掩码遮住")):
        frame = loss_frame(trace, lang)
        grid = grid_titled(frame, title)
        np.testing.assert_array_equal(grid.spec.values, (~later).astype(float))
        assert grid.spec.blank is not None and grid.spec.marked is not None
        np.testing.assert_array_equal(grid.spec.blank, later)
        np.testing.assert_array_equal(grid.spec.marked, np.eye(4, k=1, dtype=bool))
        assert said in words(frame) and "◣" in words(frame)
        assert grid.spec.explain is not None
        assert [grid.spec.explain(1, 0), grid.spec.explain(0, 1)] == TIPS[lang]


def test_the_answers_are_marked_for_tokens_shown_otherwise_than_written(qtbot: QtBot) -> None:
    """A token its label shows otherwise (right-to-left, isolated; a space at its start, ␣)
    is still its vocabulary entry: the answer each row must predict is marked (the written
    token was compared with the entry as shown, and none was)."""
    doc = copy.deepcopy(DOCS["training"])
    doc["tokens"] = ["שלום", "مرحبا", " cat", "."]
    doc["head"]["vocab"] = ["שלום", "مرحبا", " cat", "."]
    grid = grid_titled(loss_frame(trace_of(doc)), "Who each position reads")
    assert grid.spec.marked is not None
    np.testing.assert_array_equal(grid.spec.marked, np.eye(4, k=1, dtype=bool))


def test_without_the_mask_the_training_panel_shows_each_position_reading_its_answer(
        qtbot: QtBot) -> None:
    trace = trace_of(DOCS["training, mask off"])
    frame = loss_frame(trace)
    grid = grid_titled(frame, "Who each position reads")
    assert grid.spec.blank is None and (grid.spec.values == 1).all()
    assert grid.spec.marked is not None
    np.testing.assert_array_equal(grid.spec.marked, np.eye(4, k=1, dtype=bool))
    assert "no causal mask: ◣ position i reads position i + 1" in words(frame)
    assert "0.007" in words(frame)  # the flattering mean


def test_a_document_without_token_ids_says_why_it_cannot_generate(qtbot: QtBot) -> None:
    doc = DOCS["three-layers"]
    rows = np.array(doc["embedding"])[doc["token_ids"]]
    doc = {key: value for key, value in doc.items() if key not in ("token_ids", "embedding")}
    doc["X"] = rows.tolist()
    trace = trace_of(doc)
    assert generation_passes(trace.scenario).refused is not None
    for lang, said in (("en", "this document cannot generate: token_ids"),
                       ("zh", "这个文档无法生成：token_ids")):
        frame = loss_frame(trace, lang)
        assert said in words(frame)
        assert len(frame.items_of(MatrixGrid)) == 2  # training's two; no passes


def test_the_step_texts_and_the_description_tell_the_pair() -> None:
    trace = trace_of(DOCS["three-layers"])
    index = len(trace.steps) - 1
    chosen = [trace.scenario.head.vocab[c]  # type: ignore[union-attr]
              for _, c, _ in greedy_by_hand(DOCS["three-layers"])]
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    quoted = [f"“{c}”" for c in chosen]
    assert (f"the pair beside the loss shows it: from “我”, greedy generation reads the tokens "
            f"so far in each pass and chooses in turn {', '.join(quoted[:-1])} and {quoted[-1]}"
            in en.pitfalls)
    assert "损失旁边的一对画面展示了这一点：从“我”开始" in zh.pitfalls
    assert "、".join(quoted[:-1]) in zh.pitfalls
    facts = describe_frame(trace, index, FrameOptions(), "Loss")
    p1 = format_number(greedy_by_hand(DOCS["three-layers"])[0][2], 3)
    assert f"pass 1: 我 → {chosen[0]} · p = {p1}" in facts


def test_the_command_line_guide_quotes_the_pairs_numbers() -> None:
    """The command-line guide's paragraph on the pair: both losses and generation's choices, as
    computed."""
    guide = Path(__file__).resolve().parents[2] / "docs" / "command-line.md"
    readme = guide.read_text(encoding="utf-8")
    on, off = trace_of(DOCS["training"]), trace_of(DOCS["training, mask off"])
    passes = generation_passes(on.scenario)
    unmasked = generation_passes(off.scenario).passes
    assert [p.label for p in unmasked] == [p.label for p in passes.passes]
    np.testing.assert_allclose([p.p for p in unmasked], [p.p for p in passes.passes], rtol=1e-12)
    said = (f"the mask-on side reads no answer (loss {on.arrays['loss_mean'][0]:.3f}), the\n"
            f"mask-off side reads every answer ({off.arrays['loss_mean'][0]:.3f}), and both "
            f"generate {' '.join(p.label for p in passes.passes)} "
            f"(p = {passes.passes[0].p:.3f} each pass)")
    assert said in readme
    assert len({p.p for p in passes.passes}) == 1
