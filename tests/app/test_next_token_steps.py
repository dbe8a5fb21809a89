"""The two steps after the probabilities: the draw of the next token (``sample``) and the
training loss (``loss``) — their pictures, texts and explanations against numbers computed here
with numpy from the document's logits, not read from the engine's draw."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

import app.canvas.sample_step
import app.model.next_token
from app.canvas import FrameItem, FrameOptions, compose
from app.canvas.bars import ProbabilityBars
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.layout import TextItem
from app.texts import step_text
from engine import Trace, compute, explain, format_number, parse_scenario
from tests.app.driving import counting
from tests.engine import v2_documents
from tests.engine.generation_documents import cases, with_token_ids

TARGETS = [1, 2, 0]


def _document(**keys: Any) -> dict[str, Any]:
    return {**cases()["three-layers"], **keys}


def _trace(**keys: Any) -> Trace:
    return compute(parse_scenario(_document(**keys)))


def _softmax(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return e / e.sum()


def _frame(trace: Trace, op: str, lang: str = "en") -> FrameItem:
    index = next(k for k, step in enumerate(trace.steps) if step.op == op)
    return FrameItem(trace, index, FrameOptions(lang=lang))


def _texts(frame: FrameItem) -> list[str]:
    return [item.text for item in frame.items_of(TextItem)]


@pytest.fixture(scope="module")
def sampled() -> Trace:
    """Temperature 0.7, top-k 2, top-p 0.9 over three entries."""
    return _trace(generation={"temperature": 0.7, "top_k": 2, "top_p": 0.9, "seed": 3})


# ------------------------------------------------------------------------------ the engine

def test_a_document_that_can_generate_ends_with_the_draw_and_one_with_targets_with_the_loss(
        ) -> None:
    drawn, trained = _trace(), _trace(targets=TARGETS)
    assert [s.op for s in drawn.steps[-2:]] == ["probs", "sample"]
    assert drawn.steps[-1].writes == ("gen1.logits", "gen1.tempered", "gen1.kept",
                                      "gen1.sample_probs", "gen1.chosen")
    assert [s.op for s in trained.steps[-2:]] == ["probs", "loss"]
    assert trained.steps[-1].writes == ("loss", "loss_mean")
    assert "loss" not in trained.steps[-2].writes  # no longer hidden in the probabilities step
    # the same document without token ids cannot generate: its trace is as before
    doc = _document()
    embedding, ids = np.array(doc.pop("embedding")), doc.pop("token_ids")
    plain = compute(parse_scenario({**doc, "X": embedding[ids].tolist()}))
    assert plain.steps[-1].op == "probs" and not any(k.startswith("gen") for k in plain.arrays)


def test_the_draw_continues_a_run_at_its_next_t() -> None:
    doc = _document()
    doc["token_ids"] = [*doc["token_ids"], 1]
    doc["tokens"] = [*doc["tokens"], "爱"]
    doc["generation"] = {"seed": 5, "chosen": [1]}
    trace = compute(parse_scenario(doc))
    assert "gen2.tempered" in trace.arrays and "gen1.tempered" not in trace.arrays


def test_the_draw_is_softmax_of_logits_over_t_cut_by_top_k_and_top_p(sampled: Trace) -> None:
    logits = sampled.arrays["logits"][-1]
    tempered = _softmax(logits / 0.7)
    np.testing.assert_allclose(sampled.arrays["gen1.tempered"], tempered, rtol=1e-12)
    order = np.argsort(-tempered)[:2]  # top-k = 2
    mass = np.cumsum(tempered[order]) / tempered[order].sum()
    kept = order[:int(np.argmax(mass >= 0.9)) + 1]  # the smallest prefix reaching 0.9
    assert sampled.arrays["gen1.kept"].tolist() == kept.tolist()
    shares = np.zeros_like(tempered)
    shares[kept] = tempered[kept] / tempered[kept].sum()
    np.testing.assert_allclose(sampled.arrays["gen1.sample_probs"], shares, rtol=1e-12)
    assert sampled.arrays["gen1.sample_probs"].sum() == pytest.approx(1.0, abs=1e-15)


def test_temperature_0_and_top_k_1_draw_the_greedy_entry() -> None:
    greedy = int(np.argmax(_trace().arrays["logits"][-1]))
    for settings in ({"temperature": 0}, {"top_k": 1, "temperature": 3}):
        for seed in range(5):
            trace = _trace(generation={**settings, "seed": seed})
            assert trace.arrays["gen1.chosen"].tolist() == [greedy], settings


def test_the_loss_is_minus_ln_of_the_probability_at_each_target() -> None:
    trace = _trace(targets=TARGETS)
    probs = np.array([_softmax(row) for row in trace.arrays["logits"]])
    loss = -np.log(probs[np.arange(3), TARGETS])
    np.testing.assert_allclose(trace.arrays["loss"], loss, rtol=1e-12)
    assert trace.arrays["loss_mean"][0] == pytest.approx(loss.mean(), rel=1e-12)


def test_explain_tells_how_the_tempered_probability_and_the_share_come_about(
        sampled: Trace) -> None:
    tempered, shares = sampled.arrays["gen1.tempered"], sampled.arrays["gen1.sample_probs"]
    kept = [int(k) for k in sampled.arrays["gen1.kept"]]
    first = kept[0]
    cell = explain(sampled, "gen1.tempered", (first,))
    assert cell.value == tempered[first]
    assert cell.formula.startswith(f"gen1.tempered[{first}] = exp((l{first} − max)/T)")
    assert cell.formula.endswith(format_number(float(tempered[first])))
    assert "T = 0.7" in cell.details[0]
    share = explain(sampled, "gen1.sample_probs", (first,))
    terms = " + ".join(format_number(float(tempered[k])) for k in kept)
    assert f"{format_number(float(tempered[first]))} / ({terms}) = " \
           f"{format_number(float(shares[first]))}" in share.formula
    cut = next(k for k in range(3) if k not in kept)
    assert explain(sampled, "gen1.sample_probs", (cut,)).formula.endswith(" = 0")
    chinese = explain(sampled, "gen1.sample_probs", (first,), "zh")
    assert chinese.formula == share.formula and "保留的份额之和为 1" in chinese.details[0]


def test_explain_of_the_loss_comes_from_the_loss_step() -> None:
    trace = _trace(targets=TARGETS)
    p = trace.arrays["probs"][1, TARGETS[1]]
    cell = explain(trace, "loss", (1,))
    assert cell.formula == (f"loss[1] = −log probs[1,{TARGETS[1]}] = −log({format_number(p)})"
                            f" = {format_number(-math.log(p))}")
    assert "训练时一次并行算出" in explain(trace, "loss_mean", (0,), "zh").details[0]


# ------------------------------------------------------------------------------ the pictures

def test_the_draw_picture_charts_the_renormalised_shares_at_the_tables_number_size(
        qtbot: QtBot, sampled: Trace) -> None:
    """One chart (the shares the draw uses, cut entries at 0) beside the ranked table, which
    prints the model's and the tempered probabilities; the chart's numbers are as large as
    the table's."""
    frame = _frame(sampled, "sample")
    [bars] = frame.items_of(ProbabilityBars)
    [table] = [g for g in frame.items_of(MatrixGrid) if "top-k" in g.spec.title]
    logits = sampled.arrays["logits"][-1]
    tempered = _softmax(logits / 0.7)
    kept = [int(k) for k in sampled.arrays["gen1.kept"]]
    shares = np.zeros(3)
    shares[kept] = tempered[kept] / tempered[kept].sum()
    order = np.argsort(-tempered)  # the chart reads across with the ranked table
    assert bars.values == {(0, k): format_number(float(shares[v]), 3)
                           for k, v in enumerate(order)}
    assert bars.spec.title == "Drawn from: the 2 kept, renormalised (T = 0.7)"
    np.testing.assert_allclose(table.spec.values[:, 0], _softmax(logits)[order], rtol=1e-12)
    np.testing.assert_allclose(table.spec.values[:, 3], shares[order], rtol=1e-12)
    values = [item for item in bars.childItems()
              if isinstance(item, TextItem) and item.text in bars.values.values()]
    assert {item.font.pixelSize() for item in values} == {NUMBER_SIZE}
    chart = bars.mapRectToScene(bars.boundingRect())
    grid = table.mapRectToScene(table.boundingRect())
    assert chart.left() >= grid.right() and chart.top() == pytest.approx(grid.top()), \
        "the chart beside the table"
    zh = _frame(sampled, "sample", "zh")
    [bars] = zh.items_of(ProbabilityBars)
    assert bars.spec.title == "抽取所用：保留的 2 项重新归一化（T = 0.7）"


