"""Reading what happens to a stack's input rows before its first layer: ``embedding_scale``,
``token_types`` with ``type_table`` (the document's own stack only) and ``embedding_norm``.

Positions are read by :mod:`engine.forward.positions`; the order of the arithmetic is fixed by
:mod:`engine.forward.embedding_steps`: rows × scale, + positions, + type rows, then the norm → X.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.layers import DEFAULT_EPS, block_norm, row_of
from engine.format.reader import (
    FloatArray,
    describe,
    expect_choice,
    expect_int,
    expect_matrix,
    expect_number,
    expect_object,
    refuse_unknown,
)
from engine.scenario.modules import EmbeddingNorm
from engine.words.refusals import Refusal

EMBEDDING_NORMS = ("layernorm", "rmsnorm")
EMBEDDING_NORM_KEYS = ("norm", "eps", "gamma", "beta")
MAX_TYPES = 64
"""At most this many rows in ``type_table`` (BERT has 2)."""


def _at(place: str, key: str) -> str:
    return f"{place}.{key}" if place else key


def parse_scale(doc: Mapping[str, Any], place: str, looked_up: bool) -> float | None:
    """``embedding_scale`` (None when absent): above 0, and only for rows looked up by id."""
    if "embedding_scale" not in doc:
        return None
    where = _at(place, "embedding_scale")
    scale = expect_number(doc["embedding_scale"], where)
    if scale <= 0:
        raise ScenarioError(where, Refusal("scale_not_positive", got=doc["embedding_scale"]))
    if not looked_up:
        raise ScenarioError(where, Refusal("scale_needs_token_ids"))
    return scale


def parse_types(doc: Mapping[str, Any], n: int,
                d: int) -> tuple[tuple[int, ...] | None, FloatArray | None]:
    """``token_types`` (n ids, all 0 when absent) and ``type_table`` (T × d); (None, None)
    without a table."""
    if "type_table" not in doc:
        if "token_types" in doc:
            raise ScenarioError("token_types", Refusal("types_need_table"))
        return None, None
    table = expect_matrix(doc["type_table"], "type_table", cols=d,
                          cols_reason=Refusal("match_d", d=d), max_rows=MAX_TYPES)
    if "token_types" not in doc:
        return (0,) * n, table
    raw = doc["token_types"]
    if not isinstance(raw, list | tuple):
        raise ScenarioError("token_types", Refusal("types_list", count=n, got=describe(raw)))
    if len(raw) != n:
        raise ScenarioError("token_types", Refusal("types_count", count=n, got=len(raw)))
    rows = int(table.shape[0])
    return tuple(expect_int(t, f"token_types[{k}]", 0, rows - 1) for k, t in enumerate(raw)), \
        table


def parse_embedding_norm(value: object, place: str, d: int) -> EmbeddingNorm:
    """``embedding_norm`` = ``{"norm", "eps", "gamma", "beta"}`` over rows of width ``d``
    (LayerNorm, ε = 1e-5, γ = 1, β = 0 by default)."""
    obj = expect_object(value, place)
    refuse_unknown(obj, EMBEDDING_NORM_KEYS, place)
    norm = expect_choice(obj.get("norm", "layernorm"), _at(place, "norm"), EMBEDDING_NORMS)
    eps = block_norm(obj, place)[1] if "eps" in obj else DEFAULT_EPS
    return EmbeddingNorm(norm=norm, eps=eps, gamma=row_of(obj, place, "gamma", d, 1.0),
                         beta=row_of(obj, place, "beta", d, 0.0))


def type_rows(token_types: tuple[int, ...], table: FloatArray) -> FloatArray:
    """The rows ``type_table[token_types[p]]`` added at each position p."""
    rows: FloatArray = table[np.array(token_types, dtype=np.intp)]
    return rows


def trace_numbers(n: int, d: int, types: bool, norm: bool) -> int:
    """How many numbers the type rows and the embedding norm add to a stack's trace (the rows
    before the norm, its statistics, the type rows), from the shapes."""
    return n * d * (int(types) + 2 * int(norm)) + (2 * n if norm else 0)


__all__ = ["EMBEDDING_NORMS", "EMBEDDING_NORM_KEYS", "MAX_TYPES", "parse_embedding_norm",
           "parse_scale", "parse_types", "trace_numbers", "type_rows"]
