"""Editing stays instant: fast typing costs one frame build of the newest document, opening
computes once and builds one frame, a value edit never asks the document for its grid paths,
and grids on screen draw the same picture as before from cached glyphs (issue 15)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import SIGNAL, QEvent, QObject, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

import engine.format.document
from app.canvas import FrameItem
from app.canvas import compose as compose_module
from app.canvas.arrows import AttentionArrows
from app.canvas.picture import static_text
from app.canvas.theme import font
from app.canvas.view import CanvasView
from app.files import opening
from app.model import outline
from app.model.edits import SetOption
from app.model.examples import example_path
from app.model.outline import shape_key
from app.state import session as state_module
from app.window.studio import StudioWindow
from engine import Scenario, dumps_scenario, parse_scenario
from engine.scenario.edit import with_parameter
from engine.scenario.resize import Sizes, resize
from tests.app.driving import canvas_arrows, count_frames

THREE = Sizes(n=3, d=2, d_k=2, d_v=2, heads=1)


def f11_shares(wq: np.ndarray) -> list[float]:
    """Shares of 爱 over (我, 爱) in F11, computed here from its X and Wk."""
    x = np.array([[1.0, 1.0], [1.0, -1.0]])
    keys = x @ np.array([[0.5, 0.5], [0.5, -0.5]])
    scores = [float(x[1] @ wq @ keys[j]) / math.sqrt(2) for j in range(2)]
    exps = [math.exp(s - max(scores)) for s in scores]
    return [e / sum(exps) for e in exps]


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per frame the canvas builds."""
    made: list[int] = []
    show_frame = CanvasView.show_frame

    def counted(view: CanvasView, *args: object, **kwargs: object) -> object:
        made.append(1)
        return show_frame(view, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CanvasView, "show_frame", counted)
    return made


@pytest.fixture
def computes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per trace computed by the window's state or by opening a file."""
    made: list[int] = []
    for module in (state_module, opening):
        original: Callable[[Scenario], object] = module.compute

        def counted(scenario: Scenario, original: Callable[[Scenario], object] = original
                    ) -> object:
            made.append(1)
            return original(scenario)

        monkeypatch.setattr(module, "compute", counted)
    return made


def test_fast_typing_builds_one_frame_and_it_shows_the_last_edit(
        qtbot: QtBot, window: StudioWindow, builds: list[int]) -> None:
    window.state.set_step(window.state.trace.step_index("weights"))
    builds.clear()
    model = window.editor.tables["attention.Wq"].model()
    typed = ["2", "2.5", "3", "3.5", "4"]
    with qtbot.waitSignal(window.canvas.repainted, timeout=5000):
        for text in typed:  # faster than the event loop runs: no frame in between
            assert model.setData(model.index(0, 0), text)
        assert builds == []  # nothing built (and nothing queued) for the older documents
    assert builds == [1]
    wq = np.array([[4.0, 1.0], [-1.0, 1.0]])
    assert window.canvas.frame is not None
    assert window.canvas.frame.trace is window.state.trace
    assert window.state.scenario.attention.Wq[0, 0] == 4.0
    assert canvas_arrows(window).share_labels == [f"{share:.3f}" for share in f11_shares(wq)]
    assert window.state.undo_stack.count() == 1  # typing into one cell: one undo step


def test_a_frame_asked_for_before_the_event_loop_runs_is_the_newest(
        window: StudioWindow, builds: list[int]) -> None:
    window.state.set_step(window.state.trace.step_index("weights"))
    model = window.editor.tables["attention.Wq"].model()
    assert model.setData(model.index(0, 0), "3")
    frame = window.canvas.frame  # read at once: built now, not a stale one
    assert frame is not None and frame.trace is window.state.trace
    wq = np.array([[3.0, 1.0], [-1.0, 1.0]])
    assert canvas_arrows(window).share_labels == [f"{share:.3f}" for share in f11_shares(wq)]


