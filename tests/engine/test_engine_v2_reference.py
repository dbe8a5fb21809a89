"""The engine against an independent reference (reference_v2.py), construct by construct.

Every array the reference computes must be in the engine's trace and agree to 1e-12 (relative and
absolute); the engine may have no array the reference lacks. The reference also computes the
contract's documented extras (`*_stats`, `ffn_pre`); those are compared when the engine has them.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Trace, compute, parse_scenario
from tests.engine.reference_v2 import forward, trace_arrays

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
EXTRA = re.compile(r"(_stats|(^|\.)ffn_pre)$")
Doc = dict[str, Any]


def engine_trace(doc: Doc) -> Trace:
    return compute(parse_scenario(copy.deepcopy(doc)))


def assert_agrees(doc: Doc, tolerance: float = 1e-12,
                  engine_doc: Doc | None = None) -> tuple[dict[str, np.ndarray], Trace]:
    """The engine's arrays are the reference's: same names, same shapes, equal to `tolerance`."""
    every = forward(copy.deepcopy(doc))
    ref = trace_arrays(every)
    trace = engine_trace(doc if engine_doc is None else engine_doc)
    got = trace.arrays
    assert sorted(k for k in ref if k not in got and not EXTRA.search(k)) == [], "missing"
    assert sorted(k for k in got if k not in ref) == [], "arrays the reference does not know"
    for name in sorted(ref.keys() & got.keys()):
        assert got[name].shape == ref[name].shape, name
        np.testing.assert_allclose(got[name], ref[name], rtol=tolerance, atol=tolerance,
                                   err_msg=name)
    return every, trace


# ----------------------------------------------------------------------- version 1 as shorthand

@pytest.mark.parametrize("path", [p for p in sorted(EXAMPLES.glob("*.qkv.json"))
                                  if json.loads(p.read_text(encoding="utf-8"))["version"] == 1],
                         ids=lambda p: p.name)
def test_every_version_1_example_is_the_reference_bit_for_bit(path: Path) -> None:
    """Same arithmetic in the same order: not one bit differs, and the mask is the same."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    every, trace = assert_agrees(doc, tolerance=1e-13)
    for name, array in trace.arrays.items():
        assert np.array_equal(array, every[name]), name
    assert np.array_equal(trace.visible, every["visible:"])


def test_the_reference_is_not_the_engine_on_a_changed_number() -> None:
    """The comparison can fail: one weight moved by 1e-9 is seen in Q."""
    doc = json.loads((EXAMPLES / "g01.qkv.json").read_text(encoding="utf-8"))
    moved = copy.deepcopy(doc)
    moved["attention"]["Wq"][0][0] += 1e-9
    with pytest.raises(AssertionError, match=r"\bQ\b"):
        assert_agrees(moved, engine_doc=doc)


@pytest.mark.parametrize("path", [p for p in sorted(EXAMPLES.glob("*.qkv.json"))
                                  if json.loads(p.read_text(encoding="utf-8"))["version"] == 2],
                         ids=lambda p: p.name)
def test_every_version_2_example_agrees_with_the_reference(path: Path) -> None:
    """The stacked and encoder–decoder examples, against the independent numpy reference."""
    every, trace = assert_agrees(json.loads(path.read_text(encoding="utf-8")), tolerance=1e-12)
    assert "probs" in every and "probs" in trace.arrays
