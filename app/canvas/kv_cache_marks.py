"""The KV cache, seen: on the attention frames of a generated token, an outline round the rows
the cache reuses (dashed), the rows that left the window (dash-dot), the rows computed at
earlier tokens (dotted) and the new row (solid), and lines under the picture saying which is
which, in words (never by colour alone)."""

from __future__ import annotations

from collections.abc import Sequence

import shiboken6
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.context import LayoutContext
from app.canvas.grid import MatrixGrid
from app.canvas.layout import ROW_GAP, TextItem
from app.canvas.pieces import text_lines
from app.model.cache_rows import CacheRows, cache_rows
from app.model.operands import array_name
from app.texts.cache_words import row_span
from app.texts.words import say
from engine import Step

STYLES: dict[str, Qt.PenStyle] = {
    "reused": Qt.PenStyle.DashLine,
    "dropped": Qt.PenStyle.DashDotLine,
    "earlier": Qt.PenStyle.DotLine,
    "new": Qt.PenStyle.SolidLine,
}
"""The outline of each kind of row."""
TAG_GAP = 8.0
INSETS = {"new": 3.0}
"""How far inside its rows an outline's top and bottom run (the new row's clears the
receiver's outline); the digits sit 6 units further in."""
OUTSET = 3.0
"""How far outside the first and last columns an outline's sides run: in the gap before the
row labels and the tags, never through a number's first or last character."""
PEN_WIDTH = 2.2


class CacheBand(QGraphicsRectItem):
    """The outline round consecutive rows of a grid, ``kind`` one of :data:`STYLES`: its
    dashes in the text's ink over a halo of the paper's, so they show on dark and light cells
    alike."""

    def __init__(self, grid: MatrixGrid, rows: Sequence[int], kind: str) -> None:
        cols = grid.spec.values.shape[1]
        inset = INSETS.get(kind, 1.0)
        band = grid.cell_rect(rows[0], 0).united(grid.cell_rect(rows[-1], cols - 1))
        super().__init__(band.adjusted(-OUTSET, inset, OUTSET, -inset), grid)
        self.kind = kind
        self.rows = tuple(rows)
        self._halo = QPen(grid.theme.color("background"), PEN_WIDTH + 2.0)
        pen = QPen(grid.theme.color("text"), PEN_WIDTH, STYLES[kind])
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        self.setPen(pen)
        self.setBrush(Qt.BrushStyle.NoBrush)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(self._halo)
        painter.drawRect(self.rect())
        painter.setPen(self.pen())
        painter.drawRect(self.rect())


def _tag(grid: MatrixGrid, band: CacheBand, words: str, parent: QGraphicsItem) -> QRectF | None:
    """``words`` right of the grid's cells (not of its title or note, which may run wider),
    level with ``band``, when nothing else of the picture (nor of the group the grid is in) is
    there (the outline and the lines under the picture say it anyway); where it went."""
    item = TextItem(words, grid.theme, size=15, role="text")
    right = grid.cell_rect(0, grid.spec.values.shape[1] - 1).right() + TAG_GAP
    middle = band.rect().center().y() - item.boundingRect().height() / 2
    covers = grid.mapRectToItem(parent, item.boundingRect().translated(right, middle))
    group = grid.parentItem()  # a corner product's grids are its children
    neighbours = parent.childItems() + (group.childItems() if group not in (None, parent)
                                        else [])
    if any(other is not grid and not other.isAncestorOf(grid) and covers.intersects(
            other.mapRectToItem(parent, other.boundingRect())) for other in neighbours):
        return None  # the tag, never placed, goes with its last reference
    item.setParentItem(grid)
    item.setPos(right, middle)
    return covers