def test_the_ranked_table_marks_kept_cut_and_chosen_in_words_with_the_running_mass(
        qtbot: QtBot, sampled: Trace) -> None:
    frame = _frame(sampled, "sample")
    [table] = [g for g in frame.items_of(MatrixGrid) if "top-k" in g.spec.title]
    tempered = _softmax(sampled.arrays["logits"][-1] / 0.7)
    order = np.argsort(-tempered)
    within = tempered[order] * (np.arange(3) < 2)  # top-k = 2
    np.testing.assert_allclose(table.spec.values[:, 1], tempered[order], rtol=1e-12)
    np.testing.assert_allclose(table.spec.values[:, 2], np.cumsum(within) / within.sum(),
                               rtol=1e-12)
    vocab = sampled.scenario.head.vocab  # type: ignore[union-attr]
    chosen = int(sampled.arrays["gen1.chosen"][0])
    kept = {int(k) for k in sampled.arrays["gen1.kept"]}
    for label, entry in zip(table.spec.row_labels, order, strict=True):
        assert vocab[entry] in label
        assert ("✓ kept" in label) == (entry in kept) and ("✗ cut" in label) == (entry not in kept)
        assert ("◆ chosen" in label) == (entry == chosen)
    words = " ".join(_texts(frame))
    assert "temperature T = 0.7 · top-k = 2 · top-p = 0.9" in words
    entropy = -(tempered * np.log(tempered)).sum()
    assert f"tempered {format_number(entropy, 3)} nats" in words
    assert f"chosen: “{vocab[chosen]}” (id {chosen})" in words


