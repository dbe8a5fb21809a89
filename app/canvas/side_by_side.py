"""One step of two traces side by side (A | B) or one above the other, and what differs: B − A.

The two sides are :class:`~app.canvas.frame.FrameItem` s showing the step's grids (no arrows
beside them) under a heading of their own, at one scale, as large as the room shared with
B − A allows; rows paired by token (two tokens swapped) draw B by token. Exports paint it like
any frame (:func:`build_compare_scene`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import NamedTuple

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.bars import ProbabilityBars
from app.canvas.compose import MAX_SCALE, Group, fit_scale
from app.canvas.context import FrameOptions, LayoutContext, sheet_size
from app.canvas.frame import MARGIN, FrameItem, Sheet
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem, place_row, wrapping
from app.canvas.pieces import custom_grid, number, text_lines, word
from app.canvas.theme import Theme, font
from app.texts.words import joined, say
from engine import Step, Trace
from engine.arithmetic.differences import ArrayDifference, Comparison, in_token_order, matching_step

SIDE_GAP = 24.0
SIDES_SHARE = 0.74
"""Of the height under the header, what the two sides take when the differences are below."""
SHARES = (0.5, 0.56, 0.62, 0.68, 0.74, 0.8, 0.86)
"""The shares of the height (of the width, in three columns) the sides may take, the
differences the rest."""
HEADER_SIZE = 32.0
TITLE_SIZE = 24.0
NOTE_SIZE = 18.0
DIFFERENCE_WRAPS = (2400.0, 1600.0, 1100.0, 800.0)
DIFFERS = "#D55E00"
"""Okabe–Ito vermillion: the outline of an array that differs (with a “≠” tag, not colour alone)."""


class DifferenceMark(QGraphicsObject):
    """A dashed outline and a “≠” tag around a picture (a grid, the probability bars) whose
    array differs between A and B; the tag sits on the outline's top-right corner, or inside
    it where it would cover other words (:meth:`tuck_in`)."""

    def __init__(self, target: QGraphicsItem, theme: Theme) -> None:
        super().__init__()
        self.target = target
        self.theme = theme
        self.setParentItem(target)
        self._outline = target.boundingRect().adjusted(-4, -3, 4, 3)
        self._tag = QRectF(self._outline.right() - 11, self._outline.top() - 10, 22, 20)

    def boundingRect(self) -> QRectF:
        return self._outline.united(self._tag).adjusted(-2, -2, 2, 2)

    def tag_rect(self) -> QRectF:
        """Where the “≠” tag is drawn, in this mark's coordinates."""
        return QRectF(self._tag)

    def tuck_in(self) -> None:
        """Draw the tag inside the outline's top-right corner (over the right end of a grid's
        title line), not across it: across, it covered a side's heading above a grid at the
        top, or the next side's words right of it."""
        self.prepareGeometryChange()
        self._tag.moveTopRight(self._outline.topRight() + QPointF(-2, 2))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        theme = self.theme
        pen = QPen(QColor(DIFFERS), 2.0, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self._outline)
        painter.setPen(QPen(QColor(DIFFERS), 1.5))
        painter.setBrush(QBrush(theme.color("background")))
        painter.drawRoundedRect(self._tag, 4, 4)
        painter.setFont(font(14, bold=True))
        painter.setPen(QColor(DIFFERS))
        painter.drawText(self._tag, Qt.AlignmentFlag.AlignCenter, "≠")