def _bands(marks: CacheRows, part: str) -> list[tuple[tuple[int, ...], str, str]]:
    """The outlines of a grid of ``part`` and the key of each one's tag: ``"kv"`` (a
    self-attention's K or V), ``"memory"`` (a cross-attention's K or V), ``"rows"`` (Q and every
    query-row array)."""
    if part == "memory":
        return [(tuple(range(marks.memory)), "reused", "tag_once")]
    new = ((marks.new,), "new", "tag_new")
    if part == "rows":
        return [band for band in ((marks.earlier, "earlier", "tag_earlier"), new) if band[0]]
    return [band for band in ((marks.dropped, "dropped", "tag_dropped"),
                              (marks.reused, "reused", "tag_reused"), new) if band[0]]


def _part(step: Step, name: str, marks: CacheRows) -> str | None:
    """Which rows a grid of the array ``name`` shows (see :func:`_bands`), or None."""
    if marks.role != "queries":
        if name == array_name(step, "Q"):
            return "rows"
        if name in (array_name(step, "K"), array_name(step, "V")):
            return "memory" if marks.role == "memory" else "kv"
        return None
    return "rows" if name in step.writes else None


def _lines(lang: str, marks: CacheRows) -> list[str]:
    """What the outlines mean, the heading first."""
    lines = [say("cache_marks.heading", lang, t=marks.token)]
    new = row_span(lang, (marks.new,))
    earlier = row_span(lang, marks.earlier)
    if marks.role == "queries":
        return [*lines, say("cache_marks.earlier", lang, rows=earlier),
                say("cache_marks.new_query", lang, row=new, seen=marks.seen)]
    if marks.role == "memory":
        lines.append(say("cache_marks.memory", lang, rows=row_span(lang, range(marks.memory))))
    else:
        if marks.dropped:
            lines.append(say("cache_marks.dropped", lang, rows=row_span(lang, marks.dropped),
                             w=marks.window))
        if marks.reused:
            lines.append(say("cache_marks.reused", lang, rows=row_span(lang, marks.reused)))
    lines += [say("cache_marks.queries_earlier", lang, rows=earlier),
              say("cache_marks.new_row", lang, row=new, n=marks.new + 1)]
    if marks.role == "projection" and marks.groups < marks.heads:
        lines.append(say("cache_marks.groups_one" if marks.groups == 1
                         else "cache_marks.groups_many", lang, g=marks.groups, h=marks.heads))
    return lines


def _in_picture(parent: QGraphicsItem, grids: Sequence[tuple[str, MatrixGrid]]
                ) -> list[tuple[str, MatrixGrid]]:
    """The ``grids`` placed under ``parent``: a step shown in parts makes every head's grids
    and places one part's (the others' are let go, with the group holding them)."""
    return [(name, grid) for name, grid in grids
            if shiboken6.isValid(grid) and parent.isAncestorOf(grid)]


def mark_kv_cache(ctx: LayoutContext, step: Step, parent: QGraphicsItem, covered: QRectF,
                  grids: Sequence[tuple[str, MatrixGrid]]) -> QRectF:
    """Outline the rows of the step's ``grids`` (array name, grid) the cache accounts for, and
    say under ``covered`` what each outline means; what the picture covers then. Nothing for a
    document without a generation run or a step the cache does not concern."""
    marks = cache_rows(ctx.trace, step)
    if marks is None:
        return covered
    lang = ctx.options.lang
    for name, grid in _in_picture(parent, grids):
        part = _part(step, name, marks)
        if part is None or grid.spec.values.shape[0] != (marks.memory if part == "memory"
                                                         else marks.new + 1):
            continue
        for rows, kind, tag in _bands(marks, part):
            tagged = _tag(grid, CacheBand(grid, rows, kind), say(f"cache_marks.{tag}", lang),
                          parent)
            covered = covered if tagged is None else covered.united(tagged)
    words = _lines(lang, marks)
    heading = text_lines(parent, words[:1], 0, covered.bottom() + ROW_GAP / 2, ctx, size=17,
                         role="text", bold=True)
    rest = text_lines(parent, words[1:], 0, heading.bottom() + 2, ctx, size=16, role="text")
    return covered.united(heading).united(rest)


__all__ = ["STYLES", "CacheBand", "mark_kv_cache"]
