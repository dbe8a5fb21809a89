"""A document is shown all at once or not at all; a step that fails to draw is said, the window
stays usable; a launch whose document never drew is not repeated — on the real window."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app import i18n
from app.canvas.describe import describe_frame
from app.canvas.frame import FrameItem
from app.canvas.view import CanvasView
from app.files.session import opened_cleanly
from app.model.examples import example_path
from app.window.startup import start_window
from app.window.studio import StudioWindow
from engine import ScenarioError
from engine.words.refusals import Refusal
from tests.app.documents_support import (
    example_document,
    launch_names,
    make_modified,
    write_document,
)
from tests.app.driving import Dialogs, close_window, count_frames, open_window
from tests.app.test_editor_stacks import choose_part

__all__ = ["launch_names"]
F11_TITLE = example_document()["title"]
BROKEN = "a document no painter can draw"


def break_painting(monkeypatch: pytest.MonkeyPatch,
                   broken: Callable[[FrameItem], bool]) -> None:
    """Every frame for which ``broken(frame)`` holds fails to lay out, as a painter's bug."""
    lay_out = FrameItem._lay_out_body

    def failing(self: FrameItem, quick: bool = False) -> None:
        if broken(self):
            raise RuntimeError("the painter broke")
        lay_out(self, quick)

    monkeypatch.setattr(FrameItem, "_lay_out_body", failing)


def broken_document(tmp_path: Path) -> Path:
    document: dict[str, Any] = example_document("multihead")
    document["title"] = BROKEN
    return write_document(tmp_path / "broken.qkv.json", document)


def test_open_of_a_document_that_cannot_be_drawn_leaves_the_window_as_it_was(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dialogs: Dialogs) -> None:
    break_painting(monkeypatch, lambda frame: frame.trace.scenario.title == BROKEN)
    window = open_window(qtbot, "g01")
    try:
        make_modified(window)
        window.state.set_step(3)
        before = (window.state.scenario, window.state.trace, window.windowTitle(),
                  window.state.undo_stack.count(), window.canvas.frame)
        assert window.state.undo_stack.count() == 1 and window.isWindowModified()
        path = broken_document(tmp_path)
        assert not window.open_path(path)
        after = (window.state.scenario, window.state.trace, window.windowTitle(),
                 window.state.undo_stack.count(), window.canvas.frame)
        assert after == before, "nothing of the open document changed"
        assert window.state.path is None and window.state.step == 3
        problem = "step 1 (inputs) cannot be shown: RuntimeError: the painter broke"
        assert dialogs.shown == [("warning", "Cannot open", f"{path} was not opened:\n{problem}")]
        assert window.statusBar().currentMessage() == f"⚠ not opened: {problem}"
        for k in (4, 0, 5):  # stepping goes on drawing the old document, without exceptions
            window.state.set_step(k)
            frame = window.canvas.frame
            assert isinstance(frame, FrameItem) and frame.step_index == k
            assert frame.trace is before[1]
    finally:
        close_window(window)


