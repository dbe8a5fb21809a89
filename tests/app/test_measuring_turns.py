"""A new frame's layout search spread over turns of the event loop (issue 37 item 4): the
window's canvas measures steps for a turn's time, leaves the rest to the next turns with the
frame before it on screen, and shows in the end the frame one build in one go lays out."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

import app.canvas.view
import app.state.big
from app.canvas import compose
from app.canvas.context import LayoutContext
from app.canvas.frame import FrameItem
from app.canvas.measuring_turn import Unmeasured
from app.window.studio import StudioWindow
from tests.app.driving import close_window, open_window
from tests.app.test_open_speed import built_grids


def on_screen(window: StudioWindow) -> list[FrameItem]:
    """The frames the canvas's view holds (without building one asked for)."""
    return [item for item in window.canvas.view_box.addedItems if isinstance(item, FrameItem)]


def unmeasured_builds(window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> list[FrameItem]:
    """The frame on screen at each build of the canvas left to a later turn, from now on."""
    shown: list[FrameItem] = []
    real = app.canvas.view.FrameItem

    def built(*args: Any, **kwargs: Any) -> FrameItem:
        try:
            return real(*args, **kwargs)
        except Unmeasured:
            shown.extend(on_screen(window))
            raise

    monkeypatch.setattr(app.canvas.view, "FrameItem", built)
    return shown


def test_a_new_frame_is_measured_a_step_a_turn(
        g01: StudioWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A window narrowed past the middle between 16:9 and 4:3 composes its frame for the
    other sheet once the event loop turns: with nothing measured, every step, and with no time
    in a turn, one a turn, the 16:9 frame on screen meanwhile; the frame shown is the one
    built in one go."""
    canvas = g01.canvas
    qtbot.waitUntil(lambda: bool(on_screen(g01)), timeout=3000)  # the window's first frame
    monkeypatch.setattr(app.canvas.view, "MEASURING_TURN_MS", 0)
    before = on_screen(g01)[0]
    shown_meanwhile = unmeasured_builds(g01, monkeypatch)
    measured: list[str] = []
    measure = compose._measured

    def measured_whole(ctx: LayoutContext, *args: Any) -> compose.Fits:
        found = measure(ctx, *args)
        measured.append(ctx.trace.steps[args[1]].id)
        return found

    monkeypatch.setattr(compose, "_measured", measured_whole)
    compose.forget()
    assert before.options.aspect == "16:9"
    g01.resize(900, 900)
    qtbot.waitUntil(lambda: on_screen(g01)[0].options.aspect == "4:3", timeout=5000)
    shown = on_screen(g01)[0]
    step = shown.step_index
    steps = len(g01.state.trace.steps)
    assert sorted(measured) == sorted(s.id for s in g01.state.trace.steps), "each step once"
    assert shown_meanwhile == [before] * (steps - 1)
    compose.forget()
    whole = FrameItem(shown.trace, step, shown.options, screen=canvas.viewport().height())
    assert shown.composition == whole.composition
    assert shown.picture_scale == whole.picture_scale


def test_a_frame_asked_for_is_built_whole_at_once(
        g01: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """The frame asked for (a test, an export of the view) is built now, every step it
    needs measured, however long that takes."""
    monkeypatch.setattr(app.canvas.view, "MEASURING_TURN_MS", 0)
    compose.forget()
    g01.resize(900, 900)
    QApplication.sendPostedEvents()  # the resize reaches the canvas, which asks for a frame
    frame = g01.canvas.frame
    assert isinstance(frame, FrameItem) and frame.options.aspect == "4:3"
    assert on_screen(g01) == [frame]


def test_a_big_documents_step_shows_its_grids_then_its_frame_at_the_next_turn(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every document is big here (``BIG_CELLS = 0``): stepping into layer 3 builds its first
    grid at once, and its frame, fitted to the canvas those grids leave, at the next turn."""
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    window = open_window(qtbot, "three-layers")
    try:
        qtbot.waitUntil(lambda: bool(on_screen(window)), timeout=3000)
        before = on_screen(window)
        step = window.state.trace.step_index("L3.norm1")
        window.state.set_step(step)
        assert "layers.2.attention.Wq" in built_grids(window)
        assert on_screen(window) == before, "drawn once the event loop turns"
        qtbot.waitUntil(lambda: on_screen(window)[0].step_index == step, timeout=3000)
        frame = on_screen(window)[0]
        assert frame.options.aspect == window.canvas.aspect()
        assert window.canvas.fitted
    finally:
        close_window(window)


def test_a_search_spread_over_too_many_turns_is_finished_whole(
        g01: StudioWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A layout search is spread over at most :data:`~app.canvas.view.MEASURING_TURNS` turns,
    then built whole: a search measuring more steps than the caches keep would otherwise lose
    its first measures and never end (here two turns, then the rest of G01's steps at once)."""
    qtbot.waitUntil(lambda: bool(on_screen(g01)), timeout=3000)
    monkeypatch.setattr(app.canvas.view, "MEASURING_TURN_MS", 0)
    monkeypatch.setattr(app.canvas.view, "MEASURING_TURNS", 2)
    before = on_screen(g01)[0]
    turns_left: list[int] = []  # the turns each build left unmeasured had had before it
    real = app.canvas.view.FrameItem

    def built(*args: Any, **kwargs: Any) -> FrameItem:
        try:
            return real(*args, **kwargs)
        except Unmeasured:
            assert on_screen(g01) == [before], "the frame before it on screen meanwhile"
            turns_left.append(g01.canvas._turns)
            raise

    monkeypatch.setattr(app.canvas.view, "FrameItem", built)
    compose.forget()
    g01.resize(900, 900)
    qtbot.waitUntil(lambda: on_screen(g01)[0].options.aspect == "4:3", timeout=5000)
    # a loaded machine may deliver the resize as several requests, each counted from its first
    # turn: the last one had two turns, then was built whole
    assert turns_left[-2:] == [0, 1] and all(turns < 2 for turns in turns_left)
