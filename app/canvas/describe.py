"""A frame in words: the text alternative a screen reader reads for the canvas."""

from __future__ import annotations

from app.canvas.context import FrameOptions
from app.tape import array_name, tokens_of, visible_of
from app.texts.frame_words import frame_word
from engine import Trace, format_number

MAX_VALUES = 12
"""A row longer than this is cut with an ellipsis."""
SHARE_OPS = ("weights", "mix")


def _row(values: list[float]) -> str:
    shown = [format_number(v, 3) for v in values[:MAX_VALUES]]
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
    tokens = tokens_of(trace, step.rows)
    n = len(tokens)
    receiver = n - 1 if options.receiver is None else max(0, min(n - 1, options.receiver))
    parts = [frame_word(lang, "frame_summary", n=k + 1, count=len(steps), title=title)]
    facts: list[str] = []
    if step.op in SHARE_OPS:
        weights = trace.arrays[array_name(step, "weights")]
        visible = visible_of(trace, step)
        count = weights.shape[0]  # this layer's heads: a stack's layers may differ
        heads = range(count) if options.head is None else [min(options.head, count - 1)]
        for h in heads:
            prefix = frame_word(lang, "head_prefix", n=h + 1) if weights.shape[0] > 1 else ""
            for j, token in enumerate(tokens_of(trace, step.keys)):
                if not visible[receiver, j]:
                    facts.append(prefix + frame_word(lang, "share_masked", key=token,
                                                     query=tokens[receiver]))
                    continue
                facts.append(prefix + frame_word(
                    lang, "share_from_to", query=tokens[receiver], key=token,
                    share=format_number(float(weights[h, receiver, j]), 3)))
    else:
        for name in step.writes:
            array = trace.arrays.get(name)
            if array is None or array.ndim not in (2, 3) or array.shape[-2] != n:
                continue
            rows = [(array, "")] if array.ndim == 2 else [
                (array[h], frame_word(lang, "head_prefix", n=h + 1) if array.shape[0] > 1 else "")
                for h in range(array.shape[0])]
            for values, prefix in rows:
                facts.append(prefix + frame_word(
                    lang, "row_values", name=name, token=tokens[receiver],
                    values=_row([float(v) for v in values[receiver]])))
    if facts:
        parts.append(frame_word(lang, "note_join").join(facts))
    return " ".join(parts)
