"""Properties of documents: any mutated file is opened or refused cleanly (command line and
window), and random edits, resizes, undos and redos in the window match a replay of the same
effective edits."""

from __future__ import annotations

import contextlib
import copy
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app import cli
from app.model.examples import example_names
from app.window.studio import StudioWindow
from engine import ScenarioError, parse_scenario
from engine.format.writer import to_document
from engine.scenario.edit import with_parameter
from engine.scenario.resize import Sizes, resize
from tests.app.documents_support import example_document, patch_open_dialog
from tests.app.driving import Dialogs, close_window, open_window, type_into

BASES = {name: example_document(name) for name in example_names()}
Path_ = tuple[str | int, ...]
QUIET = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
         HealthCheck.data_too_large]

JUNK: list[object] = [
    None, True, False, 0, -1, 0.5, 2**31, 10**30, 10**400, -1e308, 1e-320, float("nan"),
    float("inf"), float("-inf"), "", "1", "abc", "a\nb", "\u2028", "relu", [], [[]], [1, 2],
    [[1, "2"]], [None], {}, {"x": 1}, [[0.5] * 300] * 300, [0.25] * 5000,
]
NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**40, 10**40),
                    st.sampled_from([10**400, -0.0, 1e308, 5e-324]))


def all_paths(node: object, prefix: Path_ = ()) -> list[Path_]:
    found: list[Path_] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found += [(*prefix, key), *all_paths(value, (*prefix, key))]
    elif isinstance(node, list):
        for k, value in enumerate(node):
            found += [(*prefix, k), *all_paths(value, (*prefix, k))]
    return found


@st.composite
def mutated_files(draw: st.DrawFn) -> bytes:
    """A built-in example, changed as JSON (keys deleted, types swapped, odd numbers) and then
    perhaps as text (truncated, random bytes)."""
    doc: Any = copy.deepcopy(BASES[draw(st.sampled_from(sorted(BASES)))])
    for _ in range(draw(st.integers(0, 3))):
        paths = all_paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        kind = draw(st.sampled_from(["delete", "swap_type", "number", "unknown_key"]))
        if kind == "delete":
            del parent[key]
        elif kind == "swap_type":
            parent[key] = copy.deepcopy(draw(st.sampled_from(JUNK)))
        elif kind == "number":
            parent[key] = draw(NUMBERS)
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["__class__", "eval", "", "Wq "]))] = 1
    text = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    damage = draw(st.sampled_from(["none", "none", "truncate", "bytes", "insert"]))
    if damage == "truncate":
        text = text[:draw(st.integers(0, max(0, len(text) - 1)))]
    elif damage == "bytes":
        text = draw(st.binary(max_size=200))
    elif damage == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(min_size=1, max_size=8)) + text[at:]
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=QUIET)
@given(mutated_files())
def test_compute_on_a_mutated_file_succeeds_or_refuses_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    path = tmp_path / "fuzz.qkv.json"
    path.write_bytes(data)
    status = cli.main(["compute", str(path)])
    out, err = capsys.readouterr()
    assert status in (0, 2)
    if status == 0:
        assert set(json.loads(out)) >= {"arrays", "steps"} and err == ""
    else:
        assert out == "" and err.startswith("qkv-studio: ")
        assert err.count("\n") == 1 and "Traceback" not in err


