"""The editor's grids by path, each built the first time it is asked for.

A whole GPT-2 small has 197 arrays and the editor shows one part of it (a layer's 16) at a
time; setting up a grid takes about 5 ms (a header section per column, 768 of them), so building
every grid on opening froze the window for over a second. The pane builds the grids of the part
it shows; any other is built when code asks for it by path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

W = TypeVar("W")


class OnDemand(Mapping[str, W]):
    """Every path of ``paths()`` maps to ``make(path)``, which builds (once) what it returns;
    looking a path up builds it, iterating yields the paths without building anything."""

    def __init__(self, paths: Callable[[], Sequence[str]], make: Callable[[str], W]) -> None:
        self._paths = paths
        self._make = make

    def __getitem__(self, path: str) -> W:
        if path not in self._paths():
            raise KeyError(path)
        return self._make(path)

    def __contains__(self, path: object) -> bool:
        return path in self._paths()

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths())

    def __len__(self) -> int:
        return len(self._paths())
