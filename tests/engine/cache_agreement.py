"""A construct the KV cache and a grown trace must compute as the whole computation does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import compute, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.append import extend
from engine.generation.grow import grown
from engine.generation.redraw import with_settings
from engine.generation.run import generate


def assert_cached_and_grown_as_whole(document: dict[str, Any], names: Sequence[str]) -> None:
    """``document``'s second generated token (through the KV cache) has the logits of the
    document extended by the first, computed whole; and its trace grown by two tokens has the
    arrays ``names`` of the longer document computed whole (within 1e-12)."""
    start = with_settings(parse_scenario(document), Settings(temperature=0.0))
    run = generate(start, 2, Settings(temperature=0.0))
    after = compute(extend(start, run.tokens[0].draw.chosen))
    np.testing.assert_allclose(run.tokens[1].draw.logits, after.arrays["logits"][-1], rtol=0,
                               atol=1e-12)
    longer = extend(start, 2)
    grew = grown(compute(start), longer)
    assert grew is not None
    whole = compute(longer)
    for name in names:
        np.testing.assert_allclose(grew.arrays[name], whole.arrays[name], rtol=0, atol=1e-12)