def test_the_running_mass_is_a_dash_past_the_top_k_cut_and_its_header_says_so(
        qtbot: QtBot, sampled: Trace) -> None:
    """top-k = 2 of 3 entries: the third row's running mass is not read by top-p (it printed
    1); without top-k every row carries the mass of the ranking so far."""
    tempered = _softmax(sampled.arrays["logits"][-1] / 0.7)
    first_two = np.sort(tempered)[::-1][:2]
    for lang, header, dash_words in (
            ("en", "top-2 mass so far", "entry 3 is past the top-2 cut"),
            ("zh", "前 2 项内累计", "第 3 项在 top-2 截断之外")):
        [table] = [g for g in _frame(sampled, "sample", lang).items_of(MatrixGrid)
                   if "top-k" in g.spec.title]
        assert table.spec.col_labels[2] == header
        assert [table.cell_text(r, 2) for r in range(3)] == [
            format_number(float(first_two[0] / first_two.sum()), 3), "1", "—"]
        assert dash_words in table.spec.explain(2, 2)  # type: ignore[misc]
        assert table.note_text.startswith(("—", "“—”"))
    everything = _trace(generation={"temperature": 0.7, "seed": 3})
    [table] = [g for g in _frame(everything, "sample").items_of(MatrixGrid)
               if "top-k" in g.spec.title]
    assert table.spec.col_labels[2] == "mass so far"
    ranked = np.sort(_softmax(everything.arrays["logits"][-1] / 0.7))[::-1]
    assert [table.cell_text(r, 2) for r in range(3)] == [
        format_number(float(m), 3) for m in np.cumsum(ranked) / ranked.sum()]
    assert table.note_text == ""


def test_the_draws_lines_follow_its_last_bar_without_an_empty_legends_room(
        qtbot: QtBot, sampled: Trace) -> None:
    """Every entry shown: the chart has no legend, and it kept an empty line's room (35 units)
    between its last bar and the four lines under the picture."""
    frame = _frame(sampled, "sample")
    [bars] = frame.items_of(ProbabilityBars)
    assert bars.spec.legend == ""
    last_bar = max(rect.bottom() for rect, _entry in bars.rows)
    assert 0 <= bars.boundingRect().bottom() - last_bar < 4  # its printed share, a bit taller
    [first] = [t for t in frame.items_of(TextItem) if t.text.startswith("temperature T")]
    below = max(bars.mapRectToScene(bars.boundingRect()).bottom(),
                next(g for g in frame.items_of(MatrixGrid)).sceneBoundingRect().bottom())
    gap = first.sceneBoundingRect().top() - below
    assert 0 < gap <= 12 * frame.picture_scale + 0.5, gap


def _large_vocabulary() -> Trace:
    """A draw at temperature 2 over 30 entries, every one kept: the chart shows ten."""
    doc = _document(generation={"temperature": 2.0, "seed": 0})
    rng = np.random.default_rng(0)
    doc["head"]["unembed"] = rng.normal(0, 0.1, (4, 30)).round(3).tolist()
    doc["head"]["vocab"] = [f"w{k}" for k in range(30)]
    doc["head"].pop("bias", None)
    doc["embedding"] = [*doc["embedding"], *rng.normal(0, 1, (27, 4)).round(3).tolist()]
    return compute(parse_scenario(doc))


