"""How large a step's picture is drawn: one type scale per document, or each frame for itself.

A step's picture is laid out at its natural size and then scaled onto the sheet. The document's
scale (:func:`compose`, exports: a deck keeps one size) is the largest at which *every* step's
picture fits; each step may wrap its rows (wide steps) or set rows side by side (tall steps) to
get there. The worked row is not part of that measure: it gets its own band beside or below the
picture, so it only ever shrinks the steps that show it. Presentation lays each frame out for
its screen alone (:func:`compose_alone`): the arrangement that lets that one frame be largest.
A document whose one scale would print its numbers too small to read anywhere (under
:data:`FRAME_BY_FRAME_UNDER`: a GPT-2 layer, whose head-by-head slices are 64 numbers wide) is laid
out frame by frame in the window and exports too, each frame at its own scale; an export asks
more, the size a 1024 × 768 projector shows a back row (a preset's one scale, 0.66 to 0.86,
printed 7 px digits on a 4:3 slide 1024 wide; :class:`~app.canvas.frame.FrameItem`'s
``printed``). A frame by itself still under its legible size draws the grids too wide to print
legibly on its sheet as heat maps.
Measuring lays out every step several times, so each step's result is cached by what decides its
sizes (shapes, tokens, the options that change the picture, the widest printed numbers of the
arrays it shows), not by the values: an edit or a step change that keeps those reuses it, and an
edit that widens one array's numbers measures again only the steps that show that array.
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TypeVar

from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.context import FrameOptions, LayoutContext
from app.canvas.grid import NUMBER_SIZE, size_only
from app.canvas.heat import HEAT_HEIGHT, HEAT_WIDTH, USUAL_HEAT, HeatLimits, heat_within
from app.canvas.layout import (
    MOST_PARTS,
    PARTS,
    ROWS_AFTER,
    dropping_arrows,
    last_part,
    noting_arrangement,
    noting_cuts,
    rows_after,
    showing_part,
    wrapping,
)
from app.canvas.layout import fit_scale as fit_scale
from app.canvas.measuring_turn import measuring_step
from app.canvas.prepared_drawing import is_prepared, step_weights
from app.canvas.rare_cells import cells_full_size, sizing
from app.canvas.remember import known_format
from app.canvas.sample_step import draw_shape
from app.canvas.shown import SHOWN
from app.canvas.steps import lay_out_step
from app.canvas.worked_row import add_worked_row, has_worked_row, worked_row_cover
from app.model.cache_rows import generated_tokens
from app.model.next_token import draw_view, stack_is_causal
from app.model.operands import attention_of, norm_kind, tokens_of
from app.model.outline import parameter_paths
from engine import Step, Trace
from engine.scenario.op_table import op_table

MAX_SCALE = 3.2
"""A tiny document is not blown up beyond this (its numbers are then about 30 px tall)."""
MIN_SCALE = 0.05
WRAPS: tuple[float, ...] = (5600.0, 4500.0, 3600.0, 2900.0, 2300.0, 1850.0, 1500.0, 1350.0,
                            1200.0, 1080.0, 960.0, 770.0, 620.0, 500.0)
"""Wrap widths tried, widest first, after the natural layout (scene units before scaling).
Between 1500 and 960 the steps are finer: there one part moving below another (RoPE's angles
above its rows, the arrows under a 10-token mix) decides whether a presentation sheet's
numbers reach a back row."""
FRAME_BY_FRAME_UNDER = 0.7
"""A document whose one scale is under this (a grid's digits under 1 % of the sheet's height,
about 10 px on a 1080-line slide; the built-in examples are at 1.28 or more) is laid out frame by
frame, each frame at its own scale (:func:`legible_composition`)."""
HEAT_SHARES = (1.0, 0.7, 0.5, 0.35)
"""The shares of :data:`~app.canvas.heat.HEAT_WIDTH` × :data:`~app.canvas.heat.HEAT_HEIGHT` a
frame by itself still under its legible size tries for its heat maps, largest first (a GPT-2
layer's norm step, three maps and two rows of parameters, reaches 24 px on a 1080-line screen
at half)."""
HEAT_SPARE = 0.02
"""Heat maps of a share are kept when the frame's numbers then clear its legible size by this
much: reached only just, a few lines less of the screen (the canvas's focus frame) would leave
them under it; smaller heat maps are tried first."""
CACHE_SIZE = 1024
"""Steps' fits (and the arrays each step shows) kept, the least recently used dropped first."""


@dataclass(frozen=True)
class Composition:
    """How a document's steps sit on the sheet: one scale, and each step's wrap width."""

    scale: float
    wraps: tuple[float | None, ...]
    provisional: tuple[int, ...] = ()
    """Steps whose widened numbers were taken on trust while typing (their fits are the last
    ones measured): measure them (:func:`measure`) and compose again for the exact scale."""
    arrows: bool = True
    """Whether the step's shares are drawn as arrows too (a frame alone may leave them out:
    :func:`compose_alone`)."""
    rows_after: str = "beside"
    """How the rows that follow a source are arranged (:data:`~app.canvas.layout.ROWS_AFTER`;
    a frame alone takes another way when that is larger)."""
    part: int | None = None
    """The part of a step split over several slides this composition lays out (0-based;
    :func:`compose_alone`); None: the whole step."""
    parts: int = 1
    """How many slides the step is split over (1: not split)."""
    heat: HeatLimits = USUAL_HEAT
    """When a grid is a heat map and how large (:func:`~app.canvas.heat.heat_within`: earlier
    and smaller for a frame alone that needs it to be legible)."""


class Group(QGraphicsObject):
    """An invisible parent that only positions its children."""

    def boundingRect(self) -> QRectF:
        return self.childrenBoundingRect()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return


def lay_out(ctx: LayoutContext, step_index: int, parent: QGraphicsItem,
            wrap: float | None, area: QSizeF) -> QRectF:
    """Lay out one step under ``parent`` with rows wrapping at ``wrap`` and its worked row in
    the band that suits ``area`` best; what it covers."""
    return _laid_out(ctx, step_index, parent, wrap, area, drawn=True)[1]


def _laid_out(ctx: LayoutContext, step_index: int, parent: QGraphicsItem, wrap: float | None,
              area: QSizeF, drawn: bool = False) -> tuple[QRectF, QRectF]:
    """What the step's picture covers, and what it covers with its worked row: made when
    ``drawn``, else a layout tried only for its size (its grids not made ready to paint, its
    worked row only measured: :func:`worked_row_cover`)."""
    step = ctx.trace.steps[step_index]
    with wrapping(wrap), size_only(not drawn):
        picture = lay_out_step(ctx, step, parent)
    if not last_part():  # the worked row goes with the shares, in the step's last half
        return picture, picture
    worked_row = add_worked_row if drawn else worked_row_cover
    return picture, worked_row(ctx.for_step(step), step, parent, picture, area)


def _document_key(trace: Trace, options: FrameOptions) -> tuple[object, ...]:
    """What decides the sizes of every step's picture apart from the numbers: shapes, tokens,
    the steps, the generation run (its KV-cache marks) and the options that change the
    picture."""
    scenario = trace.scenario
    own = {name for step in trace.steps if SHOWN[step.op].own_options for name in step.writes}
    arrays = tuple((name, array.shape) for name, array in trace.arrays.items()
                   if name not in own)
    parameters = tuple((path, scenario.weight(path).shape)
                       for path in parameter_paths(scenario))
    steps = tuple((step.id, step.reads, step.writes,
                   () if SHOWN[step.op].own_options else _options_of(trace, step))
                  for step in trace.steps)
    return (tuple(scenario.tokens), scenario.title, arrays, parameters, steps,
            generated_tokens(trace),
            tuple(tokens_of(trace, "vocab")), options.head, options.show_all_arrows, options.lang,
            options.worked_row, options.arrows, LayoutContext.places_for(trace, options))


def _options_of(trace: Trace, step: Step) -> tuple[object, ...]:
    """The options of a step's module that change its picture (heads, mask, norm kind)."""
    return PICTURE_OPTIONS[step.op](trace, step)


def _attention_options(trace: Trace, step: Step) -> tuple[object, ...]:
    att = attention_of(trace, step)
    return att.heads, att.causal, att.scale


def _norm_options(trace: Trace, step: Step) -> tuple[object, ...]:
    return (norm_kind(trace, step),)


def _no_options(trace: Trace, step: Step) -> tuple[object, ...]:
    return ()


def _loss_options(trace: Trace, step: Step) -> tuple[object, ...]:
    return (stack_is_causal(trace.scenario),)


def _draw_options(trace: Trace, step: Step) -> tuple[object, ...]:
    return draw_shape(draw_view(trace, step))


PICTURE_OPTIONS = op_table("canvas.picture_options", {
    "embed": _no_options,
    "positions": _no_options,
    "inputs": _no_options,
    "norm": _norm_options,
    "projection": _attention_options,
    "rope": _no_options,
    "scores": _attention_options,
    "weights": _attention_options,
    "mix": _attention_options,
    "residual": _no_options,
    "ffn": _no_options,
    "router": _no_options,
    "experts": _no_options,
    "transform": _no_options,
    "logits": _no_options,
    "softcap": _no_options,
    "probs": _no_options,
    "loss": _loss_options,
    "sample": _draw_options,
})
"""Each op kind's module options that change its picture (its sizes are cached by them)."""


Fit = tuple[float | None, float, float]
Fits = tuple[Fit, ...]
"""A step's arrangements tried (natural, then each wrap): the wrap, the scale its picture fits
at, and the scale the picture and its worked row fit at together."""

_FITS: OrderedDict[tuple[object, ...], Fits] = OrderedDict()
_SHOWN: OrderedDict[tuple[object, ...], tuple[str, ...]] = OrderedDict()
"""The arrays each step's picture shows (by document key and step): its fits are known by the
widest numbers of those arrays alone."""
_LATEST: OrderedDict[tuple[object, ...], Fits] = OrderedDict()
"""The fits last measured for each step (by document key and step), whatever its numbers."""
_ALONE: OrderedDict[tuple[object, ...], Composition] = OrderedDict()
"""Each frame laid out by itself (:func:`compose_alone`), by its step's fits key and the
sizes it aims for."""
_PARTS: OrderedDict[tuple[object, ...], tuple[Composition, ...]] = OrderedDict()
"""The parts each step split over slides or pages is laid out as (:func:`compose_alone`; none:
not split), known like :data:`_ALONE` and by the size a split must reach: each frame of a
split step asks again, and counting its parts measures every part of each count tried."""


def compose(trace: Trace, options: FrameOptions, area: QSizeF,
            shown: int | None = None) -> Composition:
    """The document's scale and each step's wrap for a body ``area`` (cached).

    Each step's fits are cached by the widest numbers of the arrays it shows: an edit that
    widens one array's numbers measures again only the steps showing it. With ``shown`` (a
    frame refilled while typing), only that step is measured now; another step measured before
    keeps its last fits and is listed as provisional when its numbers are new, or would have
    to be read to know (a large array whose spread is not known yet: a GPT-2 layer's edit
    makes a hundred). The shown step still fits (the scale
    never exceeds what it allows); the others are settled by :func:`measure` once typing
    pauses, a layout each, and an exact composition follows.
    """
    ctx = LayoutContext(trace, options)
    document = _document(trace, options, area)
    provisional: list[int] = []
    fits = [_step_fits(ctx, document, index, area, shown, provisional)
            for index in range(len(trace.steps))]
    return _composition(fits, provisional)


def legible_composition(trace: Trace, options: FrameOptions, area: QSizeF, first: int,
                        quick: bool = False,
                        under: float = FRAME_BY_FRAME_UNDER) -> Composition | None:
    """:func:`compose` when the document's one scale keeps its numbers readable (at least
    ``under``: :data:`FRAME_BY_FRAME_UNDER` in the window; an export asks for a projector's
    size), else None: each frame is then laid out by itself. None is
    known as soon as one step fits only under that, and the steps after it are not measured
    (a GPT-2 model's first frame measured all of its 118 steps, seconds of layouts, only to be
    laid out by itself). Step ``first`` (the frame's own, which a frame laid out by itself
    measures anyway) is looked at first; ``quick`` is :func:`compose`'s ``shown`` = ``first``.
    """
    ctx = LayoutContext(trace, options)
    document = _document(trace, options, area)
    shown = first if quick else None
    provisional: list[int] = []
    fits: dict[int, Fits] = {}
    for index in _measuring_order(trace, first):
        found = fits[index] = _step_fits(ctx, document, index, area, shown, provisional)
        if _clamped(_best(found)) < under:
            return None
    return _composition([fits[k] for k in range(len(trace.steps))], sorted(provisional))


def _measuring_order(trace: Trace, first: int) -> Iterator[int]:
    """The steps :func:`legible_composition` measures, in turn: ``first``, then the others,
    those whose frames would widen a big weight left in its checkpoint that no worker made
    ready (:func:`~app.canvas.prepared_drawing.step_weights`) last. Whichever the order, the
    answer is None as soon as one step is under its size, and the whole composition
    otherwise: a Llama-3.2-1B document's first frame widened its first layer's Wq, Wk and Wv
    on the interface thread (and read their 5 million numbers) only to find its projections
    under, which its RoPE step says without reading a weight."""
    yield first
    waiting = []
    for index, step in enumerate(trace.steps):
        if index == first:
            continue
        if any(not is_prepared(weight) for weight in step_weights(trace, step)):
            waiting.append(index)
        else:
            yield index
    yield from waiting


def _step_fits(ctx: LayoutContext, document: tuple[object, ...], index: int, area: QSizeF,
               shown: int | None, provisional: list[int]) -> Fits:
    """Step ``index``'s fits: known, taken on trust while step ``shown`` is typed into (then
    ``index`` joins ``provisional``), or measured now."""
    found = _known_fits(ctx, document, index, on_trust=shown is not None and index != shown)
    if found is None:
        latest = _LATEST.get((document, ctx.trace.steps[index].id))
        if shown is not None and index != shown and latest is not None:
            found = latest
            provisional.append(index)
        else:
            found = _measured(ctx, document, index, area)
    return found


def _best(tried: Fits) -> float:
    """The largest scale a step's picture fits at, whichever its wrap."""
    return max(picture for _, picture, _whole in tried)


def _composition(fits: list[Fits], provisional: list[int]) -> Composition:
    """The one scale every step fits at, and each step's wrap for it."""
    scale = _clamped(min(_best(tried) for tried in fits))
    return Composition(scale, tuple(_choose(tried, scale) for tried in fits),
                       tuple(provisional))


def compose_alone(trace: Trace, options: FrameOptions, area: QSizeF, index: int,
                  legible: float = 0.0, part: int | None = None,
                  split: bool = False, arrows_down_to: float | None = None,
                  split_under: float | None = None) -> Composition:
    """Step ``index`` laid out for ``area`` by itself: the arrangement at which it (with its
    worked row) is largest, and that scale, the rows after a source arranged each way
    (:data:`~app.canvas.layout.ROWS_AFTER`). Only that step is measured; the other steps'
    wraps are left natural. When that scale is under ``legible`` the step is measured again
    without the shares' arrows (every share is still printed in its shares grid), and drawn so
    when that is larger; when it is still under, again with the grids too wide or tall to print
    legibly on the sheet (``area`` over ``legible``) drawn as heat maps, of
    :data:`HEAT_SHARES` of their usual extent until it reaches ``legible``.

    With ``part`` (presentation: 0, 1 …, or −1 for the last), a step still under ``legible``
    that is drawn larger as :data:`~app.canvas.layout.PARTS` slides, each part by itself
    (:func:`~app.canvas.layout.part_rows`), is laid out as that part; as more slides (up to
    :data:`~app.canvas.layout.MOST_PARTS`) when its parts stay under ``legible`` and the
    step has that many; ``split`` takes the split as decided (the frame's heading says so
    already); ``split_under`` (an export: a 1024 × 768 projector's size) splits only a step
    under that scale, into as few parts as reach it, each part aiming for that scale alone
    (no heat maps tried beyond it), rather than under ``legible``. With
    ``arrows_down_to`` (a frame laid out by itself in the window or an export,
    :func:`legible_composition`) the arrows are left out only under that scale (0: kept), not
    under ``legible``."""
    bare_under = legible if arrows_down_to is None else arrows_down_to
    enough = legible if split_under is None else split_under
    ctx = LayoutContext(trace, options)
    document = _document(trace, options, area)
    if part is None:
        return _alone(ctx, document, index, area, legible, bare_under)
    whole = None if split else _alone(ctx, document, index, area, legible, bare_under)
    key = _alone_key(ctx, document, index, legible, bare_under)
    parts = _PARTS.get((key, enough)) if key is not None else None
    if parts is None:
        parts = _parts(ctx, document, index, area, (legible, bare_under, enough), whole)
        key = _alone_key(ctx, document, index, legible, bare_under)  # measured now
        if key is not None:
            _remember(_PARTS, (key, enough), parts)
    if not parts:
        return whole or _alone(ctx, document, index, area, legible, bare_under)
    shown = part % len(parts)
    return replace(parts[shown], part=shown, parts=len(parts))


def _parts(ctx: LayoutContext, document: tuple[object, ...], index: int, area: QSizeF,
           sizes: tuple[float, float, float],
           whole: Composition | None) -> tuple[Composition, ...]:
    """The parts step ``index`` is laid out as, each by itself (:func:`compose_alone`), or none
    when it is not split: ``whole`` (None: the split is decided) reaches ``enough`` of
    ``sizes`` (``legible``, ``bare_under``, ``enough``) or is at least as large."""
    legible, bare_under, enough = sizes
    if whole is not None and (whole.scale >= enough or not _splits(ctx, index, area)):
        return ()
    best: list[Composition] = []
    for count in range(PARTS, MOST_PARTS + 1):
        kept = _cuts(ctx, index, area, count)
        if kept is None:
            break
        parts: list[Composition] = []
        for k in range(count):  # a part kept by a count before is known: not measured again
            with showing_part(k, count):
                parts.append(_alone(ctx, (*document, *kept[k]), index, area,
                                    min(legible, enough), bare_under))
            if best and parts[-1].scale < enough \
                    and parts[-1].scale <= min(p.scale for p in best) * (1 + 1e-9):
                break  # this many parts cannot do better: the next parts need not be measured
        else:
            smallest = min(p.scale for p in parts)
            if not best or smallest > min(p.scale for p in best) * (1 + 1e-9):
                best = parts
            if smallest >= enough:
                break
    if not best:  # not even two parts to show (a part laid out as the whole step)
        return ()
    if whole is not None and min(p.scale for p in best) <= whole.scale * (1 + 1e-9):
        return ()
    return tuple(best)


def _splits(ctx: LayoutContext, index: int, area: QSizeF) -> bool:
    """Whether step ``index`` has halves to show on two slides: its first half's layout
    differs from the whole step's (one layout each, not a whole measure)."""
    plain = _laid_out(ctx, index, Group(), None, area)
    with showing_part(0):
        return _laid_out(ctx, index, Group(), None, area) != plain


def _cuts(ctx: LayoutContext, index: int, area: QSizeF,
          count: int) -> list[tuple[object, ...]] | None:
    """What each of step ``index``'s ``count`` parts keeps of its rows
    (:func:`~app.canvas.layout.noting_cuts`; its number when it says nothing), or None when
    the step has not that many parts to show: a part's layout nothing, or (more than
    :data:`~app.canvas.layout.PARTS`) the whole step's (one layout each)."""
    whole = _laid_out(ctx, index, Group(), None, area)
    kept: list[tuple[object, ...]] = []
    for k in range(count):
        with showing_part(k, count), noting_cuts() as cuts:
            laid = _laid_out(ctx, index, Group(), None, area)
        if laid[0].isEmpty() or (count > PARTS and laid == whole):
            return None
        last = k == count - 1  # the last part draws the arrows and the worked row too
        kept.append(("part", last, *cuts) if cuts else ("part", k, count))
    return kept


def _alone(ctx: LayoutContext, document: tuple[object, ...], index: int, area: QSizeF,
           legible: float, bare_under: float) -> Composition:
    """Step ``index`` (or the half :func:`~app.canvas.layout.showing_part` says) as large as
    it is drawn by itself: see :func:`compose_alone`. Cached like a step's fits (by the widest
    numbers of the arrays it shows): an edit that keeps them lays the step out once, to draw
    it, not twice more to find again whether its rows may be arranged otherwise."""
    key = _alone_key(ctx, document, index, legible, bare_under)
    if key is not None and (known := _ALONE.get(key)) is not None:
        _remember(_ALONE, key, known)
        return known
    found = _arranged_alone(ctx, document, index, area, legible, bare_under)
    key = _alone_key(ctx, document, index, legible, bare_under)  # its arrays are known now
    if key is not None:
        _remember(_ALONE, key, found)
    return found


def _alone_key(ctx: LayoutContext, document: tuple[object, ...], index: int, legible: float,
               bare_under: float) -> tuple[object, ...] | None:
    """What :func:`_alone` is known by: the step's fits key and the sizes it aims for; None
    before the step was measured (the arrays it shows are not known yet)."""
    step = ctx.trace.steps[index]
    shown = _SHOWN.get((document, step.id))
    if shown is None:
        return None
    return _fits_key(ctx, document, step, _widest(ctx, shown)), legible, bare_under


def _arranged_alone(ctx: LayoutContext, document: tuple[object, ...], index: int,
                    area: QSizeF, legible: float, bare_under: float) -> Composition:
    """:func:`_alone`, worked out."""
    ways = ROWS_AFTER if _has_rows_after(ctx, index, area) else ROWS_AFTER[:1]
    wrap, whole, after = _arranged(ctx, document, index, area, ways)
    arrows = True
    if whole < bare_under:
        with dropping_arrows(), rows_after(after):
            bare, larger = _largest(ctx, (*document, "no arrows", after), index, area)
        if larger > whole * (1 + 1e-9):
            wrap, whole, arrows = bare, larger, False
    heat = USUAL_HEAT
    for share in HEAT_SHARES:
        if whole >= legible * (1.0 if heat == USUAL_HEAT else 1.0 + HEAT_SPARE):
            break
        limits = HeatLimits(min(heat.from_width, area.width() / legible),
                            min(heat.from_height, area.height() / legible),
                            HEAT_WIDTH * share, HEAT_HEIGHT * share)
        with heat_within(limits), dropping_arrows(not arrows):
            heated, larger, way = _arranged(ctx, (*document, limits, arrows), index, area, ways)
        if larger > whole * (1 + 1e-9):
            wrap, whole, heat, after = heated, larger, limits, way
    wraps: list[float | None] = [None] * len(ctx.trace.steps)
    wraps[index] = wrap
    return Composition(_clamped(whole), tuple(wraps), arrows=arrows, rows_after=after,
                       heat=heat)


def _arranged(ctx: LayoutContext, document: tuple[object, ...], index: int, area: QSizeF,
              ways: tuple[str, ...]) -> tuple[float | None, float, str]:
    """The wrap and arrangement of the rows after a source (of ``ways``) at which step
    ``index`` is largest, and that scale. A layout tried that never asked for the arrangement
    is the same under the next ones and not laid out again (:data:`_UNARRANGED`)."""
    token = _UNARRANGED.set({})
    try:
        wrap, whole = _largest(ctx, document, index, area)
        after = ways[0]
        for other in ways[1:]:
            with rows_after(other):
                other_wrap, larger = _largest(ctx, (*document, other), index, area)
            if larger > whole * (1 + 1e-9):
                wrap, whole, after = other_wrap, larger, other
    finally:
        _UNARRANGED.reset(token)
    return wrap, whole, after


def _has_rows_after(ctx: LayoutContext, index: int, area: QSizeF) -> bool:
    """Whether step ``index`` has rows after a source to arrange otherwise: its natural layout
    differs with them in columns (one layout, not a whole measure)."""
    plain = _laid_out(ctx, index, Group(), None, area)
    with rows_after("columns"):
        return _laid_out(ctx, index, Group(), None, area) != plain


def _largest(ctx: LayoutContext, document: tuple[object, ...], index: int,
             area: QSizeF) -> tuple[float | None, float]:
    """The wrap at which step ``index`` with its worked row is largest, and that scale."""
    tried = _known_fits(ctx, document, index) or _measured(ctx, document, index, area)
    wrap, _picture, whole = max(tried, key=lambda fit: fit[2])
    return wrap, whole


def _clamped(scale: float) -> float:
    return max(MIN_SCALE, min(MAX_SCALE, scale))


def measure(trace: Trace, options: FrameOptions, area: QSizeF, index: int) -> None:
    """Measure step ``index`` for its numbers now, unless they are measured already."""
    ctx = LayoutContext(trace, options)
    document = _document(trace, options, area)
    if _known_fits(ctx, document, index) is None:
        _measured(ctx, document, index, area)


class DocumentKey:
    """What decides a document's sizes (:func:`_document_key`), hashed once: every step of
    every composition looks its fits up by it, and a key holding a 4,096-word vocabulary took
    about 0.1 ms to hash each time."""

    __slots__ = ("_hash", "parts")

    def __init__(self, parts: tuple[object, ...]) -> None:
        self.parts = parts
        self._hash = hash(parts)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DocumentKey) and self._hash == other._hash \
            and self.parts == other.parts


