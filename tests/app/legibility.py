"""How tall a frame's numbers are on the screen: the smallest digit ink height, in pixels.

A number's height is its font's digit ink (the tight box of "0123456789") times the scale it is
drawn at on the device: the item's scale in the scene times the view's. The numbers measured
are the data: a grid's cells, the arrows' share labels, and every text item of the step's
picture that is a number or arithmetic (bar values, the worked row) but not a token's name (a
vocabulary word "w1" labels a bar). The sheet's own words (heading,
subtitle, footer) and the map are measured apart (:func:`sheet_words_height`), so a test can
check they are never larger than the data. ``test_legibility`` checks this against the ink of
a real screenshot.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache

from PySide6.QtGui import QFontMetricsF, QPainterPath, QTransform
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsView

from app.canvas.arrows import SHARE_SIZE, AttentionArrows
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.layout import TextItem
from app.canvas.powers import pieces
from app.canvas.route_map import RouteMap
from app.canvas.theme import font
from app.canvas.view import CanvasView
from app.export.render import build_frame, split_frames
from app.model.operands import tokens_of
from app.window.studio import StudioWindow
from engine import Scenario, Trace
from engine.format.numbers import MINUS


@cache
def digit_ink(pixel_size: int, bold: bool = False) -> float:
    """Ink height of the digits in the frame's font at ``pixel_size`` scene units, as the font
    rounds it (its tight box, whole pixels: about one more than :func:`outline_ink`)."""
    return QFontMetricsF(font(pixel_size, bold)).tightBoundingRect("0123456789").height()


@cache
def outline_ink(text: str, pixel_size: int, bold: bool = False) -> float:
    """Ink height of ``text``'s glyph outlines at ``pixel_size`` scene units: what a
    screenshot's ink shows (``"0123456789"`` at 17 px: 12.9, where the font's rounded box
    says 14)."""
    path = QPainterPath()
    path.addText(0.0, 0.0, font(pixel_size, bold), text)
    return path.boundingRect().height()


SUPERSCRIPTS = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
"""A scientific number's exponent digits (``2.514×10⁻⁴``)."""


@cache
def exponent_ink(text: str, pixel_size: int, bold: bool = False) -> float:
    """Ink height of the smallest exponent ``text`` prints at ``pixel_size`` (0 when it has
    none): a power's exponent printed apart after it (:func:`~app.canvas.powers.pieces`), or
    superscript digits printed as they are."""
    heights = []
    for piece, raised in pieces(text):
        if raised:
            heights.append(outline_ink(piece.lstrip(MINUS), pixel_size, bold))
        heights += [outline_ink(run, pixel_size, bold) for run in SUPERSCRIPTS.findall(piece)]
    return min(heights, default=0.0)


SMALL_CELL = "small cell of grid"
"""What a rare wide cell's number is called (:func:`numbers`)."""


@dataclass(frozen=True)
class Number:
    """One kind of number text on a frame and its digits' height on the device."""

    what: str
    pixels: float


def is_number_text(text: str) -> bool:
    """Whether ``text`` is a number or arithmetic ("0.57", "exp(−0.3) = 0.74", "÷ √2 = s"),
    not a sentence that mentions one (notes are words: :func:`sheet_words_height`)."""
    words = re.findall(r"[^\W\d_]{2,}", text)
    return any(c.isdigit() for c in text) and all(word == "exp" for word in words)


def device_scale(item: QGraphicsItem, view: QGraphicsView | None) -> float:
    """How many device pixels one of ``item``'s units covers (uniform scales only)."""
    transform = item.sceneTransform()
    if view is not None:
        transform = transform * view.viewportTransform()
    return float(abs(QTransform(transform).m22()))


def shown(view: CanvasView, trace: Trace, step: int, options: FrameOptions,
          part: int = 0) -> FrameItem:
    """Show ``trace``'s step (the ``part`` half of a step presentation splits over two
    slides) fitted on ``view`` and let the view settle its zoom (measuring before that reads
    a stale transform)."""
    frame = view.show_frame(trace, step, options, None, fit=True, part=part)
    QApplication.processEvents()
    return frame


def focused_window(scenario: Scenario) -> StudioWindow:
    """A window on ``scenario`` at 1024 × 768 with View → Focus on the frame (close it with
    :func:`tests.app.driving.close_window`)."""
    window = StudioWindow(scenario)
    window.resize(1024, 768)
    window.show()
    window.activateWindow()
    QApplication.processEvents()
    window.view_menu.focus_action.trigger()
    QApplication.processEvents()
    return window


def _is_sheet_word(item: QGraphicsItem, frame: FrameItem) -> bool:
    parent = item.parentItem()
    while parent is not None:
        if isinstance(parent, RouteMap):
            return True
        if parent is frame:
            return item.parentItem() is frame
        parent = parent.parentItem()
    return True


DIGITS = "0123456789"


