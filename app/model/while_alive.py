"""Results remembered for as long as the object they were worked out from lives (no Qt).

``functools.lru_cache`` keeps its arguments: a cache keyed by a trace kept the last few traces,
their documents and every weight those hold. After a Llama-3.2-1B checkpoint was shown and
another document opened, 2.8 GB stayed taken until the program closed. Here the first argument
is held weakly: its entries go the moment it is gone, and at most ``kept`` entries stay, the
least recently used dropped first.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Generic, TypeVar

Owner = TypeVar("Owner")
Result = TypeVar("Result")


class Remembered(Generic[Owner, Result]):
    """``work(owner, *rest)`` remembered by ``owner``'s identity and ``rest`` (hashable)."""

    def __init__(self, work: Callable[..., Result], kept: int) -> None:
        self._work = work
        self._kept = kept
        self._results: dict[tuple[int, tuple[Hashable, ...]],
                            tuple[weakref.ref[Owner], Result]] = {}
        update_wrapper(self, work)

    def __call__(self, owner: Owner, *rest: Hashable) -> Result:
        key = (id(owner), rest)
        found = self._results.pop(key, None)  # put back last: the most recently used
        if found is not None and found[0]() is owner:
            self._results[key] = found
            return found[1]
        result = self._work(owner, *rest)
        # Dict operations are atomic under the GIL, and the owner's death may come on any
        # thread: the entry is dropped by a single one.
        self._results[key] = (weakref.ref(owner, lambda _gone: self._results.pop(key, None)),
                              result)
        while len(self._results) > self._kept:
            oldest, *_later = self._results  # taken whole at once: another thread may drop one
            self._results.pop(oldest, None)
        return result

    def __len__(self) -> int:
        """How many results are kept."""
        return len(self._results)


def remembered_while_alive(kept: int) -> Callable[[Callable[..., Result]],
                                                  Remembered[object, Result]]:
    """A decorator: :class:`Remembered` with at most ``kept`` entries."""
    def decorate(work: Callable[..., Result]) -> Remembered[object, Result]:
        return Remembered(work, kept)
    return decorate
