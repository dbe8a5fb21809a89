"""The worked row (the receiver's arithmetic at the scores, shares and mix steps) and the map of
where you are, on frames of any document, in both languages, and in the window."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.route_map import RouteMap
from app.canvas.worked_row import WorkedRow
from app.model.examples import example_path
from engine import Trace, compute, format_number, load_scenario, parse_scenario
from engine.format.writer import to_document
from tests.app.driving import close_window, open_window


def trace_of(name: str, **attention: object) -> Trace:
    document = to_document(load_scenario(example_path(name)))
    document["attention"].update(attention)
    return compute(parse_scenario(document))


def worked(trace: Trace, step_id: str, **options: object) -> WorkedRow:
    frame = FrameItem(trace, trace.step_index(step_id),
                      FrameOptions(worked_row=True, **options))  # type: ignore[arg-type]
    assert frame.worked_row is not None
    return frame.worked_row


def test_f11_shares_step_works_the_row_of_ai(qtbot: QtBot) -> None:
    """The shares step works its own stage: each score s it reads, exp(s − max), the share."""
    table = worked(trace_of("f11"), "weights")
    assert table.title == "Worked row for “爱”: the shares"
    assert table.cells[0] == ["key", "s", "exp(s − max)", "share"]
    # four decimals where three would not divide out by hand: 1 ÷ 1.243 is 0.8045
    assert table.cells[1] == ["我", "1.414", "exp(0) = 1", "1 ÷ 1.2431 = 0.804"]
    assert table.cells[2] == ["爱", "0", "exp(−1.4142) = 0.2431", "0.2431 ÷ 1.2431 = 0.196"]
    assert table.cells[3] == ["Σ", "", "1.2431", "1"]
    assert format_number(1 / 1.243, 3) == "0.805"
    # recomputed here, independently of the engine
    q, k = np.array([2.0, 0.0]), np.array([[1.0, 0.0], [0.0, 1.0]])
    s = k @ q / math.sqrt(2)
    assert [format_number(x, 3) for x in s] == ["1.414", "0"]
    e = np.exp(s - s.max())
    assert format_number(e.sum(), 4) == "1.2431"
    assert [format_number(x, 3) for x in e / e.sum()] == ["0.804", "0.196"]


def test_scores_and_mix_steps_and_the_other_steps(qtbot: QtBot) -> None:
    """The scores step shows q·k and the scaling; the mix step only the shares it uses, each
    times its V row, and their sum (not the scores' or the shares' arithmetic again)."""
    f11 = trace_of("f11")
    scores = worked(f11, "scores")
    assert scores.title == "Worked row for “爱”: the scores"
    assert scores.cells == [["key", "q·k", "÷ √2 = s"], ["我", "2·1 + 0·0 = 2", "2 ÷ √2 = 1.414"],
                            ["爱", "2·0 + 0·1 = 0", "0 ÷ √2 = 0"]]
    mix = worked(f11, "mix")
    assert mix.title == "Worked row for “爱”: the mix of V"
    assert mix.cells == [["key", "share", "share · v"], ["我", "0.804", "0.80443·[10, 0]"],
                         ["爱", "0.196", "0.19557·[0, 20]"], ["Σ", "1", "= [8.044, 3.911]"]]
    assert format_number(0.196 * 20, 3) == "3.92"  # why the products print five decimals
    s = np.array([2.0, 0.0]) / math.sqrt(2)  # recomputed here: softmax of the scores, · V
    shares = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
    v = np.array([[10.0, 0.0], [0.0, 20.0]])
    assert [format_number(x, 3) for x in shares @ v] == ["8.044", "3.911"]
    for step in ("inputs", "projections"):
        assert FrameItem(f11, f11.step_index(step), FrameOptions(worked_row=True)).worked_row \
            is None
    first = worked(f11, "weights", receiver=0)
    assert first.cells[2] == ["爱", "✕ masked: not read"]
    plain = worked(trace_of("f11", scale=False, causal=False), "weights", receiver=0)
    assert plain.cells[0][1] == "s"
    assert len(plain.cells) == 4 and "masked" not in " ".join(plain.cells[2])
    unscaled = worked(trace_of("f11", scale=False, causal=False), "scores", receiver=0)
    assert unscaled.cells[0][2] == "s (not scaled)"


def test_multihead_follows_the_chosen_head_and_chinese_reads_chinese(qtbot: QtBot) -> None:
    trace = trace_of("multihead")
    table = worked(trace, "weights", head=1, lang="zh")
    assert table.title == "逐项计算“猫”这一行（第 2 个头）：份额"
    assert table.cells[0][0] == "键" and table.cells[0][-1] == "份额"
    weights = trace.arrays["weights"][1, 2]
    shown = [row[-1].split(" = ")[-1] for row in table.cells[1:4]]
    assert shown == [format_number(w, 3) for w in weights]


def test_drawn_when_asked_for_any_document(qtbot: QtBot) -> None:
    pronoun = compute(load_scenario(example_path("pronoun")))
    mix = pronoun.step_index("mix")
    assert FrameItem(pronoun, mix).worked_row is None
    shown = FrameItem(pronoun, mix, FrameOptions(worked_row=True)).worked_row
    assert shown is not None and shown.title == "Worked row for “tired”: the mix of V"
    assert FrameItem(trace_of("f11"), 3).worked_row is None  # exports draw it when asked


def labels(trace: Trace, step: int = 0, lang: str = "en") -> list[str]:
    frame = FrameItem(trace, step, FrameOptions(lang=lang))
    assert isinstance(frame.route_map, RouteMap)
    return [box.label.text for box in frame.route_map.boxes]


def test_the_map_follows_the_documents_structure(qtbot: QtBot) -> None:
    assert labels(trace_of("f11")) == ["X and W", "Q/K/V", "scores", "mask + softmax", "mix V"]
    assert labels(trace_of("f11", causal=False))[3] == "softmax"
    assert labels(trace_of("multihead"))[1:] == ["Q/K/V ×2", "scores", "mask + softmax",
                                                 "mix V · Wo"]
    assert labels(compute(load_scenario(example_path("tokenizer"))))[0] == "embed"
    g01 = compute(load_scenario(example_path("g01")))
    assert labels(g01) == ["Norm", "Q/K/V", "scores", "mask + softmax", "mix V · Wo",
                           "+ residual", "Norm", "FFN", "+ residual", "final Norm",
                           "logits", "probs"]
    post = to_document(g01.scenario)
    post["block"].update(placement="post", final_norm=False, norm="rmsnorm")
    post_trace = compute(parse_scenario(post))
    assert labels(post_trace)[:9] == ["Q/K/V", "scores", "mask + softmax", "mix V · Wo",
                                      "+ residual", "Norm", "FFN", "+ residual", "Norm"]
    assert labels(g01, lang="zh")[:4] == ["规范化", "Q/K/V", "分数", "掩码 + softmax"]
    no_norm = to_document(g01.scenario)
    no_norm["block"]["norm"] = "none"
    assert labels(compute(parse_scenario(no_norm)))[0] == "no norm"
    frame = FrameItem(g01, 7)
    assert frame.route_map is not None and frame.route_map.current is not None
    assert frame.route_map.current.step_index == 7
    assert [b.current for b in frame.route_map.boxes].count(True) == 1


def test_view_worked_row_toggles_and_a_map_click_jumps(qtbot: QtBot) -> None:
    window = open_window(qtbot, "f11")
    try:
        action = window.view_menu.worked_row_action
        assert action.isChecked()  # two positions: on by default
        window.state.set_step(3)
        frame = window.canvas.frame
        assert isinstance(frame, FrameItem) and frame.worked_row is not None
        action.setChecked(False)
        frame = window.canvas.frame
        assert isinstance(frame, FrameItem) and frame.worked_row is None
        assert window.open_example("pronoun")
        assert not window.view_menu.worked_row_action.isChecked()  # ten positions: off
        assert window.open_example("g01")
        assert window.view_menu.worked_row_action.isChecked()
        frame = window.canvas.frame
        assert isinstance(frame, FrameItem) and frame.route_map is not None
        box = frame.route_map.boxes[7]
        window.canvas.fit()
        qtbot.wait(50)
        point = window.canvas.mapFromScene(box.mapToScene(box.boundingRect().center()))
        qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton,
                         pos=QPoint(point.x(), point.y()))
        qtbot.waitUntil(lambda: window.state.step == 7, timeout=2000)
        assert window.state.trace.steps[7].id == "ffn"
    finally:
        close_window(window)


def test_the_keys_of_one_word_at_three_positions_are_told_apart(qtbot: QtBot) -> None:
    """The rope example's rows are all 好: the worked row names each key with its position,
    as the grids' rows do."""
    table = worked(compute(load_scenario(example_path("rope"))), "scores")
    assert [row[0] for row in table.cells[1:4]] == ["好 · p0", "好 · p1", "好 · p2"]
