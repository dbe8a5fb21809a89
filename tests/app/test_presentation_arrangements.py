"""How a frame alone (presentation, Zoom to the step) arranges its picture to be largest: rows
after a source as columns or around it, the FFN as one chain, the worked row in a corner, the
footer on the subtitle's line; the document's one scale (window, exports) keeps its layouts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem
from pytestqt.qtbot import QtBot

from app.canvas.bars import TEXT_SIZE, ProbabilityBars
from app.canvas.compose import forget
from app.canvas.context import FrameOptions
from app.canvas.frame import HEADER_GAP, FrameItem
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.worked_row import WorkedRow
from app.model.examples import example_path
from engine import Trace, compute, load_scenario

SCREENS = {"4:3": 768, "16:9": 1080}
"""The sheet of each projector screen the tests present on, and its height in lines."""


def trace_of(name: str) -> Trace:
    return compute(load_scenario(example_path(name)))


def presented(trace: Trace, step_id: str, aspect: str) -> FrameItem:
    """``trace``'s step laid out alone for a screen of ``aspect``, with the worked row."""
    return FrameItem(trace, trace.step_index(step_id),
                     FrameOptions(aspect=aspect, worked_row=True), alone=True,
                     screen=SCREENS[aspect])


def box(frame: FrameItem, item: QGraphicsItem) -> QRectF:
    """Where ``item`` lies in the frame's picture (its unscaled units)."""
    return frame.body.mapRectFromItem(item, item.boundingRect())


def grids(frame: FrameItem) -> dict[str, QRectF]:
    return {grid.spec.title: box(frame, grid) for grid in frame.items_of(MatrixGrid)}


@pytest.mark.parametrize("aspect", list(SCREENS))
def test_the_projections_of_a_frame_alone_stand_in_columns_under_the_rows(
        qtbot: QtBot, aspect: str) -> None:
    """Multihead's projections presented: X on top, then Wq, Wk and Wv side by side with
    = Q, = K and = V under each (they were stacked beside X, three 6-row grids tall); at the
    document's one scale they keep their rows, Wv's under Wq's."""
    mh = trace_of("multihead")
    frame = presented(mh, "projections", aspect)
    assert frame.composition.rows_after == "columns"
    at = grids(frame)
    weights = [at["Wq"], at["Wk"], at["Wv"]]
    assert all(w.top() == at["Wq"].top() > at["X"].bottom() for w in weights)
    assert weights[0].right() < weights[1].left() and weights[1].right() < weights[2].left()
    for weight, out in zip(weights, ("Q = X·Wq", "K = X·Wk", "V = X·Wv"), strict=True):
        assert at[out].top() > weight.bottom()
        assert weight.left() < at[out].left() < weight.right()
    shared = FrameItem(mh, mh.step_index("projections"), FrameOptions(aspect=aspect))
    assert shared.composition.rows_after == "beside"
    assert grids(shared)["Wv"].top() > grids(shared)["Wq"].bottom()


def test_the_cross_attentions_keys_sit_beside_the_memory_and_its_values_under_it(
        qtbot: QtBot) -> None:
    """Encoder-decoder's cross-attention projections presented on a 4:3 screen: memory · Wk = K
    on one line (Wk beside the memory, where it fits), Wv = V under the memory."""
    frame = presented(trace_of("encoder-decoder"), "L1.cross.projections", "4:3")
    assert frame.composition.rows_after == "around"
    at = grids(frame)
    memory = at["encoder memory"]
    assert at["Wk"].top() == memory.top() and at["Wk"].left() > memory.right()
    assert at["Wv"].left() == memory.left() and at["Wv"].top() > memory.bottom()
    assert at["V = memory·Wv"].top() == at["Wv"].top()


def _hidden_grids(frame: FrameItem) -> int:
    return sum(grid.spec.title.startswith("hidden") for grid in frame.items_of(MatrixGrid))


