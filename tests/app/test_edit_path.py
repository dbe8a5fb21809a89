"""What one edit of a cell costs outside the canvas: the timeline shows the current step's new
text at once and measures the other steps' texts for room only once typing pauses (or a step
is taken), never per keystroke."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt
from pytestqt.qtbot import QtBot

import app.help.explain
import app.model.outline
import app.window.timeline
from app.texts import StepText
from app.window.studio import StudioWindow
from engine import Scenario, Trace, format_number
from tests.app.driving import close_window, open_window, type_into
from tests.bench.timing import attention_scenario


@pytest.fixture
def f11(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot, "f11")
    window.resize(1280, 800)
    yield window
    close_window(window)


def f11_shares_with_wq00(wq00: float) -> np.ndarray:
    """爱's shares in the chapter's F11 with Wq[0, 0] = ``wq00``, computed here: causal, scaled."""
    x = np.array([[1.0, 1.0], [1.0, -1.0]])
    wq = np.array([[wq00, 1.0], [-1.0, 1.0]])
    wk = np.array([[0.5, 0.5], [0.5, -0.5]])
    scores = (x[1] @ wq) @ (x @ wk).T / np.sqrt(2.0)
    exps = np.exp(scores - scores.max())
    shares: np.ndarray = exps / exps.sum()
    return shares



def step_texts_made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the index of each step whose text the timeline works out, in turn."""
    made: list[int] = []
    original = app.window.timeline.step_text

    def counted(trace: Trace, index: int, *args: object) -> StepText:
        made.append(index)
        return original(trace, index, *args)

    monkeypatch.setattr(app.window.timeline, "step_text", counted)
    return made

