"""Where an array's values lie, worked out once and brought up to date from the cells an edit
set (issue 15: a one-cell edit of a GPT-2 layer's W1 reads one number, not 2.4 million)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.format.numbers import BLOCK, NumberFormat, Spread

cell = st.floats(min_value=-1e9, max_value=1e9, allow_nan=False).filter(lambda v: v != 0)


def by_hand(values: np.ndarray) -> tuple[float, float, float, float, bool]:
    """Minimum, maximum, largest and smallest non-zero magnitude, any negative: read number by
    number (the arrays here are finite)."""
    numbers = [float(v) for v in values.ravel()]
    sizes = [abs(v) for v in numbers if v != 0]
    return (min(numbers), max(numbers), max(sizes, default=0.0), min(sizes, default=0.0),
            any(v < 0 for v in numbers))


def flat(spread: Spread) -> tuple[float, float, float, float, bool]:
    return spread.low, spread.high, *spread.extremes


@settings(max_examples=300, deadline=None)
@given(st.lists(cell, min_size=3, max_size=40), st.data())
def test_setting_a_cell_that_is_no_extreme_updates_the_spread_from_that_cell(
        cells: list[float], data: st.DataObject) -> None:
    before = np.array(cells)
    index = data.draw(st.integers(0, len(cells) - 1))
    value = data.draw(st.one_of(cell, st.just(0.0)))
    after = before.copy()
    after[index] = value
    updated = Spread.of(before).after(before[[index]], after[[index]])
    old = float(before[index])
    low, high, largest, smallest, _ = by_hand(before)
    extreme = old in (low, high) or abs(old) in (largest, smallest)
    assert (updated is None) == extreme  # only an extreme needs the other numbers again
    if updated is not None:
        assert flat(updated) == by_hand(after)
        assert updated == Spread.of(after)
        assert NumberFormat.with_widest(updated, 3) == NumberFormat.with_widest(after, 3)


def test_the_spread_of_a_few_numbers() -> None:
    values = np.array([[0.5, -2.0], [0.0, 3.25]])
    spread = Spread.of(values)
    assert flat(spread) == (-2.0, 3.25, 3.25, 0.5, True)
    assert spread.finite


def test_an_edit_moving_the_maximum_needs_every_number() -> None:
    values = np.array([1.0, 2.0, 5.0])
    assert Spread.of(values).after(np.array([5.0]), np.array([0.5])) is None  # was the maximum
    assert Spread.of(values).after(np.array([2.0]), np.array([9.0])) == Spread.of(
        np.array([1.0, 9.0, 5.0]))  # the new maximum is the cell just set


@pytest.mark.parametrize("new", [math.inf, math.nan])
def test_a_number_that_is_not_finite_needs_every_number(new: float) -> None:
    values = np.array([1.0, 2.0, 5.0])
    assert Spread.of(values).after(np.array([2.0]), np.array([new])) is None
    assert not Spread.of(np.array([1.0, new])).finite


def test_an_array_of_zeros_needs_every_number() -> None:
    zeros = np.zeros(4)
    assert flat(Spread.of(zeros)) == (0.0, 0.0, 0.0, 0.0, False)
    assert Spread.of(zeros).after(np.array([0.0]), np.array([1.0])) is None


@pytest.mark.parametrize("order", ["C", "F"])
def test_a_large_arrays_spread_read_block_by_block_is_every_numbers(order: str) -> None:
    """Llama-3.2-1B's unembedding (263 million numbers) is read a block at a time: the spread
    is still that of every number, wherever in the blocks the extremes, the non-finite values
    and a block of zeros fall."""
    rng = np.random.default_rng(37)
    values = np.asarray(rng.uniform(1.0, 2.0, (3, BLOCK // 2 + 5)), order=order)
    values.flat[:BLOCK] = 0.0  # the first block: zeros only
    middle = np.unravel_index(BLOCK + 7, values.shape, order=order)
    values[middle] = -3e-7  # the smallest magnitude and the only negative, in the second block
    last = np.unravel_index(values.size - 1, values.shape, order=order)
    values[last] = 9.5  # the largest, in the last block
    spread = Spread.of(values)
    assert flat(spread) == (-3e-7, 9.5, 9.5, 3e-7, True) == by_hand(values)
    assert spread.finite
    values[np.unravel_index(5, values.shape, order=order)] = np.inf
    spread = Spread.of(values)
    assert not spread.finite and spread.high == np.inf
    assert spread.extremes == (9.5, 3e-7, True)
    values[last] = np.nan
    assert math.isnan(Spread.of(values).low) and math.isnan(Spread.of(values).high)