def test_a_wrapped_ffn_draws_its_hidden_units_once(qtbot: QtBot) -> None:
    """Encoder-decoder's decoder FFN wraps on a 4:3 screen into one chain, norm · W1 = z
    → relu → hidden · W2 = out (hidden drawn once), each operator that starts a line level with
    the middle of the cells of the grid it leads; G01's natural FFN picture keeps its two rows,
    the second starting from hidden again."""
    ed = trace_of("encoder-decoder")
    frame = presented(ed, "L1.ffn", "4:3")
    assert frame.composition.wraps[ed.step_index("L1.ffn")] is not None
    assert _hidden_grids(frame) == 1
    at = grids(frame)
    assert at["z = norm·W1"].top() > at["W1"].bottom()
    assert at["W2"].top() > at["hidden = relu(z)"].bottom()
    cells = {grid.spec.title: grid for grid in frame.items_of(MatrixGrid)}
    for title in ("z = norm·W1", "W2"):
        grid = cells[title]
        middle = grid.mapRectToItem(frame.body, grid.cell_rect(0, 0).united(
            grid.cell_rect(len(grid.spec.values) - 1, 0))).center().y()
        (lead,) = [t for t in frame.body.childItems() if isinstance(t, TextItem)
                   and box(frame, t).right() < box(frame, grid).left()
                   and box(frame, t).top() > box(frame, grid).top()
                   and box(frame, t).bottom() < box(frame, grid).bottom()]
        assert box(frame, lead).center().y() == pytest.approx(middle, abs=14), title
    g01 = trace_of("g01")
    natural = FrameItem(g01, g01.step_index("ffn"), FrameOptions())
    assert natural.composition.wraps[g01.step_index("ffn")] is None
    assert _hidden_grids(natural) == 2


def test_the_worked_row_tucks_beside_the_heads_rows(qtbot: QtBot) -> None:
    """Three-layers' mix presented on a 4:3 screen: the worked row sits in the picture's top
    right corner, right of the two heads' rows and above the concatenation (which runs under
    it), its title on two lines after the colon."""
    tl = trace_of("three-layers")
    frame = presented(tl, "L1.mix", "4:3")
    row = frame.worked_row
    assert isinstance(row, WorkedRow)
    panel = box(frame, row)
    at = grids(frame)
    assert panel.top() == 0.0 and panel.left() > at["mixed · head 1"].right()
    assert panel.bottom() < at["Wo"].top() and panel.left() < at["output · width 4"].right()
    assert [t.text for t in row.childItems() if isinstance(t, TextItem)][:2] == [
        "Worked row for “你”, head 1:", "the mix of V"]


def test_the_footer_of_a_frame_alone_may_end_the_subtitles_line(qtbot: QtBot) -> None:
    """Encoder-decoder's decoder FFN: its heading leaves no room for the footer and the map has
    a line of its own, so presented the footer ends the subtitle's line and the picture gets
    the footer's line (and the thin margin of a frame alone); at the document's one scale it
    stays at the bottom."""
    ed = trace_of("encoder-decoder")
    alone = presented(ed, "L1.ffn", "16:9")
    shared = FrameItem(ed, ed.step_index("L1.ffn"), FrameOptions(worked_row=True))
    lines = {}
    for frame in (alone, shared):
        texts = [t for t in frame.childItems() if isinstance(t, TextItem)]
        heading, subtitle = texts[0], texts[1]
        (footer,) = [t for t in texts if t.text.startswith("reads")]
        lines[frame] = (box_in(frame, heading), box_in(frame, subtitle), box_in(frame, footer))
    heading, subtitle, footer = lines[alone]
    assert footer.bottom() == subtitle.bottom() and footer.left() > subtitle.right()
    assert footer.right() == 1920 - 16 and heading.right() + 36 > footer.left()
    assert alone.route_map is not None
    assert box_in(alone, alone.route_map).top() > subtitle.bottom()
    assert lines[shared][2].bottom() == 1080 - 40
    assert alone.area.bottom() == pytest.approx(1080 - 16 - HEADER_GAP)
    assert shared.area.bottom() == pytest.approx(lines[shared][2].top() - HEADER_GAP)


def box_in(frame: FrameItem, item: QGraphicsItem) -> QRectF:
    """Where ``item`` lies on the sheet."""
    return frame.mapRectFromItem(item, item.boundingRect())


def test_the_probabilities_print_at_the_size_of_the_logits(qtbot: QtBot) -> None:
    """The probabilities step's bars print their numbers at the grids' number size (they were
    13 px beside 17 px logits)."""
    forget()
    tl = trace_of("three-layers")
    frame = FrameItem(tl, tl.step_index("probs"), FrameOptions())
    (bars,) = frame.items_of(ProbabilityBars)
    assert bars.spec.text_size == NUMBER_SIZE > TEXT_SIZE
    printed = [t for t in bars.childItems() if isinstance(t, TextItem) and t.text == "0.528"]
    assert printed and all(t.font.pixelSize() == NUMBER_SIZE for t in printed)