def test_a_step_that_fails_to_draw_is_said_in_both_languages_and_the_window_goes_on(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(qtbot, "g01")
    try:
        break_painting(monkeypatch, lambda frame: frame.step_index == 2)
        window.state.set_step(2)
        step_id = window.state.trace.steps[2].id
        assert window.statusBar().currentMessage() == (
            f"⚠ step 3 ({step_id}) cannot be shown: RuntimeError: the painter broke")
        assert window.timeline.position_label.text().startswith("Step 3 of ")
        window.state.set_step(3)
        frame = window.canvas.frame
        assert isinstance(frame, FrameItem) and frame.step_index == 3
        i18n.set_language("zh")
        QApplication.processEvents()
        window.state.set_step(2)
        assert window.statusBar().currentMessage() == (
            f"⚠ 第 3 步（{step_id}）无法显示：RuntimeError: the painter broke")
        window.state.set_step(4)
        frame = window.canvas.frame
        assert isinstance(frame, FrameItem) and frame.step_index == 4
    finally:
        close_window(window)


def test_a_refusal_met_while_drawing_a_step_is_said_as_a_refusal_in_both_languages(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint deleted while its document is open refuses the step that reads it: the
    status line says the refusal in the interface language, not the exception's class."""
    window = open_window(qtbot, "g01")
    place = "/models/gpt2/model.safetensors"
    lay_out = FrameItem._lay_out_body

    def gone(self: FrameItem, quick: bool = False) -> None:
        if self.step_index == 2:
            raise ScenarioError(place, Refusal("checkpoint_gone"))
        lay_out(self, quick)

    monkeypatch.setattr(FrameItem, "_lay_out_body", gone)
    try:
        step_id = window.state.trace.steps[2].id
        window.state.set_step(2)
        assert window.statusBar().currentMessage() == (
            f"⚠ step 3 ({step_id}) cannot be shown: {place}: "
            f"{Refusal('checkpoint_gone').words('en')}")
        window.state.set_step(3)
        i18n.set_language("zh")
        QApplication.processEvents()
        window.state.set_step(2)
        said = window.statusBar().currentMessage()
        assert said.startswith(f"⚠ 第 3 步（{step_id}）无法显示：{place}")
        assert said.endswith(Refusal("checkpoint_gone").words("zh")) and "Error" not in said
    finally:
        close_window(window)


def launch(document: str | None = None) -> StudioWindow:
    window = start_window(document)
    assert isinstance(window, StudioWindow)
    return window


def test_a_launch_marks_its_document_opened_only_once_its_first_frame_is_drawn(
        qtbot: QtBot, tmp_path: Path, launch_names: None) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("multihead"))
    window = launch(str(doc))
    assert not opened_cleanly(doc), "opening: not drawn yet"
    qtbot.waitUntil(lambda: window.canvas.frame is not None)
    assert opened_cleanly(doc)
    window.close()
    again = launch()  # the last document, read in a worker while F11 shows
    assert again.state.path is None and again.state.scenario.title == F11_TITLE
    assert not opened_cleanly(doc), "opening again: not painted yet"
    qtbot.waitUntil(lambda: again.state.path == doc)
    qtbot.waitUntil(lambda: opened_cleanly(doc))


def test_a_last_document_that_broke_the_launch_is_not_reopened(
        qtbot: QtBot, tmp_path: Path, launch_names: None,
        monkeypatch: pytest.MonkeyPatch, dialogs: Dialogs) -> None:
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("multihead"))
    launch(str(doc)).close()  # the session now reopens it
    before = set(QApplication.topLevelWidgets())
    with monkeypatch.context() as broken:  # a launch that dies building the window
        broken.setattr(StudioWindow, "_update_title", lambda _self: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            launch()
    for dead in set(QApplication.topLevelWidgets()) - before:  # what the dead launch left
        dead.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    window = launch()
    assert window.state.scenario.title == F11_TITLE and window.state.path is None
    assert window.statusBar().currentMessage() == (
        f"⚠ QKV Studio ended while opening {doc} last time: it was not opened again; "
        "showing F11")
    assert dialogs.shown == []
    qtbot.waitUntil(lambda: window.canvas.frame is not None)
    window.close()
    assert launch().state.scenario.title == F11_TITLE, "F11 was the last document"


def test_a_last_document_that_cannot_be_drawn_falls_back_to_f11_and_says_why(
        qtbot: QtBot, tmp_path: Path, launch_names: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = broken_document(tmp_path)
    launch(str(path)).close()
    break_painting(monkeypatch, lambda frame: frame.trace.scenario.title == BROKEN)
    window = launch()
    message = ("⚠ The last document could not be opened again (step 1 (inputs) cannot be "
               "shown: RuntimeError: the painter broke); showing F11")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == message)
    assert window.state.scenario.title == F11_TITLE and window.state.path is None


def test_a_command_line_document_that_cannot_be_drawn_is_refused_with_f11_shown(
        qtbot: QtBot, tmp_path: Path, launch_names: None, monkeypatch: pytest.MonkeyPatch,
        dialogs: Dialogs, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_document(tmp_path)
    break_painting(monkeypatch, lambda frame: frame.trace.scenario.title == BROKEN)
    window = launch(str(path))
    problem = "step 1 (inputs) cannot be shown: RuntimeError: the painter broke"
    assert window.state.scenario.title == F11_TITLE and window.state.path is None
    assert dialogs.shown == [("warning", "Cannot open", f"{path} was not opened:\n{problem}")]
    assert capsys.readouterr().err == f"qkv-studio: {problem}\n"


def test_unticking_the_first_layers_block_leaves_every_step_drawn_and_told(
        qtbot: QtBot) -> None:
    window = open_window(qtbot, "three-layers")
    try:
        choose_part(qtbot, window, "Layer 1")
        box = window.editor.block_editor.block_box
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
        assert [layer.block is not None for layer in window.state.scenario.layers] == [
            False, True, True]
        window.timeline.explain.set_expanded(True)
        steps = window.state.trace.steps
        for k, step in enumerate(steps):
            window.state.set_step(k)
            frame = window.canvas.frame
            assert isinstance(frame, FrameItem) and frame.step_index == k
            assert not window.timeline.summary_label.text().startswith("⚠"), step.id
            assert not window.statusBar().currentMessage().startswith("⚠"), step.id
        ffn = next(k for k, step in enumerate(steps) if step.id == "L2.ffn")
        window.state.set_step(ffn)
        block = window.state.scenario.layers[1].block
        assert block is not None and block.ffn.activation == "gelu"
        assert "GELU" in window.timeline.summary_label.text() + window.timeline.check_label.text()
    finally:
        close_window(window)


def test_file_open_builds_the_first_frame_once(window: StudioWindow,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The showing check builds the first frame: File → Open shows that one, built once, and
    its description."""
    built = count_frames(monkeypatch)
    assert window.open_path(example_path("g01"))
    assert window.state.scenario.title.startswith("G01")
    assert len(built) == 1
    assert window.canvas.frame is built[0] and built[0].trace is window.state.trace
    assert built[0].step_index == window.state.step == 0
    assert window.canvas.accessibleDescription() == describe_frame(
        window.state.trace, 0, window.frame_options(), window.timeline.title_for(0))


def test_a_launch_on_a_wide_canvas_builds_the_first_frame_once(
        qtbot: QtBot, tmp_path: Path, launch_names: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A launch checks its document on a 16:9 sheet (the shape of most desktops' canvas): a
    canvas of that shape draws the checked frame; one of another shape builds its own."""
    doc = write_document(tmp_path / "lesson.qkv.json", example_document("g01"))
    built = count_frames(monkeypatch)
    monkeypatch.setattr(CanvasView, "aspect", lambda _view: "16:9")
    window = launch(str(doc))
    qtbot.waitUntil(lambda: window.canvas.frame is not None)
    assert len(built) == 1 and window.canvas.frame is built[0]
    assert built[0].options == window.frame_options() and built[0].options.aspect == "16:9"
    window.close()
    monkeypatch.setattr(CanvasView, "aspect", lambda _view: "4:3")
    window = launch(str(doc))
    qtbot.waitUntil(lambda: window.canvas.frame is not None)
    assert len(built) == 3 and window.canvas.frame is built[2]
    assert built[2].options.aspect == "4:3"
