"""Small building blocks for step pictures: grids of computed values and lines of text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext, positioned_labels
from app.canvas.grid import Explainer, GridSpec, MatrixGrid
from app.canvas.layout import ROW_GAP, TextItem
from app.canvas.theme import fitted_lines
from app.texts.mask_plans import beyond_causal, mask_rule
from app.texts.words import say
from engine import Step
from engine.numbers import format_exact, format_number

LINE_GAP = 4.0
NOTE_SIZE = 15
"""The size of a sentence under a step's grids."""


def word(ctx: LayoutContext, key: str, **fields: object) -> str:
    """A block-frame word in the frame's language."""
    return say(f"block.{key}", ctx.options.lang, **fields)


def number(ctx: LayoutContext, value: float) -> str:
    """A number as the frame's grids print it."""
    return format_number(value, ctx.places)


def small_constant(value: float) -> str:
    """ε and the like, exactly as the hover and the editor write them (``1.5×10⁻¹²``)."""
    return format_exact(value)


def custom_grid(ctx: LayoutContext, title: str, values: npt.NDArray[np.float64],
                rows: Sequence[str], cols: Sequence[str], *, explain: Explainer | None = None,
                note: str = "", highlight_receiver: bool = False,
                highlight_rows: frozenset[int] | None = None,
                marked: npt.NDArray[np.bool_] | None = None,
                blank: npt.NDArray[np.bool_] | None = None,
                asked: npt.NDArray[np.bool_] | None = None, decimals: int | None = None,
                value_range: tuple[float, float] | None = None, swatch: str = "",
                shows: str | None = None) -> MatrixGrid:
    """A grid of values that are not a named trace array (row statistics, z, B − A …), or of
    trace array ``shows`` labelled its own way (RoPE's angles): that one is listed among the
    grids made, so a comparison outlines it where A and B differ. ``blank`` cells print a
    dash, greyed as masked cells are; ``asked`` cells are an exercise's blanks
    (:attr:`GridSpec.asked`)."""
    if highlight_rows is None:
        highlight_rows = frozenset({ctx.receiver}) if highlight_receiver else frozenset()
    spec = GridSpec(title=title, values=values, row_labels=list(rows), col_labels=list(cols),
                    value_range=value_range, highlight_rows=highlight_rows, marked=marked,
                    blank=blank, masked=blank, asked=asked,
                    note=note, swatch=swatch, explain=explain, lang=ctx.options.lang,
                    decimals=ctx.places if decimals is None else decimals)
    grid = MatrixGrid(spec, ctx.theme)
    if shows is not None:
        ctx.made.append((shows, grid))
    return grid


def text_lines(parent: QGraphicsItem, lines: Sequence[str], x: float, y: float,
               ctx: LayoutContext, *, size: int = 14, role: str = "muted",
               bold: bool = False) -> QRectF:
    """Lines of text one under the other from (x, y); returns what they cover."""
    covered = QRectF(x, y, 0, 0)
    for line in lines:
        if not line:
            continue
        item = TextItem(line, ctx.theme, size=size, role=role, bold=bold)
        item.setParentItem(parent)
        item.setPos(x, y)
        rect = item.mapRectToParent(item.boundingRect())
        covered = covered.united(rect)
        y = rect.bottom() + LINE_GAP
    return covered


def sentences_under(parent: QGraphicsItem, covered: QRectF, sentences: Sequence[str],
                    ctx: LayoutContext) -> QRectF:
    """``sentences`` (the empty ones left out) under what ``covered`` holds, in lines no wider
    than it; what both cover."""
    lines = [line for sentence in sentences if sentence
             for line in fitted_lines(sentence, covered.width(), NOTE_SIZE)]
    text = text_lines(parent, lines, covered.left(), covered.bottom() + ROW_GAP / 2, ctx,
                      size=NOTE_SIZE, role="text")
    return covered.united(text)


def mask_words(ctx: LayoutContext, step: Step, att: Any) -> tuple[str, str]:
    """A scores grid's note on the hatched cells and, when a window or a key mask hides keys,
    the sentence under the grids naming every rule (too long for a note under one grid)."""
    lang = ctx.options.lang
    if not beyond_causal(att):
        return say("frame.mask_note_causal", lang), ""
    keys = positioned_labels(ctx.trace, step.keys or step.rows, lang)
    rule = mask_rule(att, keys)
    assert rule is not None  # a window or a key mask is a rule
    return say("frame.mask_note", lang), say("frame.mask_rule", lang, rule=rule.words(lang))
