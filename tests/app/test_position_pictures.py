"""The pictures of positions and cross-attention, checked against numbers computed here.

RoPE: every dial's thick arrow is its thin one turned by p·θᵢ (θᵢ = base^(−2i/r) computed in
the test), and the angle is printed. ALiBi: q·k + bias = scores, cell by cell. Added positions:
rows + P = X. Cross-attention: two token lists, arrows from the decoder's query rows to the
encoder's key boxes. The position traces are computed from documents with ``positions``; the
cross-attention's is the encoder–decoder example's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsRectItem, QStyleOptionGraphicsItem
from pytestqt.qtbot import QtBot

import app.canvas.position_pictures
import app.canvas.steps
from app.canvas import FrameItem, FrameOptions, compose
from app.canvas.arrows import AttentionArrows
from app.canvas.context import LayoutContext
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem, wrapping
from app.canvas.position_pictures import RotationDial, _dial_words, _word, lay_out_rope
from app.canvas.theme import SLIDE
from app.model.examples import example_path
from app.model.operands import attention_of
from app.texts import step_text
from engine import Trace, compute, load_scenario, parse_scenario
from tests.app.driving import made_from_now
from tests.app.stacks import with_shared_keys
from tests.engine.test_engine_positions_trace import scaled_trace
from tests.examples import trace_of

BASE = 10.0
DOCUMENT = {"title": "RoPE", "tokens": ["a", "b", "c"],
            "X": [[1, 0.5, 0.5, 1], [0.5, 1, 1, 0.5], [1, 1, 0.5, 0.5]],
            "attention": {"heads": 1, "causal": True, "scale": True,
                          "Wq": np.eye(4).tolist(), "Wk": np.eye(4).tolist(),
                          "Wv": np.eye(4).tolist()}}


def with_positions(document: dict[str, Any], **positions: object) -> Trace:
    """The trace of ``document`` with its ``positions`` set."""
    return compute(parse_scenario({**document, "positions": positions}))


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(example_path(name).read_text(encoding="utf-8"))
    return document


def frame(trace: Trace, step_id: str, **options: object) -> FrameItem:
    return FrameItem(trace, trace.step_index(step_id), FrameOptions(**options))  # type: ignore[arg-type]


def titled(item: FrameItem, title: str) -> MatrixGrid:
    found = [g for g in item.items_of(MatrixGrid) if g.spec.title == title]
    assert found, title
    return found[0]


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_each_dial_turns_its_pair_by_p_theta(qtbot: QtBot, pairing: str) -> None:
    rope = with_positions(DOCUMENT, kind="rope", base=BASE, pairing=pairing)
    x = np.array(DOCUMENT["X"])
    theta = [BASE ** (-2 * i / 4) for i in range(2)]  # θ_i = base^(−2i/r), r = d_k = 4
    half = pairing == "half"
    for p in range(3):
        dials = frame(rope, "rope", receiver=p).items_of(RotationDial)
        assert len(dials) == 2 * 2  # the receiver's q and k, two pairs each
        for i, dial in enumerate(dials[:2]):  # Q = X (Wq = I): the q dials come first
            check_dial(dial, x, p, i, theta[i], half)


def check_dial(dial: RotationDial, x: np.ndarray, p: int, i: int, theta: float,
               half: bool) -> None:
    """The dial of pair ``i`` at position ``p``: the pair of X turned by p·θ, drawn turned."""
    a, b = (i, i + 2) if half else (2 * i, 2 * i + 1)
    angle = p * theta
    assert dial.before == (x[p, a], x[p, b])
    turned = (x[p, a] * math.cos(angle) - x[p, b] * math.sin(angle),
              x[p, a] * math.sin(angle) + x[p, b] * math.cos(angle))
    assert dial.after == pytest.approx(turned)
    assert dial.angle == pytest.approx(angle)
    drawn = math.atan2(math.sin(angle), math.cos(angle))
    assert dial.drawn_turn() == pytest.approx(drawn, abs=1e-9)
    assert dial.lines[0].startswith(f"p·θ{'₀₁'[i]} = {p}·")
    assert f"= {math.degrees(angle):.3f}".rstrip("0").rstrip(".") in dial.lines[1]


def test_dials_print_the_angle_and_the_pair_before_and_after(qtbot: QtBot) -> None:
    rope = with_positions(DOCUMENT, kind="rope", base=BASE)
    dials = frame(rope, "rope", receiver=2).items_of(RotationDial)
    # Position 2, pair 0 of q: (1, 0.5) turned by 2 rad.
    dial = dials[0]
    assert dial.lines[0] == "p·θ₀ = 2·1 = 2 rad"
    assert dial.lines[1] == "= 114.592°"
    c, s = math.cos(2), math.sin(2)
    turned = f"({1 * c - 0.5 * s:.3f}, {1 * s + 0.5 * c:.3f})".replace("-", "−")
    assert dial.lines[2] == f"(1, 0.5) → {turned}"
    # k's dials turn by the same angles (the same position): they print only their pairs.
    for k_dial, q_dial in zip(dials[2:], dials[:2], strict=True):
        assert k_dial.angle == q_dial.angle and len(k_dial.lines) == 1
    x, y = dials[2].before
    k = [float(value) for value in rope.arrays["K"][2]]  # the receiver's k row
    assert x in k and y in k
    assert dials[2].lines == [f"({x:g}, {y:g}) → ({x * c - y * s:.3f}, {x * s + y * c:.3f})"
                              .replace("-", "−")]
    zh = frame(rope, "rope", lang="zh").items_of(RotationDial)[0]
    assert zh.lines[0] == "p·θ₀ = 2·1 = 2 弧度"


def test_many_positions_dial_only_the_receiver(qtbot: QtBot) -> None:
    rope = with_positions(example("pronoun"), kind="rope", base=BASE)
    dials = frame(rope, "rope", receiver=7).items_of(RotationDial)
    assert len(dials) == 2  # q and k of "it", one pair (d_k = 2)
    assert dials[0].angle == pytest.approx(7.0)  # p = 7, θ₀ = 1


def test_alibi_adds_the_bias_grid_to_q_dot_k(qtbot: QtBot) -> None:
    multihead = compute(load_scenario(example_path("multihead")))
    trace = with_positions(example("multihead"), kind="alibi")
    item = frame(trace, "scores")
    for head, slope in ((0, 2 ** -4), (1, 2 ** -8)):  # 2^(−8k/h), h = 2
        label = f" · head {head + 1}"
        qk = titled(item, "q·k" + label).spec.values
        bias = titled(item, "ALiBi bias" + label).spec.values
        scores = titled(item, "scores = q·k + bias" + label).spec.values
        np.testing.assert_allclose(qk, multihead.arrays["scores"][head])
        distance = np.subtract.outer(np.arange(3), np.arange(3))
        np.testing.assert_allclose(bias, -slope * distance)
        np.testing.assert_allclose(scores, qk + bias)


def test_alibi_scores_say_what_hides_their_hatched_cells(qtbot: QtBot) -> None:
    """As the other scores pictures: each biased scores grid notes the causal mask, and with a
    window of 2 a sentence under the grids names both rules (the cells hidden are those the
    rules say, worked out here), in both languages."""
    multihead = example("multihead")
    causal = frame(with_positions(multihead, kind="alibi"), "scores")
    for head in (1, 2):
        grid = titled(causal, f"scores = q·k + bias · head {head}")
        assert grid.note == "hatched cells are hidden by the causal mask in the next step"
        np.testing.assert_array_equal(grid.spec.masked, np.triu(np.ones((3, 3), bool), 1))
    windowed = {**multihead, "attention": {**multihead["attention"], "window": 2}}
    trace = with_positions(windowed, kind="alibi")
    words = {lang: " ".join(t.text for t in frame(trace, "scores", lang=lang).items_of(TextItem))
             for lang in ("en", "zh")}
    assert ("Hatched cells are hidden by the causal mask (position i reads keys 0 … i) and the "
            "window of 2 (position i reads keys i − 1 … i).") in words["en"]
    assert "斜线格被因果掩码（位置 i 读键 0 … i）和大小为 2 的窗口（位置 i 读键 i − 1 … i）遮住。" \
        in words["zh"]
    rows, keys = np.indices((3, 3))
    np.testing.assert_array_equal(
        titled(frame(trace, "scores"), "scores = q·k + bias · head 1").spec.masked,
        (keys > rows) | (rows - keys >= 2))


def test_added_positions_show_rows_plus_p_equal_x(qtbot: QtBot) -> None:
    document = example("multihead")
    item = frame(with_positions(document, kind="sinusoidal"), "positions")
    rows = titled(item, "token rows").spec.values
    table = titled(item, "position rows P").spec.values
    p, i = np.arange(3)[:, None], np.arange(6)[None, :]
    angle = p / 10000 ** (2 * (i // 2) / 6)
    expected = np.where(i % 2 == 0, np.sin(angle), np.cos(angle))
    np.testing.assert_allclose(table, expected)
    np.testing.assert_allclose(rows, document["X"])  # the document's rows are the token rows
    np.testing.assert_allclose(titled(item, "X = rows + P").spec.values,
                               np.array(document["X"]) + expected)


def test_cross_attention_arrows_go_from_decoder_rows_to_the_encoders_keys(
        qtbot: QtBot) -> None:
    trace = trace_of("encoder-decoder")
    cross = example("encoder-decoder")["layers"][0]["cross_attention"]
    item = frame(trace, "L1.cross.weights", receiver=1)
    shares = titled(item, "shares")
    assert shares.spec.values.shape == (2, 3)
    assert list(shares.spec.row_labels) == ["<s>", "我"]
    assert list(shares.spec.col_labels) == ["I", "love", "you"]
    (arrows,) = item.items_of(AttentionArrows)
    assert list(arrows.spec.tokens) == ["<s>", "我"]
    assert list(arrows.spec.key_tokens) == ["I", "love", "you"]
    # 我's query from the decoder's normed rows, keys from the encoder's memory (post-norm)
    q = trace.arrays["L1.norm1"][1] @ np.array(cross["Wq"])
    k = trace.arrays["enc.memory"] @ np.array(cross["Wk"])
    expected = np.exp(k @ q / np.sqrt(2))
    expected /= expected.sum()
    focused = [a for a in arrows.drawn if a.focused]
    assert [a.key for a in focused] == [0, 1, 2]
    assert [a.share for a in focused] == pytest.approx(expected)
    for arrow, connector in zip(focused, arrows.connectors()[-3:], strict=True):
        key_box = arrows.node_rect(arrows.key_anchor(arrow.key), left=False)
        end = connector.end  # 4 units before the left edge of the encoder key's box
        assert end.x() + 4 == pytest.approx(key_box.left())
        assert key_box.top() < end.y() < key_box.bottom()
    mix = frame(trace, "L1.cross.mix", receiver=1)
    assert list(titled(mix, "V").spec.row_labels) == ["I", "love", "you"]


def test_rope_and_added_rows_have_texts_with_the_documents_numbers() -> None:
    rope = with_positions(DOCUMENT, kind="rope", base=BASE)
    text = step_text(rope, rope.step_index("rope"), "en", receiver=2)
    turned = rope.arrays["Q_rot"][2]
    assert f"{np.linalg.norm(turned):.3f}" in text.check  # |q| of c: √2.5 = 1.581, kept
    assert f"{np.linalg.norm(np.array(DOCUMENT['X'][2])):.3f}" in text.check
    assert "RoPE" in step_text(rope, rope.step_index("rope"), "zh", receiver=2).summary
    added = with_positions(example("multihead"), kind="sinusoidal")
    text = step_text(added, 0, "zh", receiver=1)
    assert "X = 词元行 + P" in text.summary
    assert "0.841" in step_text(added, 0, "en", receiver=1).check  # sin(1) of row 1 of P


def test_heads_sharing_one_key_value_group_show_that_groups_columns(qtbot: QtBot) -> None:
    multihead = compute(load_scenario(example_path("multihead")))
    trace = with_shared_keys(multihead)
    k, v = trace.arrays["K"], trace.arrays["V"]
    scores = frame(trace, "scores", receiver=2)
    for head in (1, 2):
        grid = titled(scores, f"Kᵀ · head {head} (K/V group 1)")
        np.testing.assert_allclose(grid.spec.values, k.T)  # both heads read the one group
    mix = frame(trace, "mix", receiver=2, worked_row=True)
    np.testing.assert_allclose(titled(mix, "V · head 2 (K/V group 1)").spec.values, v)
    q = trace.arrays["Q"][2, 2:4]  # head 2's query of 猫 against the shared keys
    expected = k @ q / np.sqrt(2)
    np.testing.assert_allclose(trace.arrays["scores"][1, 2], expected)
    row = frame(trace, "scores", receiver=2, head=1, worked_row=True).worked_row
    assert row is not None
    raw = float(k[0] @ q)  # q·k of 猫 (head 2) and 我, before ÷ √d_k
    assert row.cells[1][1] == f"{q[0]:g}·{k[0, 0]:g} + {q[1]:g}·{k[0, 1]:g} = {raw:g}"


def test_rope_rows_are_labelled_with_their_positions(qtbot: QtBot) -> None:
    rope = compute(load_scenario(example_path("rope")))
    item = frame(rope, "rope")
    labelled = ["好 · p0", "好 · p1", "好 · p2"]
    for title in ("Q", "Q_rot", "K_rot", "angles p·θᵢ (rad)"):
        assert list(titled(item, title).spec.row_labels) == labelled
    scores = titled(frame(rope, "scores"), "scores")
    assert list(scores.spec.row_labels) == labelled
    assert list(scores.spec.col_labels) == labelled
    titles = [t.text for t in item.items_of(TextItem) if "pairs of" in t.text]
    assert titles == ["q pairs of 好 · p2 turned", "k pairs of 好 · p2 turned"]  # the receiver's
    plain = compute(load_scenario(example_path("multihead")))  # no positions: bare tokens
    assert list(titled(frame(plain, "scores"), "scores · head 1").spec.row_labels) == \
        list(plain.scenario.tokens)


def test_the_kv_sharing_note_is_worded_once_per_frame_and_said_under_k_and_v(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type scale's search lays the projections out many times: the note saying which
    query heads read the shared K/V head is worded once per layout context (a frame makes two:
    its own and its composition's measure), in its language, and printed under K and V each
    time (18 wordings of a frame before)."""
    worded: list[int] = []
    real = app.canvas.steps.kv_sharing

    def counted(attention: Any) -> Any:
        worded.append(1)
        return real(attention)

    monkeypatch.setattr(app.canvas.steps, "kv_sharing", counted)
    trace = with_shared_keys(compute(load_scenario(example_path("multihead"))))
    compose.forget()
    for lang, words in (("en", "query heads 1–2 read K/V head 1"),
                        ("zh", "Query 头 1–2 读 K/V 头 1")):
        item = frame(trace, "projections", lang=lang)
        notes = [g.spec.note for g in item.items_of(MatrixGrid) if g.spec.note]
        assert len(notes) == 2 and all(words in note for note in notes), notes
        assert len(worded) <= (2 if lang == "en" else 4)  # the frame's and its measure's
    compose.forget()


