"""How many decimals a document's numbers are printed with: the engine's rule
(:mod:`engine.arithmetic.printed`), which an exercise's default tolerance follows too. Imports no
Qt."""

from __future__ import annotations

from engine.arithmetic.printed import printed_places

__all__ = ["printed_places"]
