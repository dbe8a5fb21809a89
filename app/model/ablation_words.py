"""An ablation question's heads in words: ``Head 1 of layer 2 is switched off`` (``关闭第 2 层的
第 1 个头``), heads counted from 1 as the frames count them."""

from __future__ import annotations

import re

from app.texts.words import say
from engine.exercises.document import Ablate

_LAYER = re.compile(r"(encoder\.)?layers\.([0-9]+)\.(attention|cross_attention)")


def ablation_words(ablate: Ablate, lang: str) -> str:
    """Which heads of which attention the question switches off, as a sentence."""
    numbers = [str(head + 1) for head in ablate.heads]
    heads = numbers[0] if len(numbers) == 1 else say(
        "worksheet.and", lang, first=say("worksheet.comma", lang).join(numbers[:-1]),
        last=numbers[-1])
    many = "many" if len(numbers) > 1 else "one"
    match = _LAYER.fullmatch(ablate.attention)
    if match is None:  # the version-1 shorthand's one attention
        return say(f"exercise.ablation_{many}_only", lang, heads=heads)
    which = "encoder_layer" if match.group(1) else \
        "cross_layer" if match.group(3) == "cross_attention" else "layer"
    where = say(f"exercise.{which}", lang, n=int(match.group(2)) + 1)
    return say(f"exercise.ablation_{many}", lang, heads=heads, where=where)


__all__ = ["ablation_words"]
