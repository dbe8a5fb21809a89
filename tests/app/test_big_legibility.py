"""A GPT-2-shaped layer's frames a back row can read: at the document's one scale (0.42, set by
its widest steps) its numbers were about 6 units tall on a 1080-unit sheet; it is laid out
frame by frame instead, and a frame by itself still under its target draws its too-wide grids
as smaller heat maps (or, in presentation, as two slides)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSizeF
from PySide6.QtGui import QFontMetricsF, QImage
from PySide6.QtWidgets import QApplication

from app.canvas.arrows import AttentionArrows
from app.canvas.compose import FRAME_BY_FRAME_UNDER, compose, compose_alone
from app.canvas.context import FrameOptions, sheet_size
from app.canvas.frame import FrameItem, legible_share
from app.canvas.grid import NUMBER_SIZE, GridSpec, MatrixGrid
from app.canvas.heads import HeadBands
from app.canvas.heat import HeatLimits, heat_within
from app.canvas.theme import SLIDE, font, text_advance
from app.export.render import Frame, build_frame
from app.window.presentation import PresentationView
from app.window.studio import StudioWindow
from engine import Trace, compute
from tests.app.driving import close_window
from tests.app.legibility import (
    TARGETS,
    device_scale,
    digit_ink,
    focused_window,
    shown,
    smallest_number,
)
from tests.app.test_legibility import WINDOW_TARGET, _ink_height
from tests.app.test_legibility import screen as screen  # the projector-sized canvas fixture
from tests.bench.timing import gpt2_shaped
from tests.export.conftest import export

STEPS = ("norm1", "projections", "scores", "weights", "mix", "resid1", "norm2", "ffn", "resid2",
         "final_norm", "logits", "probs")

pytestmark = pytest.mark.usefixtures("qapp")


SHEET = FrameOptions(aspect="16:9", theme=SLIDE)
"""The 16:9 slide sheet at the document's one scale: the window's frame, and an export's."""


@pytest.fixture(scope="module")
def gpt2() -> Trace:
    return compute(gpt2_shaped())


@pytest.fixture(scope="module")
def sheet_frame(gpt2: Trace) -> Callable[[int], FrameItem]:
    """Step ``k``'s frame on :data:`SHEET`, laid out once for the module's tests."""
    return cache(lambda k: FrameItem(gpt2, k, SHEET))


@pytest.fixture(scope="module")
def exported(gpt2: Trace) -> Callable[[int], tuple[Frame, FrameItem]]:
    """Step ``k`` as a default export builds it, and its frame item, built once for the
    module's tests."""
    @cache
    def build(k: int) -> tuple[Frame, FrameItem]:
        frame = build_frame(gpt2, k)
        (item,) = [i for i in frame.scene.items() if isinstance(i, FrameItem)]
        return frame, item

    return build


def test_the_steps_hold_the_layer(gpt2: Trace) -> None:
    assert tuple(step.id for step in gpt2.steps) == STEPS
    assert gpt2.arrays["probs"].shape == (8, 50_257)


def test_its_one_scale_is_unreadable_so_each_frame_has_its_own(
        gpt2: Trace, sheet_frame: Callable[[int], FrameItem]) -> None:
    """The document's one scale is under :data:`FRAME_BY_FRAME_UNDER` (its 8 × 64 slices of a
    head printed 64 numbers wide: 5.9-unit digits on a 1080-unit sheet); a frame at the one
    scale (window, exports) is laid out by itself instead, never split, and drawn larger."""
    width, height = sheet_size("16:9")
    shared = compose(gpt2, SHEET, QSizeF(width - 80, height - 200))
    assert shared.scale < FRAME_BY_FRAME_UNDER
    assert digit_ink(NUMBER_SIZE) * shared.scale < 6.5
    for k, step in enumerate(gpt2.steps):
        frame = sheet_frame(k)
        assert not frame.alone and frame.composition.part is None, "never split"
        assert frame.picture_scale > 2.2 * shared.scale, step.id


