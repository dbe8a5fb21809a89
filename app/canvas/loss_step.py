"""The picture of the training loss as a pair of panels. Training, one forward pass: which
positions each position reads (in the first self-attention: a dash where the causal mask hides
one, the answer each position must predict marked) beside each position's p(target) and −ln p, the
mean and the worst. Generation, one pass per token: what each greedy pass from the first token
reads and chooses, with the count of passes each side needs."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.canvas.context import LayoutContext
from app.canvas.grid import MatrixGrid
from app.canvas.layout import place_row
from app.canvas.pieces import custom_grid, number, text_lines
from app.canvas.theme import Theme, fitted_lines
from app.model.next_token import LossView, loss_view, stack_is_causal
from app.model.passes import GenerationPasses, passes_of
from app.texts.next_token_words import generation_lines, training_lines
from app.texts.words import say
from engine import Step, explain
from engine.scenario.op_kinds import steps_of

TEXT_GAP = 12.0
LINE_SIZE = 15
"""The lines under each panel's grids: the size other steps' notes have, near the numbers'."""
HEADING_SIZE = 22
PADDING = 18.0
"""Between a panel's outline and what it holds."""
LINE_WIDTH = 300.0
"""The narrowest a panel's lines wrap at (its heading and grids widen it)."""


class Panel(QGraphicsObject):
    """One side of the pair: an outline around the items laid out in it."""

    def __init__(self, parent: QGraphicsItem, theme: Theme) -> None:
        super().__init__()
        self.setParentItem(parent)
        self._pen = QPen(theme.color("muted"), 1.5)
        self._rect = QRectF()

    def close(self, covered: QRectF) -> None:
        """Outline what the panel's items cover (in its units, from ``PADDING`` in), with a
        margin."""
        self.prepareGeometryChange()
        self._rect = covered.adjusted(-PADDING, -PADDING, PADDING, PADDING)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(self._pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(self._rect, 8, 8)


def _word(ctx: LayoutContext, key: str, **fields: object) -> str:
    return say(f"next_token.{key}", ctx.options.lang, **fields)


def _first_self_attention(ctx: LayoutContext) -> Step:
    """The shares step of the main stack's first self-attention (the one the mask acts on
    first)."""
    n = ctx.trace.scenario.n
    return next(step for step in steps_of(ctx.trace.steps, "weights")
                if step.stack == "decoder"
                and ctx.trace.visible_for(step.scope).shape == (n, n))


def reads_grid(ctx: LayoutContext) -> MatrixGrid:
    """Which positions each position reads in the first self-attention (1; a dash where the
    mask hides one), the position holding each row's target (the next one) marked. The
    columns are the bare tokens, in position order: a cell of one digit leaves no room for
    ``我 · p0`` (a slide's table would wrap it)."""
    scenario = ctx.trace.scenario
    seen = ctx.trace.visible_for(_first_self_attention(ctx).scope)
    targets = scenario.targets
    assert targets is not None
    answer = np.zeros(seen.shape, dtype=bool)
    vocab = ctx.trace.tokens_of("vocab")  # as written, as the tokens are (not as shown)
    for i in range(scenario.n - 1):
        answer[i, i + 1] = scenario.tokens[i + 1] == vocab[targets[i]]
    labels = ctx.labels

    def cell_text(row: int, col: int) -> str:
        key = "reads_tip" if seen[row, col] else "hidden_tip"
        tip = _word(ctx, key, query=labels[row], other=labels[col])
        return f"{tip} · {_word(ctx, 'answer_tip', query=labels[row])}" if answer[row, col] else tip

    return custom_grid(ctx, _word(ctx, "reads_title"), seen.astype(float), labels, ctx.tokens,
                       explain=cell_text, marked=answer if answer.any() else None,
                       blank=None if seen.all() else ~seen, decimals=0,
                       value_range=(0.0, 1.0))


def loss_grid(ctx: LayoutContext, view: LossView) -> MatrixGrid:
    """Each position (to its target) with p(target) and −ln p; the worst row outlined."""
    trace, lang = ctx.trace, ctx.options.lang

    def cell_text(row: int, col: int) -> str:
        name, index = ("probs", (row, view.targets[row])) if col == 0 else ("loss", (row,))
        return explain(trace, name, index, lang).text()

    rows = [_word(ctx, "loss_row", token=token, entry=view.vocab[target], id=target)
            for token, target in zip(view.tokens, view.targets, strict=True)]
    return custom_grid(ctx, _word(ctx, "loss_title"),
                       np.column_stack([view.p_target, view.loss]), rows,
                       [_word(ctx, key) for key in ("col_p_target", "col_loss")],
                       explain=cell_text, highlight_rows=frozenset({view.worst}))


def passes_grid(ctx: LayoutContext, passes: GenerationPasses) -> MatrixGrid:
    """One row per generation pass (what it reads → what it chooses) with p(chosen)."""
    rows = [_word(ctx, "pass_row", k=p.number, reads=" ".join(p.reads), chosen=p.label)
            for p in passes.passes]

    def cell_text(row: int, col: int) -> str:
        return f"{rows[row]} · p = {number(ctx, passes.passes[row].p)}"

    return custom_grid(ctx, _word(ctx, "passes_title"),
                       np.array([[p.p] for p in passes.passes]), rows,
                       [_word(ctx, "col_p_chosen")], explain=cell_text, value_range=(0.0, 1.0))


def _panel(parent: QGraphicsItem, ctx: LayoutContext, heading: str, intro: list[str],
           grids: list[MatrixGrid], lines: list[str]) -> Panel:
    """A panel: its heading, its intro, its grids side by side and its lines, the lines
    wrapped at the grids' width."""
    panel = Panel(parent, ctx.theme)
    x = PADDING
    covered = text_lines(panel, [heading], x, PADDING, ctx, size=HEADING_SIZE, role="text",
                         bold=True)
    grids_rect = place_row(panel, grids, x, 0, ctx.theme) if grids else QRectF()
    width = max(LINE_WIDTH, covered.width(), grids_rect.width())
    wrapped = [part for line in intro for part in fitted_lines(line, width, LINE_SIZE)]
    covered = covered.united(text_lines(panel, wrapped, x, covered.bottom() + 4, ctx,
                                        size=LINE_SIZE, role="text"))
    if grids:  # moved under the intro, which wraps at their width
        covered = covered.united(place_row(panel, grids, x, covered.bottom() + TEXT_GAP,
                                           ctx.theme))
    wrapped = [part for line in lines for part in fitted_lines(line, width, LINE_SIZE)]
    covered = covered.united(text_lines(panel, wrapped, x, covered.bottom() + TEXT_GAP, ctx,
                                        size=LINE_SIZE, role="text"))
    panel.close(covered)
    return panel


def lay_out_loss(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Training's panel (which positions each reads, the loss grid, the mean, the worst and the
    mask's role) beside generation's (one row per pass, the counts)."""
    lang = ctx.options.lang
    view = loss_view(ctx.trace)
    passes = passes_of(ctx.trace)
    causal = stack_is_causal(ctx.trace.scenario)
    targets = " ".join(view.vocab[t] for t in view.targets)
    training = _panel(parent, ctx, _word(ctx, "training"),
                      [_word(ctx, "training_known", n=view.n),
                       _word(ctx, "targets_known", targets=targets)],
                      [reads_grid(ctx), loss_grid(ctx, view)],
                      training_lines(view, lang, ctx.places, causal))
    generation = _panel(parent, ctx, _word(ctx, "generation", n=passes.count),
                        [_word(ctx, "generation_prompt", prompt=passes.prompt),
                         _word(ctx, "generation_reads")],
                        [passes_grid(ctx, passes)] if passes.passes else [],
                        generation_lines(passes, lang))
    return place_row(parent, [training, generation], 0, 0, ctx.theme)
