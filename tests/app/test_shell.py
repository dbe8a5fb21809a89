"""The window's narrow interface (app.state.shell.Shell): each operation does what it says on the
real window, and a plug-in runs against any object that offers it, with no window at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from app.files.session import restore_session, save_session
from app.state.document import DocumentState
from app.state.shell import Stepping
from app.window.studio import StudioWindow
from engine import load_scenario
from tests.app.documents_support import example_document, launch_names, write_document
from tests.app.driving import close_window

__all__ = ["launch_names"]


def test_messages_go_to_the_status_line(window: StudioWindow) -> None:
    window.show_message("Imported Wq")
    assert window.statusBar().currentMessage() == "Imported Wq"


def test_a_canvas_control_sits_in_the_row_above_the_canvas_before_fit(
        window: StudioWindow) -> None:
    control = QLabel("B =")
    window.add_canvas_control(control)
    row = window.controls.row
    widgets = [row.itemAt(k).widget() for k in range(row.count())]
    assert control in widgets
    assert widgets.index(control) < widgets.index(window.controls.fit_button)
    assert widgets.index(control) > widgets.index(window.controls.all_arrows_box)


def test_folding_the_editor_gives_the_canvas_its_room_and_gives_it_back(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.show()
    qtbot.waitExposed(window)
    assert window.set_panel_sizes([300, 700])
    before = window.panel_sizes()
    window.set_editor_folded(True)
    assert window.panel_sizes()[0] == 0
    assert sum(window.panel_sizes()) == sum(before)
    window.set_editor_folded(False)
    assert window.panel_sizes() == before


@pytest.mark.parametrize("sizes", [[300], [300, 700, 5], [-1, 700], [0, 0], [300, 100_000]])
def test_panel_sizes_that_do_not_fit_change_nothing(window: StudioWindow,
                                                    sizes: list[int]) -> None:
    before = window.panel_sizes()
    assert not window.set_panel_sizes(sizes)
    assert window.panel_sizes() == before


def test_dwell_is_set_within_its_range_only(window: StudioWindow) -> None:
    assert window.set_dwell(3.5)
    assert window.dwell() == 3.5 == window.timeline.dwell_box.value()
    assert not window.set_dwell(1000.0)
    assert not window.set_dwell(0.0)
    assert window.dwell() == 3.5


def test_the_grids_are_the_documents_parameters_and_the_clicked_one_is_selected(
        qtbot: QtBot, window: StudioWindow) -> None:
    assert window.grid_paths() == list(window.state.scenario.parameter_paths())
    assert window.selected_grid() is None
    window.show()
    qtbot.waitExposed(window)
    table = window.editor.tables["attention.Wk"]
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(table.model().index(0, 0)).center())
    assert window.selected_grid() == "attention.Wk"


def test_stepping_and_step_titles_follow_the_timeline(window: StudioWindow) -> None:
    stepping: Stepping = window.stepping
    stepping.last()
    last = len(window.state.trace.steps) - 1
    assert window.state.step == last
    stepping.previous()
    assert window.state.step == last - 1
    stepping.first()
    stepping.next()
    assert window.state.step == 1
    assert window.step_title(1) == window.timeline.title_for(1)
    assert window.step_title(0) != window.step_title(1)


def test_a_new_window_opens_on_the_given_scenario(qtbot: QtBot, window: StudioWindow) -> None:
    scenario = load_scenario(Path("resources/examples/multihead.qkv.json"))
    other = window.open_window(scenario)
    try:
        assert isinstance(other, StudioWindow) and other is not window
        assert other.isVisible()
        assert other.state.scenario is scenario
        assert other.state.path is None
    finally:
        close_window(other)


def test_restored_work_has_its_recovery_copy_at_once(window: StudioWindow,
                                                     tmp_path: Path) -> None:
    window.recovery._directory = tmp_path / "recovery"
    scenario = load_scenario(Path("resources/examples/multihead.qkv.json"))
    window.show_document(scenario, tmp_path / "lost.qkv.json", modified=True)
    assert window.state.modified
    copy = window.recovery.copy_path
    assert copy.is_file()
    assert load_scenario(copy).title == scenario.title


def test_actions_added_work_from_anywhere_in_the_window(window: StudioWindow) -> None:
    action = QAction("Present")
    window.add_action(action)
    assert action in window.actions()


def test_the_explanation_and_its_action_stay_in_step(window: StudioWindow) -> None:
    action = QAction()
    action.setCheckable(True)
    window.bind_explanation(action)
    action.setChecked(True)
    assert window.timeline.explain.toggle.isChecked()
    window.timeline.explain.toggle.setChecked(False)
    assert not action.isChecked()


class SessionShell:
    """Only what the session plug-in asks of a window: no splitter, no timeline, no editor."""

    def __init__(self, state: DocumentState) -> None:
        self.state = state
        self._widget = QWidget()
        self.sizes = [300, 700]
        self.seconds = 1.0

    def widget(self) -> QWidget:
        return self._widget

    def panel_sizes(self) -> list[int]:
        return list(self.sizes)

    def set_panel_sizes(self, sizes: list[int]) -> bool:
        self.sizes = list(sizes)
        return True

    def dwell(self) -> float:
        return self.seconds

    def set_dwell(self, seconds: float) -> bool:
        self.seconds = seconds
        return True


def test_the_session_plug_in_needs_nothing_but_the_shell(launch_names: None,
                                                          tmp_path: Path) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("multihead"))
    scenario = load_scenario(doc)
    first = SessionShell(DocumentState(scenario, doc))
    first.sizes, first.seconds = [123, 456], 2.5
    first.state.set_step(3)
    first.state.set_receiver(1)
    first.state.set_head(1)
    save_session(first)  # a partial shell, on purpose
    second = SessionShell(DocumentState(scenario, doc))
    restore_session(second, same_document=True)
    assert second.sizes == [123, 456]
    assert second.seconds == 2.5
    assert (second.state.step, second.state.receiver, second.state.head) == (3, 1, 1)

