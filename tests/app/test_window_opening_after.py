"""A document opened after another starts where its exports start (issue 35): its first step
(or the step a built-in example opens on) and its last position as the receiver, whichever
document was on screen before and wherever it stood — File → Open, Open example, Open recent
and New from architecture, each driven through its menu. (Open checkpoint shows its document
the same way, through ``show_document``: checked once by hand, it costs 3 s a test.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.canvas.frame import FrameItem
from app.files.recent import add_recent
from app.model.examples import example_names
from app.window.studio import StudioWindow
from tests.app.documents_support import example_document, patch_open_dialog, write_document
from tests.app.driving import close_window, open_window


@pytest.fixture
def g01_at_its_end(qtbot: QtBot) -> Iterator[StudioWindow]:
    """G01 (its first step ``norm1`` is ``L1.norm1`` in a stack) on its last step, with the
    first position as the receiver: a place no newly opened document may inherit."""
    window = open_window(qtbot, "g01")
    window.timeline.last()
    window.controls.receiver_box.setCurrentIndex(0)
    assert (window.state.step, window.state.receiver) == (11, 0)
    yield window
    close_window(window)


def file_menu(window: StudioWindow) -> QMenu:
    menu = window.menuBar().actions()[0].menu()
    assert isinstance(menu, QMenu)
    return menu


def open_action(window: StudioWindow) -> QAction:
    return next(a for a in file_menu(window).actions() if a.text() == "&Open…")


def example_action(window: StudioWindow, name: str) -> QAction:
    """File → Open example → the example ``name`` (listed in the order of its names)."""
    examples = next(a.menu() for a in file_menu(window).actions()
                    if isinstance(a.menu(), QMenu) and a.menu() is not window.recent_menu)
    assert isinstance(examples, QMenu)
    return examples.actions()[example_names().index(name)]


def where(window: StudioWindow) -> tuple[str, int, int, str]:
    """The step's id, the checked timeline button, the canvas frame's step and the receiver
    box's text: all that says where the window stands."""
    checked = [k for k, button in enumerate(window.timeline.step_group.buttons())
               if button.isChecked()]
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and len(checked) == 1
    box = window.controls.receiver_box
    return (window.state.trace.steps[window.state.step].id, checked[0], frame.step_index,
            box.currentText() if box.currentIndex() < box.count() - 1 else "last")


def test_file_open_starts_a_document_on_its_first_step_and_last_receiver(
        g01_at_its_end: StudioWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = g01_at_its_end
    copy = write_document(tmp_path / "mine.qkv.json", example_document("encoder-decoder"))
    patch_open_dialog(monkeypatch, copy)
    open_action(window).trigger()
    assert window.state.path == copy
    assert where(window) == ("enc.L1.projections", 0, 0, "last")
    assert window.state.receiver is None
    assert window.timeline.position_label.text().startswith("Step 1 of 26 · ")


def test_open_recent_starts_on_the_first_step(g01_at_its_end: StudioWindow,
                                              tmp_path: Path) -> None:
    window = g01_at_its_end
    copy = write_document(tmp_path / "mine.qkv.json", example_document("encoder-decoder"))
    add_recent(copy)
    window.recent_menu.rebuild()
    entry = next(a for a in window.recent_menu.actions() if a.data() == str(copy.resolve()))
    entry.trigger()
    assert window.state.path == copy.resolve()
    assert where(window) == ("enc.L1.projections", 0, 0, "last")
    assert window.state.receiver is None


def test_new_from_architecture_starts_on_the_first_step(g01_at_its_end: StudioWindow) -> None:
    window = g01_at_its_end
    preset = window.findChild(QAction, "preset-llama")
    assert preset is not None
    preset.trigger()
    assert window.state.path is None
    assert where(window) == ("embed", 0, 0, "last")
    assert window.state.receiver is None


def test_open_example_lands_on_its_own_opening(g01_at_its_end: StudioWindow) -> None:
    window = g01_at_its_end
    example_action(window, "rope").trigger()
    assert window.state.scenario.title == example_document("rope")["title"]
    assert where(window) == ("rope", 2, 2, "last")
    example_action(window, "single-key").trigger()  # an example without an opening of its own
    assert where(window) == ("inputs", 0, 0, "last")
    assert window.state.receiver is None

