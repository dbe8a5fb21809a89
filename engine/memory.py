"""What fits in this computer's memory: the limit of a document's numbers and its trace, in
place of a constant (docs/limits.md). Decided from the shapes, before anything is read or
computed, against the computer's physical memory (not what is free at the moment: a document
accepted once is accepted again on the same computer)."""

from __future__ import annotations

import os

GIB = 1 << 30
FLOAT64 = 8
"""Bytes of one number as the engine holds and computes it."""


def physical_memory() -> int:
    """The computer's memory in bytes (its physical pages), or a huge number if unknown."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not every system names them (Windows)
        return 1 << 62


def memory_short(numbers: int) -> tuple[str, str] | None:
    """``(need, have)`` in GiB to one decimal when ``numbers`` float64 numbers do not fit in
    the computer's memory; None when they do."""
    need, have = FLOAT64 * numbers, physical_memory()
    return (f"{need / GIB:.1f}", f"{have / GIB:.1f}") if need > have else None


__all__ = ["memory_short", "physical_memory"]
