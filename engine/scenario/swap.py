"""Two tokens trade places: the edit behind the lesson "order matters only with positions".

Without positions (and without a causal mask) attention cannot tell order: swapping two tokens only
swaps the rows of every array, and the rows and columns of the shares. With positions the shares
themselves change. :func:`swap_tokens` makes the swapped document; comparing its trace with the
original's pairs rows by token (:func:`engine.arithmetic.differences.compare` with ``order``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.format.mapped_weight import looked_up
from engine.scenario.modules import Layer
from engine.scenario.scenario import Scenario


def swap_order(n: int, i: int, j: int) -> tuple[int, ...]:
    """The permutation of ``n`` positions that exchanges ``i`` and ``j``: position k of the
    original holds the token found at position ``order[k]`` after the swap."""
    order = list(range(n))
    order[i], order[j] = j, i
    return tuple(order)


def swap_tokens(scenario: Scenario, i: int, j: int) -> Scenario:
    """``scenario`` with the tokens at positions ``i`` and ``j`` exchanged.

    The labels, the input rows (or the token ids, whose rows are looked up again) and every
    key-mask entry follow their token; the parameters and the positional encoding stay put.

    Raises
    ------
    IndexError
        If ``i`` or ``j`` is not a position of the scenario.
    """
    n = scenario.n
    if not (0 <= i < n and 0 <= j < n):
        raise IndexError(f"positions {i} and {j}: a scenario of {n} positions has 0 to {n - 1}")
    return reordered(scenario, swap_order(n, i, j))


def reordered(scenario: Scenario, positions: Sequence[int]) -> Scenario:
    """``scenario`` with its tokens rearranged: position k holds the token of position
    ``positions[k]`` (a permutation), with its label, input row (or id), token type and
    key-mask entry;
    the parameters and the positional encoding stay put. A generation run whose chosen ids no
    longer end the token ids is dropped, as resizing drops it."""
    order = list(positions)
    tokens = tuple(scenario.tokens[k] for k in order)
    layers = tuple(_mask_swapped(layer, order) for layer in scenario.layers)
    if scenario.token_types is not None:
        scenario = replace(scenario, token_types=tuple(scenario.token_types[k] for k in order))
    if scenario.token_ids is not None and scenario.embedding is not None:
        ids = tuple(scenario.token_ids[k] for k in order)
        run = scenario.generation
        if run is not None and run.chosen and ids[-len(run.chosen):] != run.chosen:
            run = None
        return replace(scenario, tokens=tokens, token_ids=ids, X=looked_up(scenario.embedding, ids),
                       layers=layers, generation=run)
    return replace(scenario, tokens=tokens, X=scenario.X[order], layers=layers)


def _mask_swapped(layer: Layer, order: list[int]) -> Layer:
    """The layer with its self-attention's key mask following the tokens (the cross-attention's
    mask is over the encoder's tokens, which do not move)."""
    mask = layer.attention.key_mask
    if mask is None:
        return layer
    return replace(layer, attention=replace(layer.attention,
                                            key_mask=tuple(mask[k] for k in order)))


__all__ = ["reordered", "swap_order", "swap_tokens"]
