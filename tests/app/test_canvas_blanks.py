"""Blanks (issue 26): the cells an exercise hides draw empty — no number, no colour, no hover
arithmetic — in every grid of their array, and nothing else changes."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import Blanks, FrameOptions, build_frame_scene
from app.canvas.grid import MatrixGrid
from engine import compute, parse_scenario
from engine.exercises.fit import hidden_masks
from tests.examples import EXAMPLES


def grids(trace: Any, step: int, options: FrameOptions) -> dict[str, MatrixGrid]:
    _scene, frame = build_frame_scene(trace, step, options)
    return {name: grid for name, grid in frame.context.made}


def test_blanks_hide_exactly_their_cells(qtbot: QtBot) -> None:
    doc = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc["exercises"] = [{"title": {"en": "t", "zh": "t"}, "prompt": {"en": "p", "zh": "p"},
                         "kind": "fill", "step": "weights",
                         "hide": [{"array": "Q", "cells": [[1, 0]]}, {"array": "weights"}]}]
    scenario = parse_scenario(doc)
    trace = compute(scenario)
    blanks = Blanks(hidden_masks(trace, scenario.exercises[0]))
    plain, blank = FrameOptions(), FrameOptions(blanks=blanks)
    for step in (1, 2, 3):  # Q is drawn at the projections and read by the scores
        before, after = grids(trace, step, plain), grids(trace, step, blank)
        for name, grid in after.items():
            rows, cols = grid.spec.values.shape
            shown = [[grid.cell_text(r, c) for c in range(cols)] for r in range(rows)]
            was = [[before[name].cell_text(r, c) for c in range(cols)] for r in range(rows)]
            hidden = {(r, c) for r in range(rows) for c in range(cols) if shown[r][c] == ""}
            if name == "Q":
                assert hidden == {(1, 0)} and was[1][0] == "2"
                assert grid.cell_fill(1, 0) == grid.theme.color("background").name()
                assert grid.cell_fill(1, 1) == before[name].cell_fill(1, 1)
            elif name == "weights":
                # The masked share stays drawn masked; the three others are asked.
                assert hidden == {(0, 0), (1, 0), (1, 1)} and shown[0][1] == "0"
            else:
                assert hidden == set() and shown == was, name
    weights = grids(trace, 3, blank)["weights"]
    assert weights.spec.asked is not None and np.array_equal(
        weights.spec.asked, [[True, False], [True, True]])


def test_hovering_a_blank_explains_nothing(qtbot: QtBot) -> None:
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QGraphicsSceneHoverEvent

    doc = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc["exercises"] = [{"title": {"en": "t", "zh": "t"}, "prompt": {"en": "p", "zh": "p"},
                         "kind": "fill", "step": "projections",
                         "hide": [{"array": "Q", "cells": [[1, 0]]}]}]
    scenario = parse_scenario(doc)
    trace = compute(scenario)
    options = FrameOptions(blanks=Blanks(hidden_masks(trace, scenario.exercises[0])))
    scene, frame = build_frame_scene(trace, 1, options)  # the scene keeps its grids alive
    q = dict(frame.context.made)["Q"]
    tips = []
    for cell in ((1, 0), (1, 1)):
        event = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverMove)
        event.setPos(q.cell_rect(*cell).center())
        q.hoverMoveEvent(event)
        tips.append(q.toolTip())
    assert tips[0] == ""  # Q[1,0] = 2 would be given away
    assert tips[1].startswith("Q[1,1] = X[1,0]·Wq[0,1] + X[1,1]·Wq[1,1]")
    assert scene.items()
