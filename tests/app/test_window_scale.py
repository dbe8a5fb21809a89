"""The window at 2026's scale (issue 37, item 4): what kept it from answering on a
Llama-3.2-1B-shaped document, guarded on small documents (tests/bench/bench_window_scale.py
measures the real size)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.grid import MatrixGrid
from app.canvas.heat import block_means
from app.canvas.rare_cells import remembered_rounding
from app.model.presets import preset_document
from engine import compute, parse_scenario
from engine.format.numbers import BLOCK


def test_a_gated_feed_forwards_gate_is_multiplied_once_for_every_layout_of_its_frame(
        qtbot: QtBot) -> None:
    trace = compute(parse_scenario(preset_document("llama")))
    index = trace.step_index("L1.ffn")
    ffn = trace.scenario.module("layers.0.block").ffn
    x = trace.arrays["L1.norm2"]
    golden = np.array([[sum(x[t, i] * ffn.Wg[i, j] for i in range(x.shape[1]))
                        for j in range(ffn.Wg.shape[1])] for t in range(x.shape[0])])

    def gate_z() -> np.ndarray:
        frame = FrameItem(trace, index, FrameOptions())
        shown = [grid.spec.values for grid in frame.items_of(MatrixGrid)
                 if grid.spec.title == "z = norm2·Wg"]
        assert len(shown) == 1
        return shown[0]

    first = gate_z()
    np.testing.assert_allclose(first, golden, rtol=1e-13, atol=1e-15)
    assert gate_z() is first, "the product was worked out again"


def test_a_large_grids_numbers_rounding_to_zero_are_counted_in_every_block() -> None:
    """The numbers a grid prints scientific are counted block by block (a 263-million-number
    unembedding made 2 GB temporaries): every block counts, the last, short one too."""
    values = np.ones((4, BLOCK // 2 + 3), order="F")
    planted = [0, BLOCK - 1, BLOCK + 2, values.size - 1]  # flat, in memory order
    for k, place in enumerate(planted):
        values[np.unravel_index(place, values.shape, order="F")] = 4e-4 * (-1) ** k
    values[0, 1] = 0.0  # zero is printed as 0, not counted
    values[1, 1] = 5e-4  # 0.0005 rounds to 0.001 at three places, not counted
    assert remembered_rounding(values, 3) == len(planted)


@pytest.mark.parametrize(("rows", "cols", "block"), [
    (2, 4000, (1, 4)),  # short blocks: added one by one
    (3, 1200, (2, 8)),  # exactly 8 columns a block
    (4, 6000, (3, 125)),  # 8 running sums, a rest of 4 (and a shorter last block)
    (2, 5000, (1, 300)),  # beyond 128: halves
])
def test_a_column_major_heat_maps_blocks_are_summed_bit_for_bit_as_before(
        rows: int, cols: int, block: tuple[int, int]) -> None:
    """A tied unembedding is its embedding transposed (column-major): its heat map's block sums
    are read in memory order (reduceat walked its columns 16 KB apart), with numpy's own sums to
    the last bit, each within 1e-15 of the exact mean."""
    values = np.random.default_rng(37).standard_normal((cols, rows)).T
    assert values.flags.f_contiguous and not values.flags.c_contiguous
    means = block_means(values, None, block)
    down, across = block
    starts = np.arange(0, rows, down), np.arange(0, cols, across)
    summed = np.add.reduceat(np.add.reduceat(values, starts[1], axis=1), starts[0], axis=0)
    counts = np.outer(np.diff(starts[0], append=rows), np.diff(starts[1], append=cols))
    np.testing.assert_array_equal(means, summed / counts)
    exact = [[math.fsum(values[r:r + down, c:c + across].ravel())
              / values[r:r + down, c:c + across].size for c in starts[1]] for r in starts[0]]
    np.testing.assert_allclose(means, exact, rtol=0, atol=1e-15)
