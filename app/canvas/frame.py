"""The one painter: a frame for (trace, step, options), shown in the window or exported."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar, cast

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QPainter
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.compose import (
    FRAME_BY_FRAME_UNDER,
    MAX_SCALE,
    Composition,
    Group,
    compose_alone,
    fit_scale,
    lay_out,
    legible_composition,
    measure,
)
from app.canvas.context import SHEET_HEIGHT, FrameOptions, LayoutContext, sheet_size
from app.canvas.grid import NUMBER_SIZE, MatrixGrid, size_only
from app.canvas.heat import heat_within
from app.canvas.layout import (
    TextItem,
    dropping_arrows,
    items_of,
    rows_after,
    showing_part,
)
from app.canvas.rare_cells import full_size_cells, sizing
from app.canvas.route_map import RouteMap, route_map
from app.canvas.shown import SHOWN
from app.canvas.theme import digit_height, text_advance
from app.canvas.worked_row import WorkedRow
from app.model.parts import place_name
from app.texts.example_words import document_words
from app.texts.run_words import in_run
from app.texts.words import say
from engine import Trace
from engine.arithmetic.cells import made_by

T = TypeVar("T")

MARGIN = 40.0
ALONE_MARGIN = 16.0
"""The sheet's margin in units of a 1080-unit-tall sheet: a frame alone on its screen
(presentation) has the screen's edge around it and keeps only a thin one."""
HEADER_GAP = 18.0
HEADING_SIZE = 36.0
SIDE_HEADING_SIZE = 20.0
"""The heading of a comparison's side, in the comparison's units: as its notes print."""
SUBTITLE_SIZE = 22.0
FOOTER_SIZE = 22.0
CAPTION_SIZE = 28.0
"""Sizes of the sheet's own words on a 1080-unit-tall sheet (pixels at 1920×1080)."""
MAP_SCALE = 1.5
MAP_SMALLEST = 1.1
"""The map of where you are is drawn up to 1.5 times its natural size (labels about 20 px on a
1080-unit-tall sheet) at the end of the subtitle's line, down to 1.1 times to stay there; a map
that needs less goes on a line of its own."""
LEGIBLE = ((768, 14.0), (1080, 24.0))
"""How tall a frame alone on its screen wants its numbers' digits at least (what a back row
reads), in device pixels, by the screen's height in lines: 14 px on a 1024×768 projector, 24 px
on a 1920×1080 one (:func:`legible_share`). When the shares' arrows would make them smaller,
the arrows are left out if that draws them larger (every share is printed in the shares grid;
:func:`~app.canvas.compose.compose_alone`)."""


OWN_PART = -2
"""The part a frame asks its composition for by default: its own (``-1`` is the last)."""


def legible_share(lines: float) -> float:
    """The share of a screen ``lines`` tall that a legible digit fills: :data:`LEGIBLE`'s
    targets at their heights, in proportion between them, the nearest beyond them."""
    (low, low_px), (high, high_px) = LEGIBLE
    along = min(1.0, max(0.0, (lines - low) / (high - low)))
    return (1 - along) * low_px / low + along * high_px / high


def shown_names(trace: Trace, names: Sequence[str]) -> str:
    """The names a footer lists: trace arrays as the trace names them (``L2.mixed``), a
    parameter's document path in the same 1-based layer naming (``layers.1.attention.Wo`` →
    ``L2.Wo``), so one frame never shows two numberings."""
    return ", ".join(name if name in trace.arrays else place_name(name) for name in names)


class Sheet(QGraphicsObject):
    """A whole picture: a rectangle in the theme's background (unless transparent) holding
    everything drawn on it. Subclasses set ``options`` and ``_rect``."""

    options: FrameOptions
    _rect: QRectF

    def boundingRect(self) -> QRectF:
        return self._rect

    def items_of(self, kind: type[T]) -> list[T]:
        """Every item of one kind on this sheet (grids, arrows …), breadth first."""
        return items_of(self, kind)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self.options.transparent:
            painter.fillRect(self._rect, QBrush(self.options.theme.color("background")))