def rendered(dial: RotationDial) -> QImage:
    image = QImage(dial.boundingRect().size().toSize(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    dial.paint(painter, QStyleOptionGraphicsItem())
    painter.end()
    return image


@pytest.mark.parametrize("before", [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.6, 0.8)])
def test_the_before_arrow_shows_at_every_angle_even_on_the_axis(
        qtbot: QtBot, before: tuple[float, float]) -> None:
    dial = RotationDial(before, (0.0, -1.0), 1.0, ["x"], 1.0, SLIDE, "accent")
    image = rendered(dial)
    axis = QColor(SLIDE.grid_line)
    c, tip = dial.center, dial.tip(before)
    samples = [c + (tip - c) * (k / 40) for k in range(4, 30)]  # along the shaft, not the head
    colours = [image.pixelColor(int(p.x()), int(p.y())) for p in samples]

    def far(a: QColor, b: QColor) -> bool:
        return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) > 150

    seen = [col for col in colours if far(col, axis) and far(col, QColor(SLIDE.panel))]
    assert len(seen) >= len(samples) // 3  # a dashed line in a colour of its own
    assert all(not far(col, dial.before_color) for col in seen)


def test_rope_scores_mark_a_pair_of_equal_scores_at_equal_distance(qtbot: QtBot) -> None:
    rope = compute(load_scenario(example_path("rope")))
    for lang in ("en", "zh"):
        item = frame(rope, "scores", lang=lang)
        grid = titled(item, "scores" if lang == "en" else "分数")
        assert grid.spec.marked is not None
        # Rows (1,1,0,0): pairs (1, 0) and (1, 0) turned by p·1 and p·0.1 (base 100, r = 4), so
        # scores[i, j] = (cos((i − j)·1) + cos((i − j)·0.1)) / √4; distance 1 gives 0.768.
        value = (math.cos(1) + math.cos(0.1)) / 2
        assert sorted(map(tuple, np.argwhere(grid.spec.marked).tolist())) == [(1, 0), (2, 1)]
        texts = [t.text for t in item.items_of(TextItem)]
        first = [k for k, text in enumerate(texts) if text.startswith(
            ("scores[1,0] = scores[2,1]", "分数[1,0] = 分数[2,1]"))]
        assert len(first) == 1  # its lines follow one another, no wider than the grids
        sentence = "".join(texts[first[0]:first[0] + 4]).replace(" ", "")
        assert f"={value:.3f}" in sentence
        assert ("dependsonlyonthedistance" if lang == "en" else "只取决于") in sentence


