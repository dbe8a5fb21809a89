"""What exporters read from the canvas items: arrows as connectors, grids cell by cell, text."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.arrows import AttentionArrows
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.examples import example_path
from engine import Trace, compute, load_scenario


def f11() -> Trace:
    return compute(load_scenario(example_path("f11")))


def test_connectors_of_the_f11_receiver_carry_its_shares_and_label_boxes(qtbot: QtBot) -> None:
    frame = FrameItem(f11(), 3)
    (arrows,) = frame.items_of(AttentionArrows)
    labelled = [c for c in arrows.connectors() if c.label]
    assert [c.label for c in labelled] == ["0.804", "0.196"]
    for connector, key in zip(labelled, (0, 1), strict=True):
        assert connector.start == arrows.query_anchor(1)
        assert abs(connector.end.y() - arrows.key_anchor(key).y()) < 1e-9
        assert connector.label_rect.width() > 0 and connector.color.startswith("#")
        assert len(connector.color) == 7
    shares = [float(c.label) for c in labelled]
    widths = [c.width for c in labelled]
    assert widths[0] > widths[1], "the larger share draws the wider arrow"
    assert labelled[0].opacity > labelled[1].opacity
    assert np.isclose(sum(shares), 1.0, atol=1e-3)


def test_a_grid_tells_its_cells_labels_title_and_colours(qtbot: QtBot) -> None:
    frame = FrameItem(f11(), 3)
    grid = next(g for g in frame.items_of(MatrixGrid) if g.spec.title == "shares")
    assert grid.title_text.endswith("2×2")
    assert grid.cell_text(1, 0) == "0.804" and grid.cell_text(1, 1) == "0.196"
    assert grid.cell_rect(1, 1).left() == grid.cell_rect(1, 0).right()
    assert grid.row_label_rect(1).center().y() == grid.cell_rect(1, 0).center().y()
    assert grid.col_label_rect(1).center().x() == grid.cell_rect(0, 1).center().x()
    assert grid.cell_fill(0, 1) == "#b0b0b0", "the masked cell is grey"
    assert grid.cell_ink(1, 0) in ("#000000", "#ffffff")
    assert grid.note_text and grid.note_rect().top() > grid.cell_rect(1, 0).bottom()


def test_text_items_tell_their_font_and_colour(qtbot: QtBot) -> None:
    frame = FrameItem(f11(), 0, FrameOptions())
    assert isinstance(frame.heading, TextItem)
    assert frame.heading.text.startswith("Step 1 of 5")
    assert frame.heading.font.bold() and frame.heading.color == "#1a1a1a"
