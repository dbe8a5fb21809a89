"""How many decimals a document's numbers are printed with: one answer for its frames, the texts
about them and an exercise's default tolerance, so a value quoted or checked reads as the frame
prints it."""

from __future__ import annotations

from engine.forward.trace import Trace

DEFAULT_PLACES = 3
"""Decimals of a document that asks for none."""
PRECISE_PLACES = 6
"""Decimals of a small decoder-block lesson, whose norms and residuals differ in late digits."""
PRECISE_CELLS = 16
"""A document is a small lesson when none of its arrays has more cells than this."""


def printed_places(trace: Trace, chosen: int | None = None) -> int:
    """Decimals the numbers of ``trace`` are printed with: ``chosen`` (an export's), else the
    document's ``display.decimals``, else three — six for a small decoder-block lesson."""
    chosen = chosen or trace.scenario.decimals
    if chosen:
        return chosen
    largest = max((a.size for a in trace.arrays.values()), default=0)
    small_block = trace.scenario.has_block and largest <= PRECISE_CELLS
    return PRECISE_PLACES if small_block else DEFAULT_PLACES


__all__ = ["printed_places"]
