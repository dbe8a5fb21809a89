"""Changing a scenario's sizes while keeping every number that still has a place."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.reader import MAX_HEADS, MAX_POSITIONS, MAX_WIDTH, FloatArray
from engine.scenario import Scenario


@dataclass(frozen=True)
class Sizes:
    """The sizes a user can change: positions, model width, head widths and head count."""

    n: int
    d: int
    d_k: int
    d_v: int
    heads: int

    @staticmethod
    def of(scenario: Scenario) -> Sizes:
        a = scenario.attention
        return Sizes(n=scenario.n, d=scenario.d, d_k=a.d_k, d_v=a.d_v, heads=a.heads)


SIZE_LIMITS = Sizes(n=MAX_POSITIONS, d=MAX_WIDTH, d_k=MAX_WIDTH, d_v=MAX_WIDTH, heads=MAX_HEADS)
"""The largest value of each size that the engine accepts (each alone: a document must also keep
``heads × d_k`` and ``heads × d_v`` within :data:`~engine.reader.MAX_WIDTH` and its cells within
:data:`~engine.reader.MAX_CELLS`, which reading it checks)."""


@dataclass(frozen=True)
class Resized:
    """The resized document and how many non-zero numbers it had to drop."""

    document: dict[str, object]
    dropped: int


def _fit(array: FloatArray, rows: int, cols: int, fill: float = 0.0) -> tuple[FloatArray, int]:
    out = np.full((rows, cols), fill, dtype=np.float64)
    r, c = min(rows, array.shape[0]), min(cols, array.shape[1])
    out[:r, :c] = array[:r, :c]
    kept = np.zeros(array.shape, dtype=bool)
    kept[:r, :c] = True
    return out, int(np.count_nonzero(array[~kept]))


def _fit_heads(array: FloatArray, rows: int, old: tuple[int, int], new: tuple[int, int],
               ) -> tuple[FloatArray, int]:
    """Fit a matrix whose columns are ``heads × width`` blocks, block by block."""
    old_heads, old_width = old
    new_heads, new_width = new
    blocks = []
    dropped = 0
    for h in range(max(old_heads, new_heads)):
        source = array[:, h * old_width:(h + 1) * old_width] if h < old_heads else \
            np.zeros((array.shape[0], old_width))
        fitted, lost = _fit(source, rows, new_width)
        if h < new_heads:
            blocks.append(fitted)
            dropped += lost
        else:
            dropped += int(np.count_nonzero(source))
    return np.hstack(blocks), dropped


def _fit_row(vector: FloatArray, length: int, fill: float = 0.0) -> tuple[FloatArray, int]:
    fitted, dropped = _fit(vector.reshape(1, -1), 1, length, fill)
    return fitted[0], dropped


def resize(scenario: Scenario, sizes: Sizes) -> Resized:
    """A document for ``scenario`` at ``sizes``: new cells are 0 (γ rows 1), old numbers kept.

    Parameters
    ----------
    scenario
        The current scenario.
    sizes
        The wanted sizes; validate the result with :func:`engine.parse_scenario`.
    """
    old = Sizes.of(scenario)
    doc = scenario.to_document()
    dropped = 0

    def take(pair: tuple[FloatArray, int]) -> list[object]:
        nonlocal dropped
        dropped += pair[1]
        result: list[object] = pair[0].tolist()
        return result

    if scenario.token_ids is not None and scenario.embedding is not None:
        ids = list(scenario.token_ids)[: sizes.n] + [0] * max(0, sizes.n - old.n)
        dropped += max(0, old.n - sizes.n)
        doc["token_ids"] = ids
        doc["embedding"] = take(_fit(scenario.embedding, scenario.embedding.shape[0], sizes.d))
    else:
        doc["X"] = take(_fit(scenario.X, sizes.n, sizes.d))
    tokens = list(scenario.tokens)[: sizes.n]
    tokens += [f"t{k + 1}" for k in range(len(tokens), sizes.n)]
    doc["tokens"] = tokens

    a = scenario.attention
    att = dict(doc["attention"])
    att["heads"] = sizes.heads
    qk_old, qk_new = (old.heads, old.d_k), (sizes.heads, sizes.d_k)
    v_old, v_new = (old.heads, old.d_v), (sizes.heads, sizes.d_v)
    att["Wq"] = take(_fit_heads(a.Wq, sizes.d, qk_old, qk_new))
    att["Wk"] = take(_fit_heads(a.Wk, sizes.d, qk_old, qk_new))
    att["Wv"] = take(_fit_heads(a.Wv, sizes.d, v_old, v_new))
    for name, vector, shape in (("bq", a.bq, (qk_old, qk_new)), ("bk", a.bk, (qk_old, qk_new)),
                                ("bv", a.bv, (v_old, v_new))):
        if vector is not None:
            att[name] = take(_fit_heads(vector.reshape(1, -1), 1, *shape))[0]
    block = scenario.block
    if a.Wo is not None:
        out_cols = sizes.d if block is not None else int(a.Wo.shape[1])
        wo_t, lost = _fit_heads(a.Wo.T, out_cols, v_old, v_new)
        dropped += lost
        att["Wo"] = wo_t.T.tolist()
        if a.bo is not None:
            att["bo"] = take(_fit_row(a.bo, out_cols))
    doc["attention"] = att

    if block is not None:
        blk = dict(doc["block"])
        for name, fill in (("gamma1", 1.0), ("beta1", 0.0), ("gamma2", 1.0), ("beta2", 0.0),
                           ("gamma_f", 1.0), ("beta_f", 0.0)):
            blk[name] = take(_fit_row(getattr(block, name), sizes.d, fill))
        ffn = dict(blk["ffn"])
        hidden = int(block.ffn.W1.shape[1])
        ffn["W1"] = take(_fit(block.ffn.W1, sizes.d, hidden))
        ffn["W2"] = take(_fit(block.ffn.W2, hidden, sizes.d))
        if block.ffn.b2 is not None:
            ffn["b2"] = take(_fit_row(block.ffn.b2, sizes.d))
        blk["ffn"] = ffn
        if block.unembed is not None:
            blk["unembed"] = take(_fit(block.unembed, sizes.d, int(block.unembed.shape[1])))
        doc["block"] = blk
    return Resized(document=doc, dropped=dropped)
