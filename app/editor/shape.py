"""What a document's editable arrays depend on, without its numbers: the editor's grids only
change when this does, so a cell edit never walks or serialises the whole document."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping

import numpy as np

from engine import Scenario


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
    if isinstance(value, tuple):
        try:
            hash(value)  # labels and other plain values: hashed whole, in C
        except TypeError:
            pass
        else:
            return ("tuple", value)
    if isinstance(value, list | tuple):
        return ("list", tuple(shape_key(item) for item in value))
    return value if isinstance(value, Hashable) else repr(value)


class ParameterPaths:
    """``Scenario.parameter_paths()`` remembered for the last document outline."""

    def __init__(self) -> None:
        self._key: Hashable = None
        self._paths: list[str] = []

    def of(self, scenario: Scenario) -> list[str]:
        key = shape_key(scenario)
        if key != self._key:
            self._paths = scenario.parameter_paths()
            self._key = key
        return self._paths
