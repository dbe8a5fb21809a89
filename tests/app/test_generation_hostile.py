"""Generation in the window as a careless user meets it (issue 24): a token of a run that its
draw did not choose — picked by clicking a bar, or drawn before the model was edited — is shown
as the token appended, beside what the draw gives now (token t's draw frame said "chosen: “我”"
under the heading "Token 1 of 2 “你”"); a run's temperature off the slider's steps is printed as
it is."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app import i18n
from app.canvas.layout import TextItem
from app.window.studio import StudioWindow
from engine import compute, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.append import extend
from engine.generation.run import generate
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.engine.generation_documents import cases

GREEDY = Settings(temperature=0.0)


def _picked_run() -> tuple[int, int, StudioWindow]:
    """The three-layer stack with a greedy run whose first token is the least probable entry
    (the user's pick), then one greedy token: (the picked id, the greedy id, a window)."""
    start = generate(parse_scenario(cases()["three-layers"]), 1, GREEDY).scenario
    prompt = parse_scenario({**cases()["three-layers"],
                             "generation": {"temperature": 0, "chosen": []}})
    probs = compute(prompt).arrays["probs"][-1]
    picked, greedy = int(np.argmin(probs)), int(np.argmax(probs))
    assert start.generation is not None and start.generation.chosen == (greedy,)
    longer = generate(extend(prompt, picked), 1, GREEDY).scenario
    window = StudioWindow(longer)
    window.resize(*DEFAULT_SIZE)
    return picked, greedy, window


@pytest.fixture
def picked(qtbot: QtBot) -> Iterator[tuple[int, int, StudioWindow]]:
    picked, greedy, window = _picked_run()
    with qtbot.waitActive(window):
        window.show()
    yield picked, greedy, window
    i18n.set_language("en")
    close_window(window)


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "appended instead: “{picked}” (id {p}), picked or drawn before an edit; this draw "
           "gives “{greedy}”"),
    ("zh", "实际追加的是“{picked}”（编号 {p}）：手选的，或在修改模型之前抽到的；这次抽取得到"
           "“{greedy}”")])
def test_token_t_s_draw_names_the_token_the_run_appended(
        picked: tuple[int, int, StudioWindow], lang: str, line: str) -> None:
    picked_id, greedy_id, window = picked
    i18n.set_language(lang)
    vocab = window.state.scenario.head.vocab  # type: ignore[union-attr]
    window.timeline.run_level.token_buttons[0].click()
    window.canvas.build_pending()
    frame = window.canvas.frame
    assert frame is not None and frame.trace.steps[window.state.step].op == "sample"
    texts = [item.text for item in frame.items_of(TextItem)]
    assert line.format(picked=vocab[picked_id], p=picked_id, greedy=vocab[greedy_id]) in texts
    window.timeline.run_level.token_buttons[1].click()  # drawn by its own draw: no such line
    window.canvas.build_pending()
    assert window.canvas.frame is not None
    assert not any(text.startswith(line[:8]) for text in
                   (item.text for item in window.canvas.frame.items_of(TextItem)))


@pytest.mark.parametrize(("temperature", "printed"), [(0.004, "0.004"), (2.999, "2.999"),
                                                      (3.5, "3.50"), (1.25, "1.25")])
def test_the_temperature_printed_is_the_document_s_off_the_slider_s_steps(
        qtbot: QtBot, temperature: float, printed: str) -> None:
    """A run's temperature between the slider's 0.01 steps printed as the nearest step: 0.004
    as "0.01", 2.999 as "3.00"."""
    doc = {**cases()["three-layers"], "generation": {"temperature": temperature}}
    window = StudioWindow(parse_scenario(doc))
    try:
        assert window.generation.temperature_label.text() == printed
    finally:
        close_window(window)


def test_a_seed_past_the_box_s_range_is_printed_as_it_is(qtbot: QtBot) -> None:
    """A run's seed above 2³¹ − 1 (the command line takes up to 2⁶³ − 1) showed as
    2147483647 while the draws used the document's."""
    doc = {**cases()["three-layers"], "generation": {"temperature": 1.5, "seed": 2**40}}
    window = StudioWindow(parse_scenario(doc))
    try:
        assert window.generation.seed_box.text() == "1099511627776"
        window.generation.seed_box.setValue(7)  # a seed typed: the box's own numbers again
        run = window.state.scenario.generation
        assert run is not None and run.settings.seed == 7
        assert window.generation.seed_box.text() == "7"
        assert window.generation.seed_box.minimum() == 0
    finally:
        close_window(window)


@pytest.mark.parametrize(("top_p", "printed"), [(0.999, "0.999"), (0.0005, "0.0005"),
                                                (0.9, "0.90"), (1e-9, "0.000000001")])
def test_a_top_p_off_the_box_s_hundredths_is_printed_as_it_is(qtbot: QtBot, top_p: float,
                                                               printed: str) -> None:
    """top-p = 0.999 showed as 1.00 (nothing cut, it said) and 0.0005 as 0.01."""
    doc = {**cases()["three-layers"], "generation": {"temperature": 1.5, "top_p": top_p}}
    window = StudioWindow(parse_scenario(doc))
    try:
        box = window.generation.top_p_box
        assert (box.text(), box.value()) == (printed, top_p)
    finally:
        close_window(window)


def test_a_bar_of_the_draw_s_chart_picks_its_own_entry(qtbot: QtBot) -> None:
    """The draw's chart lists entries most probable first; a click on its first bar ("你",
    id 2 of the continue example) appended id 0 ("我"), the bar's place in the chart."""
    from app.canvas.bars import ProbabilityBars
    from app.model.examples import example_path
    from engine import load_scenario
    from tests.app.test_window_generation import open_on

    window = open_on(qtbot, load_scenario(example_path("continue")))
    try:
        steps = window.state.trace.steps
        window.state.set_step(next(k for k, s in enumerate(steps) if s.op == "sample"))
        window.canvas.build_pending()
        probs = window.state.trace.arrays["probs"][-1]
        first = int(np.argmax(probs))
        assert first != 0  # the chart's order is not the ids'
        [bars] = [item for item in window.canvas.scene().items()
                  if isinstance(item, ProbabilityBars)]
        rect = bars.rows[0][0]
        point = window.canvas.mapFromScene(bars.mapToScene(rect.center()))
        start = window.state.scenario
        qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
        after = window.state.scenario
        assert after.token_ids == (*(start.token_ids or ()), first)
    finally:
        close_window(window)
