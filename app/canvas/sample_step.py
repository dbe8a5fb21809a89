"""The picture of the draw of the next token: a ranked table (the model's probability and the
tempered one, the running mass top-p reads, the renormalised share; kept, cut and chosen marked
in words, not colour only) beside one chart of the shares the draw uses, then the settings, the
entropies and the chosen token in four lines."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.bars import MANY_ENTRIES, TOP_ENTRIES, BarsSpec, ProbabilityBars, others_sum
from app.canvas.context import LayoutContext
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.layout import place_row
from app.canvas.pieces import custom_grid, number, text_lines
from app.model.next_token import DrawView, draw_view
from app.texts.next_token_words import draw_lines
from app.texts.words import say
from engine import Step, explain, format_number

TEXT_GAP = 12.0
LINE_SIZE = 15
"""The four lines under the picture: the size other steps' notes have, near the numbers'."""


def _word(ctx: LayoutContext, key: str, **fields: object) -> str:
    return say(f"next_token.{key}", ctx.options.lang, **fields)


def shown_entries(view: DrawView) -> list[int]:
    """The rows of the ranked table: every entry of a small vocabulary, most probable first;
    of a large one the first ones, the kept ones among them and the chosen one."""
    if len(view.ranked) <= MANY_ENTRIES:
        return list(view.ranked)
    shown = list(view.ranked[:TOP_ENTRIES])
    return shown if view.chosen in shown else [*shown, view.chosen]


def draw_shape(view: DrawView) -> tuple[object, ...]:
    """What of the run's settings shapes the picture, beyond the widths of its numbers: greedy
    or not, whether top-k and top-p cut (the marks, the running mass, the lines), and how many
    rows the ranked table has. A temperature dragged or a seed changed keeps the shape, so its
    size is measured once, not on every step of the slider."""
    s = view.settings
    return s.temperature == 0, s.top_k is None, s.top_p < 1.0, len(shown_entries(view))


def share_bars(ctx: LayoutContext, view: DrawView, legend: str) -> ProbabilityBars:
    """The chart of the shares the draw uses (cut entries at 0), over the entries the ranked
    table shows and in its order, printed at the table's number size so the two read across;
    a click on a bar picks its entry (its vocabulary id, not its place in the chart)."""
    shown = shown_entries(view)
    token = ctx.tokens[view.position]
    title = _word(ctx, "share_bars", kept=len(view.kept),
                  t=format_number(view.settings.temperature))
    spec = BarsSpec(probs=view.shares[shown][None, :], vocab=[view.vocab[e] for e in shown],
                    positions=[0], receiver=0,
                    group_titles=[_word(ctx, "bars_of", token=token, i=view.position)],
                    title=title, legend=legend, places=ctx.places, text_size=NUMBER_SIZE,
                    ids=shown, others={} if len(shown) == len(view.vocab) else {0: (
                        say("block.probs_others", ctx.options.lang,
                            count=f"{len(view.vocab) - len(shown):,}"),
                        _left_out(ctx, view, shown))})
    return ProbabilityBars(spec, ctx.theme)


def _left_out(ctx: LayoutContext, view: DrawView, shown: list[int]) -> float:
    """The summed share of the entries the chart leaves out, once per layout context (the
    type scale's search lays the draw out about 100 times; Llama 3's vocabulary is 128,256
    entries)."""
    key = ("shares left out", view.t)
    known: float | None = ctx.worded.get(key)
    if known is None:
        known = ctx.worded[key] = others_sum(view.shares, shown)
    return known


def _mark(ctx: LayoutContext, view: DrawView, entry: int) -> str:
    mark = _word(ctx, "kept_mark" if entry in view.kept_ids else "cut_mark")
    return f"{mark} {_word(ctx, 'chosen_mark')}" if entry == view.chosen else mark


def ranked_table(ctx: LayoutContext, step: Step, view: DrawView) -> MatrixGrid:
    """Rows most probable first (marked kept, cut or chosen); columns p at T = 1, p at T, the
    running mass over what top-k kept (a dash past top-k's cut, where top-p reads nothing),
    the renormalised share."""
    rows = shown_entries(view)
    rank = {entry: view.ranks[entry] for entry in rows}
    values = np.array([[view.probs[e], view.tempered[e], view.running[rank[e] - 1],
                        view.shares[e]] for e in rows])
    past = np.zeros(values.shape, dtype=bool)
    past[:, 2] = [rank[e] > view.counted for e in rows]
    t = format_number(view.settings.temperature)
    k = view.settings.top_k
    prefix = step.writes[0].rsplit(".", 1)[0]
    trace = ctx.trace

    def cell_text(row: int, col: int) -> str:
        entry = rows[row]
        if col == 2:
            if past[row, col]:
                return _word(ctx, "running_past", rank=rank[entry], k=k)
            return _word(ctx, "running_text", rank=rank[entry], value=number(
                ctx, float(values[row, col])))
        name, index = {0: ("probs", (view.position, entry)),
                       1: (f"{prefix}.tempered", (entry,)),
                       3: (f"{prefix}.sample_probs", (entry,))}[col]
        return explain(trace, name, index, ctx.options.lang).text()

    labels = [_word(ctx, "ranked_row", rank=rank[e], entry=view.vocab[e], mark=_mark(ctx, view, e))
              for e in rows]
    running = _word(ctx, "col_running") if k is None else _word(ctx, "col_running_k", k=k)
    cols = [_word(ctx, "col_model"), _word(ctx, "col_tempered", t=t), running,
            _word(ctx, "col_share")]
    return custom_grid(ctx, _word(ctx, "ranked_title"), values, labels, cols, explain=cell_text,
                       highlight_rows=frozenset(r for r, e in enumerate(rows)
                                                if e in view.kept_ids),
                       value_range=(0.0, 1.0), blank=past if past.any() else None,
                       note=_word(ctx, "past_note", k=k) if past.any() else "")


def lay_out_sample(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The ranked table with the chart of the shares beside it (under it on a narrow sheet),
    then four lines."""
    view = draw_view(ctx.trace, step)
    shown, size = shown_entries(view), len(view.vocab)
    key = "shown_of" if view.chosen in shown[:TOP_ENTRIES] else "shown_of_chosen"
    cut = _word(ctx, key, k=TOP_ENTRIES, v=size) if len(shown) < size else ""
    rect = place_row(parent, [ranked_table(ctx, step, view), share_bars(ctx, view, cut)], 0, 0,
                     ctx.theme)
    place = ctx.options.run_place
    lines = draw_lines(view, ctx.options.lang, ctx.places, place.id if place else None)
    note = text_lines(parent, lines, 0, rect.bottom() + TEXT_GAP, ctx, size=LINE_SIZE,
                      role="text")
    return rect.united(note)