class CompareFrameItem(Sheet):
    """A header naming the two settings, frame A | frame B, then this step's differences
    (``comparison``: :func:`engine.arithmetic.differences.compare` of the two traces, measured by
    the caller).

    Attributes
    ----------
    a_frame, b_frame
        The two sides; with ``order`` (B's row for each of A's) B is drawn by token
        (:func:`engine.arithmetic.differences.in_token_order`), the same token on the same row.
    changed
        Names of the arrays of this step that differ between A and B, in order.
    max_differences
        ``max |B − A|`` of each changed array, as printed.

    An array differs when ``max |B − A|`` is above ``tolerance`` (0: any difference; rows
    paired by token agree only up to the order of softmax's sums).
    """

    def __init__(self, trace_a: Trace, trace_b: Trace, comparison: Comparison, step_index: int,
                 options: FrameOptions | None = None, labels: tuple[str, str] = ("A", "B"),
                 titles: tuple[str | None, str | None] = (None, None),
                 tolerance: float = 0.0, order: Sequence[int] | None = None) -> None:
        super().__init__()
        self.options = options or FrameOptions()
        self.labels = labels
        self.context = LayoutContext(trace_a, self.options)
        ctx = self.context
        width, height = sheet_size(self.options.aspect)
        self._rect = QRectF(0, 0, width, height)
        index_a = max(0, min(len(trace_a.steps) - 1, step_index))
        index_b = matching_step(trace_a, trace_b, index_a)
        step_a, step_b = trace_a.steps[index_a], trace_b.steps[index_b]
        of_step = comparison.of_step([step_a, step_b], tolerance)
        self.changed = list(of_step.changed)
        self.header = TextItem(word(ctx, "compare_header", a=labels[0], b=labels[1]),
                               ctx.theme, size=round(HEADER_SIZE), bold=True)
        self.header.setParentItem(self)
        self.header.setPos(MARGIN, MARGIN)
        top = MARGIN + self.header.boundingRect().height() + 4
        lines = [word(ctx, "nothing_differs")] if not self.changed else []
        here = {*step_a.writes, *step_b.writes}
        elsewhere = {name for step in trace_a.steps for name in step.writes} - here
        self.drawn = [name for name in self.changed if name not in elsewhere] or self.changed
        """The changed arrays whose B − A is drawn: all but what another step writes (that is
        drawn there, and named in a note here), unless nothing else differs."""
        for key, names in (("identical", of_step.unchanged),
                           ("differs_elsewhere", tuple(n for n in self.changed
                                                       if n not in self.drawn)),
                           ("only_a", of_step.only_a), ("only_b", of_step.only_b)):
            if names:
                lines.append(word(ctx, key, names=joined(names, ctx.options.lang)))
        lines += [word(ctx, "reshaped", name=name, a="×".join(map(str, shape_a)),
                       b="×".join(map(str, shape_b)))
                  for name in of_step.reshaped
                  for shape_a, shape_b in [comparison.reshaped[name]]]
        if self.options.caption:
            lines.append(self.options.caption)
        note_height = len(lines) * (NOTE_SIZE * 1.5 + 4)
        side_options = replace(self.options, caption="", route_map=False, worked_row=False,
                               arrows=False)
        # Paired by token, B is drawn by token: each token on A's row, with the position it
        # holds in B, and the receiver is the same token on both sides.
        shown_b = in_token_order(trace_b, order) if order is not None else trace_b
        specs: list[tuple[str, Trace, int, Step, str | None, str]] = [
            ("A", trace_a, index_a, step_a, titles[0], labels[0]),
            ("B", shown_b, index_b, step_b, titles[1], labels[1])]

        def side_frames(side: tuple[float, float], most: float | None,
                        which: slice = slice(None)) -> list[FrameItem]:
            return [FrameItem(trace, index, side_options, step_title=word(
                ctx, "side", side=name, label=label, title=title or step.title), sheet=side,
                max_scale=most, own_scale=True, side=True, alone=True)
                for name, trace, index, step, title, label in specs[which]]

        heading = TextItem(word(ctx, "differs_title"), ctx.theme, size=round(TITLE_SIZE),
                           bold=True) if self.changed else None
        title_height = heading.boundingRect().height() + 4 if heading is not None else 0.0
        differences = [comparison.common[n] for n in self.drawn]
        sizes = self._difference_sizes(differences)
        room = QRectF(MARGIN, top, width - 2 * MARGIN, height - MARGIN - note_height - top)
        share = SIDES_SHARE if self.changed else 1.0

        def tried(k: int, share: float) -> tuple[float, Arrangement, FrameItem]:
            """Arrangement ``k`` with the sides taking ``share`` of the height: how large its
            numbers print (A's, B has the same shapes, or the differences' when smaller)."""
            plan = arrangements(room, title_height, share)[k]
            (frame,) = side_frames(plan.side, None, slice(1))
            return min(frame.picture_scale, best_fit(sizes, plan.differences)[0]), plan, frame

        def differences_area(k: int, share: float) -> QRectF:
            return arrangements(room, title_height, share)[k].differences

        tries = []
        for k in range(len(arrangements(room, title_height, share))):
            first = tried(k, share)
            balanced = balanced_share(first[2].picture_scale, share, sizes,
                                      partial(differences_area, k))
            tries += [first] if balanced == share else [first, tried(k, balanced)]
        _best, plan, a_frame = max(tries, key=lambda t: t[0])
        (b_frame,) = side_frames(plan.side, None, slice(1, 2))
        scale = min(a_frame.picture_scale, b_frame.picture_scale)
        if max(a_frame.picture_scale, b_frame.picture_scale) > scale:
            a_frame, b_frame = side_frames(plan.side, scale)  # one scale, to compare by eye
        sides = [a_frame, b_frame]
        self.a_frame, self.b_frame = sides
        self.a_frame.setParentItem(self)
        self.a_frame.setPos(MARGIN, top)
        self.b_frame.setParentItem(self)
        self.b_frame.setPos(MARGIN + plan.b_offset[0], top + plan.b_offset[1])
        marked: list[QGraphicsItem] = [grid for frame in sides
                                       for name, grid in frame.context.made
                                       if name in self.changed]
        if "probs" in self.changed:
            marked += [bars for frame in sides for bars in frame.items_of(ProbabilityBars)]
        marks = [DifferenceMark(target, ctx.theme) for target in marked]  # targets own them
        self.max_differences = {name: number(ctx, comparison.common[name].max_abs)
                                for name in self.changed}
        if heading is not None:
            area = plan.differences
            heading.setParentItem(self)
            heading.setPos(area.left(), area.top() - title_height)
            self._differences(differences, area, scale, best_fit(sizes, area)[1])
        text_lines(self, lines, MARGIN, room.bottom() + 4, ctx, size=round(NOTE_SIZE))
        self._keep_words_clear(marks)

    def _keep_words_clear(self, marks: list[DifferenceMark]) -> None:
        """Tuck in each tag that would cover words other than its own picture's (a side's
        heading, the other side's titles)."""
        words = self.items_of(TextItem)
        for mark in marks:
            tag = mark.mapRectToScene(mark.tag_rect())
            if any(tag.intersects(text.mapRectToScene(text.boundingRect())) for text in words
                   if not mark.target.isAncestorOf(text)):
                mark.tuck_in()

    def _difference_grids(self, difference: ArrayDifference) -> list[MatrixGrid]:
        """``B − A`` as one grid, or one per head of a 3-D array; its max |B − A| beneath."""
        ctx = self.context
        name = difference.name
        values = difference.difference
        span = difference.max_abs
        note = word(ctx, "max_difference", value=number(ctx, span))
        heads = values.shape[0] if values.ndim == 3 else 0
        slices = [(values[h], say("frame.head", ctx.options.lang, n=h + 1) if heads > 1 else "")
                  for h in range(heads)] \
            if values.ndim == 3 else [(values.reshape(1, -1) if values.ndim == 1 else values, "")]
        grids = []
        for part, suffix in slices:
            rows = ctx.labels_for(name, 0, part.shape[0])
            cols = ctx.labels_for(name, 1, part.shape[1])

            def explain(row: int, col: int, part: np.ndarray = part) -> str:
                return f"B − A at {name}[{row},{col}] = {number(ctx, float(part[row, col]))}"

            grids.append(custom_grid(ctx, word(ctx, "b_minus_a", name=name) + suffix, part,
                                     rows, cols, explain=explain, note=note,
                                     value_range=(-span, span)))
        return grids

    def _difference_sizes(self, differences: list[ArrayDifference]
                          ) -> list[tuple[QRectF, float | None]]:
        """What the difference grids cover at scale 1 in one row, and wrapped at each of
        :data:`DIFFERENCE_WRAPS`."""
        sizes = []
        for wrap in (None, *DIFFERENCE_WRAPS) if differences else ():
            probe = Group()
            with wrapping(wrap):
                sizes.append((place_row(probe, self._all_grids(differences), 0, 0,
                                        self.context.theme), wrap))
        return sizes

    def _differences(self, differences: list[ArrayDifference], area: QRectF,
                     most: float, wrap: float | None) -> None:
        """The difference grids in rows wrapped at ``wrap``, scaled (at most ``most``) to fit
        ``area``."""
        self.differences = Group()
        self.differences.setParentItem(self)
        with wrapping(wrap):
            covered = place_row(self.differences, self._all_grids(differences), 0, 0,
                                self.context.theme)
        scale = min(most, fit_scale(covered, area.size()))
        self.differences.setScale(scale)
        self.differences.setPos(area.left() - covered.left() * scale,
                                area.top() - covered.top() * scale)

    def _all_grids(self, differences: list[ArrayDifference]) -> list[QGraphicsItem | str]:
        return [grid for difference in differences
                for grid in self._difference_grids(difference)]