_KEYS: OrderedDict[DocumentKey, DocumentKey] = OrderedDict()
"""The document keys met lately, each kept once: a key equal to one of them is replaced by it,
so the many lookups of one composition find their entries by identity, not by comparing."""


_LAST_KEY: list[tuple[weakref.ref[Trace], FrameOptions, DocumentKey]] = []
"""The last trace's key with its options: measuring a whole trace's steps once typing pauses
asks for it once per step (3 ms each for a GPT-2-sized document)."""


def _document(trace: Trace, options: FrameOptions, area: QSizeF) -> tuple[object, ...]:
    last = _LAST_KEY[0] if _LAST_KEY else None
    if last is not None and last[0]() is trace and last[1] == options:
        key = last[2]
    else:
        key = DocumentKey(_document_key(trace, options))
        key = _KEYS.setdefault(key, key)
        _LAST_KEY[:] = [(weakref.ref(trace), options, key)]
    _remember(_KEYS, key, key)
    return key, (round(area.width(), 1), round(area.height(), 1)), cells_full_size()


def _widest(ctx: LayoutContext, names: tuple[str, ...]) -> tuple[object, ...]:
    """The text each array's cells are as wide as and its wider columns on a back row: all a
    step's layout depends on (how many of its values print smaller inside those cells does not
    change it, so an edit that moves only that count finds the step's fits known). Each
    array's is worked out once per context (:attr:`LayoutContext.widest`)."""
    full = cells_full_size()
    known = ctx.widest
    found = []
    for name in names:
        one = known.get((name, full))
        if one is None:
            sized = sizing(ctx.array(name), ctx.places, NUMBER_SIZE)
            one = known[(name, full)] = (sized.text, sized.wide_columns)
        found.append(one)
    return tuple(found)


