"""The worked row's arithmetic comes out by hand as printed: a student who multiplies and divides
the printed factors gets the printed results (0.196·20 is 3.92, so the share is printed 0.19557
where the sum reads 3.911). Checked on every built-in example's shares and mix steps, for every
receiver, by parsing the printed cells."""

from __future__ import annotations

import math
import re

import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.worked_row import WorkedRow
from app.model.examples import example_names, example_path
from engine import compute, format_number, load_scenario

_PLAIN = re.compile(r"^−?\d+(\.\d+)?$")


def _number(text: str) -> float | None:
    """A printed plain number, or None for what a hand cannot use as it is (≈1, 1.2×10⁻⁵)."""
    text = text.strip()
    return float(text.replace("−", "-")) if _PLAIN.match(text) else None


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def _rows(name: str) -> list[tuple[str, list[list[str]]]]:
    trace = compute(load_scenario(example_path(name)))
    found = []
    for k, step in enumerate(trace.steps):
        if step.op not in ("weights", "mix"):
            continue
        for receiver in range(len(trace.scenario.tokens)):
            frame = FrameItem(trace, k, FrameOptions(lang="en", worked_row=True,
                                                     receiver=receiver))
            found += [(step.op, table.cells) for table in frame.items_of(WorkedRow)]
    return found


@pytest.mark.parametrize("name", example_names())
def test_the_worked_rows_arithmetic_comes_out_by_hand_as_printed(qtbot: QtBot, name: str) -> None:
    checked = 0
    for op, cells in _rows(name):
        body = [row for row in cells[1:] if row[0] != "Σ" and len(row) > 2]
        if op == "weights":
            for _key, _s, exp_cell, share_cell in body:
                shifted, exp = re.fullmatch(r"exp\((.+)\) = (.+)", exp_cell).groups()
                over, result = share_cell.split(" = ")
                a, b = over.split(" ÷ ")
                values = [_number(x) for x in (shifted, a, b)]
                if None in values or _number(exp) is None or _number(result) is None:
                    continue
                s, top, bottom = values
                assert format_number(math.exp(s), _decimals(exp)) == exp.strip(), exp_cell
                assert format_number(top / bottom, _decimals(result)) == result.strip(), share_cell
                checked += 1
        else:
            total = next(row for row in cells if row[0] == "Σ")[-1].removeprefix("= ")
            printed = [_number(x) for x in total.strip("[]").split(", ")]
            terms = [re.fullmatch(r"(.+)·\[(.+)\]", row[2]).groups() for row in body
                     if "·[" in row[2]]
            factors = [(_number(share), [_number(v) for v in vector.split(", ")])
                       for share, vector in terms]
            if "…" in total or None in printed or any(
                    share is None or None in vector for share, vector in factors):
                continue
            by_hand = [sum(share * vector[c] for share, vector in factors)
                       for c in range(len(printed))]
            places = max(_decimals(x) for x in total.strip("[]").split(", "))
            assert [format_number(x, places) for x in by_hand] == \
                [format_number(x, places) for x in printed], (cells, by_hand)
            checked += 1
    if name in ("f11", "pronoun"):
        assert checked > 0