def test_rope_scores_equal_pair_is_looked_for_once_per_head_in_a_frames_layouts(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type scale's search lays the scores step out many times in one context: the
    equal-distance pair (every row of q and k printed) is looked for once per head, and every
    layout marks it."""
    looked: list[int] = []
    real = app.canvas.position_pictures.equal_distance_pair

    def counted(*args: Any) -> Any:
        looked.append(1)
        return real(*args)

    monkeypatch.setattr(app.canvas.position_pictures, "equal_distance_pair", counted)
    rope = compute(load_scenario(example_path("rope")))
    item = frame(rope, "scores")
    grid = titled(item, "scores")
    assert len(looked) == attention_of(rope).heads == 1
    assert sorted(map(tuple, np.argwhere(grid.spec.marked).tolist())) == [(1, 0), (2, 1)]
    assert not grid.spec.marked.flags.writeable  # one array for every layout: never changed
    frame(rope, "scores")
    assert len(looked) == 2  # another frame, another context: looked for again


def placed(item: FrameItem) -> list[tuple[str, float, float, float, float]]:
    """Every item of the frame: its kind and where it sits in the scene, in drawing order."""
    found = []
    for child in item.childItems():
        found += [(type(child).__name__, *child.scenePos().toTuple(),
                   *child.boundingRect().size().toTuple())]
        found += placed(child)  # type: ignore[arg-type]
    return found


def test_ropes_layouts_tried_for_their_size_make_each_dial_table_once_and_lay_out_the_same(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type scale's search tries RoPE's picture at every wrap and arrangement: a dial table
    is made once per context and its size reused, and the frame drawn is laid out exactly as
    when every layout tried made its tables."""
    made = made_from_now(monkeypatch, RotationDial)
    rope = compute(load_scenario(example_path("rope")))
    compose.forget()
    item = frame(rope, "rope")
    quick, drawn = len(made), len(item.items_of(RotationDial))
    assert drawn == 2 * 2  # Q's and K's table, a dial per pair
    monkeypatch.setattr(app.canvas.position_pictures, "sized_only", lambda: False)
    compose.forget()
    made.clear()
    every = frame(rope, "rope")
    assert quick <= 3 * drawn < len(made)  # each table once (narrow and not) and the drawn
    assert every.composition == item.composition
    assert placed(every) == placed(item)
    compose.forget()


def test_a_rope_frame_by_itself_lays_out_once_what_no_arrangement_changes(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame by itself tries each arrangement of the rows after a source (Q → Q_rot and
    K → K_rot, :data:`~app.canvas.layout.ROWS_AFTER`): a layout that never asks for the
    arrangement (RoPE's wrapped ones, its dials ending each row) is laid out under the first
    and taken as it is under the others: 12 layouts of the RoPE example's step rather than 27
    (Llama-3.2-1B's in the window: about 100 rather than 300), and the same frame."""
    laid: list[float | None] = []
    real = compose._laid_out

    def counted(ctx: LayoutContext, index: int, parent: Any, wrap: float | None, area: Any,
                drawn: bool = False) -> Any:
        laid.append(wrap)
        return real(ctx, index, parent, wrap, area, drawn)

    monkeypatch.setattr(compose, "_laid_out", counted)
    rope = compute(load_scenario(example_path("rope")))
    k = rope.step_index("rope")
    compose.forget()
    shared = FrameItem(rope, k, FrameOptions(), alone=True)
    tried = len(laid)

    @contextmanager
    def asking() -> Iterator[list[str]]:  # as if each layout asked: laid out under each
        yield ["beside"]

    monkeypatch.setattr(compose, "noting_arrangement", asking)
    compose.forget()
    laid.clear()
    every = FrameItem(rope, k, FrameOptions(), alone=True)
    assert (tried, len(laid)) == (12, 27)
    assert every.composition == shared.composition
    assert placed(every) == placed(shared)
    compose.forget()


def test_rope_scores_of_different_rows_mark_nothing(qtbot: QtBot) -> None:
    rope = with_positions(DOCUMENT, kind="rope", base=BASE)  # three different rows
    item = frame(rope, "scores")
    assert titled(item, "scores").spec.marked is None
    assert not any("distance" in t.text for t in item.items_of(TextItem))


def test_a_scaled_ropes_picture_says_what_the_scaling_did(qtbot: QtBot) -> None:
    """The note under the angles names the scaling with its numbers, in both languages (base
    500, r = 8: llama3 over 256 keeps the pairs below 32 and divides those above 256 by 8;
    yarn over 64 ramps from pair 0 to pair 2, cos and sin × 1 + 0.1·ln 4)."""
    llama3 = scaled_trace({"type": "llama3", "factor": 8, "low_freq_factor": 1,
                           "high_freq_factor": 8, "original_max_position_embeddings": 256})
    words = {lang: [t.text for t in frame(llama3, "L1.rope", lang=lang).items_of(TextItem)]
             for lang in ("en", "zh")}
    assert ("θᵢ scaled (llama3): kept where the wavelength 2π/θᵢ is below 32, divided by 8 "
            "above 256, blended between") in " ".join(words["en"])
    # a line of Chinese wraps at a space or between characters: compared without spaces
    assert "θᵢ经过缩放（llama3）：波长2π/θᵢ小于32的不变，大于256的除以8，两者之间平滑过渡" \
        in "".join(words["zh"]).replace(" ", "")
    yarn = scaled_trace({"type": "yarn", "factor": 4, "original_max_position_embeddings": 64})
    text = " ".join(t.text for t in frame(yarn, "L1.rope").items_of(TextItem))
    assert ("θᵢ scaled (yarn): from pair 0 to pair 2 a ramp towards θᵢ/4; cos and sin × "
            "1.139") in text
    longrope = scaled_trace({"type": "longrope", "short_factor": [1, 1.5, 2, 4],
                             "attention_factor": 1.2})
    text = " ".join(t.text for t in frame(longrope, "L1.rope").items_of(TextItem))
    assert ("θᵢ scaled (longrope): each divided by its pair's short factor; cos and sin × 1.2"
            in text)
    plain = " ".join(t.text for t in frame(with_positions(DOCUMENT, kind="rope", base=BASE),
                                           "rope").items_of(TextItem))
    assert "scaled" not in plain


def test_the_angle_grids_theta_heads_are_printed_once_per_layout_context(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type scale's search lays RoPE out hundreds of times in one context: the angle
    grid's column heads, each pair's θᵢ = base^(−2i/r), are printed at the first layout only
    (Llama's 32 at each of ~300 layouts were a third of its RoPE step's freeze), and every
    layout's grid, natural or wrapped, carries them."""
    worded: list[str] = []
    real = app.canvas.position_pictures._word

    def counted(ctx: LayoutContext, key: str, **fields: object) -> str:
        worded.append(key)
        return real(ctx, key, **fields)

    monkeypatch.setattr(app.canvas.position_pictures, "_word", counted)
    rope = with_positions(DOCUMENT, kind="rope", base=BASE)  # r = 4: θ₀ = 1, θ₁ = 10^(−1/2)
    ctx = LayoutContext(rope, FrameOptions())
    step = rope.steps[rope.step_index("rope")]
    for wrap in (None, 1200.0, 620.0, None):
        with wrapping(wrap):
            lay_out_rope(ctx, step, QGraphicsRectItem())
    angle_grids = [grid for name, grid in ctx.made if name == "rope_angles"]
    assert [list(grid.spec.col_labels) for grid in angle_grids] == [["θ₀ = 1", "θ₁ = 0.316"]] * 4
    assert worded.count("theta") == 2
    other = LayoutContext(rope, FrameOptions(lang="zh"))  # another context prints its own
    lay_out_rope(other, step, QGraphicsRectItem())
    assert worded.count("theta") == 4


def test_a_layout_contexts_dials_are_worded_once_for_each_row_and_head(qtbot: QtBot) -> None:
    """The type scale's search lays RoPE out hundreds of times in one context: each table's
    words are worked out once, and a table of another row (or another array) is its own."""
    doubled_k = {**DOCUMENT["attention"], "Wk": (2 * np.eye(4)).tolist()}  # K = 2·Q
    rope = with_positions({**DOCUMENT, "attention": doubled_k}, kind="rope", base=BASE)
    ctx = LayoutContext(rope, FrameOptions())
    q, q_rot, angles = rope.arrays["Q"], rope.arrays["Q_rot"], rope.arrays["rope_angles"]
    k, k_rot = rope.arrays["K"], rope.arrays["K_rot"]
    columns = [(0, 2), (1, 3)]
    names = {"q": ("Q", "Q_rot", "rope_angles", 0, 4), "k": ("K", "K_rot", "rope_angles", 0, 4)}
    at_2 = _dial_words(ctx, names["q"], q, q_rot, angles, 2, columns, True)
    assert _dial_words(ctx, names["q"], q, q_rot, angles, 2, columns, True) is at_2
    c, s = math.cos(2), math.sin(2)
    assert at_2[0] == (["p·θ₀ = 2·1 = 2 rad", "= 114.592°",
                        f"(1, 0.5) → ({1 * c - 0.5 * s:.3f}, {1 * s + 0.5 * c:.3f})"
                        .replace("-", "−")], _word(ctx, "pair", i=0, a=0, b=2))
    fresh = LayoutContext(rope, FrameOptions())
    for p in range(3):
        for known, before, after, lines in ((names["q"], q, q_rot, True),
                                            (names["k"], k, k_rot, False)):
            assert _dial_words(ctx, known, before, after, angles, p, columns, lines) == \
                _dial_words(fresh, known, before, after, angles, p, columns, lines)
    assert _dial_words(ctx, names["q"], q, q_rot, angles, 1, columns, True)[0][0][0] == \
        "p·θ₀ = 1·1 = 1 rad"
    k_at_2 = _dial_words(ctx, names["k"], k, k_rot, angles, 2, columns, True)
    assert k_at_2 == _dial_words(fresh, names["k"], k, k_rot, angles, 2, columns, True)
    assert k_at_2 != at_2, "K's table is its own, though its row and columns are Q's"
