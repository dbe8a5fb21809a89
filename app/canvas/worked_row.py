"""The worked row: the receiver's arithmetic at the scores, shares and mix steps, as a table.

Each step shows its own stage, for each key: at the scores q·k with its terms and ÷ √d_k; at
the shares the score s, exp(s − max) and the share (its exp over their sum); at the mix the
share, the share times its V row, and their sum, the receiver's output row. The
Illustrated-Transformer walk-through, drawn on the frame for any document.
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QPointF, QRectF, QSizeF
from PySide6.QtGui import QBrush, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.context import FrameOptions, LayoutContext, positioned_labels
from app.canvas.layout import ROW_GAP, TextItem, fit_scale, text_size
from app.canvas.theme import Theme
from app.texts.facts import Facts, facts_for
from app.texts.words import say
from engine import Step, Trace, format_number
from engine.format.numbers import format_exact, format_factor
from engine.scenario.op_table import op_table

WORKED_STAGES = op_table("canvas.worked_row", {
    "embed": None, "positions": None, "inputs": None, "norm": None, "projection": None,
    "rope": None, "scores": 0, "weights": 1, "mix": 2, "residual": None, "ffn": None,
    "router": None, "experts": None,
    "transform": None, "logits": None, "softcap": None, "probs": None, "loss": None, "sample": None,
})
"""Which stage of the receiver's arithmetic each op kind's worked row shows, only that one and
the column it is read from: 0 the scores (q·k, ÷ √d_k), 1 the shares (s, exp(s − max), share),
2 the mix (share, share times V row, their sum); None for no worked row."""
WORKED_ROW_POSITIONS = 4
"""The window shows the worked row by default for documents with at most this many positions."""
SIZE = 17
PAD = 10.0
COLUMN_GAP = 22.0
MAX_TERMS = 4
MAX_BANDS = 3
"""The most bands a worked row's table wraps into."""
MAX_FACTOR_PLACES = 8
"""The most decimals a factor of the worked row is printed with so that its arithmetic comes
out by hand as printed (the document's decimals at the least)."""
BAND_GAP = 12.0
"""Space between the bands of a wrapped table."""


@dataclass(frozen=True)
class Table:
    """The words of a worked row: its title, its cells (one list per row, header first) and
    the column drawn bold."""

    title: str
    cells: list[list[str]]
    strong_column: int
    panels: dict[tuple[int, bool], QRectF] = field(default_factory=dict, compare=False,
                                                   repr=False)
    """:meth:`panel`'s answers."""

    def style(self, r: int, c: int) -> tuple[bool, str]:
        """Whether cell (r, c) is bold, and its colour role."""
        return r == 0 or c == self.strong_column, "muted" if r == 0 else "text"

    def panel(self, bands: int, split: bool) -> QRectF:
        """The panel's rectangle wrapped into ``bands`` bands, the title split or not
        (:func:`_placements`), worked out once: each try of the search arranges it again."""
        known = self.panels.get((bands, split))
        if known is None:
            known = self.panels[(bands, split)] = _placements(self, bands, split)[1]
        return QRectF(known)

    @cached_property
    def sizes(self) -> tuple[object, ...]:
        """The title and each cell's size and whether it has words: all its arrangement
        depends on (:func:`_arrangement`)."""
        return self.title, tuple(tuple((text_size(cell, SIZE, self.style(r, c)[0]), cell != "")
                                       for c, cell in enumerate(row))
                                 for r, row in enumerate(self.cells))


Placed = tuple[int, int, float, float]
"""A cell (row, column) and where its text goes (x, y)."""


def title_lines(title: str, split: bool) -> list[str]:
    """The title on one line, or (``split``) on two after its last colon ("… head 1:" over
    "the mix of V"; one line when it has none)."""
    cut = max(title.rfind(":"), title.rfind("："))
    if not split or cut < 0:
        return [title]
    return [title[:cut + 1], title[cut + 1:].strip()]


