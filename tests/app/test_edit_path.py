"""What one edit of a cell costs outside the canvas: the timeline shows the current step's new
text at once and measures the other steps' texts for room only once typing pauses (or a step
is taken), never per keystroke."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

import app.help.explain
import app.timeline
from app.texts import StepText
from app.window import StudioWindow
from engine import Trace, format_number
from tests.app.driving import close_window, open_window, type_into


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


def test_an_edit_shows_the_current_text_at_once_and_measures_the_rest_when_typing_pauses(
        qtbot: QtBot, f11: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    timeline = f11.timeline
    weights = next(k for k, s in enumerate(f11.state.trace.steps) if s.op == "weights")
    f11.state.set_step(weights)
    assert "0.804 + 0.196 = 1" in timeline.check_label.text()  # the chapter's shares
    made: list[int] = []
    original = app.timeline.step_text

    def counted(trace: Trace, index: int, *args: object) -> StepText:
        made.append(index)
        return original(trace, index, *args)

    monkeypatch.setattr(app.timeline, "step_text", counted)
    monkeypatch.setattr(app.help.explain, "step_text", counted)
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
