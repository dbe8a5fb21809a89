"""Driving the real studio window as a user would: open it, type into cells, read the canvas."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QLineEdit,
    QMessageBox,
    QTableView,
    QWidget,
)
from pytestqt.qtbot import QtBot

import app.canvas.prepared_drawing
import app.window.step_weights
from app.canvas.arrows import AttentionArrows
from app.canvas.frame import FrameItem
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import Scenario, load_scenario
from engine.checkpoint import import_checkpoint
from engine.format.mapped_weight import MappedWeight
from tests.bench.bench_scale import SHAPES, TEXT, write_checkpoint

DEFAULT_SIZE = (1280, 800)
"""The size a desktop gives the window, at which the window tests measure its layout."""

T = TypeVar("T")


class Dialogs:
    """Stands in for QMessageBox's static functions: records every message, answers as told.

    No test may block on a modal box; a test that expects a question sets ``answer``.
    """

    def __init__(self) -> None:
        self.shown: list[tuple[str, str, str]] = []
        self.answer = QMessageBox.StandardButton.Cancel

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for kind in ("question", "warning", "critical", "information"):
            monkeypatch.setattr(QMessageBox, kind, staticmethod(self._recorder(kind)))

    def _recorder(self, kind: str) -> Callable[..., QMessageBox.StandardButton]:
        def record(_parent: object, title: str, text: str, *_args: object,
                   **_kwargs: object) -> QMessageBox.StandardButton:
            self.shown.append((kind, title, text))
            return self.answer
        return record


def when_shown(kind: type[QWidget], act: Callable[[Any], None]) -> None:
    """Once a visible top-level ``kind`` (a modal dialog about to be opened) is shown, call
    ``act`` with it: start this, then open the dialog."""
    def look() -> None:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]
        if not shown:
            QTimer.singleShot(20, look)
            return
        act(shown[0])

    QTimer.singleShot(0, look)


def open_window(qtbot: QtBot, example: str = "f11") -> StudioWindow:
    return show_window(qtbot, load_scenario(example_path(example)))


def show_window(qtbot: QtBot, scenario: Scenario) -> StudioWindow:
    """A window on ``scenario``, shown and active at :data:`DEFAULT_SIZE`."""
    window = StudioWindow(scenario)
    # The offscreen screen is 800×800, where the window opens shrunk to fit; the window tests
    # measure the layout at the size a desktop gives it (test_window_size checks the shrinking).
    window.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    return window


CUT_LLAMA = {"vocab_size": 50, "hidden_size": 24, "intermediate_size": 3000,
             "num_hidden_layers": 1, "num_attention_heads": 3, "num_key_value_heads": 1,
             "head_dim": 8}
"""Llama-3.2-1B's shape cut down: one layer, three query heads of 8 over one K/V head."""


def cut_llama(folder: Path, **sizes: int) -> Scenario:
    """A random bfloat16 checkpoint of :data:`CUT_LLAMA` (``sizes`` changed) written into
    ``folder`` and imported with the benchmarks' text, its weights left in the checkpoint."""
    write_checkpoint(folder, {**SHAPES["llama-3.2-1b"], **CUT_LLAMA, **sizes})
    return import_checkpoint(folder, TEXT)


def counting(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str) -> list[int]:
    """One entry per call of ``module.<name>`` from now on."""
    made: list[int] = []
    original: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return made


def close_window(window: StudioWindow) -> None:
    """Close the window and destroy it now, not whenever a garbage collection finds it (a
    window destroyed from inside a collection crashes the offscreen platform)."""
    if not shiboken6.isValid(window) or not shiboken6.isValid(window.state.undo_stack):
        return  # closed already
    window.state.undo_stack.setClean()
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@contextmanager
def beside_unsaved_work(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
                        ) -> Iterator[tuple[StudioWindow, list[StudioWindow]]]:
    """A window holding unsaved work, and the windows it opens meanwhile (made, not shown);
    all closed afterwards."""
    window = open_window(qtbot)
    opened: list[StudioWindow] = []
    monkeypatch.setattr(StudioWindow, "open_window",
                        lambda self, scenario, trace=None: opened.append(
                            StudioWindow(scenario, trace=trace)) or opened[-1])
    try:
        window.state.undo_stack.resetClean()  # as after an edit
        yield window, opened
    finally:
        for other in opened:
            close_window(other)
        close_window(window)


def type_into(qtbot: QtBot, table: QTableView, row: int, col: int, text: str) -> None:
    """Click a cell, press F2, replace its text by typing, press Enter — as a user would."""
    index: QModelIndex = table.model().index(row, col)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(index).center())
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit), f"no cell editor opened, focus is on {editor}"
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    if text:
        qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits on the next turn of the event loop.
    qtbot.waitUntil(lambda: table.state() != QAbstractItemView.State.EditingState, timeout=2000)


def canvas_arrows(window: StudioWindow) -> AttentionArrows:
    frame = window.canvas.frame
    assert frame is not None
    found = frame.items_of(AttentionArrows)
    assert len(found) == 1, f"expected one arrows item on step {window.state.step}"
    return found[0]


def made_from_now(monkeypatch: pytest.MonkeyPatch, kind: type[T]) -> list[T]:
    """Every ``kind`` made from now on, in order."""
    made: list[T] = []
    make = kind.__init__

    def counted(self: T, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        make(self, *args, **kwargs)

    monkeypatch.setattr(kind, "__init__", counted)
    return made


def count_frames(monkeypatch: pytest.MonkeyPatch) -> list[FrameItem]:
    """Every FrameItem built from now on (by the canvas, a check or an export), in order."""
    return made_from_now(monkeypatch, FrameItem)


def asked_to_prepare(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the weights the window's worker is asked to make ready from now on, in
    order (each is still made ready)."""
    asked: list[str] = []
    real = app.canvas.prepared_drawing.prepare_weight

    def noted(weight: MappedWeight, places: int, unembedding: bool = False,
              keeping: Sequence[MappedWeight] = ()) -> None:
        asked.append(weight.name)
        real(weight, places, unembedding, keeping)

    monkeypatch.setattr(app.window.step_weights, "prepare_weight", noted)
    return asked