def _placements(table: Table, bands: int, split: bool = False) -> tuple[list[Placed], QRectF]:
    """Where each cell of ``table`` goes when wrapped into ``bands`` bands (the title on two
    lines when ``split``), and the panel's rectangle: each band starts with its own column of
    keys and holds the rows that have something in its columns."""
    cells = table.cells

    def size(r: int, c: int) -> tuple[float, float]:
        bold, _role = table.style(r, c)
        return text_size(cells[r][c], SIZE, bold)

    heading = [text_size(line, SIZE + 1, True) for line in title_lines(table.title, split)]
    y = PAD + sum(height for _width, height in heading) + 4
    columns = max(len(row) for row in cells)
    widths = [max((size(r, c)[0] for r, row in enumerate(cells) if c < len(row)),
                  default=0.0) for c in range(columns)]
    right = PAD + max(width for width, _height in heading)
    placed: list[Placed] = []
    for band in _bands(widths, bands):
        for r, row in enumerate(cells):
            if r > 0 and not any(row[c] for c in band if c < len(row)):
                continue  # nothing of this row in this band (the total's empty cells)
            x = PAD
            height = 0.0
            for c in (0, *band):
                if c < len(row):
                    placed.append((r, c, x, y))
                    height = max(height, size(r, c)[1])
                x += widths[c] + COLUMN_GAP
            right = max(right, x - COLUMN_GAP)
            y += height
        y += BAND_GAP
    return placed, QRectF(0, 0, right + PAD, y - BAND_GAP + PAD)


class WorkedRow(QGraphicsObject):
    """A worked row's table on a panel, wrapped into ``bands`` bands, its title on two lines
    when ``split`` (:func:`_placements`)."""

    def __init__(self, table: Table, theme: Theme, bands: int = 1, split: bool = False) -> None:
        super().__init__()
        self.title = table.title
        self.cells = table.cells
        self._theme = theme
        y = PAD
        for line in title_lines(table.title, split):
            heading = TextItem(line, theme, size=SIZE + 1, bold=True)
            heading.setParentItem(self)
            heading.setPos(PAD, y)
            y += heading.boundingRect().height()
        placed, self._rect = _placements(table, bands, split)
        for r, c, x, y in placed:
            bold, role = table.style(r, c)
            item = TextItem(table.cells[r][c], theme, size=SIZE, bold=bold, role=role)
            item.setParentItem(self)
            item.setPos(x, y)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(QPen(self._theme.color("grid_line"), 1))
        painter.setBrush(QBrush(self._theme.color("panel")))
        painter.drawRoundedRect(self._rect.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)


def _terms(f: Facts, j: int, places: int) -> str:
    q, k = f.q(f.receiver), f.k(j)
    terms = [f"{format_factor(float(a), places)}·{format_factor(float(b), places)}"
             for a, b in list(zip(q, k, strict=True))[:MAX_TERMS]]
    more = " + …" if len(q) > MAX_TERMS else ""
    return " + ".join(terms) + more + f" = {format_number(f.raw_score(j), places)}"


def _row(values: list[float], places: int) -> str:
    shown = [format_number(v, places) for v in values[:MAX_TERMS]]
    return "[" + ", ".join(shown) + (", …" if len(values) > MAX_TERMS else "") + "]"


def _bands(widths: list[float], bands: int) -> list[list[int]]:
    """The columns after the first shared out in order among at most ``bands`` bands of about
    equal width."""
    rest = list(range(1, len(widths)))
    share = sum(widths[c] for c in rest) / max(1, min(bands, len(rest)))
    groups: list[list[int]] = [[]]
    filled = 0.0
    for c in rest:
        if groups[-1] and filled + widths[c] / 2 > share and len(groups) < bands:
            groups.append([])
            filled = 0.0
        groups[-1].append(c)
        filled += widths[c]
    return groups


def worked_row(ctx: LayoutContext, step: Step, bands: int = 1) -> WorkedRow | None:
    """The worked row of ``step`` for the frame's receiver and first shown head, in ``bands``
    bands, or None at a step that has none."""
    table = _table(ctx, step)
    return None if table is None else WorkedRow(table, ctx.theme, bands)


def _table(ctx: LayoutContext, step: Step) -> Table | None:
    """The words of ``step``'s worked row (its own stage, :data:`WORKED_STAGES`), or None at a
    step that has none."""
    stage = WORKED_STAGES[step.op]
    if stage is None:
        return None
    trace, lang = ctx.trace, ctx.options.lang
    f = facts_for(trace, trace.step_index(step.id), ctx.receiver, ctx.heads[0])
    header, row, total = STAGE_COLUMNS[stage](f, lang, ctx.places)
    cells = [[say("canvas.key", lang), *header]]
    keys = positioned_labels(trace, step.keys or "tokens", lang)  # 好 · p2 where rows repeat
    if len(keys) != len(f.keys):
        keys = list(f.keys)
    for j, key in enumerate(keys):
        cells.append([key, *row(j)] if j in f.visible else [key, say("canvas.masked", lang)])
    if total:
        cells.append([say("canvas.total", lang), *total])
    head = say("canvas.worked_head", lang, n=f.head + 1) if f.heads > 1 else ""
    title = say("canvas.worked_title", lang, token=f.token, head=head,
                stage=say(f"canvas.{STAGE_WORDS[stage]}", lang))
    return Table(title, cells, strong_column=len(header))