class Arrangement(NamedTuple):
    """Where a comparison puts its parts: each side's sheet, B's offset from A and the area of
    the differences (under their heading)."""

    side: tuple[float, float]
    b_offset: tuple[float, float]
    differences: QRectF


def arrangements(room: QRectF, title_height: float, share: float) -> list[Arrangement]:
    """The three ways to share ``room`` (under the header, above the notes): A beside B, or A
    above B, the sides taking ``share`` of the height and the differences (under their
    heading) the rest; or A, B and the differences in three columns the whole height, the
    sides taking ``share`` of the width (narrow, tall pictures: a scores step wrapped under
    its factors, RoPE's two rows)."""
    inner, below = room.width(), room.height()
    under = QRectF(room.left(), room.top() + below * share + title_height, inner,
                   below * (1 - share) - title_height)
    half_width, half_height = (inner - SIDE_GAP) / 2, (below * share - SIDE_GAP) / 2
    column = (inner - 2 * SIDE_GAP) * share / 2
    beside = QRectF(room.left() + 2 * (column + SIDE_GAP), room.top() + title_height,
                    inner - 2 * (column + SIDE_GAP), below - title_height)
    return [Arrangement((half_width, below * share), (half_width + SIDE_GAP, 0), under),
            Arrangement((inner, half_height), (0, half_height + SIDE_GAP), under),
            Arrangement((column, below), (column + SIDE_GAP, 0), beside)]


