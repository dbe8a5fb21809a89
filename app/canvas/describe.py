"""A frame in words: the text alternative a screen reader reads for the canvas."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np
import numpy.typing as npt

from app.canvas.context import FrameOptions
from app.model.next_token import draw_view, loss_view, stack_is_causal
from app.model.operands import array_name, tokens_of, visible_of
from app.model.passes import passes_of
from app.texts.next_token_words import draw_lines, loss_lines
from app.texts.printed import printed_places
from app.texts.words import say
from engine import Step, Trace, format_number
from engine.scenario.op_table import op_table

MAX_VALUES = 12
"""A row longer than this is cut with an ellipsis."""


def _row(values: npt.NDArray[np.float64],
         blank: Callable[[int], str | None] = lambda _col: None) -> str:
    """The numbers of a row (of 50,257 only the first are formatted); a column an exercise
    leaves blank says so (:func:`_blank_words`)."""
    shown = [said if (said := blank(c)) is not None else format_number(float(v), 3)
             for c, v in enumerate(values[:MAX_VALUES])]
    return ", ".join(shown) + (", …" if len(values) > MAX_VALUES else "")


def describe_frame(trace: Trace, step_index: int, options: FrameOptions, title: str) -> str:
    """One sentence naming the step, then the numbers of the receiver in focus.

    On the softmax and mix steps these are the receiver's shares ("share from 爱 to 我: 0.804;
    share from 爱 to 爱: 0.196"); on the other steps, the receiver's row of each array the step
    writes. Words are in ``options.lang``.
    """
    lang = options.lang
    steps = trace.steps
    k = max(0, min(len(steps) - 1, step_index))
    step = steps[k]
    n = len(tokens_of(trace, step.rows))
    receiver = n - 1 if options.receiver is None else max(0, min(n - 1, options.receiver))
    parts = [say("frame.frame_summary", lang, n=k + 1, count=len(steps), title=title)]
    facts = FACTS[step.op](trace, step, receiver, options)
    if facts:
        parts.append(say("frame.note_join", lang).join(facts))
    return " ".join(parts)


Facts = Callable[[Trace, Step, int, FrameOptions], list[str]]
"""The facts of a step's frame for the receiver (an index of the step's rows)."""


def _shares(trace: Trace, step: Step, receiver: int, options: FrameOptions) -> list[str]:
    """The receiver's share from each key, per head shown (masked keys said as such)."""
    lang = options.lang
    tokens = tokens_of(trace, step.rows)
    weights_name = array_name(step, "weights")
    weights = trace.arrays[weights_name]
    visible = visible_of(trace, step)
    count = weights.shape[0]  # this layer's heads: a stack's layers may differ
    heads = range(count) if options.head is None else [min(options.head, count - 1)]
    facts: list[str] = []
    for h in heads:
        prefix = say("frame.head_prefix", lang, n=h + 1) if weights.shape[0] > 1 else ""
        for j, token in enumerate(tokens_of(trace, step.keys)):
            if not visible[receiver, j]:
                facts.append(prefix + say("frame.share_masked", lang, key=token,
                                          query=tokens[receiver]))
                continue
            blank = _blank_words(options, weights_name, (h, receiver, j))
            share = blank if blank is not None \
                else format_number(float(weights[h, receiver, j]), 3)
            facts.append(prefix + say("frame.share_from_to", lang, query=tokens[receiver],
                                      key=token, share=share))
    return facts


def _blank_words(options: FrameOptions, name: str, index: tuple[int, ...]) -> str | None:
    """``blank`` (with the last Check's ✓ or ✗) where the frame leaves the cell ``index`` of
    ``name`` blank for an exercise; None where it shows the number."""
    blanks = options.blanks
    mask = blanks.masks.get(name) if blanks is not None else None
    if blanks is None or mask is None or not mask[index]:
        return None
    right = blanks.marks.get((name, index))
    key = "blank" if right is None else "blank_right" if right else "blank_wrong"
    return say(f"exercise.{key}", options.lang)


def _blank_in_row(options: FrameOptions, name: str, row: tuple[int, ...],
                  col: int) -> str | None:
    return _blank_words(options, name, (*row, col))


def _written_rows(trace: Trace, step: Step, receiver: int, options: FrameOptions) -> list[str]:
    """The receiver's row of each array the step writes (per head for a per-head array)."""
    lang = options.lang
    tokens = tokens_of(trace, step.rows)
    facts: list[str] = []
    for name in step.writes:
        array = trace.arrays.get(name)
        if array is None or array.ndim not in (2, 3) or array.shape[-2] != len(tokens):
            continue
        rows = [(array, "", ())] if array.ndim == 2 else [
            (array[h], say("frame.head_prefix", lang, n=h + 1) if array.shape[0] > 1 else "",
             (h,)) for h in range(array.shape[0])]
        for values, prefix, head in rows:
            facts.append(prefix + say("frame.row_values", lang, name=name, token=tokens[receiver],
                values=_row(values[receiver],
                            partial(_blank_in_row, options, name, (*head, receiver)))))
    return facts


def _expert_choices(trace: Trace, step: Step, receiver: int,
                    options: FrameOptions) -> list[str]:
    """Each choice's expert output for the receiver, named by its expert, then the rows of
    the shared expert's gate and output (if any) and of the weighted sum."""
    outputs, *rest = step.writes
    chosen = trace.arrays[array_name(step, "router_chosen")][receiver]
    token = tokens_of(trace, step.rows)[receiver]
    lang = options.lang
    facts = [say("frame.choice_prefix", lang, n=r + 1, e=int(e)) + say(
        "frame.row_values", lang, name=outputs, token=token,
        values=_row(trace.arrays[outputs][r, receiver],
                    partial(_blank_in_row, options, outputs, (r, receiver))))
        for r, e in enumerate(chosen)]
    return facts + _written_rows(trace, replace(step, writes=tuple(rest)), receiver, options)


def _loss(trace: Trace, step: Step, receiver: int, options: FrameOptions) -> list[str]:
    """The mean, the worst position and the passes training and generation need."""
    return loss_lines(loss_view(trace), passes_of(trace), options.lang,
                      printed_places(trace, options.decimals), stack_is_causal(trace.scenario))


def _draw(trace: Trace, step: Step, receiver: int, options: FrameOptions) -> list[str]:
    """The settings, what was kept, the entropies and the chosen token."""
    place = options.run_place
    return draw_lines(draw_view(trace, step), options.lang,
                      printed_places(trace, options.decimals), place.id if place else None)


FACTS = op_table("canvas.describe", {
    "embed": _written_rows,
    "positions": _written_rows,
    "inputs": _written_rows,
    "norm": _written_rows,
    "projection": _written_rows,
    "rope": _written_rows,
    "scores": _written_rows,
    "weights": _shares,
    "mix": _shares,
    "residual": _written_rows,
    "ffn": _written_rows,
    "router": _written_rows,
    "experts": _expert_choices,
    "transform": _written_rows,
    "logits": _written_rows,
    "softcap": _written_rows,
    "probs": _written_rows,
    "loss": _loss,
    "sample": _draw,
})
"""Each op kind's facts in the frame's words."""
