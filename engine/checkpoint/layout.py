"""What a family's layout hands the document builder: the model's sizes (read from the config
before any weight) and its parts in the book's right-multiplication convention."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.reader import FloatArray


@dataclass(frozen=True)
class Sizes:
    """The sizes a config gives: layers, context (positions) and vocabulary entries."""

    layers: int
    context: int
    vocab: int


@dataclass(frozen=True)
class Parts:
    """A model's version-2 objects, arrays as numpy: the embedding table (V × d), the positions,
    the chosen layers and the head (its ``unembed`` d × V; the vocabulary labels come later)."""

    embedding: FloatArray
    positions: dict[str, Any]
    layers: list[dict[str, Any]]
    head: dict[str, Any]


def linear(weight: FloatArray) -> FloatArray:
    """An ``nn.Linear`` weight (out × in, computing x·Wᵀ) as the book's right-multiplied
    in × out matrix."""
    return weight.T.copy()


__all__ = ["Parts", "Sizes", "linear"]
