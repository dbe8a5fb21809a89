"""A document's outline: its parts and the shapes of its arrays, without its numbers. What
only changes with the outline (the editable arrays' paths) is remembered by it, so a cell edit
never walks or serialises the whole document."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping

import numpy as np

from engine import Scenario

_PLAIN = (str, int, float, bool, type(None))
"""Values an outline keeps as they are (a model object is walked, never kept by identity)."""


def shape_key(value: object) -> Hashable:
    """A hashable outline of ``value``: arrays by their shape, containers by their parts,
    anything else as itself. Work grows with the number of parts, never with the numbers."""
    if isinstance(value, np.ndarray):
        return ("array", value.shape)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple(
            (field.name, shape_key(getattr(value, field.name)))
            for field in dataclasses.fields(value)))
    if isinstance(value, Mapping):
        return ("map", tuple((key, shape_key(item)) for key, item in value.items()))
    if isinstance(value, tuple) and all(isinstance(item, _PLAIN) for item in value):
        return ("tuple", value)  # labels and other plain values, kept whole
    if isinstance(value, list | tuple):
        return ("list", tuple(shape_key(item) for item in value))
    return value if isinstance(value, Hashable) else repr(value)


OUTLINES = 8
"""Outlines whose parameter paths are remembered (undo and redo go back and forth)."""
_paths: dict[Hashable, list[str]] = {}


def parameter_paths(scenario: Scenario) -> list[str]:
    """``scenario.parameter_paths()``, asked of the document once per outline."""
    key = shape_key(scenario)
    found = _paths.get(key)
    if found is None:
        if len(_paths) >= OUTLINES:
            _paths.clear()
        found = _paths[key] = scenario.parameter_paths()
    return list(found)
