"""Numbers a back row can read: presentation lays each frame out for its screen, the worked row
never shrinks a step without one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.theme import SLIDE
from app.canvas.view import CanvasView
from app.canvas.worked_row import MAX_POSITIONS, WORKED_STAGES
from app.model.examples import example_path
from app.window.presentation import PresentationView
from engine import Trace, compute, load_scenario
from tests.app.legibility import sheet_words_height, smallest_number

EXAMPLES = ("f11", "g01", "encoder-decoder", "multihead", "norms", "order", "pronoun", "rope",
            "single-key", "three-layers", "tokenizer")
TARGETS = {(1024, 768): 14.0, (1920, 1080): 24.0}
"""Smallest digit height (px) every number must have in presentation on each screen."""
NOT_YET = {(1024, 768): {"g01", "encoder-decoder", "multihead", "order", "pronoun", "rope",
                         "three-layers"},
           (1920, 1080): {"multihead", "order", "pronoun", "rope", "three-layers"}}
"""Examples whose attention and position steps still draw some numbers under the target (their
mix step's grids, the dials' angles): issue 23, item 1, left open."""


def trace_of(name: str) -> Trace:
    return compute(load_scenario(example_path(name)))


def options_for(trace: Trace, view: CanvasView) -> FrameOptions:
    """What presentation draws by default: the slide look, the worked row for small n."""
    return FrameOptions(aspect=view.aspect(), theme=SLIDE,
                        worked_row=trace.scenario.n <= MAX_POSITIONS)


@pytest.fixture
def screen(qtbot: QtBot, request: pytest.FixtureRequest) -> Iterator[PresentationView]:
    """A presentation canvas the size of a projector's screen."""
    view = PresentationView.__new__(PresentationView)
    CanvasView.__init__(view, SLIDE)
    width, height = request.param
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    yield view
    view.hide()
    view.deleteLater()


@pytest.mark.parametrize("screen", list(TARGETS), indirect=True,
                         ids=[f"{w}x{h}" for w, h in TARGETS])
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_number_meets_the_presentation_target(screen: PresentationView, name: str,
                                                     request: pytest.FixtureRequest) -> None:
    size = (screen.width(), screen.height())
    if name in NOT_YET[size]:
        request.applymarker(pytest.mark.xfail(
            strict=True, reason="issue 23 item 1: some steps still under the target"))
    trace = trace_of(name)
    options = options_for(trace, screen)
    for k in range(len(trace.steps)):
        frame = screen.show_frame(trace, k, options, None, fit=True)
        smallest = smallest_number(frame, screen)
        assert smallest.pixels >= TARGETS[size], (name, k + 1, smallest)
        assert sheet_words_height(frame, screen) <= smallest.pixels, \
            "the footer and map are never larger than the data"


@pytest.mark.parametrize("screen", [(1024, 768)], indirect=True)
def test_the_worked_row_shrinks_no_step_without_one(screen: PresentationView) -> None:
    """G01 has a worked row at three steps; the other nine are drawn as large with it on as
    with it off, in presentation and at the document's one scale (window, exports)."""
    trace = trace_of("g01")
    options = options_for(trace, screen)
    assert options.worked_row
    plain = [k for k, step in enumerate(trace.steps) if WORKED_STAGES[step.op] is None]
    assert len(plain) == 9
    for alone in (True, False):
        for k in plain:
            with_row = FrameItem(trace, k, options, alone=alone)
            without = FrameItem(trace, k, FrameOptions(aspect=options.aspect, theme=SLIDE),
                                alone=alone)
            assert with_row.picture_scale == pytest.approx(without.picture_scale, rel=1e-3), \
                (alone, k)


@pytest.mark.parametrize("screen", [(1024, 768)], indirect=True)
def test_presentation_draws_g01_larger_than_one_scale_does(screen: PresentationView) -> None:
    """The G01 residual step (a small picture) is not held to the size its FFN step allows."""
    trace = trace_of("g01")
    options = options_for(trace, screen)
    k = trace.step_index("resid1")
    alone = screen.show_frame(trace, k, options, None, fit=True)
    shared = FrameItem(trace, k, options)
    assert alone.picture_scale > 1.1 * shared.picture_scale
    assert smallest_number(alone, screen).pixels >= TARGETS[(1024, 768)]
