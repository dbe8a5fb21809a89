"""The scenario as a tree of modules: walking it, naming its places, replacing one module.

A *locator* is the way to a module inside the model (``("layers", 1, "block", "ffn")``); a
*document path* is where the same module sits in the saved document (``"layers.1.block.ffn"``,
or ``"block.ffn"`` in the version-1 shorthand). Every module is a dataclass; its array fields are
its parameters, walked in field order (document order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass, replace
from typing import Any

import numpy as np

from engine.format.mapped_weight import MappedWeight

Locator = tuple[str | int, ...]


def walk(node: object, locator: Locator = ()) -> Iterator[tuple[Locator, object]]:
    """Every module under ``node`` (itself first), depth first in field order."""
    yield locator, node
    for item in fields(node):  # type: ignore[arg-type]
        value = getattr(node, item.name)
        if isinstance(value, MappedWeight):
            continue  # a weight, not a module: its overlay's arrays are no parameters
        if is_dataclass(value):
            yield from walk(value, (*locator, item.name))
        elif isinstance(value, tuple) and value and is_dataclass(value[0]):
            for k, child in enumerate(value):
                yield from walk(child, (*locator, item.name, k))


def array_fields(node: object) -> list[str]:
    """Names of the module's fields that hold an array now, in field order."""
    return [item.name for item in fields(node)  # type: ignore[arg-type]
            if isinstance(getattr(node, item.name), np.ndarray | MappedWeight)]


def module_at(root: object, locator: Locator) -> Any:
    """The module at ``locator``."""
    node: Any = root
    for key in locator:
        node = node[key] if isinstance(key, int) else getattr(node, key)
    return node


def replaced(root: Any, locator: Locator, change: Callable[[Any], Any]) -> Any:
    """A copy of ``root`` whose module at ``locator`` is ``change(module)``; the rest shared."""
    if not locator:
        return change(root)
    key, rest = locator[0], locator[1:]
    if isinstance(key, int):
        items = list(root)
        items[key] = replaced(items[key], rest, change)
        return tuple(items)
    return replace(root, **{key: replaced(getattr(root, key), rest, change)})


__all__ = ["Locator", "array_fields", "module_at", "replaced", "walk"]
