"""A frame's footer names what the step reads and writes in one numbering: the trace's 1-based
layers (``L2.mixed``), and a parameter by the same name (``L2.Wo``, not the document path
``layers.1.attention.Wo``)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.frame import HEADER_GAP
from app.canvas.layout import TextItem
from app.model.examples import example_path
from engine import compute, load_scenario


def footer(name: str, step_id: str, lang: str = "en") -> str:
    trace = compute(load_scenario(example_path(name)))
    item = FrameItem(trace, trace.step_index(step_id), FrameOptions(lang=lang))
    (line,) = [t.text for t in item.items_of(TextItem) if t.text.startswith(("reads", "读"))]
    return line


def test_a_second_layers_footer_numbers_its_parameters_as_its_arrays(qtbot: QtBot) -> None:
    line = footer("three-layers", "L2.mix")
    assert line == "reads: L2.weights, L2.V, L2.Wo     writes: L2.mixed, L2.attn_out"
    assert "layers." not in footer("three-layers", "L3.ffn")
    assert "L3.W1, L3.W2" in footer("three-layers", "L3.ffn")


def test_the_encoders_and_cross_attentions_parameters_keep_their_scope(qtbot: QtBot) -> None:
    assert "enc.L1.Wq, enc.L1.Wk, enc.L1.Wv" in footer("encoder-decoder", "enc.L1.projections")
    assert "L1.cross.Wk, L1.cross.Wv" in footer("encoder-decoder", "L1.cross.projections")


def test_a_single_layers_footer_names_parameters_as_its_grids_do(qtbot: QtBot) -> None:
    assert footer("g01", "norm1") == "reads: X, γ1, β1     writes: norm1"


def _footer_and_picture(frame: FrameItem) -> tuple[TextItem, float]:
    (line,) = [t for t in frame.items_of(TextItem) if t.text.startswith("reads")]
    picture = frame.mapRectFromItem(frame.body, frame.body.boundingRect())
    return line, picture.top()


def test_a_frame_alone_puts_its_footer_on_the_headings_line(qtbot: QtBot) -> None:
    """Presented alone, G01's mix frame writes its footer at the right end of the heading's line
    (above the map, right of the heading), and its picture gets the line gained and the thin
    margin of a frame alone (never drawn smaller); at the document's one scale the footer stays
    at the bottom of the sheet, 40 units from its edge."""
    trace = compute(load_scenario(example_path("g01")))
    k = trace.step_index("mix")
    options = FrameOptions(worked_row=True)
    alone = FrameItem(trace, k, options, alone=True)
    line, top = _footer_and_picture(alone)
    box = line.mapRectToParent(line.boundingRect())
    heading = alone.heading.mapRectToParent(alone.heading.boundingRect())
    assert box.left() > heading.right() and box.bottom() <= heading.bottom() + 1e-6
    assert box.right() == alone.boundingRect().width() - 16.0  # a frame alone's thin margin
    assert alone.route_map is not None
    assert box.bottom() < alone.route_map.mapRectToParent(alone.route_map.boundingRect()).top()
    assert box.bottom() < top
    shared = FrameItem(trace, k, options)
    line, _top = _footer_and_picture(shared)
    footer = line.mapRectToParent(line.boundingRect())
    assert footer.bottom() == 1080.0 - 40.0
    assert alone.area.bottom() == pytest.approx(1080.0 - 16.0 - HEADER_GAP)
    assert shared.area.bottom() == pytest.approx(footer.top() - HEADER_GAP)
    assert alone.picture_scale >= shared.picture_scale
