"""A generation run is a second level on the timeline (issue 24 item 5): a button per token
shows the steps of the document that drew it, read-only, its draw step choosing that token;
the heading says where in the run; an edit goes back to the whole document."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app import i18n
from app.canvas.layout import TextItem
from app.export.dialog import ExportDialog
from app.model.edits import SetCell
from app.window.studio import StudioWindow
from engine import parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.run import Run, generate
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.engine.generation_documents import cases


def _run() -> Run:
    return generate(parse_scenario(cases()["three-layers"]), 3,
                    Settings(temperature=2.0, seed=4))


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[StudioWindow]:
    shown = StudioWindow(_run().scenario)
    shown.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(shown):
        shown.show()
    yield shown
    i18n.set_language("en")
    close_window(shown)


def test_a_token_shows_the_steps_that_drew_it_and_back(window: StudioWindow) -> None:
    run = _run()
    level = window.timeline.run_level
    assert level.isVisible()
    assert [b.text() for b in level.token_buttons] == ["token 1 “你”", "token 2 “爱”",
                                                       "token 3 “你”"]
    assert level.whole_button.isChecked() and not level.banner.isVisible()
    whole = window.state.trace
    level.token_buttons[0].click()
    trace = window.state.trace
    assert window.state.token == 1 and level.token_buttons[0].isChecked()
    assert trace.scenario.n == run.scenario.n - 3  # the prompt alone
    assert trace.steps[window.state.step].op == "sample"
    assert int(trace.arrays["gen1.chosen"][0]) == run.tokens[0].draw.chosen
    np.testing.assert_allclose(trace.arrays["probs"][-1], run.tokens[0].probs, rtol=1e-12)
    window.canvas.build_pending()
    assert window.canvas.frame is not None and window.canvas.frame.trace is trace
    assert window.timeline.position_label.text().startswith(
        "Token 1 of 3 “你” · Step 32 of 32 · ")
    assert level.banner.isVisible() and "Edits apply to the whole document" in \
        level.banner.text()
    level.token_buttons[1].click()
    assert int(window.state.trace.arrays["gen2.chosen"][0]) == run.tokens[1].draw.chosen
    level.whole_button.click()
    assert window.state.token is None and window.state.trace is whole
    assert window.timeline.position_label.text().startswith("Step ")


def _map_title(window: StudioWindow) -> str:
    frame = window.canvas.frame
    assert frame is not None and frame.route_map is not None
    [title] = [c.text for c in frame.route_map.childItems() if isinstance(c, TextItem)]
    return title


@pytest.mark.parametrize(("lang", "place", "step", "where"), [
    ("en", "Token 2 of 3 “爱”", "Step 32 of 32", "Where you are"),
    ("zh", "第 2 个 Token（共 3 个）“爱”", "第 32 步（共 32 步）", "当前位置")])
def test_the_frame_heading_and_the_map_say_which_token_of_the_run(
        window: StudioWindow, lang: str, place: str, step: str, where: str) -> None:
    """The window's frame said "Step 32 of 32" alone while token 2's steps were shown."""
    i18n.set_language(lang)
    QApplication.processEvents()
    window.timeline.run_level.token_buttons[1].click()
    window.canvas.build_pending()
    frame = window.canvas.frame
    assert frame is not None
    assert frame.heading.text.startswith(f"{place} · {step}"), frame.heading.text
    assert _map_title(window) == f"{place} · {where}"
    window.state.set_step(3)
    window.canvas.build_pending()
    assert window.canvas.frame.heading.text.startswith(f"{place} · "), "every step of it"
    window.timeline.run_level.whole_button.click()
    window.canvas.build_pending()
    assert window.canvas.frame.heading.text.startswith(step.replace("32", "4", 1))
    assert _map_title(window) == where


def test_the_receiver_box_lists_the_tokens_of_the_document_that_drew_the_token(
        window: StudioWindow) -> None:
    """Viewing token 2 shows the prompt and token 1: the Receiver box lists those positions
    alone (it listed the whole document's), the last one current; back on the whole document
    it lists every position again."""
    scenario = window.state.scenario
    listed = window.controls.receiver_box
    whole = [f"{k}: {token}" for k, token in enumerate(scenario.tokens)]
    assert [listed.itemText(k) for k in range(listed.count())] == whole
    window.timeline.run_level.token_buttons[1].click()
    drew = whole[:scenario.n - 2]  # the run's last two tokens are not in token 2's document
    assert [listed.itemText(k) for k in range(listed.count())] == drew
    assert listed.currentText() == drew[-1]
    listed.setCurrentIndex(0)
    assert window.state.receiver == 0
    window.timeline.run_level.whole_button.click()
    assert [listed.itemText(k) for k in range(listed.count())] == whole
    assert listed.currentIndex() == 0


def test_an_edit_while_viewing_a_token_applies_to_the_whole_document(
        window: StudioWindow) -> None:
    level = window.timeline.run_level
    n = window.state.scenario.n
    level.token_buttons[2].click()
    assert window.state.trace.scenario.n == n - 1
    assert window.state.apply(SetCell("embedding", 0, 0, 0.25))
    assert window.state.token is None and level.whole_button.isChecked()
    assert window.state.trace.scenario is window.state.scenario
    assert window.state.scenario.n == n and window.state.scenario.embedding[0, 0] == 0.25
    window.undo_action.trigger()
    assert window.state.trace.scenario.n == n


def test_generate_next_on_a_token_draws_from_the_whole_document(window: StudioWindow) -> None:
    n = window.state.scenario.n
    window.timeline.run_level.token_buttons[0].click()
    assert window.generation.generate()
    assert window.state.token is None and window.state.scenario.n == n + 1
    assert window.state.trace.scenario is window.state.scenario


def test_the_run_level_speaks_chinese(window: StudioWindow) -> None:
    i18n.set_language("zh")
    QApplication.processEvents()
    level = window.timeline.run_level
    assert level.token_buttons[1].text() == "第 2 个 Token“爱”"
    assert level.whole_button.text() == "整个文档"
    level.token_buttons[1].click()
    assert window.timeline.position_label.text().startswith("第 2 个 Token（共 3 个）“爱” · ")
    assert "整个文档" in level.banner.text()


def test_a_document_without_a_run_has_no_run_level(qtbot: QtBot) -> None:
    shown = StudioWindow(parse_scenario(cases()["three-layers"]))
    with qtbot.waitActive(shown):
        shown.show()
    assert not shown.timeline.run_level.isVisible()
    close_window(shown)


def test_the_export_dialog_opens_on_the_token_viewed(window: StudioWindow,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[ExportDialog] = []
    monkeypatch.setattr(ExportDialog, "exec", lambda dialog: opened.append(dialog) or 0)
    window.timeline.run_level.token_buttons[1].click()
    window.export_dialog()
    [dialog] = opened
    assert dialog.token_radio.isChecked() and dialog.token_spin.value() == 2
    assert dialog.trace is window.state.trace and dialog.whole.scenario is window.state.scenario
    assert dialog.frame_options().run_place is None, "pages say which token they are"
    dialog.deleteLater()


def test_a_long_run_scrolls_its_buttons_at_1024_by_768(qtbot: QtBot) -> None:
    """Eight tokens at 1024 × 768: the buttons keep their width side by side (squeezed, they
    were drawn over one another) and the strip scrolls to the token shown."""
    run = generate(parse_scenario(cases()["three-layers"]), 8, Settings(temperature=2.0, seed=4))
    shown = StudioWindow(run.scenario)
    shown.resize(1024, 768)
    with qtbot.waitActive(shown):
        shown.show()
    try:
        level = shown.timeline.run_level
        shown.state.view_token(7)
        QApplication.processEvents()
        buttons = [*level.token_buttons, level.whole_button]
        assert len(buttons) == 9
        places = [button.geometry() for button in buttons]
        assert all(button.width() >= button.sizeHint().width() for button in buttons)
        assert all(left.right() < right.left() for left, right in pairwise(places))
        viewport = level.strip.viewport().rect()
        seventh = level.token_buttons[6]
        corner = seventh.mapTo(level.strip.viewport(), seventh.rect().topLeft())
        assert seventh.isChecked()
        assert viewport.contains(corner) and viewport.right() >= corner.x() + seventh.width()
        assert level.strip.horizontalScrollBar().value() > 0
    finally:
        close_window(shown)
