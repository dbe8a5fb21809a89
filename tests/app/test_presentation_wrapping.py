"""Arrangements a frame alone on its screen (F5) takes when its picture would wrap: a product in
the corner, RoPE in columns with narrow dials, the probabilities' bars in one row under the
logits. Each lets the numbers reach the back row's target (issue 23, item 1)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSizeF
from pytestqt.qtbot import QtBot

from app.canvas.bars import ProbabilityBars
from app.canvas.compose import Group, lay_out
from app.canvas.context import FrameOptions, LayoutContext
from app.canvas.corner import CornerProduct
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.position_pictures import RotationDial
from app.canvas.theme import SLIDE
from app.canvas.vocab_steps import COMPACT_BAR
from tests.app.legibility import smallest_number
from tests.examples import trace_of

SCREENS = {"4:3": (768, 14.0), "16:9": (1080, 24.0)}
"""Each presentation sheet's screen height (1024 × 768, 1920 × 1080) and its digit target."""


def presented(name: str, step_id: str, aspect: str) -> FrameItem:
    """Step ``step_id`` of example ``name`` as presentation lays it out, alone on its sheet."""
    trace = trace_of(name)
    return FrameItem(trace, trace.step_index(step_id),
                     FrameOptions(aspect=aspect, theme=SLIDE, worked_row=trace.scenario.n <= 4),
                     alone=True)


def pixels(frame: FrameItem, aspect: str) -> float:
    """The frame's smallest digit on its screen (a 1080-unit sheet fitted to the screen)."""
    lines, _target = SCREENS[aspect]
    return smallest_number(frame).pixels * lines / frame.boundingRect().height()


def grid(frame: FrameItem, title: str) -> MatrixGrid:
    return next(g for g in frame.items_of(MatrixGrid) if g.spec.title.startswith(title))


@pytest.mark.parametrize("aspect", list(SCREENS))
def test_pronouns_scores_sit_in_the_corner_of_q_and_k(qtbot: QtBot, aspect: str) -> None:
    """Q · Kᵀ = scores for ten words: Kᵀ above the scores, each of its columns over the
    scores' column of the same key, Q level with them, each row beside its score row, and the
    sentence that says so; drawn at the back row's target (18.7 px at 1920 × 1080 on one
    line wrapped, 13.3 at 1024 × 768)."""
    frame = presented("pronoun", "scores", aspect)
    (corner,) = frame.items_of(CornerProduct)
    q, keys, scores = grid(frame, "Q"), grid(frame, "Kᵀ"), grid(frame, "scores")
    assert keys.spec.col_labels == scores.spec.col_labels == q.spec.row_labels
    for j in range(10):
        above = keys.mapRectToScene(keys.cell_rect(1, j))
        below = scores.mapRectToScene(scores.cell_rect(0, j))
        assert above.left() == pytest.approx(below.left()) and above.bottom() < below.top()
    for i in range(10):
        left = q.mapRectToScene(q.cell_rect(i, 1))
        row = scores.mapRectToScene(scores.cell_rect(i, 0))
        assert left.center().y() == pytest.approx(row.center().y()) and left.right() < row.left()
    assert " ".join(t.text for t in corner.notes) == \
        "each cell of a result = its row on the left · its column above"
    assert pixels(frame, aspect) >= SCREENS[aspect][1]


def test_the_corner_is_only_for_a_product_that_would_wrap(qtbot: QtBot) -> None:
    """Laid out naturally (the window's first choice) the scores step is one row, Q · Kᵀ =
    scores; so is the one-head F11's, alone on a 16:9 sheet."""
    trace = trace_of("pronoun")
    group = Group()
    lay_out(LayoutContext(trace, FrameOptions()), trace.step_index("scores"), group, None,
            QSizeF(1840, 870))
    assert not [item for item in group.childItems() if isinstance(item, CornerProduct)]
    assert not presented("f11", "scores", "16:9").items_of(CornerProduct)


@pytest.mark.parametrize("aspect", list(SCREENS))
def test_pronouns_projections_put_the_weights_above_q_k_and_v(qtbot: QtBot,
                                                                aspect: str) -> None:
    """X · Wq = Q, X · Wk = K, X · Wv = V: the weights in a band above their results, X level
    with them (13.2 px at 1024 × 768 and 20.1 at 1920 × 1080 before)."""
    frame = presented("pronoun", "projections", aspect)
    assert len(frame.items_of(CornerProduct)) == 1
    x = grid(frame, "X")
    for name in "QKV":
        weight, result = grid(frame, f"W{name.lower()}"), grid(frame, f"{name} = X·")
        assert weight.sceneBoundingRect().bottom() < result.sceneBoundingRect().top()
        assert result.mapRectToScene(result.cell_rect(0, 0)).left() == pytest.approx(
            weight.mapRectToScene(weight.cell_rect(0, 0)).left())
        assert result.sceneBoundingRect().top() == pytest.approx(x.sceneBoundingRect().top())
    assert pixels(frame, aspect) >= SCREENS[aspect][1]


@pytest.mark.parametrize("aspect", list(SCREENS))
def test_ropes_dials_print_each_pair_on_two_lines_while_wrapping(qtbot: QtBot,
                                                                 aspect: str) -> None:
    """Alone on its screen RoPE's dials are narrower: the pair (1, 0) → (−0.416, 0.909) and
    the angle p·θ₀ = 2·1 = 2 rad each on two lines, the dial's lines unchanged; its numbers
    reach the target (12.1 px at 1024 × 768 and 19.6 at 1920 × 1080 before)."""
    frame = presented("rope", "rope", aspect)
    dial = frame.items_of(RotationDial)[0]
    assert dial.lines == ["p·θ₀ = 2·1 = 2 rad", "= 114.592°", "(1, 0) → (−0.416, 0.909)"]
    drawn = [t.text for t in dial.childItems() if isinstance(t, TextItem)]
    assert drawn == ["p·θ₀ = 2·1", "= 2 rad", "= 114.592°", "(1, 0) →", "(−0.416, 0.909)"]
    assert pixels(frame, aspect) >= SCREENS[aspect][1]
    trace = trace_of("rope")
    group = Group()
    lay_out(LayoutContext(trace, FrameOptions()), trace.step_index("rope"), group, None,
            QSizeF(1840, 870))
    natural = next(item for item in group.childItems() if not isinstance(item, MatrixGrid)
                   and item.childItems() and isinstance(item.childItems()[-1], RotationDial))
    first = natural.childItems()[-1]
    assert isinstance(first, RotationDial)
    assert [t.text for t in first.childItems() if isinstance(t, TextItem)] == first.lines


def test_trainings_probabilities_are_one_row_of_bars_under_the_logits(qtbot: QtBot) -> None:
    """At 1920 × 1080 the four positions' bars sit side by side, shorter, under the logits
    (two rows of two beside them: 22.0 px before)."""
    frame = presented("training", "probs", "16:9")
    (bars,) = frame.items_of(ProbabilityBars)
    assert bars.spec.columns == 4 and bars.spec.bar_length == COMPACT_BAR
    assert bars.values[(3, 3)] == "0.993"
    assert bars.sceneBoundingRect().top() > grid(frame, "logits").sceneBoundingRect().bottom()
    assert pixels(frame, "16:9") >= 24.0
