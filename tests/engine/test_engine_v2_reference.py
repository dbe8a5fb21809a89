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

from app.cli import main
from engine import Trace, compute, parse_scenario
from tests.engine.reference_v2 import forward, trace_arrays
from tests.engine.v2_documents import CASES
from tests.examples import EXAMPLES

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
def test_every_version_1_example_is_the_reference(path: Path) -> None:
    """Every array agrees to 1e-13 and the mask is the same to the bit.

    Not bit for bit: the reference's exponentials are `math.exp`, the engine's numpy's `exp`,
    whose SIMD kernel differs by CPU (AVX-512 machines differ in the last bit, ~7e-18)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    every, trace = assert_agrees(doc, tolerance=1e-13)
    assert np.array_equal(trace.visible, every["visible:"])


def test_the_reference_is_not_the_engine_on_a_changed_number() -> None:
    """The comparison can fail: one weight moved by 1e-9 is seen in Q."""
    doc = json.loads((EXAMPLES / "g01.qkv.json").read_text(encoding="utf-8"))
    moved = copy.deepcopy(doc)
    moved["attention"]["Wq"][0][0] += 1e-9
    with pytest.raises(AssertionError, match=r"\bQ\b"):
        assert_agrees(moved, engine_doc=doc)


# -------------------------------------------------------------------------- version-2 constructs

# Constructs not compared on main, each with why; every other case of CASES is.
ON_MAIN = tuple(sorted(CASES))


@pytest.mark.parametrize("case", ON_MAIN)
def test_the_engine_is_the_reference(case: str) -> None:
    assert_agrees(CASES[case]())


@pytest.mark.parametrize("case", ON_MAIN)
def test_every_attention_sees_the_keys_the_reference_sees(case: str) -> None:
    """Causal, window and key_mask combined, per scope (cross-attention n × n_enc)."""
    every, trace = assert_agrees(CASES[case]())
    scopes = {name[len("visible:"):] for name in every if name.startswith("visible:")}
    assert scopes
    for scope in scopes:
        assert np.array_equal(trace.visible_for(scope), every["visible:" + scope]), scope


@pytest.mark.parametrize("case", ["pre_norm_3_layers", "swiglu", "norm_none",
                                  "encoder_decoder_post_as_torch_default"])
def test_the_engine_has_the_documented_extras(case: str) -> None:
    """`*_stats` of every norm and the ungated `ffn_pre`: present, and equal (assert_agrees)."""
    every, trace = assert_agrees(CASES[case]())
    extras = {name for name in every if EXTRA.search(name)}
    assert extras and extras <= set(trace.arrays)


@pytest.mark.parametrize(("case", "cell"), [
    ("pre_norm_3_layers", "L3.weights[1,3,2]"),
    ("grouped_query_4_heads_2_kv", "L1.mixed[2,5]"),
    ("encoder_decoder_post_as_torch_default", "L2.cross.weights[1,1,2]"),
    ("encoder_decoder_post_as_torch_default", "enc.L1.scores[0,2,1]"),
    ("rope_half", "L1.Q_rot[1,0]"),
    ("rope_partial_interleaved", "L1.K_rot[3,1]"),
    ("alibi_default_slopes", "L1.scores[1,3,1]"),
    ("alibi_default_slopes", "L1.alibi[1,3,1]"),
    ("encoder_decoder_pre_sinusoidal", "L2.cross.weights[1,1,2]"),
    ("sinusoidal", "positions[3,1]"),
    ("learned_offset", "X[2,3]"),
])
def test_explain_ends_on_the_reference_value(case: str, cell: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    doc = CASES[case]()
    path = tmp_path / "doc.qkv.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["explain", str(path), cell]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    printed = first.rsplit(" = ", 1)[1].replace("−", "-").replace("≈", "")
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    name, index = cell[:-1].split("[")
    expected = forward(doc)[name][tuple(int(k) for k in index.split(","))]
    assert float(printed) == pytest.approx(expected, abs=0.6 * 10.0**-decimals), first


@pytest.mark.parametrize("name", ["three-layers", "encoder-decoder"])
def test_the_stack_examples_agree_with_the_reference(name: str) -> None:
    """The stacked and encoder–decoder examples, against the independent numpy reference."""
    path = EXAMPLES / f"{name}.qkv.json"
    every, trace = assert_agrees(json.loads(path.read_text(encoding="utf-8")), tolerance=1e-12)
    assert "probs" in every and "probs" in trace.arrays