Columns = tuple[list[str], Callable[[int], list[str]], list[str]]
"""A stage's column headers, its cells for key j, and its total row's cells (none: empty)."""


def _score_columns(f: Facts, lang: str, places: int) -> Columns:
    """The scores: q·k with its terms, then ÷ √d_k (or √scale_dk)."""
    cap = f.attention.softcap

    def row(j: int) -> list[str]:
        s = format_number(f.scaled_score(j), places)
        cells = [_terms(f, j, places),
                 f"{format_number(f.raw_score(j), places)} ÷ √{f.scale_number} = {s}"
                 if f.scaled else s]
        if cap is not None:
            c = format_exact(cap)
            cells.append(f"{c} · tanh({s} / {c}) = {format_number(f.score(j), places)}")
        return cells

    scaled = (say("canvas.scaled", lang, d_k=f.scale_number) if f.scaled
              else say("canvas.unscaled", lang))
    capped = [say("canvas.capped", lang)] if cap is not None else []
    return [say("canvas.dot", lang), scaled, *capped], row, []


def agreeing_places(places: int, agrees: Callable[[int], bool],
                    most: int = MAX_FACTOR_PLACES) -> int:
    """The fewest decimals, from ``places`` up to ``most``, at which a row's printed factors
    give its printed result by hand (``agrees(p)``): 0.196·20 is 3.92, not the 3.911 that
    0.19557·20 gives."""
    return next((p for p in range(places, most + 1) if agrees(p)), places)


def _by_hand(text: str) -> bool:
    """Whether a printed result is one a hand checks by its decimals (not ``≈1`` or
    ``4.652×10⁻⁸``, whose digits are significant ones)."""
    return "×" not in text and "≈" not in text


def _share_columns(f: Facts, lang: str, places: int) -> Columns:
    """The shares: each score s (what they are read from), exp(s − max), its exp over their
    sum; exp and the sum with as many decimals as the quotients need to give the printed shares
    by hand, and s − max with as many as exp needs."""
    top = max(f.score(j) for j in f.visible)
    exps = {j: float(math.exp(f.score(j) - top)) for j in f.visible}
    whole = sum(f.exps)

    checked = {j: e for j, e in exps.items() if _by_hand(format_number(f.share(j), places))}

    def agrees(p: int) -> bool:
        return all(format_number(round(e, p) / round(whole, p), places)
                   == format_number(f.share(j), places) for j, e in checked.items())

    wide = agreeing_places(places, agrees)
    total = format_number(whole, wide)

    def row(j: int) -> list[str]:
        shifted = f.score(j) - top
        exp = format_number(exps[j], wide if j in checked else places)
        exact = agreeing_places(wide, lambda q: format_number(math.exp(round(shifted, q)),
                                                              wide) == exp, wide + 3) \
            if j in checked else places
        return [format_number(f.score(j), places),
                f"exp({format_number(shifted, exact)}) = {exp}",
                f"{exp} ÷ {total} = {format_number(f.share(j), places)}"]

    header = [say("canvas.score", lang), say("canvas.exp", lang), say("canvas.share", lang)]
    return header, row, ["", total, "1"]


def _mix_columns(f: Facts, lang: str, places: int) -> Columns:
    """The mix: each share (what it is read from), the share times its V row, and their sum,
    the receiver's output row; the products' factors with as many decimals as the sum needs to
    come out by hand as printed."""
    out = [format_number(float(x), places) for x in f.mixed_head()]

    def agrees(p: int) -> bool:
        by_hand = np.sum([round(f.share(j), p) * f.v(j).round(p) for j in f.visible], axis=0)
        return [format_number(float(x), places) for x in by_hand] == out

    wide = agreeing_places(places, agrees) if f.visible and all(map(_by_hand, out)) else places

    def row(j: int) -> list[str]:
        return [format_number(f.share(j), places),
                f"{format_number(f.share(j), wide)}·{_row(list(f.v(j)), wide)}"]

    share = say("canvas.share", lang)
    return ([share, share + " · v"], row,
            ["1", f"= {_row(list(f.mixed_head()), places)}"])


