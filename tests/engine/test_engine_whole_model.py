"""A whole GPT-2 small computes (issue 25, item 3): 12 layers, d = 768, 12 heads, a vocabulary of
50,257 (124 million numbers, float32 random weights made here) at n = 64, and its numbers are the
checkpoint's own computation, worked independently (tests/engine/hf_reference.py). Saving and
reading it back is the benchmark's (tests/bench/bench_checkpoint.py): writing 500 MB with fsync
is slow on a shared disk. About 10–20 s and 2.5 GB of memory: marked slow."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import compute
from engine.checkpoint import import_checkpoint
from tests.bench.gpt2_small import LAYERS, VOCAB, make_checkpoint, text_of
from tests.engine.hf_reference import hf_forward


@pytest.mark.slow
def test_a_whole_gpt2_small_computes_at_64_positions(tmp_path: Path) -> None:
    folder = tmp_path / "gpt2-small"
    make_checkpoint(folder)
    scenario = import_checkpoint(folder, text_of(64))
    assert scenario.n == 64 and len(scenario.layers) == LAYERS
    assert scenario.token_ids is not None
    trace = compute(scenario)
    assert trace.arrays["probs"].shape == (64, VOCAB)  # over the whole vocabulary
    theirs = hf_forward(folder, list(scenario.token_ids))
    np.testing.assert_allclose(trace.arrays["logits"], theirs["logits"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(trace.arrays[f"L{LAYERS}.weights"], theirs["shares"][-1],
                               rtol=0, atol=1e-12)
