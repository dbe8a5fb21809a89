"""A weight made ready keeps its grid's results where the grid looks: once the heat maps' store
has let its block means go (16 kept: stepping through a Llama layer and back to its
projections), they are handed again from what the worker made, not worked out again on the
interface thread (Llama-3.2-1B's Wq: 57 ms of the frame)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import app.canvas.heat
import app.canvas.prepared_drawing
import app.canvas.remember
from app.canvas.heat import block_means, block_shape
from app.canvas.prepared_drawing import prepare_weight, prepared_values
from app.canvas.remember import MEANS_KEPT, means_of, spread
from engine.format.mapped_weight import MappedWeight
from engine.format.numbers import Spread
from tests.app.driving import cut_llama


def test_a_weight_made_ready_hands_its_means_again_once_they_were_let_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 0)
    monkeypatch.setattr(app.canvas.heat, "HEAT_BLOCKS", 64)  # blocks of 4 × 4 cells
    scenario = cut_llama(tmp_path / "wide", hidden_size=256, num_attention_heads=4,
                         head_dim=64, intermediate_size=32)
    weight = scenario.weight("layers.0.attention.Wq")
    assert isinstance(weight, MappedWeight)
    prepare_weight(weight, 3)
    values = prepared_values(weight)
    assert values is not None
    block = block_shape(*values.shape)
    whole = np.asarray(weight, dtype=np.float64)
    want = block_means(whole, None, block)
    assert block == (4, 4) and np.array_equal(means_of(values, None, block), want)
    others: list[npt.NDArray[np.float64]] = []  # other heat maps drawn since, kept alive
    for seed in range(MEANS_KEPT):
        others.append(np.random.default_rng(seed).standard_normal(values.shape))
        means_of(others[-1], None, block)

    def read_again(*_args: object) -> npt.NDArray[np.float64]:
        raise AssertionError("block means worked out again on the interface thread")

    monkeypatch.setattr(app.canvas.remember, "block_means", read_again)
    assert prepared_values(weight) is values  # its grid drawn again
    assert np.array_equal(means_of(values, None, block), want)
    assert spread(values) == Spread.of(whole)