SPLIT_HEADINGS = 3
"""How many times a split frame is built again until its heading's "(k/n)" says the part it
shows: the first heading, without "(k/n)", may leave the picture a line more room than the
split one, and so fewer parts (Mistral's projections of a generated text: 3 parts for the
heading without it, 6 with it)."""


class FrameItem(Sheet):
    """A whole frame on its sheet: step title, document title, the step's picture, reads/writes,
    caption.

    ``own_scale``: the picture as large as this step allows (up to ``max_scale``), not at the
    document's one scale (the sides of a comparison, one step at a time).

    The sheet is 1920×1080 scene units for 16:9 and 1440×1080 for 4:3
    (:attr:`FrameOptions.aspect`), or ``sheet`` when given (each side of a comparison). The
    picture is scaled by the document's one type scale (:func:`app.canvas.compose.compose`), or
    ``alone`` (presentation) as large as this frame allows by itself
    (:func:`app.canvas.compose.compose_alone`), and centred between the header and the footer
    (alone, the footer moves up to the end of the heading's line when it fits there, and the
    picture takes its line); ``screen`` is how many pixels tall the sheet is shown, whose
    legibility target (:func:`legible_share`) a frame alone aims for (None: the sheet's own
    height in units, as an export at 1080 lines). A ``side`` of a comparison has its heading
    alone, at :data:`SIDE_HEADING_SIZE` whatever its sheet (the comparison names the document
    once and the footer would repeat itself). With ``part`` (presentation and exports: 0, 1 …
    or −1 for the last), a frame alone, or a printed frame laid out by itself, whose step
    stays under its target and is drawn larger as several slides shows that part, its heading
    ending "(1/2)", "(2/3)" … (:attr:`composition`'s ``part`` and ``parts`` say which; None:
    never split). A ``printed`` frame (an export) laid out by itself leaves out arrows that
    repeat the step before's (:data:`~app.canvas.shown.SHOWN`) when it would otherwise print its
    numbers under a 1024 × 768 projector's size; the window keeps them (its query boxes choose
    the receiver). A printed frame keeps the document's one scale only when that
    reaches a 1024 × 768 projector's size (:data:`LEGIBLE`), else it is laid out by itself (the
    window: only under :data:`~app.canvas.compose.FRAME_BY_FRAME_UNDER`).

    Attributes
    ----------
    picture_scale
        The factor the step's picture is drawn at (the document's, unless this step would not
        fit at it).
    body
        The step's picture, in its own unscaled coordinates.
    composition
        The document's composition the picture was laid out by (provisional after a refill
        that took other steps' fits on trust: :meth:`settle`).
    """

    composition: Composition

    def __init__(self, trace: Trace, step_index: int, options: FrameOptions | None = None,
                 step_title: str | None = None, sheet: tuple[float, float] | None = None,
                 max_scale: float | None = None, own_scale: bool = False,
                 alone: bool = False, side: bool = False, screen: float | None = None,
                 part: int | None = None, printed: bool = False) -> None:
        super().__init__()
        self.alone = alone
        self._printed = printed
        self.options = options or FrameOptions()
        self.trace = trace
        self.step_index = max(0, min(len(trace.steps) - 1, step_index))
        self.context = LayoutContext(trace, self.options)
        width, height = sheet or sheet_size(self.options.aspect)
        self._rect = QRectF(0, 0, width, height)
        self._max_scale = max_scale
        self._own_scale = own_scale
        self._screen = screen or height
        self._part = part if alone or printed else None
        self._full_cells = alone or printed
        """Every grid cell printed at full size where that prints the smallest digit larger,
        for a back row (presentation, an export): :meth:`_full_size_larger`."""
        self._split = False
        self.picture_kept = False
        """Whether the last :meth:`refill` kept the picture (:func:`same_through`)."""
        self._side = side
        self._edge = alone
        """The sheet's edge is the frame's own: a thin margin, the footer up beside the heading
        (presentation, and a printed frame laid out by itself: projected, a slide has the
        screen's edge around it)."""
        self._by_itself = False
        """Laid out by itself although not ``alone``: the document's one scale is too small."""
        self._build(step_title)
        if printed and self._by_itself and not self._edge:
            self._edge = True
            self._rebuild(step_title)
        if self.composition.part is not None:  # split over slides: the heading says which part
            self._split = True
            for _ in range(SPLIT_HEADINGS):
                said = self.composition.part, self.composition.parts
                self._rebuild(step_title)
                if (self.composition.part, self.composition.parts) == said:
                    break

    def _rebuild(self, step_title: str | None) -> None:
        """Build the frame again (split, or with the sheet's edge its own)."""
        for child in self.childItems():
            child.setParentItem(cast(QGraphicsItem, None))  # PySide6's stubs forbid None
        self._build(step_title)

    def _build(self, step_title: str | None) -> None:
        """The heading, document title, map, footer and caption, then the step's picture."""
        side = self._side
        trace = self.trace
        step = trace.steps[self.step_index]
        width, height = self._rect.width(), self._rect.height()
        unit = height / SHEET_HEIGHT
        margin = 0.0 if side else (ALONE_MARGIN if self._edge else MARGIN) * unit
        lang = self.options.lang
        title = step_title or step.title
        if self._split:
            title = say("frame.part_title", lang, title=title,
                        k=(self.composition.part or 0) + 1, count=self.composition.parts)
        heading = say("frame.heading", lang, n=self.step_index + 1, count=len(trace.steps),
                      title=title)
        if not side:  # a comparison's side: the comparison's own heading says the rest
            heading = in_run(self.options.run_place, heading, lang)
        self.heading = self._text(heading, SIDE_HEADING_SIZE if side else HEADING_SIZE * unit,
                                  margin, margin, bold=True)
        body_top = self.heading.boundingRect().height() + HEADER_GAP * unit
        self.route_map = None
        self._footer: TextItem | None = None
        bottom = height - margin
        if not side:
            title, _note = document_words(trace.scenario.title, trace.scenario.note, lang)
            subtitle = self._text(title, SUBTITLE_SIZE * unit, margin,
                                  margin + self.heading.boundingRect().height(), role="muted")
            body_top = subtitle.pos().y() + subtitle.boundingRect().height() + HEADER_GAP * unit
            self.route_map = route_map(self.context, step) if self.options.route_map else None
            if self.route_map is not None:
                body_top = self._place_map(self.route_map, subtitle, body_top, margin, unit)
            nothing = say("frame.nothing", lang)
            flow = (f"{say('frame.reads', lang)} {shown_names(trace, step.reads) or nothing}"
                    f"     {say('frame.writes', lang)} "
                    f"{shown_names(trace, step.writes) or nothing}")
            footer = self._text(flow, FOOTER_SIZE * unit, margin, 0, role="muted")
            if self.options.caption:
                caption = self._text(self.options.caption, CAPTION_SIZE * unit, margin, 0)
                bottom -= caption.boundingRect().height()
                caption.setY(bottom)
            if not (self._edge and self._footer_up(footer, subtitle, margin, unit)):
                bottom -= footer.boundingRect().height()
                footer.setY(bottom)
            self._footer = footer
        self.area = QRectF(margin, body_top, width - 2 * margin,
                           bottom - HEADER_GAP * unit - body_top)
        """Where the step's picture may go, in sheet units."""
        self._header_key = self._header_of(trace, step_title)
        self.body = Group()
        self._lay_out_body()

    def _header_of(self, trace: Trace, step_title: str | None) -> tuple[object, ...]:
        """What the sheet's own words and map show: the same for every edit of the values."""
        step = trace.steps[self.step_index]
        return (step_title, trace.scenario.title, tuple(s.id for s in trace.steps), step.title,
                step.reads, step.writes)

    def refill(self, trace: Trace, step_index: int, options: FrameOptions,
               step_title: str | None) -> bool:
        """Show ``trace`` in this frame when only its numbers differ from the frame's (an edit
        of a value): the heading, map and footer stay, the step's picture is laid out again.
        False, and nothing changed, when anything else differs."""
        if (step_index != self.step_index or options != self.options
                or self._header_of(trace, step_title) != self._header_key):
            return False
        self.picture_kept = same_through(self.trace, trace, step_index)
        self.trace = trace
        self.context = LayoutContext(trace, options)
        if self.picture_kept:  # the later steps' numbers may move the document's scale
            self.composition = replace(self.composition, provisional=tuple(
                range(step_index + 1, len(trace.steps))))
        else:
            self._replace_body(quick=True)
        return True

    def settle(self) -> bool:
        """Measure the steps a refill took on trust (:attr:`composition`'s provisional ones;
        :meth:`measure_step` them one by one first to keep the window responsive) and lay the
        picture out again if the exact composition differs; whether it did."""
        with full_size_cells(self._full_cells and self._full_size_larger(quick=False)):
            exact = self._composed(quick=False)
        if (exact.scale, exact.wraps) == (self.composition.scale, self.composition.wraps):
            self.composition = exact
            return False
        self._replace_body(quick=False)
        return True

    def measure_step(self, index: int) -> None:
        """Measure step ``index`` for the numbers shown (see :meth:`settle`)."""
        with full_size_cells(self._full_cells and self._full_size_larger(quick=False)):
            measure(self.trace, self.options, self.area.size(), index)

    def _replace_body(self, quick: bool) -> None:
        old = self.body
        self.body = Group()
        self._lay_out_body(quick)
        scene = old.scene()
        if scene is not None:
            scene.removeItem(old)  # and from this frame
        else:
            old.setParentItem(cast(QGraphicsItem, None))  # PySide6's stubs forbid None
        old.deleteLater()

    def _lay_out_body(self, quick: bool = False) -> None:
        """The step's picture at the document's scale, centred in :attr:`area` (``quick``:
        while typing, measuring only this step again, see :func:`compose`)."""
        full = self._full_cells and self._full_size_larger(quick)
        with full_size_cells(full):
            self.composition = composition = self._composed(quick)
        most = MAX_SCALE if self._own_scale else composition.scale
        if self._max_scale is not None:
            most = min(self._max_scale, most)
        self.body.setParentItem(self)
        if self._footer is not None:  # drawn (and read in SVG) heading, picture, footer
            self.body.stackBefore(self._footer)
        covered = self._picture(self.body, composition, full)
        self.picture_scale = min(most, fit_scale(covered, self.area.size()))
        self.body.setScale(self.picture_scale)
        centre = self.area.center()
        self.body.setPos(centre.x() - covered.center().x() * self.picture_scale,
                         centre.y() - covered.center().y() * self.picture_scale)

    def _picture(self, parent: QGraphicsItem, composition: Composition, full: bool,
                 context: LayoutContext | None = None) -> QRectF:
        """Lay the step's picture out under ``parent`` by ``composition`` (``full``: every cell
        at full size; ``context``: another than the frame's, whose grids it remembers); what
        it covers."""
        with dropping_arrows(not composition.arrows), rows_after(composition.rows_after), \
                showing_part(composition.part, composition.parts), \
                heat_within(composition.heat), full_size_cells(full):
            return lay_out(context or self.context, self.step_index, parent,
                           composition.wraps[self.step_index], self.area.size())

    def _full_size_larger(self, quick: bool) -> bool:
        """Whether every cell printed at full size (a frame for a back row) prints the step's
        smallest digit larger than its rare wide cells printed smaller: its grids' columns then
        as wide as those cells (GPT-NeoX's logits: 6.6 px → 12.5), else at their usual width
        (a 20 × 20 grid of shares with one 1.32×10⁻⁵: 11.2 px for it, 17.3 for the rest,
        rather than 10.6 for all)."""
        if not self._has_rare_cells():
            return False  # printed alike either way: measured once
        with full_size_cells():  # over the step's parts: every part is printed alike
            full = min(composition.scale for composition in self._parts_composed(quick))
        smallest = math.inf
        for usual in self._parts_composed(quick):
            probe = Group()  # laid out apart: the frame's context keeps none of its grids
            with size_only():  # only its grids' cells are read
                self._picture(probe, usual, False, LayoutContext(self.trace, self.options))
            cells = min((min(grid.small_cells.values()) for grid in items_of(probe, MatrixGrid)
                         if grid.small_cells), default=NUMBER_SIZE)
            smallest = min(smallest, usual.scale * cells / NUMBER_SIZE)
        return full >= smallest * (1 - 1e-9)

    def _has_rare_cells(self) -> bool:
        """Whether an array the step reads or writes has rare wide cells printed smaller
        (:func:`~app.canvas.rare_cells.sizing`)."""
        step = self.trace.steps[self.step_index]
        for name in (*step.reads, *step.writes):
            try:
                values = self.context.array(name)
            except KeyError:  # neither a trace array nor a parameter: nothing printed
                continue
            if sizing(values, self.context.places, NUMBER_SIZE).rounding_to_zero:
                return True
        return False

    def _parts_composed(self, quick: bool) -> list[Composition]:
        """The composition of each part of the step (of the whole step when not split)."""
        first = self._composed(quick, 0 if self._part is not None else None)
        return [first, *(self._composed(quick, k) for k in range(1, first.parts))]

    def _composed(self, quick: bool, part: int | None = OWN_PART) -> Composition:
        """The composition this frame is laid out by: its own when ``alone`` or when the
        document's one scale is too small to read (:func:`legible_composition`), else the
        document's (``quick``: measuring only this step again, see :func:`compose`;
        ``part``: that part's of a split step, rather than the frame's own)."""
        digits = self._rect.height() / digit_height(NUMBER_SIZE)
        projector_lines = LEGIBLE[0][0]  # a 1024 × 768 projector
        projector = legible_share(projector_lines) * digits
        if not (self.alone or self._by_itself):
            shared = legible_composition(self.trace, self.options, self.area.size(),
                                         self.step_index, quick,
                                         projector if self._printed else FRAME_BY_FRAME_UNDER)
            if shared is not None:
                return shared
            self._by_itself = self._printed  # the window's frame may be refilled: asks again
        repeated = self._printed and SHOWN[self.trace.steps[self.step_index].op].repeats_arrows
        arrows_down_to = None if self.alone else projector if repeated else 0.0
        # a printed frame is split only once its sheet's edge is its own (:meth:`__init__`
        # builds it again so): its parts are not measured for a sheet it is not drawn on
        own = part == OWN_PART
        part = (self._part if own else part) if self.alone or self._edge else None
        return compose_alone(self.trace, self.options, self.area.size(), self.step_index,
                             legible_share(self._screen) * digits, part, self._split and own,
                             arrows_down_to, projector if self._printed else None)

    def _footer_up(self, footer: TextItem, subtitle: TextItem, margin: float,
                   unit: float) -> bool:
        """Put the footer at the right end of the heading's line, above the map, when it fits
        there, else at the right end of the subtitle's line when the map is not on it (a frame
        alone on its screen: its picture gets the footer's line); whether it did."""
        lines = [self.heading.mapRectToParent(self.heading.boundingRect())]
        drawn = self.route_map
        on_subtitle = drawn is not None and drawn.pos().y() < subtitle.pos().y() + \
            subtitle.boundingRect().height()
        if not on_subtitle:
            lines.append(subtitle.mapRectToParent(subtitle.boundingRect()))
        size = footer.boundingRect()
        x = self._rect.width() - margin - size.width()
        for line in lines:
            if x < line.right() + 2 * HEADER_GAP * unit:
                continue
            bottom = line.bottom()
            if drawn is not None and line is lines[0]:
                bottom = min(bottom, drawn.mapRectToParent(drawn.boundingRect()).top() - 2 * unit)
            footer.setPos(x, bottom - size.height())
            return True
        return False

    def _place_map(self, item: RouteMap, subtitle: TextItem, body_top: float, margin: float,
                   unit: float) -> float:
        """Put the map at the right end of the subtitle's line when it fits there, else on a
        line of its own; where the picture may start below it."""
        natural = item.boundingRect()
        item.setParentItem(self)
        right = self._rect.width() - margin
        beside = subtitle.pos().x() + subtitle.boundingRect().width() + 2 * HEADER_GAP * unit
        scale = min(MAP_SCALE * unit, (right - beside) / natural.width())
        if scale >= MAP_SMALLEST * unit:
            item.setScale(scale)
            line = subtitle.mapRectToParent(subtitle.boundingRect())
            item.setPos(right - natural.width() * scale, line.bottom() - natural.height() * scale)
            return max(body_top, line.bottom() + HEADER_GAP * unit)
        item.setScale(min(MAP_SCALE * unit, (right - margin) / natural.width()))
        item.setPos(margin, body_top)
        return body_top + natural.height() * item.scale() + HEADER_GAP * unit

    @property
    def worked_row(self) -> WorkedRow | None:
        """The worked row drawn with the step's picture, if any."""
        return next(iter(self.items_of(WorkedRow)), None)

    def _text(self, text: str, size: float, x: float, y: float, *, bold: bool = False,
              role: str = "text") -> TextItem:
        """A line of the sheet's own words, its size reduced when it would run off the sheet."""
        room = self._rect.width() - 2 * x
        advance = text_advance(text, _pixels(size), bold) + 4
        if advance > room > 0:
            size *= room / advance
        item = TextItem(text, self.options.theme, size=_pixels(size), bold=bold, role=role)
        item.setParentItem(self)
        item.setPos(x, y)
        return item