def test_open_computes_once_and_builds_one_frame(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path, computes: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The showing check's frame is the one shown: one frame built in all, by the check."""
    document = parse_scenario(resize(window.state.scenario, THREE).document)
    path = tmp_path / "three.qkv.json"
    path.write_text(dumps_scenario(document), encoding="utf-8")
    built = count_frames(monkeypatch)
    computes.clear()
    assert window.open_path(path)
    qtbot.wait(20)
    assert (len(computes), len(built)) == (1, 1)
    assert window.canvas.frame is built[0]
    assert window.state.scenario.n == 3


def test_a_window_on_a_checked_document_computes_nothing_more(
        qtbot: QtBot, tmp_path: Path, builds: list[int], computes: list[int]) -> None:
    path = tmp_path / "f11.qkv.json"
    path.write_text(example_path("f11").read_text(encoding="utf-8"), encoding="utf-8")
    scenario, trace = opening.load_computed(path)
    computes.clear()
    window = StudioWindow(scenario, path, trace)
    qtbot.addWidget(window)
    window.state.set_step(2)  # a restored session's step: still one frame in all
    window.show()
    qtbot.wait(20)
    assert (len(computes), len(builds)) == (0, 1)
    assert window.state.trace is trace
    window.state.undo_stack.setClean()


def test_a_value_edit_never_asks_the_document_for_its_grid_paths(
        window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    paths = Scenario.parameter_paths

    def counted(scenario: Scenario) -> list[str]:
        asked.append(1)
        return paths(scenario)

    monkeypatch.setattr(Scenario, "parameter_paths", counted)
    monkeypatch.setattr(outline, "_paths", {})  # no outline remembered from another test
    monkeypatch.setattr(outline, "_last", [])
    outline.parameter_paths(window.state.scenario)  # the open document's: asked once
    asked.clear()
    model = window.editor.tables["attention.Wq"].model()
    assert model.setData(model.index(0, 0), "3")
    assert asked == []
    window.editor.size_boxes["n"].setValue(3)  # a new shape: the grids follow (the engine's
    assert asked  # resize walks the paths too, so more than one ask is fine here)
    assert window.editor.tables["X"].model().rowCount() == 3


def test_a_cell_edit_replaces_only_its_array_and_tells_only_its_grid(
        window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing into one cell reads no other number of the document again: every other array is
    the same object, and only the edited grid hears of a change."""
    def refuse(_document: object) -> None:
        raise AssertionError("the document was read again")

    monkeypatch.setattr(engine.format.document, "parse_document", refuse)
    before = window.state.scenario
    told: dict[str, int] = {}
    for path, table in window.editor.tables.items():
        table.model().dataChanged.connect(
            lambda *_args, path=path: told.__setitem__(path, told.get(path, 0) + 1))
    model = window.editor.tables["attention.Wk"].model()
    assert model.setData(model.index(1, 0), "2.5")
    after = window.state.scenario
    assert float(after.attention.Wk[1, 0]) == 2.5
    assert float(before.attention.Wk[1, 0]) != 2.5  # the old document is unchanged (undo)
    assert told == {"attention.Wk": 1}
    for path in before.parameter_paths():
        if path != "attention.Wk":
            assert after.parameter(path) is before.parameter(path), path


def test_the_outline_of_a_document_ignores_its_numbers_but_not_its_shapes(
        window: StudioWindow) -> None:
    scenario = window.state.scenario
    edited = with_parameter(scenario, "attention.Wq", scenario.attention.Wq + 1.0)
    assert shape_key(edited) == shape_key(scenario)
    bigger = parse_scenario(resize(scenario, THREE).document)
    assert shape_key(bigger) != shape_key(scenario)


def test_texts_on_screen_are_laid_out_once_per_text_and_font(qtbot: QtBot) -> None:
    first, size = static_text("0.804", font(17))
    assert static_text("0.804", font(17))[0] is first
    assert static_text("0.804", font(12))[0] is not first
    assert size.width() > static_text("0.8", font(17))[1].width() > 0


def test_an_edit_refills_the_frame_on_screen_and_its_map_still_jumps_once(
        qtbot: QtBot, window: StudioWindow) -> None:
    window.state.set_step(window.state.trace.step_index("weights"))
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.route_map is not None
    heading, old_body = frame.heading, frame.body
    model = window.editor.tables["attention.Wq"].model()
    with qtbot.waitSignal(window.canvas.repainted, timeout=5000):
        assert model.setData(model.index(0, 0), "3")
    assert window.canvas.frame is frame and frame.heading is heading  # kept, not rebuilt
    assert frame.body is not old_body and old_body.scene() is None
    assert frame.trace is window.state.trace
    wq = np.array([[3.0, 1.0], [-1.0, 1.0]])
    assert canvas_arrows(window).share_labels == [f"{share:.3f}" for share in f11_shares(wq)]
    assert len(frame.items_of(AttentionArrows)) == 1  # the old picture is gone
    box = frame.route_map.boxes[0]
    assert box.receivers(SIGNAL("clicked(int)")) == 1, "a refilled map is not connected again"
    box.clicked.emit(0)
    qtbot.waitUntil(lambda: window.state.step == 0, timeout=2000)
    assert window.canvas.frame is not frame  # another step: a new frame


def test_the_rows_of_x_are_relabelled_only_when_a_token_changes(window: StudioWindow) -> None:
    """A number edit leaves X's token column alone (its header was read again on every edit);
    renaming a token relabels the row."""
    x = window.editor.tables["X"].model()
    told: list[tuple[object, ...]] = []
    x.headerDataChanged.connect(lambda *args: told.append(args))
    assert x.setData(x.index(0, 0), "0.75")
    wq = window.editor.tables["attention.Wq"].model()
    assert wq.setData(wq.index(1, 1), "2")
    assert told == []
    tokens = window.editor.token_table.model()
    assert tokens.setData(tokens.index(0, 1), "喜欢")
    assert told == [(Qt.Orientation.Vertical, 0, 1)]
    assert x.headerData(1, Qt.Orientation.Vertical) == "喜欢"
    assert x.setData(x.index(1, 0), "0.5")
    assert len(told) == 1


class PaintCounter(QObject):
    """Counts the paint events of the widgets it watches."""

    def __init__(self) -> None:
        super().__init__()
        self.painted: list[str] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted.append(watched.objectName() or type(watched).__name__)
        return False


def test_a_number_edit_repaints_no_size_box_or_switch(
        qtbot: QtBot, window: StudioWindow) -> None:
    """The sizes and switches are set again after every computation only where they changed:
    setting a spin box to its own value repainted it and its group (~0.7 ms an edit)."""
    editor = window.editor
    watched = [*editor.size_boxes.values(), editor.causal_box, editor.scale_box]
    counter = PaintCounter()
    for widget in watched:
        widget.installEventFilter(counter)
        for child in widget.findChildren(QWidget):
            child.installEventFilter(counter)
    qtbot.wait(50)  # paints from showing the window are done
    counter.painted.clear()
    model = editor.tables["attention.Wq"].model()
    for k in range(3):
        assert model.setData(model.index(0, 1), f"{0.5 + k}")
        qtbot.wait(20)
    assert counter.painted == []
    assert editor.causal_box.isChecked()
    window.state.apply(SetOption("attention.causal", False))
    qtbot.waitUntil(lambda: not editor.causal_box.isChecked())
    qtbot.waitUntil(lambda: bool(counter.painted))  # a switch that did change is shown changed


def test_a_refill_measures_its_own_step_now_and_the_others_once_typing_pauses(
        qtbot: QtBot, window: StudioWindow) -> None:
    """A number that widens what other steps show (Q and the scores turn scientific) measures
    only the step on screen while typing; the others are measured after a pause, and the frame
    is then laid out as a frame built from scratch is (here the wider steps wrap again; the
    worked row no longer sets the document's scale, so the scale holds)."""
    state = window.state
    state.set_step(state.trace.step_index("inputs"))
    assert window.canvas.frame is not None
    model = window.editor.tables["attention.Wq"].model()
    assert model.setData(model.index(0, 0), "123456789")
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem)
    taken = [state.trace.steps[k].id for k in frame.composition.provisional]
    assert "projections" in taken and "inputs" not in taken
    trusted = frame.composition
    qtbot.waitUntil(lambda: not frame.composition.provisional, timeout=5000)
    assert window.canvas.frame is frame  # settled in place
    compose_module.forget()
    fresh = FrameItem(state.trace, state.step, frame.options)
    assert frame.composition == fresh.composition
    assert frame.picture_scale == fresh.picture_scale <= trusted.scale
    assert frame.composition.wraps != trusted.wraps, "measuring changed how other steps wrap"
    assert frame.body.pos() == fresh.body.pos()
