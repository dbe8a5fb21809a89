"""What exporters read from the canvas items: arrows as connectors, grids cell by cell, text."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QRectF, QSizeF
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.arrows import AttentionArrows
from app.canvas.cividis import CIVIDIS
from app.canvas.context import LayoutContext
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.view import CanvasView
from app.model.examples import example_path
from engine import Trace, compute, format_number, load_scenario
from engine.scenario.edit import with_parameter
from tests.app.sentences import sentence_scenario


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
    shares = frame.trace.arrays["weights"][0]
    for row, col in ((0, 0), (1, 0), (1, 1)):  # shares span 0 … 1: level = share · 255
        red, green, blue = CIVIDIS[round(float(shares[row, col]) * 255)]
        assert grid.cell_fill(row, col) == f"#{red:02x}{green:02x}{blue:02x}", (row, col)
    assert grid.cell_ink(1, 0) in ("#000000", "#ffffff")
    assert grid.note_text and grid.note_rect().top() > grid.cell_rect(1, 0).bottom()


def test_text_items_tell_their_font_and_colour(qtbot: QtBot) -> None:
    frame = FrameItem(f11(), 0, FrameOptions())
    assert isinstance(frame.heading, TextItem)
    assert frame.heading.text.startswith("Step 1 of 5")
    assert frame.heading.font.bold() and frame.heading.color == "#1a1a1a"


@pytest.mark.parametrize("n", [8, 16])
def test_each_share_label_is_level_with_its_key_box(qtbot: QtBot, n: int) -> None:
    trace = compute(sentence_scenario(n))
    frame = FrameItem(trace, trace.step_index("weights"))
    (arrows,) = frame.items_of(AttentionArrows)
    labelled = [c for c in arrows.connectors() if c.label]
    shares = trace.arrays["weights"][0, n - 1]
    assert [c.label for c in labelled] == [format_number(float(s), 3) for s in shares]
    for key, connector in enumerate(labelled):
        box = arrows.node_rect(arrows.key_anchor(key), left=False)
        assert connector.label_rect.center().y() == pytest.approx(box.center().y()), key
        assert box.right() < connector.label_rect.left() < box.right() + 20
        assert connector.end.y() == pytest.approx(box.center().y())


def digit_height(grid: MatrixGrid) -> float:
    """Height of the printed numbers in sheet pixels (1920×1080): the number font's pixel size
    times the scale the grid is drawn at."""
    return NUMBER_SIZE * grid.sceneTransform().m22()


DOCUMENTS = {"f11": lambda: f11(), "g01": lambda: compute(load_scenario(example_path("g01"))),
             "n8": lambda: compute(sentence_scenario(8)),
             "n16": lambda: compute(sentence_scenario(16))}
SMALLEST_DIGITS = {"f11": 28.0, "g01": 28.0, "n8": 20.0, "n16": 14.0}
"""Issue 11's floors at 1920×1080: 28 px for n ≤ 4, 20 px for n ≤ 8, 14 px for n ≤ 16 (d = 4).
Measured: f11 42.3, g01 34.2, n8 21.0 (19.9 before cells lost 4 units of padding), n16 14.7."""


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_one_type_scale_for_every_step_and_digits_this_tall(qtbot: QtBot, name: str) -> None:
    trace = DOCUMENTS[name]()
    heights = set()
    for step in range(len(trace.steps)):
        frame = FrameItem(trace, step)
        assert frame.boundingRect() == QRectF(0, 0, 1920, 1080)
        heights |= {round(digit_height(g), 3) for g in frame.items_of(MatrixGrid)
                    if g.parentItem() is frame.body}
        body = frame.body.mapRectToParent(frame.body.childrenBoundingRect())
        assert frame.area.adjusted(-1, -1, 1, 1).contains(body), (name, step, "not clipped")
    assert len(heights) == 1, f"{name}: the type size jumps between steps: {heights}"
    assert heights.pop() >= SMALLEST_DIGITS[name]


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The id of each step measured (laid out at every wrap) by the test's own code, the
    composition caches emptied. pytest-qt turns the event loop once the fixtures are made, and
    a canvas an earlier test left to the garbage collector may build its frame then, filling
    the caches (CI once counted an F11 canvas's "mix" so): such canvases are deleted first, and
    only the calls made from this module's code are counted."""
    from app.canvas import compose

    for leftover in QApplication.allWidgets():
        if isinstance(leftover, CanvasView):
            leftover.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    calls: list[str] = []
    real = compose._measure_step

    def counted(ctx: LayoutContext, index: int, area: QSizeF) -> object:
        if any(place.filename == __file__ for place in traceback.extract_stack()[:-1]):
            calls.append(ctx.trace.steps[index].id)
        return real(ctx, index, area)

    monkeypatch.setattr(compose, "_measure_step", counted)
    compose.forget()
    return calls