def numbers(frame: FrameItem, view: QGraphicsView | None = None,
            exact: bool = False) -> list[Number]:
    """Every number text of ``frame``'s picture with its digit height on ``view`` (the frame's
    own units when ``view`` is None); ``exact``: the digits' outline ink (:func:`outline_ink`)
    rather than the font's rounded box, and the exponents of each kind printed scientific too
    (``2.514×10⁻⁴``, "exponent in …": :func:`exponent_ink`)."""
    def ink(size: int, bold: bool = False) -> float:
        return outline_ink(DIGITS, size, bold) if exact else digit_ink(size, bold)

    found: list[Number] = []
    for grid in frame.items_of(MatrixGrid):
        if grid.spec.values.size:
            found.append(Number(f"grid {grid.spec.title}",
                                ink(NUMBER_SIZE) * device_scale(grid, view)))
        exponent = _smallest_exponent(grid) if exact else 0.0
        if exponent:
            found.append(Number(f"exponent in grid {grid.spec.title}",
                                exponent * device_scale(grid, view)))
        if grid.small_cells:  # rare wide cells printed smaller (app.canvas.rare_cells)
            found.append(Number(f"{SMALL_CELL} {grid.spec.title}",
                                ink(min(grid.small_cells.values()))
                                * device_scale(grid, view)))
    for arrows in frame.items_of(AttentionArrows):
        if arrows.share_labels:
            found.append(Number("share label", ink(SHARE_SIZE, True)
                                * device_scale(arrows, view)))
            exponent = min((exponent_ink(label, SHARE_SIZE, True) or math.inf
                            for label in arrows.share_labels if exact), default=math.inf)
            if exponent < math.inf:
                found.append(Number("exponent in share label",
                                    exponent * device_scale(arrows, view)))
    words = {*frame.trace.scenario.tokens, *tokens_of(frame.trace, "vocab")}
    for text in frame.items_of(TextItem):
        if (is_number_text(text.text) and text.text not in words
                and not _is_sheet_word(text, frame)):
            size = text.font.pixelSize()
            found.append(Number(f"text {text.text[:30]!r}",
                                ink(size, text.font.bold()) * device_scale(text, view)))
            exponent = exponent_ink(text.text, size, text.font.bold()) if exact else 0.0
            if exponent:
                found.append(Number(f"exponent in text {text.text[:30]!r}",
                                    exponent * device_scale(text, view)))
    return found


def _smallest_exponent(grid: MatrixGrid) -> float:
    """The smallest exponent ink among a grid's printed cells, in its units (0: none prints
    scientific; a heat map prints no number at its scale)."""
    if grid.heat or not grid.spec.values.size:
        return 0.0
    rows, cols = grid.spec.values.shape
    inks = [exponent_ink(grid.cell_text(r, c), grid.number_size(r, c))
            for r in range(rows) if grid.prints_numbers(r) for c in range(cols)]
    return min((height for height in inks if height), default=0.0)


def smallest_number(frame: FrameItem, view: QGraphicsView | None = None) -> Number:
    """The number text drawn smallest on ``frame``."""
    return min(numbers(frame, view), key=lambda number: number.pixels)


def sheet_words_height(frame: FrameItem, view: QGraphicsView | None = None) -> float:
    """The tallest digit ink the sheet's own words (footer, subtitle, map labels) would have:
    what the data's numbers must not be smaller than."""
    tallest = 0.0
    for text in frame.items_of(TextItem):
        if _is_sheet_word(text, frame) and text is not frame.heading:
            tallest = max(tallest, digit_ink(text.font.pixelSize(), text.font.bold())
                          * device_scale(text, view))
    return tallest


BACK_ROW = 12.0
"""Digit ink (px, :func:`outline_ink`) a back row reads on a 1024 × 768 projector: every number
of every frame, in F5 and in a 4:3 export 1024 wide, a scientific cell's exponent included."""
PROJECTOR = (1024, 768)
TARGETS = {PROJECTOR: 14.0, (1920, 1080): 24.0}
"""Smallest digit height (px, :func:`digit_ink`) every number must have in presentation on
each screen."""
EXPORT_WIDTH = 1024
"""A 4:3 export this wide is as many lines tall as the projector."""


def presented_frames(view: CanvasView, trace: Trace, step: int,
                     options: FrameOptions) -> Iterator[FrameItem]:
    """Each slide of step ``step`` in presentation on ``view``, shown in turn (a step too wide
    for the screen is several: its composition says how many)."""
    part, count = 0, 1
    while part < count:
        frame = shown(view, trace, step, options, part)
        count = frame.composition.parts
        yield frame
        part += 1


def exported_numbers(trace: Trace, step: int,
                     options: FrameOptions) -> list[tuple[int | None, Number]]:
    """Step ``step``'s numbers in an export of ``options``' aspect :data:`EXPORT_WIDTH` pixels
    wide, their exact ink in the file, on each page of the step (its part, else None)."""
    found: list[tuple[int | None, Number]] = []
    for built in split_frames(lambda part: build_frame(trace, step, options, part=part)):
        (item,) = [i for i in built.scene.items() if isinstance(i, FrameItem)]
        factor = EXPORT_WIDTH / built.width
        found += [(built.part, replace(number, pixels=number.pixels * factor))
                  for number in numbers(item, exact=True)]
    return found
