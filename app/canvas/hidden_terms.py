"""Hover arithmetic that would quote a blank: while an exercise hides cells, a cell worked from
them (shown, as every derived number is) explains itself by name only — ``scores[0,1,0] =
(Q[1,0]·K[0,0] + Q[1,1]·K[0,1]) / √2 = 1.414`` — never with the hidden numbers put in."""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from engine.arithmetic.cells import Explanation

Masks = Mapping[str, npt.NDArray[np.bool_]]

_REFERENCE = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\[([0-9·,]+)\]")
"""A cell the arithmetic names: ``Q[1,0]``, ``L2.weights[0,1,0]``; ``·`` names a whole row."""


def names_hidden(text: str, masks: Masks) -> bool:
    """Whether ``text`` names a cell (or a row, with ``·``) of which some cell is hidden."""
    for match in _REFERENCE.finditer(text):
        mask = masks.get(match.group(1))
        if mask is None:
            continue
        parts = match.group(2).split(",")
        if len(parts) == mask.ndim - 1 and mask.shape[0] == 1:  # a one-head array as [i, j]
            parts = ["0", *parts]
        if len(parts) != mask.ndim:
            continue
        index = tuple(slice(None) if p == "·" else int(p) for p in parts)
        if bool(np.any(mask[index])):
            return True
    return False


def guarded(explanation: Explanation, masks: Masks) -> str:
    """The explanation's text, or, when it names a hidden cell, its symbolic terms and result
    (``lhs = terms = value``) with the lines that name a hidden cell or quote a number left
    out."""
    if not names_hidden(explanation.text(), masks):
        return explanation.text()
    parts = explanation.formula.split(" = ")
    formula = " = ".join((parts[0], parts[1], parts[-1])) if len(parts) > 2 \
        else explanation.formula
    details = [line for line in explanation.details
               if " = " not in line and not names_hidden(line, masks)]
    return "\n".join((formula, *details))