def _widest_known(ctx: LayoutContext, names: tuple[str, ...]) -> tuple[object, ...] | None:
    """:func:`_widest`, or None rather than read a large array whose format is not known
    yet."""
    if any(known_format(ctx.array(name), ctx.places) is None for name in names):
        return None
    return _widest(ctx, names)


def _known_fits(ctx: LayoutContext, document: tuple[object, ...], index: int,
                on_trust: bool = False) -> Fits | None:
    """Step ``index``'s fits if measured for the widest numbers of the arrays it shows now
    (``on_trust``: None where finding those would read a large array: typing goes on while
    a whole trace's new arrays wait)."""
    step = ctx.trace.steps[index]
    shown = _SHOWN.get((document, step.id))
    widest = None if shown is None else \
        _widest_known(ctx, shown) if on_trust else _widest(ctx, shown)
    return None if widest is None else _FITS.get(_fits_key(ctx, document, step, widest))


def _fits_key(ctx: LayoutContext, document: tuple[object, ...], step: Step,
              widest: tuple[object, ...]) -> tuple[object, ...]:
    """A step's fits are known by the document, the step's own options and the widest
    numbers of the arrays it shows."""
    own = _options_of(ctx.trace, step) if SHOWN[step.op].own_options else ()
    return document, step.id, own, widest