def test_an_edit_shows_the_current_text_at_once_and_measures_the_rest_when_typing_pauses(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    timeline = f11.timeline
    weights = next(k for k, s in enumerate(f11.state.trace.steps) if s.op == "weights")
    f11.state.set_step(weights)
    assert "0.804 + 0.196 = 1" in timeline.check_label.text()  # the chapter's shares
    made = step_texts_made(monkeypatch)
    monkeypatch.setattr(app.help.explain, "step_text", app.window.timeline.step_text)
    type_into(qtbot, f11.editor.tables["attention.Wq"], 0, 0, "2")
    shares = f11_shares_with_wq00(2.0)
    assert shares[0] == pytest.approx(0.5, abs=0.4) and shares.sum() == pytest.approx(1.0)
    expected = " + ".join(format_number(float(w), 3) for w in shares)
    assert expected in timeline.check_label.text(), "the current step's text follows at once"
    assert expected != "0.804 + 0.196"
    assert made == [weights], "one text made per edit: the current step's, shared with Explain"
    assert timeline.room_timer.isActive()
    qtbot.waitUntil(lambda: not timeline.room_timer.isActive(), timeout=2000)
    steps = len(f11.state.trace.steps)
    assert sorted(made) == sorted([weights, *range(steps)]), "every step measured once"
    made.clear()
    for k in range(steps):  # stepping measures nothing again: the room is the new trace's
        f11.state.set_step(k)
    assert made == list(range(steps))


def test_a_step_right_after_an_edit_measures_at_once_and_nothing_jumps(
        qtbot: QtBot, f11: StudioWindow) -> None:
    timeline = f11.timeline
    buttons = (timeline.previous_button, timeline.play_button, timeline.step_group.button(0))
    tops: list[set[int]] = [set() for _ in buttons]
    type_into(qtbot, f11.editor.tables["attention.Wv"], 1, 1, "-40")
    assert timeline.room_timer.isActive()
    f11.state.set_step(1)
    assert not timeline.room_timer.isActive(), "a step does not wait for the pause"
    for k in range(len(f11.state.trace.steps)):
        f11.state.set_step(k)
        qtbot.wait(1)
        for top, button in zip(tops, buttons, strict=True):
            assert button is not None
            top.add(button.mapTo(f11, button.rect().topLeft()).y())
    assert all(len(top) == 1 for top in tops), tops


def test_the_explanation_is_rendered_only_while_folded_out(qtbot: QtBot,
                                                           f11: StudioWindow) -> None:
    explain = f11.timeline.explain
    weights = next(k for k, s in enumerate(f11.state.trace.steps) if s.op == "weights")
    f11.state.set_step(weights)
    qtbot.mouseClick(explain.toggle, Qt.MouseButton.LeftButton)
    assert explain.expanded and "0.804" in explain.browser.toPlainText()
    qtbot.mouseClick(explain.toggle, Qt.MouseButton.LeftButton)
    assert not explain.expanded
    type_into(qtbot, f11.editor.tables["attention.Wq"], 0, 0, "2")
    shares = [format_number(float(w), 3) for w in f11_shares_with_wq00(2.0)]
    assert "0.804" in explain.browser.toPlainText(), "folded in, an edit renders nothing"
    qtbot.mouseClick(explain.toggle, Qt.MouseButton.LeftButton)
    shown = explain.browser.toPlainText()
    assert "0.804" not in shown and all(share in shown for share in shares)
    type_into(qtbot, f11.editor.tables["attention.Wq"], 0, 0, "1")  # folded out: follows
    assert "0.804" in explain.browser.toPlainText()


def test_a_number_edit_leaves_the_part_and_the_step_marks_as_they_are(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    editor, timeline = f11.editor, f11.timeline
    redrawn: list[str] = []
    monkeypatch.setattr(editor.block_editor, "show_part",
                        lambda *_args: redrawn.append("block editor laid out"))
    mark = timeline._mark_current

    def marked(k: int) -> None:
        redrawn.append(f"step {k} marked")
        mark(k)

    monkeypatch.setattr(timeline, "_mark_current", marked)
    f11.state.set_step(2)
    assert redrawn == ["step 2 marked"]
    redrawn.clear()
    type_into(qtbot, editor.tables["attention.Wk"], 1, 0, "4")
    assert f11.state.scenario.parameter("attention.Wk")[1, 0] == 4.0
    assert redrawn == [], "a number changed: the same part, the same step"
    button = timeline.step_group.button(2)
    assert button is not None and button.isChecked() and button.font().bold()
    # A switch is an edit too: its box follows, through undo as well.
    assert editor.causal_box.isChecked()
    qtbot.mouseClick(editor.causal_box, Qt.MouseButton.LeftButton)
    assert not f11.state.scenario.attention.causal and not editor.causal_box.isChecked()
    f11.undo_action.trigger()
    assert f11.state.scenario.attention.causal and editor.causal_box.isChecked()
    assert redrawn == []


def test_a_number_edit_leaves_the_options_the_choosers_and_the_title_alone(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell edit changes numbers only: the block's and the positions' options, the comparison's
    layer and head choosers and the window's title stay as they are shown; an edit of the
    document's shape shows them all again."""
    editor, compare = f11.editor, f11.compare
    shown: list[str] = []
    for owner, name in ((editor.block_editor, "_show"), (editor.positions_editor, "show_positions"),
                        (f11, "_update_title")):
        monkeypatch.setattr(owner, name, lambda name=name: shown.append(name))
    listed: list[str] = []
    for box in (compare.layer_box, compare.head_box):
        box.model().rowsInserted.connect(lambda *_args, box=box: listed.append(
            "layers" if box is compare.layer_box else "heads"))
    type_into(qtbot, editor.tables["attention.Wq"], 0, 1, "3")
    assert shown == ["_update_title"], "the first edit marks the title: modified"
    shown.clear()
    type_into(qtbot, editor.tables["attention.Wq"], 1, 1, "5")
    assert f11.state.scenario.parameter("attention.Wq")[:, 1].tolist() == [3.0, 5.0]
    assert shown == [] and listed == []
    editor.size_boxes["heads"].setValue(2)
    assert f11.state.scenario.attention.heads == 2
    assert sorted(shown) == ["_show", "_update_title", "show_positions"]
    assert listed == ["heads"]
    assert [compare.head_box.itemText(k) for k in range(compare.head_box.count())] == \
        ["head 1", "head 2"]


def test_the_status_line_lists_the_first_eight_shares_of_a_long_row(qtbot: QtBot) -> None:
    scenario = attention_scenario(12, d=4, heads=1, width=2)
    window = StudioWindow(scenario)
    try:
        assert window.state.edit_cell("attention.Wq", 0, 0, 0.5)
        x, wk = scenario.X, scenario.attention.Wk
        wq = scenario.attention.Wq.copy()
        wq[0, 0] = 0.5
        scores = (x[11] @ wq) @ (x @ wk).T / np.sqrt(2.0)  # the last row reads all twelve
        shares = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
        listed = " / ".join(format_number(float(w), 3) for w in shares[:8])
        assert window.statusBar().currentMessage() == \
            f"Wq[0,0] = 0.5 → shares for t11: {listed} / …"
        window.state.set_receiver(3)  # four keys: all listed, no “…”
        assert window.state.shares_summary().count(" / ") == 3
        assert not window.state.shares_summary().endswith("…")
    finally:
        close_window(window)


def test_a_cell_edit_walks_no_outline_and_another_edit_walks_the_new_one_once(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Is it big, which grids: a cell edit's document has the outline of the one it was made
    from, known without a walk; a new shape is walked once between the two questions."""
    before = f11.state.scenario
    cells = sum(before.parameter(path).size for path in before.parameter_paths())
    assert app.model.outline.parameter_cells(before) == cells  # the open document's: last asked
    walked: list[object] = []
    walk = app.model.outline.shape_key

    def counted(value: object) -> Hashable:
        if isinstance(value, Scenario):
            walked.append(value)
        return walk(value)

    monkeypatch.setattr(app.model.outline, "shape_key", counted)
    type_into(qtbot, f11.editor.tables["attention.Wv"], 0, 1, "7")
    type_into(qtbot, f11.editor.tables["attention.Wv"], 1, 0, "-2")
    edited = f11.state.scenario
    assert (edited.parameter("attention.Wv")[0, 1], edited.parameter("attention.Wv")[1, 0]) \
        == (7.0, -2.0)
    assert walked == []
    assert app.model.outline.parameter_cells(edited) == cells
    assert app.model.outline.parameter_paths(edited) == before.parameter_paths()
    f11.editor.size_boxes["n"].setValue(3)
    bigger = f11.state.scenario
    assert walked == [bigger]
    assert app.model.outline.parameter_cells(bigger) == sum(
        bigger.parameter(path).size for path in bigger.parameter_paths()) != cells


def test_the_room_is_measured_again_in_a_bigger_font(qtbot: QtBot, f11: StudioWindow) -> None:
    timeline = f11.timeline
    f11.state.set_step(1)
    before = timeline.summary_label.minimumHeight()
    assert before > 0
    bigger = timeline.font()
    bigger.setPointSizeF(bigger.pointSizeF() * 2)
    timeline.setFont(bigger)
    f11.state.set_step(2)
    assert timeline.summary_label.minimumHeight() >= 2 * before - 4


def tallest_texts(window: StudioWindow) -> list[int]:
    """The tallest summary and check line of any step at the labels' width, measured here."""
    timeline = window.timeline
    texts = [timeline._texts_of(timeline._step_text(k))
             for k in range(len(window.state.trace.steps))]
    return [max(label.fontMetrics().boundingRect(
        QRect(0, 0, label.width(), 100_000), Qt.TextFlag.TextWordWrap, each[column]).height()
        for each in texts) for column, label in enumerate((timeline.summary_label,
                                                           timeline.check_label))]


def test_the_room_is_measured_a_slice_at_a_turn_and_ends_the_tallest_of_every_step(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """A big document's ~200 steps' texts are measured a slice at a turn of the event loop
    (here one step a turn), the window answering between slices; the labels get the tallest
    of every step's once all are measured, and a change meanwhile starts the measure again."""
    monkeypatch.setattr(app.window.timeline, "ROOM_SLICE_MS", 0)
    timeline = f11.timeline
    f11.state.set_step(1)
    qtbot.waitUntil(lambda: not timeline.room_work.isActive())
    before = [timeline.summary_label.minimumHeight(), timeline.check_label.minimumHeight()]
    assert before == tallest_texts(f11)
    measured = step_texts_made(monkeypatch)
    bigger = timeline.font()
    bigger.setPointSizeF(bigger.pointSizeF() * 2)
    timeline.setFont(bigger)
    f11.state.set_step(2)  # its own text, then the room: one step measured so far
    assert timeline.room_work.isActive()
    assert timeline.summary_label.minimumHeight() == before[0]  # not measured yet
    f11.state.set_step(3)  # a step taken meanwhile: the measure goes on
    qtbot.waitUntil(lambda: not timeline.room_work.isActive())
    steps = len(f11.state.trace.steps)
    assert sorted(set(measured)) == list(range(steps))
    assert [timeline.summary_label.minimumHeight(),
            timeline.check_label.minimumHeight()] == tallest_texts(f11)
    assert timeline.summary_label.minimumHeight() >= 2 * before[0] - 4
    measured.clear()
    f11.state.set_receiver(0)  # another receiver's texts: measured again, every step
    qtbot.waitUntil(lambda: not timeline.room_work.isActive()
                    and not timeline.room_timer.isActive())
    assert sorted(set(measured)) == list(range(steps))
