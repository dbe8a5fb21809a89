"""The picture of the training loss: each position's token, its target, the probability the
model gives the target and −ln of it, the mean, and the count of forward passes training and
generation need for the same tokens."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.context import LayoutContext
from app.canvas.pieces import custom_grid, text_lines
from app.model.next_token import loss_view, stack_is_causal
from app.texts.next_token_words import loss_lines, next_token_word
from engine import Step, explain

TEXT_GAP = 12.0
INDENT = "    "
"""Before the reason under the training and the generation line."""


def lay_out_loss(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """A grid (p(target), −ln p) with a row per position and its target, then the mean, the worst
    position and the two lines: training (1 pass) and generation (n passes)."""
    lang = ctx.options.lang
    view = loss_view(ctx.trace)
    values = np.column_stack([view.p_target, view.loss])
    trace = ctx.trace

    def cell_text(row: int, col: int) -> str:
        name, index = ("probs", (row, view.targets[row])) if col == 0 else ("loss", (row,))
        return explain(trace, name, index, lang).text()

    rows = [next_token_word(lang, "loss_row", token=token, entry=view.vocab[target], id=target)
            for token, target in zip(view.tokens, view.targets, strict=True)]
    grid = custom_grid(ctx, next_token_word(lang, "loss_title"), values, rows,
                       [next_token_word(lang, key) for key in ("col_p_target", "col_loss")],
                       explain=cell_text, highlight_rows=frozenset({view.worst}))
    grid.setParentItem(parent)
    rect = grid.mapRectToParent(grid.boundingRect())
    lines = loss_lines(view, lang, ctx.places, stack_is_causal(trace.scenario), INDENT)
    note = text_lines(parent, lines, 0, rect.bottom() + TEXT_GAP, ctx, size=15, role="text")
    return rect.united(note)