def _measured(ctx: LayoutContext, document: tuple[object, ...], index: int,
              area: QSizeF) -> Fits:
    measuring_step()  # within a turn whose time is up: left for the next (measuring_turn)
    step_id = ctx.trace.steps[index].id
    found, shown = _measure_step(ctx, index, area)
    _remember(_SHOWN, (document, step_id), shown)
    _remember(_FITS, _fits_key(ctx, document, ctx.trace.steps[index], _widest(ctx, shown)),
              found)
    _remember(_LATEST, (document, step_id), found)
    return found


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _remember(cache: OrderedDict[K, V], key: K, value: V) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)


def _measure_step(ctx: LayoutContext, index: int, area: QSizeF) -> tuple[Fits, tuple[str, ...]]:
    """Lay out one step naturally and at each narrower wrap; the scale each fits at, and the
    arrays (and the step's own reads and writes) its picture shows: every array when it has a
    worked row, whose arithmetic prints rows of Q, K and V that no grid of the step shows."""
    ctx.made.clear()
    natural, _width, made = _fit(ctx, index, None, area)
    tried = [natural]
    shown = dict.fromkeys(made)
    widest = math.inf
    for wrap in WRAPS:
        if wrap >= widest:
            continue  # the last layout fits within this width: nothing would wrap
        fit, widest, _made = _fit(ctx, index, wrap, area)
        tried.append(fit)
    step = ctx.trace.steps[index]
    read = ctx.trace.arrays if has_worked_row(ctx.options, step) else (*step.reads, *step.writes)
    shown.update(dict.fromkeys(name for name in read if name in ctx.trace.arrays))
    ctx.made.clear()
    return tuple(tried), tuple(shown)