@pytest.fixture(scope="module")
def deck(gpt2: Trace, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A PNG export of every step at 1920 × 1080."""
    return export(gpt2, "png", tmp_path_factory.mktemp("deck"), name="gpt2")


DECK_TARGET = legible_share(768) * 1080
"""A 1080-line slide's numbers at least 19.7 px: 14 px when shown on a 1024 × 768 projector."""


@pytest.mark.parametrize("step", STEPS)
def test_a_png_deck_prints_every_step_at_the_slide_target(
        gpt2: Trace, deck: list[Path], exported: Callable[[int], tuple[Frame, FrameItem]],
        step: str) -> None:
    """Every number of each frame the PNG export draws at least :data:`DECK_TARGET` tall in
    its 1920 × 1080 file (the projections were 16.1 px, the mix 14.8, the FFN 19.4, while the
    heat maps' notes, about 310 units wide, set their widths)."""
    assert len(deck) == len(STEPS)
    k = gpt2.step_index(step)
    frame, item = exported(k)
    assert QImage(str(deck[k])).height() == frame.height == 1080
    smallest = smallest_number(item)
    assert smallest.pixels >= DECK_TARGET, (step, smallest)


def test_the_deck_file_has_the_digits_the_helper_measures(
        gpt2: Trace, deck: list[Path], exported: Callable[[int], tuple[Frame, FrameItem]]) -> None:
    """The shares step's first share (t0's 1, on the lightest fill) in its PNG file: its
    ink as tall as a "1" of the grid's font at the frame's scale, and at least the deck's
    target (was under 7 px at the one scale)."""
    k = gpt2.step_index("weights")
    _, item = exported(k)
    grid = next(g for g in item.items_of(MatrixGrid) if g.spec.title.startswith("shares"))
    assert grid.spec.values[0, 0] == 1.0
    scale = device_scale(grid, None)
    inset = 4 / scale
    cell = grid.mapRectToScene(grid.cell_rect(0, 0).adjusted(inset, inset, -inset, -inset))
    measured = _ink_height(QImage(str(deck[k])), cell.toAlignedRect())
    assert measured >= DECK_TARGET * 0.9  # a "1" is 0.93 of the digits' ink
    one = QFontMetricsF(font(NUMBER_SIZE)).tightBoundingRect("1").height()
    assert measured == pytest.approx(one * scale, rel=0.06)


@pytest.mark.parametrize("screen", list(TARGETS), indirect=True,
                         ids=[f"{w}x{h}" for w, h in TARGETS])
@pytest.mark.parametrize("step", STEPS)
def test_every_slide_meets_the_presentation_target(gpt2: Trace, screen: PresentationView,
                                                   step: str) -> None:
    """F5: every number of every slide of the step at least 14 px at 1024 × 768, 24 at
    1920 × 1080 (a step may be several slides: the projections' first of two was 12.4 and
    23.4 px)."""
    size = (screen.width(), screen.height())
    options = FrameOptions(aspect=screen.aspect(), theme=SLIDE)
    k = gpt2.step_index(step)
    part, count = 0, 1
    while part < count:  # each slide of the step (a split says how many)
        frame = shown(screen, gpt2, k, options, part)
        count = frame.composition.parts
        smallest = smallest_number(frame, screen)
        assert smallest.pixels >= TARGETS[size], (step, part, smallest)
        part += 1


@pytest.fixture(scope="module")
def focused(gpt2: Trace) -> Iterator[StudioWindow]:
    """The window on the layer at 1024 × 768, View → Focus on the frame."""
    window = focused_window(gpt2.scenario)
    yield window
    close_window(window)


@pytest.mark.parametrize("step", STEPS)
def test_focus_shows_every_step_at_the_window_target(focused: StudioWindow,
                                                     step: str) -> None:
    """In the window at 1024 × 768 with the frame in focus, fitted: every number at least
    9 px tall (the built-in examples' target; the projections were 8.5 px, the mix 7.9)."""
    focused.state.set_step(focused.state.trace.step_index(step))
    QApplication.processEvents()
    frame = focused.canvas.frame
    assert isinstance(frame, FrameItem)
    smallest = smallest_number(frame, focused.canvas)
    assert smallest.pixels >= WINDOW_TARGET, (step, smallest)


def test_the_heat_maps_of_a_frame_by_itself_keep_every_value(
        gpt2: Trace, sheet_frame: Callable[[int], FrameItem]) -> None:
    """The projections' Q drawn as a heat map (printed at the one scale: 8 × 768 is a heat map
    anyway; a head's 8 × 64 slice of the scores step is printed there) holds the same values."""
    grids = sheet_frame(gpt2.step_index("scores")).items_of(MatrixGrid)
    sliced = [g for g in grids if g.spec.values.shape == (8, 64)]
    assert sliced and all(g.heat for g in sliced)
    np.testing.assert_allclose(sliced[0].spec.values, gpt2.arrays["Q"][:, :64])


def test_an_export_leaves_the_arrows_out_only_under_a_projectors_size(
        gpt2: Trace, sheet_frame: Callable[[int], FrameItem],
        exported: Callable[[int], tuple[Frame, FrameItem]]) -> None:
    """A frame laid out by itself in an export keeps the shares' arrows unless its numbers would
    then be under :data:`DECK_TARGET` (a 1024 × 768 projector's 14 px). With the sheet's edge
    its own (thin margins, the footer beside the heading) the shares step and the mix keep them
    (the mix 20.1 px); on the 40-unit margins' area of a frame at the one scale (the window's)
    the mix with its arrows is under the target and leaves them out for an export (every share
    is printed in its shares grid), while the window's frame keeps them."""
    for step in ("weights", "mix"):
        _, item = exported(gpt2.step_index(step))
        assert item.composition.arrows and item.items_of(AttentionArrows), step
    assert smallest_number(item).pixels >= DECK_TARGET
    k = gpt2.step_index("mix")
    assert item.options == SHEET
    window = sheet_frame(k)
    assert window.area.width() == item.area.width() - 48
    legible = legible_share(1080) * 1080 / digit_ink(NUMBER_SIZE)
    area = window.area.size()
    with_arrows = compose_alone(gpt2, item.options, area, k, legible, arrows_down_to=0.0)
    assert with_arrows.arrows
    assert with_arrows.scale * digit_ink(NUMBER_SIZE) < DECK_TARGET
    printed = compose_alone(gpt2, item.options, area, k, legible,
                            arrows_down_to=DECK_TARGET / digit_ink(NUMBER_SIZE))
    assert not printed.arrows and printed.scale > with_arrows.scale
    assert window.composition.arrows and window.items_of(AttentionArrows), \
        "the window keeps them (its query boxes choose the receiver)"


def test_a_heat_maps_word_labels_print_only_where_they_fit(qapp: object) -> None:
    """A heat map of 48 vocabulary entries (a checkpoint's logits at the window's size) has
    columns 16 units wide, too narrow for words such as "<unk>" or "the cat": it prints the
    first and last labels (every one, before, each over its neighbours); one-digit labels fit
    columns of that width and are all printed."""
    vocab = ["<unk>", "<s>", "</s>", *(f"entry {k}" for k in range(44)), "the cat"]
    values = np.random.default_rng(3).normal(size=(6, 48))
    limits = HeatLimits(from_width=1000.0, width=48 * 16.0, height=75.0)
    with heat_within(limits):
        words = MatrixGrid(GridSpec(title="logits", values=values,
                                    row_labels=[f"t{k}" for k in range(6)],
                                    col_labels=vocab), SLIDE)
        numbers = MatrixGrid(GridSpec(title="logits", values=values,
                                      row_labels=[f"t{k}" for k in range(6)],
                                      col_labels=[str(k % 10) for k in range(48)]), SLIDE)
    assert words.heat and words.col_width(0) == pytest.approx(16.0)
    assert words._col_ticks == (0, 47)
    assert numbers._col_ticks == tuple(range(48))
    assert text_advance("9", 12) + 8.0 <= numbers.col_width(0)


def test_a_small_heat_maps_labels_and_head_bands_never_overlap(
        gpt2: Trace, sheet_frame: Callable[[int], FrameItem]) -> None:
    """Q drawn as a heat map 100 units wide (its natural cells, sized for its widest number,
    are wider than half of that): its first and last column labels apart, each wide enough for
    its label (they printed "707"); the mix's concatenation of twelve heads (about 12 units a
    head) draws the heads' colours without their names, which ran into one another, and
    dividing lines at most an eighth of a head's span."""
    q = gpt2.arrays["Q"]
    spec = GridSpec(title="Q", values=q, row_labels=[f"t{k}" for k in range(8)],
                    col_labels=[str(k) for k in range(768)])
    with heat_within(HeatLimits(width=100.0, height=75.0)):
        grid = MatrixGrid(spec, SLIDE)
    assert grid.heat and grid.cells_area().width() == 100.0
    assert grid.natural_cell.width() > 50.0, "two natural cells would overlap"
    first, last = grid.col_label_rect(0), grid.col_label_rect(767)
    assert first.right() <= last.left()
    assert text_advance("767", 12) <= last.width()
    mix = sheet_frame(gpt2.step_index("mix"))
    assert [g.spec.title for g in mix.items_of(MatrixGrid)][:3] == \
        ["shares · head 1 of 12", "V · head 1", "mixed · head 1"], "“of 12” said once"
    (bands,) = mix.items_of(HeadBands)
    span = bands.head_span(0).width()
    assert span < text_advance("head 1", 12, bold=True) and not bands.named
    assert bands.divider == pytest.approx(span / 8)