def test_the_document_scale_is_measured_once_per_shape(qtbot: QtBot, measured: list[str]) -> None:
    trace = f11()
    for step in range(len(trace.steps)):
        FrameItem(trace, step)
    assert measured == [step.id for step in trace.steps], "each step once: a step change reuses"
    wv = np.array([[6.0, 10.0], [5.0, -10.0]])  # V 10 → 11 and its mixes: as many digits
    edited = compute(with_parameter(trace.scenario, "attention.Wv", wv))
    FrameItem(edited, 3)
    assert len(measured) == len(trace.steps), "an edit that keeps every width reuses it too"
    wv[0, 0] = 600.0  # V becomes 3-digit
    wider = compute(with_parameter(trace.scenario, "attention.Wv", wv))
    FrameItem(wider, 3)
    again = measured[len(trace.steps):]
    assert again == ["inputs", "projections", "mix"], "wider Wv, V: the steps showing them"
    wv[0, 0] = 6.0
    FrameItem(compute(with_parameter(trace.scenario, "attention.Wv", wv)), 3)
    assert measured[len(trace.steps) + 3:] == [], "back to the widths before: remembered"


def test_an_edit_that_moves_a_tiny_value_to_another_power_of_ten_keeps_the_layout(
        qtbot: QtBot, measured: list[str]) -> None:
    """Issue 13 item 14: in the n = d = 512 document a one-cell edit of X moved the smallest
    logit from 10⁻⁶ to 10⁻⁵ and re-measured every step (4.7 s); the exponent's digits are as
    wide as before, so the composition is reused."""
    trace = f11()
    x = trace.scenario.X.copy()
    x[0, 0] = 2e-6
    FrameItem(compute(with_parameter(trace.scenario, "X", x)), 0)
    assert len(measured) == len(trace.steps)
    x[0, 0] = 3e-5  # printed 2×10⁻⁶ → 3×10⁻⁵: another exponent, the same width
    FrameItem(compute(with_parameter(trace.scenario, "X", x)), 0)
    assert len(measured) == len(trace.steps), "one edit of X measured a step again"


def test_eight_heads_share_labels_fit_their_boxes(qtbot: QtBot) -> None:
    """Eight heads, the most drawn side by side (more are drawn one at a time): “h8 0.254”
    keeps the padding of the box sized for the widest label (4 units each side)."""
    from app.canvas.theme import text_advance
    from app.window.studio import StudioWindow
    from tests.app.driving import canvas_arrows, close_window
    from tests.bench.timing import attention_scenario

    window = StudioWindow(attention_scenario(4, heads=8, width=2))
    try:
        window.state.set_step(window.state.trace.step_index("weights"))
        arrows = canvas_arrows(window)
        focused = [c for c in arrows.connectors() if c.label]
        assert [c.label for c in focused] == arrows.share_labels
        assert any(c.label.startswith("h8 ") for c in focused)
        for connector in focused:
            assert text_advance(connector.label, 13, bold=True) + 8 <= \
                connector.label_rect.width(), connector.label
    finally:
        close_window(window)
