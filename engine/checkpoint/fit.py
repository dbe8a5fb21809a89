"""Whether a checkpoint fits the engine, decided from config.json and the weights' headers before
any weight is read: the width, heads, vocabulary and layers against the engine's limits
(docs/limits.md), the chosen layers' tensors each within the numbers one weight may hold, and all of
them as float64 within the computer's memory (:mod:`engine.files.memory`; each is widened once,
straight from its file's map; of a mapped checkpoint's matrices, only the largest, as the forward
pass widens one at a time). A Llama-3.1-405B folder is refused in well under a second,
reading its headers only."""

from __future__ import annotations

from engine.checkpoint.accounting import wanted
from engine.checkpoint.config import Config
from engine.checkpoint.folder import WEIGHTS, Checkpoint
from engine.files.memory import memory_short
from engine.format.errors import ScenarioError
from engine.format.reader import MAX_HEADS, MAX_LAYERS, MAX_VOCAB, MAX_WEIGHT_CELLS, MAX_WIDTH
from engine.words.refusals import Refusal


def check_fit(checkpoint: Checkpoint, config: Config, family: str, chosen: list[int]) -> None:
    """Refuse a model past the engine's limits, or whose weights would not fit in memory.

    Raises
    ------
    ScenarioError
        At the config key (width, heads, vocabulary), ``--layers`` (too many layers), the
        weights file and tensor (one weight too large), or the weights (all of them too many
        for the computer's memory).
    """
    for names, limit in ((("n_embd", "hidden_size"), MAX_WIDTH),
                         (("n_head", "num_attention_heads"), MAX_HEADS),
                         (("vocab_size",), MAX_VOCAB)):
        given = config.whole(*names)
        if given > limit:
            name = next(name for name in names if config.values.get(name) is not None)
            raise ScenarioError(f"{config.place}.{name}",
                                Refusal("checkpoint_limit", got=given, limit=limit))
    if len(chosen) > MAX_LAYERS:
        raise ScenarioError("--layers", Refusal("layers_limit", count=len(chosen),
                                                limit=MAX_LAYERS))
    total = largest = 0
    for name, stored in checkpoint.stored.items():
        if not wanted(family, name, chosen):
            continue
        if stored.count > MAX_WEIGHT_CELLS:
            raise ScenarioError(str(stored.file), Refusal("tensor_numbers_limit", name=name,
                                                          count=stored.count,
                                                          limit=MAX_WEIGHT_CELLS))
        if checkpoint.mapped and len(stored.shape) == 2:
            largest = max(largest, stored.count)
        else:
            total += stored.count
    short = memory_short(total + largest)
    if short is not None:
        raise ScenarioError(str(checkpoint.folder / WEIGHTS),
                            Refusal("checkpoint_memory", need=short[0], have=short[1]))


__all__ = ["check_fit"]
