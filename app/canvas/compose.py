"""One type scale per document: every step's picture measured against the sheet's body area.

A step's picture is laid out at its natural size and then scaled onto the sheet. The scale is the
largest at which *every* step of the document fits (so text keeps its size from step to step);
each step may wrap its rows (wide steps) or set rows side by side (tall steps) to get there.
Measuring lays out every step several times, so the result is cached by what decides the sizes
(shapes, tokens, the widest printed numbers, the options that change the picture), not by the
values: an edit or a step change that keeps those reuses it.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.context import FrameOptions, LayoutContext
from app.canvas.grid import number_format
from app.canvas.layout import wrapping
from app.canvas.steps import lay_out_step
from app.canvas.worked_row import add_worked_row
from app.outline import parameter_paths
from app.tape import ATTENTION_OPS, attention_of, module_of, tokens_of
from engine import Step, Trace

MAX_SCALE = 3.2
"""A tiny document is not blown up beyond this (its numbers are then about 30 px tall)."""
MIN_SCALE = 0.05
WRAPS: tuple[float, ...] = (5600.0, 4500.0, 3600.0, 2900.0, 2300.0, 1850.0, 1500.0, 1200.0,
                            960.0, 770.0, 620.0, 500.0)
"""Wrap widths tried, widest first, after the natural layout (scene units before scaling)."""
CACHE_SIZE = 16


@dataclass(frozen=True)
class Composition:
    """How a document's steps sit on the sheet: one scale, and each step's wrap width."""

    scale: float
    wraps: tuple[float | None, ...]


class Group(QGraphicsObject):
    """An invisible parent that only positions its children."""

    def boundingRect(self) -> QRectF:
        return self.childrenBoundingRect()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return


def lay_out(ctx: LayoutContext, step_index: int, parent: QGraphicsItem,
            wrap: float | None) -> QRectF:
    """Lay out one step under ``parent`` with rows wrapping at ``wrap``; what it covers."""
    step = ctx.trace.steps[step_index]
    with wrapping(wrap):
        covered = lay_out_step(ctx, step, parent)
    return add_worked_row(ctx, step, parent, covered)


def fit_scale(covered: QRectF, area: QSizeF) -> float:
    """The largest scale at which ``covered`` fits ``area``."""
    if covered.width() <= 0 or covered.height() <= 0:
        return MAX_SCALE
    return min(area.width() / covered.width(), area.height() / covered.height())


def _signature(trace: Trace, options: FrameOptions) -> tuple[object, ...]:
    """What decides the sizes of a document's pictures (not its values)."""
    scenario = trace.scenario
    places = LayoutContext.places_for(trace, options)

    def widest(values: npt.NDArray[np.float64]) -> str:
        return number_format(values, places)[1]

    arrays = tuple((name, array.shape, widest(array)) for name, array in trace.arrays.items())
    parameters = []
    for path in parameter_paths(scenario):
        values = scenario.parameter(path)
        parameters.append((path, values.shape, widest(values)))
    steps = tuple((step.id, step.reads, step.writes, _options_of(trace, step))
                  for step in trace.steps)
    return (tuple(scenario.tokens), scenario.title, arrays, tuple(parameters), steps,
            tuple(tokens_of(trace, "vocab")), options.head, options.show_all_arrows, options.lang,
            options.worked_row)


def _options_of(trace: Trace, step: Step) -> tuple[object, ...]:
    """The options of a step's module that change its picture (heads, mask, norm kind)."""
    if step.op in ATTENTION_OPS:
        att = attention_of(trace, step)
        return att.heads, att.causal, att.scale
    if step.op == "norm":
        return (module_of(trace, step).norm,)
    return ()


_CACHE: OrderedDict[tuple[object, ...], Composition] = OrderedDict()


def compose(trace: Trace, options: FrameOptions, area: QSizeF) -> Composition:
    """The document's scale and each step's wrap for a body ``area`` (cached)."""
    key = (_signature(trace, options), round(area.width(), 1), round(area.height(), 1))
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    composition = _measure(trace, options, area)
    _CACHE[key] = composition
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return composition


def _measure(trace: Trace, options: FrameOptions, area: QSizeF) -> Composition:
    ctx = LayoutContext(trace, options)
    fits: list[list[tuple[float | None, float]]] = []
    for index in range(len(trace.steps)):
        tried: list[tuple[float | None, float]] = [
            (None, fit_scale(_covered(ctx, index, None), area))]
        widest = math.inf
        for wrap in WRAPS:
            if wrap >= widest:
                continue  # the last layout fits within this width: nothing would wrap
            covered = _covered(ctx, index, wrap)
            widest = covered.width()
            tried.append((wrap, fit_scale(covered, area)))
        fits.append(tried)
    best = min(max(scale for _, scale in tried) for tried in fits)
    scale = max(MIN_SCALE, min(MAX_SCALE, best))
    wraps = tuple(_choose(tried, scale) for tried in fits)
    return Composition(scale, wraps)


def _choose(tried: list[tuple[float | None, float]], scale: float) -> float | None:
    """The first arrangement (natural, then widest wrap first) that fits at ``scale``."""
    for wrap, fits in tried:
        if fits >= scale * (1 - 1e-9):
            return wrap
    return max(tried, key=lambda pair: pair[1])[0]


def _covered(ctx: LayoutContext, index: int, wrap: float | None) -> QRectF:
    group = Group()
    covered = lay_out(ctx, index, group, wrap)
    ctx.made.clear()
    return covered


def forget() -> None:
    """Empty the cache (tests that time a cold composition)."""
    _CACHE.clear()
