"""Whether a checkpoint fits the engine, decided from config.json and the weights' headers
before any weight is read: the width, heads and vocabulary against the engine's limits
(docs/limits.md), the chosen layers' tensors each within the numbers one weight may hold and
all together within a document's, and their float64 copies within the computer's memory. A
Llama-3.1-405B folder is refused in well under a second, reading its headers only."""

from __future__ import annotations

import os

from engine.checkpoint.accounting import wanted
from engine.checkpoint.config import Config
from engine.checkpoint.folder import WEIGHTS, Checkpoint
from engine.errors import ScenarioError
from engine.reader import MAX_HEADS, MAX_LAYERS, MAX_NUMBERS, MAX_VOCAB, MAX_WEIGHT_CELLS, MAX_WIDTH
from engine.refusals import Refusal

COPIES = 2
"""float64 copies of a weight an import may hold at once (read, then transposed)."""
GIB = 1 << 30


def check_fit(checkpoint: Checkpoint, config: Config, family: str, chosen: list[int]) -> None:
    """Refuse a model past the engine's limits, or whose weights would not fit in memory.

    Raises
    ------
    ScenarioError
        At the config key (width, heads, vocabulary), ``--layers`` (too many layers), the
        weights file and tensor (one weight too large), or the weights (all of them).
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
    total = 0
    for name, stored in checkpoint.stored.items():
        if not wanted(family, name, chosen):
            continue
        if stored.count > MAX_WEIGHT_CELLS:
            raise ScenarioError(str(stored.file), Refusal("tensor_numbers_limit", name=name,
                                                          count=stored.count,
                                                          limit=MAX_WEIGHT_CELLS))
        total += stored.count
    place = str(checkpoint.folder / WEIGHTS)
    if total > MAX_NUMBERS:
        raise ScenarioError(place, Refusal("document_numbers_limit", count=total,
                                           limit=MAX_NUMBERS))
    need, have = COPIES * 8 * total, memory()
    if need > have:
        raise ScenarioError(place, Refusal("checkpoint_memory", need=f"{need / GIB:.1f}",
                                           have=f"{have / GIB:.1f}"))


def memory() -> int:
    """The computer's memory in bytes (its physical pages), or a huge number if unknown."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not every system names them (Windows)
        return 1 << 62


__all__ = ["check_fit", "memory"]
