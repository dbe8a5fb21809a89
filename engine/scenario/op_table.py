"""One table per consumer of a step, keyed by op kind: every :data:`Op` has an entry in each.

Each consumer (a painter, the map, the explainer …) keeps its handlers in one mapping from op
kind to handler, made with :func:`op_table`; adding an op kind is one handler per consumer plus
its entry there. The tables made are recorded, so a test can walk every op through every one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar, get_args

from engine.forward.step import Op

T = TypeVar("T")

OPS: tuple[Op, ...] = get_args(Op)
"""Every op kind, in the order :data:`Op` lists them."""

TABLES: dict[str, Mapping[Op, object]] = {}
"""Every table made, by the consumer's name (``"canvas.layout"``, ``"explain"`` …)."""


def op_table(consumer: str, entries: Mapping[Op, T]) -> Mapping[Op, T]:
    """``entries`` recorded as ``consumer``'s table (returned as is)."""
    TABLES[consumer] = entries
    return entries


def missing_ops(table: Mapping[Op, object]) -> list[Op]:
    """The op kinds ``table`` has no entry for, in :data:`OPS` order."""
    return [op for op in OPS if op not in table]


__all__ = ["OPS", "TABLES", "missing_ops", "op_table"]