STAGE_COLUMNS: tuple[Callable[[Facts, str, int], Columns], ...] = (
    _score_columns, _share_columns, _mix_columns)
"""Each stage's columns after the keys (by :data:`WORKED_STAGES`)."""
STAGE_WORDS = ("stage_scores", "stage_shares", "stage_mix")
"""The canvas word naming each stage in the title."""


def has_worked_row(options: FrameOptions, step: Step) -> bool:
    """Whether ``step``'s frame draws a worked row with ``options``."""
    return options.worked_row and WORKED_STAGES[step.op] is not None


def add_worked_row(ctx: LayoutContext, step: Step, parent: QGraphicsItem,
                   covered: QRectF, area: QSizeF) -> QRectF:
    """Put the step's worked row (when the options show one) in its own band beside or under
    the picture, or in a free corner of it (right of a part and under another, or in the
    picture's top or bottom right corner, overlapping none: the space a wrapped row or the
    arrows leave), its columns wrapped into as many bands (and its title onto two lines after
    the colon) as lets the two be drawn largest on ``area``; what the picture and the row
    cover together."""
    found = _arranged(ctx, step, parent, covered, area)
    if found is None:
        return covered
    table, (bands, split, x, y) = found
    drawn = WorkedRow(table, ctx.theme, bands, split)
    drawn.setParentItem(parent)
    drawn.setPos(x, y)
    return covered.united(drawn.mapRectToParent(drawn.boundingRect()))


def worked_row_cover(ctx: LayoutContext, step: Step, parent: QGraphicsItem,
                     covered: QRectF, area: QSizeF) -> QRectF:
    """What :func:`add_worked_row` would cover, the row not made: a layout tried only for its
    size (each wrap and arrangement the type scale's search tries) needs no more."""
    found = _arranged(ctx, step, parent, covered, area)
    if found is None:
        return covered
    table, (bands, split, x, y) = found
    return covered.united(table.panel(bands, split).translated(x, y))


def _arranged(ctx: LayoutContext, step: Step, parent: QGraphicsItem, covered: QRectF,
              area: QSizeF) -> tuple[Table, tuple[int, bool, float, float]] | None:
    """The step's worked row (None when the options show none) and its arrangement beside the
    picture covering ``covered`` under ``parent`` (:func:`_arrangement`)."""
    table = _known_table(ctx, step) if has_worked_row(ctx.options, step) else None
    if table is None:
        return None
    parts = [item.mapRectToParent(item.boundingRect().united(item.childrenBoundingRect()))
             for item in parent.childItems()]
    return table, _arrangement(table, covered, parts, area)


TABLES_KEPT = 64
"""Worked rows' tables kept (:func:`_known_table`), the least recently used dropped."""
_tables: OrderedDict[tuple[object, ...], tuple[weakref.ref[Trace], Table | None]] = OrderedDict()


def _known_table(ctx: LayoutContext, step: Step) -> Table | None:
    """:func:`_table`, worded once per trace (while it lives), step, receiver, head, decimals
    and language: the type scale's search places the worked row at every wrap and
    arrangement it tries."""
    key = (id(ctx.trace), step.id, ctx.receiver, ctx.heads[0], ctx.places, ctx.options.lang)
    known = _tables.get(key)
    if known is not None and known[0]() is ctx.trace:
        _tables.move_to_end(key)
        return known[1]
    table = _table(ctx, step)
    _tables[key] = (weakref.ref(ctx.trace), table)
    while len(_tables) > TABLES_KEPT:
        _tables.popitem(last=False)
    return table


ARRANGEMENTS_KEPT = 256
"""Worked rows' arrangements kept (:func:`_arrangement`), the least recently used dropped."""
_arrangements: OrderedDict[tuple[object, ...], tuple[int, bool, float, float]] = OrderedDict()


def _arrangement(table: Table, covered: QRectF, parts: list[QRectF],
                 area: QSizeF) -> tuple[int, bool, float, float]:
    """How many bands the worked row wraps into, whether its title takes two lines, and where
    it goes. Known by the sizes of its words, not the words: an edit that keeps every cell as
    wide (a worked row's numbers at a 2-position document's every edit) arranges it as
    before without trying each arrangement again."""
    key = (table.sizes, covered.getRect(), tuple(part.getRect() for part in parts),
           area.toTuple())
    known = _arrangements.get(key)
    if known is not None:
        _arrangements.move_to_end(key)
        return known
    best: tuple[float, int, bool, QPointF] | None = None
    splits = (False, True) if len(title_lines(table.title, True)) > 1 else (False,)
    for bands in range(1, MAX_BANDS + 1):
        for split in splits:
            size = table.panel(bands, split)
            scale, place = _best_place(covered, parts, size, area)
            if best is None or scale > best[0] * (1 + 1e-9):
                best = (scale, bands, split, place)
    assert best is not None
    found = _arrangements[key] = (best[1], best[2], best[3].x(), best[3].y())
    while len(_arrangements) > ARRANGEMENTS_KEPT:
        _arrangements.popitem(last=False)
    return found