@settings(max_examples=25, deadline=None, suppress_health_check=QUIET)
@given(mutated_files())
def test_file_open_on_a_mutated_file_opens_it_or_refuses_and_changes_nothing(
        window: StudioWindow, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    path = tmp_path / "fuzz.qkv.json"
    path.write_bytes(data)
    patch_open_dialog(monkeypatch, path)
    dialogs.shown.clear()
    state = window.state
    scenario, stack, count = state.scenario, state.undo_stack, state.undo_stack.count()
    window.open_dialog()
    if state.scenario is scenario:
        assert len(dialogs.shown) == 1
        kind, title, text = dialogs.shown[0]
        assert (kind, title) == ("warning", "Cannot open")
        assert text.startswith(f"{path} was not opened:\n") and len(text.splitlines()) == 2
        assert state.undo_stack is stack and stack.count() == count
    else:
        assert dialogs.shown == [] and state.path == path
        assert not window.isWindowModified()


# -- random editing --------------------------------------------------------------------------
GRIDS = ("X", "attention.Wq", "attention.Wk", "attention.Wv")
SIZE_RANGES = {"n": (1, 4), "d": (1, 3), "d_k": (1, 3), "d_v": (1, 3), "heads": (1, 2)}
VALUES = ("0", "1", "-2", "0.5", "3")

EDITS = st.tuples(st.just("edit"), st.sampled_from(GRIDS), st.floats(0, 0.999),
                  st.floats(0, 0.999), st.sampled_from(VALUES))
RESIZES = st.sampled_from(sorted(SIZE_RANGES)).flatmap(
    lambda key: st.tuples(st.just("resize"), st.just(key), st.integers(*SIZE_RANGES[key])))
ACTIONS = st.lists(st.one_of(EDITS, EDITS, RESIZES, st.just(("undo",)), st.just(("redo",))),
                   min_size=1, max_size=8)


@dataclass
class Command:
    after: dict[str, Any]
    cell: tuple[str, int, int] | None


class Replay:
    """The effective edits, replayed without the window: an undo stack of whole documents that
    merges repeated typing into one cell, as the window's does (typing that goes on: an undo
    or redo that takes a step back or again ends it)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.start = document
        self.commands: list[Command] = []
        self.index = 0
        self.typing = False

    def current(self) -> dict[str, Any]:
        return self.commands[self.index - 1].after if self.index else self.start

    def push(self, after: dict[str, Any], cell: tuple[str, int, int] | None = None) -> None:
        top = self.commands[self.index - 1] if self.index else None
        del self.commands[self.index:]
        typing, self.typing = self.typing, cell is not None
        if typing and cell is not None and top is not None and top.cell == cell:
            top.after = after
            return
        self.commands.append(Command(after, cell))
        self.index += 1

    def edit(self, path: str, row: int, col: int, value: float) -> None:
        scenario = parse_scenario(self.current())
        array = scenario.parameter(path).copy()
        if array[row, col] == value:
            return
        array[row, col] = value
        self.push(to_document(with_parameter(scenario, path, array)), (path, row, col))

    def resize(self, key: str, value: int) -> None:
        scenario = parse_scenario(self.current())
        sizes = Sizes.of(scenario)
        wanted = replace(sizes, **{key: value})
        if wanted == sizes:
            return
        with contextlib.suppress(ScenarioError):  # the window refuses it the same way
            self.push(to_document(parse_scenario(resize(scenario, wanted).document)))

    def undo(self) -> None:
        self.index = max(0, self.index - 1)
        self.typing = False

    def redo(self) -> None:
        if self.index < len(self.commands):  # nothing to redo: typing goes on, as the window's
            self.index += 1
            self.typing = False


def set_size(qtbot: QtBot, window: StudioWindow, key: str, value: int) -> None:
    """Type a size into its spin box and press Enter."""
    spin = window.editor.size_boxes[key]
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Return)


@settings(max_examples=15, deadline=None, suppress_health_check=QUIET)
@given(ACTIONS)
@example([("edit", "attention.Wk", 0.0, 0.0, "1"), ("undo",), ("redo",),  # a redo ends typing
          ("edit", "attention.Wk", 0.0, 0.0, "0"), ("undo",)])
@example([("edit", "X", 0.0, 0.0, "0"), ("resize", "heads", 2),  # nothing to redo: it goes on
          ("edit", "attention.Wq", 0.0, 0.5, "1"), ("redo",),
          ("edit", "attention.Wq", 0.0, 0.5, "0"), ("undo",)])
def test_random_edits_resizes_undos_and_redos_match_a_replay(qtbot: QtBot, dialogs: Dialogs,
                                                              actions: list[tuple[Any, ...]],
                                                              ) -> None:
    dialogs.answer = QMessageBox.StandardButton.Yes  # drop numbers when a size shrinks
    window = open_window(qtbot)
    replay = Replay(to_document(window.state.scenario))
    ctrl = Qt.KeyboardModifier.ControlModifier
    try:
        for action in actions:
            if action[0] == "edit":
                _kind, path, row_at, col_at, text = action
                rows, cols = window.editor.tables[path].model().rowCount(), \
                    window.editor.tables[path].model().columnCount()
                row, col = int(row_at * rows), int(col_at * cols)
                type_into(qtbot, window.editor.tables[path], row, col, text)
                replay.edit(path, row, col, float(text))
            elif action[0] == "resize":
                set_size(qtbot, window, action[1], action[2])
                replay.resize(action[1], action[2])
            elif action[0] == "undo":
                qtbot.keyClick(window.canvas, Qt.Key.Key_Z, ctrl)
                replay.undo()
            else:
                shift = Qt.KeyboardModifier.ShiftModifier
                qtbot.keyClick(window.canvas, Qt.Key.Key_Z, ctrl | shift)
                replay.redo()
            expected = to_document(parse_scenario(replay.current()))
            assert to_document(window.state.scenario) == expected, action
            assert window.isWindowModified() == (replay.index != 0)
    finally:
        close_window(window)