def balanced_share(scale: float, share: float, sizes: list[tuple[QRectF, float | None]],
                   area_at: Callable[[float], QRectF]) -> float:
    """The share of the height for the sides at which their numbers and the differences'
    print alike largest, given the sides' ``scale`` at ``share`` (taken to grow with their
    height) and ``area_at`` the differences' area for a share; ``share`` when nothing
    differs."""
    if not sizes:
        return share
    return max(SHARES, key=lambda s: min(scale * s / share, best_fit(sizes, area_at(s))[0]))


def best_fit(sizes: list[tuple[QRectF, float | None]], area: QRectF) -> tuple[float, float | None]:
    """The largest scale any of ``sizes`` (what the differences cover at each wrap) fits
    ``area`` at, and that wrap; no differences fit at any scale."""
    if not sizes:
        return MAX_SCALE, None
    return max(((fit_scale(covered, area.size()), wrap) for covered, wrap in sizes),
               key=lambda fit: fit[0])


def build_compare_scene(trace_a: Trace, trace_b: Trace, comparison: Comparison,
                        step_index: int, options: FrameOptions | None = None,
                        labels: tuple[str, str] = ("A", "B"),
                        titles: tuple[str | None, str | None] = (None, None),
                        tolerance: float = 0.0, order: Sequence[int] | None = None
                        ) -> tuple[QGraphicsScene, CompareFrameItem]:
    """A scene holding one comparison, its scene rectangle fitted to it (for exports)."""
    scene = QGraphicsScene()
    item = CompareFrameItem(trace_a, trace_b, comparison, step_index, options, labels, titles,
                            tolerance, order)
    scene.addItem(item)
    scene.setSceneRect(item.boundingRect())
    return scene, item