def _choose(tried: Fits, scale: float) -> float | None:
    """The first arrangement (natural, then widest wrap first) at which the picture with its
    worked row fits at ``scale``, else the one that lets them be largest."""
    for wrap, _picture, whole in tried:
        if whole >= scale * (1 - 1e-9):
            return wrap
    return max(tried, key=lambda fit: fit[2])[0]


Laid = tuple[Fit, float, tuple[str, ...]]
"""A layout tried: its fit, its picture's width and the arrays of the grids it made."""
_UNARRANGED: ContextVar[dict[tuple[int, float | None], Laid] | None] = \
    ContextVar("unarranged", default=None)
"""While :func:`_arranged` tries a step's arrangements of the rows after a source: each
layout tried that never asked for the arrangement
(:func:`~app.canvas.layout.noting_arrangement`), by step and wrap. It is the same under every
arrangement: RoPE's wrapped layouts (its dials end each row) were laid out again for each of
the four, and for each of them under each heat-map size a frame by itself tries (about 300
layouts of Llama's RoPE step, 0.2 s of the window's freeze, now about 100)."""


def _fit(ctx: LayoutContext, index: int, wrap: float | None, area: QSizeF) -> Laid:
    """How large the step laid out at ``wrap`` fits ``area``, its picture's width and the
    arrays of the grids it made (taken from :data:`_UNARRANGED` when known there)."""
    unarranged = _UNARRANGED.get()
    known = unarranged.get((index, wrap)) if unarranged is not None else None
    if known is not None:
        return known
    first = len(ctx.made)
    with noting_arrangement() as asked:
        picture, whole = _laid_out(ctx, index, Group(), wrap, area)
    laid = ((wrap, fit_scale(picture, area), fit_scale(whole, area)), picture.width(),
            tuple(name for name, _grid in ctx.made[first:]))
    if unarranged is not None and not asked:
        unarranged[(index, wrap)] = laid
    return laid


def forget() -> None:
    """Empty the caches (tests that time a cold composition)."""
    _KEYS.clear()
    _LAST_KEY.clear()
    _FITS.clear()
    _SHOWN.clear()
    _LATEST.clear()
    _ALONE.clear()
    _PARTS.clear()