def test_a_large_vocabulary_draws_the_ten_most_probable_and_the_chosen_entry(
        qtbot: QtBot) -> None:
    trace = _large_vocabulary()
    tempered = trace.arrays["gen1.tempered"]
    chosen = int(trace.arrays["gen1.chosen"][0])
    top = [int(k) for k in np.argsort(-tempered, kind="stable")[:10]]
    shown = top if chosen in top else [*top, chosen]
    frame = _frame(trace, "sample")
    [bars] = frame.items_of(ProbabilityBars)
    assert list(bars.spec.vocab) == [f"w{k}" for k in shown]
    [table] = [g for g in frame.items_of(MatrixGrid) if "top-k" in g.spec.title]
    assert len(table.spec.row_labels) == len(shown)


def test_a_draw_laid_out_many_times_works_out_its_entropies_and_left_out_share_once(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type scale's search lays a frame by itself out dozens of times (Llama 3's draw:
    128,256 entries read at each layout for each entropy, the kept test, the ranks and the
    share the chart leaves out): the draw's three entropies are worked out once, the share
    left out once per layout context, and the frame prints those computed here."""
    trace = _large_vocabulary()
    left_out: list[float] = []
    real_sum = app.canvas.sample_step.others_sum

    def others_sum(row: np.ndarray, shown: Any) -> float:
        left_out.append(real_sum(row, shown))
        return left_out[-1]

    monkeypatch.setattr(app.canvas.sample_step, "others_sum", others_sum)
    entropies = counting(monkeypatch, app.model.next_token, "entropy")
    laid = counting(monkeypatch, app.canvas.sample_step, "share_bars")
    compose.forget()
    index = next(k for k, step in enumerate(trace.steps) if step.op == "sample")
    frame = FrameItem(trace, index, FrameOptions(), alone=True)
    compose.forget()
    assert len(entropies) == 3
    assert len(laid) > 10 and len(left_out) <= 3  # the search's context, the frame's own
    shares = trace.arrays["gen1.sample_probs"]
    tempered = trace.arrays["gen1.tempered"]
    top = [int(k) for k in np.argsort(-tempered, kind="stable")[:10]]
    chosen = int(trace.arrays["gen1.chosen"][0])
    shown = top if chosen in top else [*top, chosen]
    assert left_out[0] == float(np.delete(shares, shown).sum())

    def nats(p: np.ndarray) -> str:
        return format_number(float(-(p[p > 0] * np.log(p[p > 0])).sum()), 3)

    probs = trace.arrays["probs"][-1]
    assert (f"entropy: model {nats(probs)} nats · tempered {nats(tempered)} nats · kept "
            f"shares {nats(shares)} nats") in _texts(frame)


def test_the_loss_picture_prints_each_target_its_probability_and_minus_ln(
        qtbot: QtBot) -> None:
    trace = _trace(targets=TARGETS)
    probs = np.array([_softmax(row) for row in trace.arrays["logits"]])
    picked = probs[np.arange(3), TARGETS]
    for lang, training in (("en", "Training · 1 forward pass"), ("zh", "训练 · 1 次前向计算")):
        frame = _frame(trace, "loss", lang)
        [grid] = [g for g in frame.items_of(MatrixGrid) if g.spec.col_labels[-1] == "−ln p"]
        np.testing.assert_allclose(grid.spec.values, np.column_stack([picked, -np.log(picked)]),
                                   rtol=1e-12)
        vocab = trace.scenario.head.vocab  # type: ignore[union-attr]
        assert [label.split(" → ")[1][0] for label in grid.spec.row_labels] == \
            [vocab[t] for t in TARGETS]
        words = " ".join(_texts(frame))
        assert training in words
        assert format_number(float(-np.log(picked).mean()), 3) in words


def test_without_the_causal_mask_the_loss_picture_says_the_position_sees_its_target(
        qtbot: QtBot) -> None:
    doc = _document(targets=TARGETS)
    for layer in doc["layers"]:
        layer["attention"]["causal"] = False
    trace = compute(parse_scenario(doc))
    words = " ".join(_texts(_frame(trace, "loss")))
    assert "no causal mask: ◣ position i reads position i + 1" in words
    assert "hidden by the causal mask" not in words


# ------------------------------------------------------------------------------ the texts

def test_the_draw_text_quotes_the_settings_the_kept_count_and_the_chosen_token(
        sampled: Trace) -> None:
    index = len(sampled.steps) - 1
    vocab = sampled.scenario.head.vocab  # type: ignore[union-attr]
    chosen = vocab[int(sampled.arrays["gen1.chosen"][0])]
    kept = len(sampled.arrays["gen1.kept"])
    en, zh = step_text(sampled, index, "en"), step_text(sampled, index, "zh")
    assert f"temperature 0.7: {kept} of 3 entries kept, and “{chosen}” chosen" in en.summary
    assert f"保留 {kept} 项，选中“{chosen}”" in zh.summary
    assert "top-k keeps the 2 most probable" in en.how and "top-k 保留概率最高的 2 项" in zh.how
    assert "sum to 1 (1)" in en.check and "T → 0" in en.check and "T → 0" in zh.check


def test_the_loss_text_quotes_the_mean_and_the_worst_position() -> None:
    trace = _trace(targets=TARGETS)
    loss = trace.arrays["loss"]
    worst = int(np.argmax(loss))
    index = len(trace.steps) - 1
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    mean = format_number(float(loss.mean()), 3)
    assert f"their mean is {mean}" in en.summary and f"平均为 {mean}" in zh.summary
    token = trace.scenario.tokens[worst]
    assert f"The worst is “{token}”" in en.how and f"最差的是“{token}”" in zh.how
    assert f"= {format_number(float(loss[worst]), 3)}" in en.check
    assert "causal mask" in en.why and "因果掩码" in zh.why


def test_the_draw_over_a_large_vocabulary_lists_its_first_shares_and_its_last() -> None:
    """Every entry kept (no top-k or top-p) of a 40-word vocabulary: the how-text lists the
    ten most probable shares, "…" and the least probable, not 40 numbers (nor GPT-2's
    50,257, which took a second to write)."""
    doc = v2_documents.document(5, n=3, d=4, layers=1)
    doc["head"] = v2_documents.head(np.random.default_rng(9), 4, vocab=40)
    trace = compute(parse_scenario(with_token_ids(doc, 5)))
    index = len(trace.steps) - 1
    kept = [int(k) for k in trace.arrays["gen1.kept"]]
    shares = trace.arrays["gen1.sample_probs"]
    vocab = trace.scenario.head.vocab
    listed = [f"{vocab[k]} {format_number(float(shares[k]), 3)}" for k in kept[:10]]
    last = f"{vocab[kept[-1]]} {format_number(float(shares[kept[-1]]), 3)}"
    assert len(kept) == 40
    assert f"({', '.join(listed)}, … and {last})" in step_text(trace, index, "en").how
    assert f"（{'、'.join(listed)}、… 和 {last}）" in step_text(trace, index, "zh").how


def test_a_greedy_draw_ranks_most_probable_first_and_says_nothing_is_drawn(
        qtbot: QtBot) -> None:
    """At T = 0 the tempered shares are one 1 and zeros: the ranked table still reads most
    probable first (by the model's own probabilities), and no line speaks of a seed or a
    division by T."""
    doc = _document(generation={"temperature": 0, "seed": 4})
    # the head's columns reversed: the most probable entries come last by id
    doc["head"] = {**doc["head"], "unembed": [row[::-1] for row in doc["head"]["unembed"]]}
    trace = compute(parse_scenario(doc))
    probs = _softmax(trace.arrays["logits"][-1])
    by_probability = np.argsort(-probs, kind="stable").tolist()
    by_id_after_first = [by_probability[0], *sorted(by_probability[1:])]
    assert by_probability != by_id_after_first  # the document tells the two orders apart
    frame = _frame(trace, "sample")
    [table] = [g for g in frame.items_of(MatrixGrid) if "top-k" in g.spec.title]
    np.testing.assert_allclose(table.spec.values[:, 0], probs[by_probability], rtol=1e-12)
    texts = " ".join(_texts(frame))
    assert "seed" not in texts and "greedy decoding (T = 0) draws nothing" in texts
    told = step_text(trace, len(trace.steps) - 1, "en")
    assert "seed" not in told.how and "T = 0 is greedy decoding" in told.how
    zh = " ".join(_texts(_frame(trace, "sample", "zh")))
    assert "种子" not in zh and "贪心解码（T = 0）不抽取" in zh
