"""Pictures of the two ends of the model: token ids → embedding rows, and logits → probabilities."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from app.canvas.bars import (
    BAR_LENGTH,
    MANY_ENTRIES,
    TOP_ENTRIES,
    BarsSpec,
    ProbabilityBars,
    entries_shown,
    others_sum,
)
from app.canvas.context import LayoutContext, numbered
from app.canvas.corner import row_width
from app.canvas.grid import NUMBER_SIZE
from app.canvas.layout import (
    ROW_GAP,
    RowPart,
    part_rows,
    part_shown,
    place_row,
    place_rows,
    wrap_width,
)
from app.canvas.pieces import custom_grid, number, text_lines, word
from app.model.operands import parameter_path
from app.texts.words import joined
from engine import Step
from engine.format.mapped_weight import looked_up
from engine.format.numbers import format_exact
from engine.forward.masked_lm import fills, masked_positions
from engine.scenario.names import short_name

TEXT_GAP = 12.0
MANY_TABLE_ROWS = 24
"""A larger embedding table shows only the rows the ids pick."""
MANY_BAR_GROUPS = 4
"""With more positions the probabilities show the receiver's bars only."""
COMPACT_BAR = 130.0
"""How long a bar of probability 1 is in a compact chart (every group in one row)."""


def lay_out_embed(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The ids, the table with the picked rows outlined, and the picked rows forming X."""
    scenario = ctx.trace.scenario
    stack = getattr(scenario, "encoder", None) if step.stack == "encoder" else scenario
    table = getattr(stack, "embedding", None)
    table = scenario.embedding if table is None else table
    assert stack is not None and stack.token_ids is not None and table is not None
    ids = list(stack.token_ids)
    shown = list(range(table.shape[0])) if table.shape[0] <= MANY_TABLE_ROWS \
        else sorted(set(ids))
    picked_by: dict[int, list[str]] = {}  # each token once: "[UNK], [UNK]" told nothing more
    for token, row in zip(ctx.tokens, ids, strict=True):
        if token not in picked_by.setdefault(row, []):
            picked_by[row].append(token)
    rows = looked_up(table, shown)  # row k: the table's row shown[k]
    at = {r: k for k, r in enumerate(shown)}
    features = numbered(table.shape[1])
    id_grid = custom_grid(ctx, word(ctx, "embed_ids"), np.array(ids, dtype=np.float64)[:, None],
                          ctx.tokens, [word(ctx, "embed_id")], decimals=0,
                          highlight_receiver=True, value_range=(0.0, 0.0))

    def table_text(row: int, col: int) -> str:
        r = shown[row]
        who = joined(picked_by.get(r, []), ctx.options.lang)
        return f"embedding[{r},{col}] = {number(ctx, float(rows[row, col]))}" + \
            (f" · {word(ctx, 'embed_pair', token=who, id=r)}" if who else "")

    table_grid = custom_grid(
        ctx, word(ctx, "embed_table"), rows, [
            f"{r} · {', '.join(picked_by[r])}" if r in picked_by else str(r) for r in shown],
        features, explain=table_text,
        highlight_rows=frozenset(k for k, r in enumerate(shown) if r in picked_by))

    scale = stack.embedding_scale
    picked = rows[[at[i] for i in ids]] if scale is not None else ctx.array(step.writes[0])
    name = word(ctx, "embed_picked_name") if scale is not None else short_name(step.writes[0])

    def x_text(row: int, col: int) -> str:
        return (f"{name}[{row},{col}] = embedding[{ids[row]},{col}] = "
                f"{number(ctx, float(rows[at[ids[row]], col]))}")

    x_grid = custom_grid(ctx, word(ctx, "embed_picked" if scale is not None else "embed_x"),
                         picked, [word(ctx, "embed_row", token=t, id=i)
                                  for t, i in zip(ctx.tokens, ids, strict=True)],
                         features, explain=x_text, highlight_receiver=True)
    parts: list[RowPart] = [id_grid, word(ctx, "embed_pick"), table_grid, "→", x_grid]
    pairs = " · ".join(word(ctx, "embed_pair", token=t, id=i)
                       for t, i in zip(ctx.tokens, ids, strict=True))
    notes = [word(ctx, "embed_note", pairs=pairs)]
    if scale is not None:
        factor = format_exact(scale)
        parts += [f"× {factor} =", ctx.grid(step.writes[0], highlight_receiver=True,
                                              title=word(ctx, "embed_scaled", scale=factor))]
        notes.append(word(ctx, "embed_scale_note", scale=factor))
    rect = place_row(parent, parts, 0, 0, ctx.theme)
    note = text_lines(parent, notes, 0, rect.bottom() + TEXT_GAP, ctx, size=15, role="text")
    return rect.united(note)


def lay_out_logits(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The block's output rows times the vocabulary head: one score per entry."""
    source = step.reads[0]
    rect = place_row(parent, [ctx.grid(source, highlight_receiver=True), "·",
                              ctx.grid(parameter_path(step, "unembed")), "=",
                              ctx.grid(step.writes[0],
                                       title=word(ctx, "logits_title", source=short_name(source)),
                                       highlight_receiver=True)], 0, 0, ctx.theme)
    note = text_lines(parent, [word(ctx, "logits_note")], 0, rect.bottom() + TEXT_GAP, ctx)
    rect = rect.united(note)
    if len(ctx.vocab) > MANY_ENTRIES:
        rect = rect.united(_top_logits(ctx, step, parent, rect.bottom() + ROW_GAP))
    return rect


def lay_out_softcap(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """The uncapped logits → c · tanh(x / c) → the capped logits, every number printed."""
    head = ctx.trace.scenario.head
    assert head is not None and head.softcap is not None
    cap = format_exact(head.softcap)
    rect = place_row(parent, [
        ctx.grid(step.reads[0], title=word(ctx, "softcap_uncapped"), highlight_receiver=True),
        word(ctx, "softcap_arrow", cap=cap),
        ctx.grid(step.writes[0], title=word(ctx, "softcap_capped", cap=cap),
                 highlight_receiver=True)], 0, 0, ctx.theme)
    note = text_lines(parent, [word(ctx, "softcap_note", cap=cap)], 0,
                      rect.bottom() + TEXT_GAP, ctx)
    return rect.united(note)


def _top_logits(ctx: LayoutContext, step: Step, parent: QGraphicsItem, top: float) -> QRectF:
    """A large vocabulary's logits for the receiver: the entries its probabilities rank
    first, in that order, printed; where the others lie."""
    logits = ctx.array(step.writes[0])[ctx.receiver]
    shown = entries_shown(logits)  # softmax keeps the order: the most probable entries
    low, high = _left_out_ends(ctx, step.writes[0], logits, shown)
    explain = ctx.grid(step.writes[0]).spec.explain
    assert explain is not None
    receiver = ctx.receiver

    def cell_text(_row: int, col: int) -> str:
        return explain(receiver, shown[col])

    grid = custom_grid(ctx, word(ctx, "logits_top", token=ctx.tokens[receiver], k=len(shown)),
                       logits[shown][None, :], [ctx.labels[receiver]],
                       [str(ctx.vocab[e]) for e in shown], explain=cell_text,
                       note=word(ctx, "logits_others", count=f"{len(logits) - len(shown):,}",
                                 low=number(ctx, low), high=number(ctx, high)))
    return place_row(parent, [grid], 0, top, ctx.theme)


def _left_out_ends(ctx: LayoutContext, name: str, logits: npt.NDArray[np.float64],
                   shown: list[int]) -> tuple[float, float]:
    """The smallest and the largest of the receiver's logits ``logits`` (of the array
    ``name``) the grid leaves out, once per layout context: the type scale's search lays the
    step out a dozen times, each copying Llama 3's 128,256 logits but ten."""
    key = ("logits left out", name, ctx.receiver)
    known: tuple[float, float] | None = ctx.worded.get(key)
    if known is None:
        rest = np.delete(logits, shown)
        known = ctx.worded[key] = (float(rest.min()), float(rest.max()))
    return known


def probability_bars(ctx: LayoutContext, step: Step, compact: bool = False) -> ProbabilityBars:
    """The bars of every position (or of the receiver alone when there are many), their
    probabilities printed at the size of the logits' numbers beside them, two groups a row;
    ``compact``: every group in one row, the bars shorter (a chart under the logits)."""
    probs = ctx.array(step.writes[0])
    many = ctx.n > MANY_BAR_GROUPS
    positions = [ctx.receiver] if many else list(range(ctx.n))
    titles = [word(ctx, "probs_receiver", token=ctx.tokens[p]) if p == ctx.receiver
              else ctx.tokens[p] for p in positions]
    notes = [word(ctx, "probs_legend")]
    cut = probs.shape[1] > MANY_ENTRIES
    if many:
        notes.append(word(ctx, "probs_receiver_only", n=ctx.n))
    if cut:
        notes.append(word(ctx, "probs_top", k=TOP_ENTRIES, v=f"{probs.shape[1]:,}"))
    columns = len(positions) if compact else 2 if len(positions) > 2 else 1
    left_out = probs.shape[1] - TOP_ENTRIES
    others = {p: (word(ctx, "probs_others", count=f"{left_out:,}"),
                  others_sum(probs[p], entries_shown(probs[p])))
              for p in positions} if cut else {}
    spec = BarsSpec(probs=probs, vocab=ctx.vocab, positions=positions, receiver=ctx.receiver,
                    group_titles=titles, title=word(ctx, "probs_title"),
                    legend=("\n" if cut else "; ").join(notes),  # cut: a note a line
                    columns=columns, places=ctx.places,
                    text_size=NUMBER_SIZE, bar_length=COMPACT_BAR if compact else BAR_LENGTH,
                    others=others)
    return ProbabilityBars(spec, ctx.theme)


def lay_out_probs(ctx: LayoutContext, step: Step, parent: QGraphicsItem) -> QRectF:
    """Logits → softmax per row → labelled bars with the probabilities printed; while that
    row would wrap, the bars in one compact row under the logits when they fit the width.
    Split over slides (:func:`~app.canvas.layout.part_rows`): the logits, then ``softmax →``
    the bars (and the filled blanks)."""
    logits, bars = ctx.grid(step.reads[0], highlight_receiver=True), probability_bars(ctx, step)
    row: list[QGraphicsItem | str] = [logits, word(ctx, "softmax_rows"), bars]
    limit = wrap_width()
    rect = None
    if part_shown() is not None:
        kept = part_rows([row])
        rect = place_rows(parent, kept, 0, 0, ctx.theme)
        if not any(piece is bars for pieces in kept for piece in pieces):
            return rect  # the blanks are filled with the bars
    elif limit is not None and row_width(row) > limit:
        compact = probability_bars(ctx, step, compact=True)
        if compact.boundingRect().width() <= limit:
            top = place_row(parent, row[:2], 0, 0, ctx.theme)
            rect = top.united(place_row(parent, [compact], 0, top.bottom() + ROW_GAP,
                                        ctx.theme))
    rect = place_row(parent, row, 0, 0, ctx.theme) if rect is None else rect
    blanks = fill_lines(ctx, step)
    if not blanks:
        return rect
    return rect.united(text_lines(parent, blanks, 0, rect.bottom() + TEXT_GAP, ctx, size=16,
                                  role="text", bold=True))


def fill_lines(ctx: LayoutContext, step: Step) -> list[str]:
    """"Fill the blank": a line for each ``[MASK]`` position of a masked-language model, its
    most probable entry printed as the filled word, then the next ones."""
    probs = ctx.array(step.writes[0])
    lines = []
    for p in masked_positions(ctx.trace.scenario):
        (best, share), *rest = fills(probs, p)
        others = word(ctx, "fill_separator").join(f"{ctx.vocab[v]} {number(ctx, q)}"
                                                  for v, q in rest)
        lines.append(word(ctx, "fill_blank", position=p, entry=ctx.vocab[best],
                          p=number(ctx, share), others=others))
    return lines