def _best_place(covered: QRectF, parts: list[QRectF], size: QRectF,
                area: QSizeF) -> tuple[float, QPointF]:
    """Where a panel of ``size`` goes, with the scale the picture and it fit ``area`` at: of
    beside or under what ``covered`` holds, or right of one of ``parts`` and under another (or
    level with the top or the bottom of the picture), overlapping none of them, the largest
    (beside, then under the picture first among equals)."""
    beside = (covered.right() + ROW_GAP, covered.top())
    below = (covered.left(), covered.bottom() + ROW_GAP)
    across = np.array(sorted({part.right() + ROW_GAP for part in parts}), dtype=np.float64)
    down = np.array(sorted({covered.top(), covered.bottom() - size.height(),
                            *(part.bottom() + ROW_GAP for part in parts)}), dtype=np.float64)
    corners = np.stack([np.repeat(across, len(down)), np.tile(down, len(across))], axis=1)
    places = np.concatenate([np.array([beside, below], dtype=np.float64), corners])
    scales = _scales(covered, size, places, area)
    free = ~_overlapping(size, places, parts)
    free[:2] = True  # beside or under the picture overlaps nothing of it
    order = np.lexsort((np.arange(len(places)), -scales))
    first = int(order[free[order]][0])
    return float(scales[first]), QPointF(*places[first].tolist())


def _scales(covered: QRectF, size: QRectF, places: npt.NDArray[np.float64],
            area: QSizeF) -> npt.NDArray[np.float64]:
    """For each of ``places``, the scale at which ``covered`` and a panel of ``size`` moved
    there fit ``area`` together: :func:`~app.canvas.layout.fit_scale` of their union, the same
    numbers, for hundreds of corners at once."""
    if covered.isNull() or size.isNull():  # QRectF.united keeps the other rectangle whole
        return np.array([fit_scale(covered.united(size.translated(QPointF(*place))), area)
                         for place in places.tolist()])
    left = np.minimum(covered.x(), size.x() + places[:, 0])
    top = np.minimum(covered.y(), size.y() + places[:, 1])
    width = np.maximum(covered.x() + covered.width(),
                       size.x() + places[:, 0] + size.width()) - left
    height = np.maximum(covered.y() + covered.height(),
                        size.y() + places[:, 1] + size.height()) - top
    with np.errstate(divide="ignore"):
        scales = np.minimum(area.width() / width, area.height() / height)
    return np.where((width <= 0) | (height <= 0), math.inf, scales)


def _overlapping(size: QRectF, places: npt.NDArray[np.float64],
                 parts: list[QRectF]) -> npt.NDArray[np.bool_]:
    """For each of ``places``, whether a panel of ``size`` moved there comes within half a row
    gap of any of ``parts``: ``QRectF.intersects`` of the panel grown by that margin, the same
    arithmetic, for every place at once."""
    margin = ROW_GAP / 2
    if not parts:
        return np.zeros(len(places), dtype=np.bool_)
    left = (size.x() + places[:, 0]) + -margin
    top = (size.y() + places[:, 1]) + -margin
    width = (size.width() + margin) - -margin
    height = (size.height() + margin) - -margin
    l1, r1 = np.minimum(left, left + width), np.maximum(left, left + width)
    t1, b1 = np.minimum(top, top + height), np.maximum(top, top + height)
    others = np.array([part.getRect() for part in parts], dtype=np.float64)
    ox, oy, ow, oh = (others[:, k] for k in range(4))
    l2, r2 = np.minimum(ox, ox + ow), np.maximum(ox, ox + ow)
    t2, b2 = np.minimum(oy, oy + oh), np.maximum(oy, oy + oh)
    across = (l1[:, None] < r2) & (l2 < r1[:, None]) & (l1 != r1)[:, None] & (l2 != r2)
    down = (t1[:, None] < b2) & (t2 < b1[:, None]) & (t1 != b1)[:, None] & (t2 != b2)
    found: npt.NDArray[np.bool_] = (across & down).any(axis=1)
    return found