def _pixels(size: float) -> int:
    return max(8, round(size))


def same_through(before: Trace, after: Trace, index: int) -> bool:
    """Whether ``after`` holds ``before``'s own arrays (the same objects) but those the steps
    after ``index`` make, and its document and steps: a step's picture shows no array a
    later step makes, so step ``index``'s is the same picture (the whole trace of an edit
    arriving after the trace worked through the step on screen)."""
    if after.scenario is not before.scenario or after.steps != before.steps \
            or after.arrays.keys() != before.arrays.keys() \
            or after.visibility.keys() != before.visibility.keys():
        return False
    later = {name for step in after.steps[index + 1:] for name in made_by(step)}
    return all(array is before.arrays[name] for name, array in after.arrays.items()
               if name not in later) \
        and all(np.array_equal(mask, before.visibility[scope])
                for scope, mask in after.visibility.items())


def build_frame_scene(trace: Trace, step_index: int, options: FrameOptions | None = None,
                      step_title: str | None = None,
                      part: int | None = None) -> tuple[QGraphicsScene, FrameItem]:
    """A scene holding one frame, its scene rectangle fitted to the frame (for exports);
    ``part``: the part of a step split over several pages as presentation splits it (its
    :attr:`~FrameItem.composition` says whether it is)."""
    scene = QGraphicsScene()
    frame = FrameItem(trace, step_index, options, step_title, part=part, printed=True)
    scene.addItem(frame)
    scene.setSceneRect(frame.boundingRect())
    return scene, frame
