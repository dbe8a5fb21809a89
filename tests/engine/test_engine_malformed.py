"""Random malformed documents: accepted, or refused with a one-line ScenarioError; never a crash.

Each example takes a valid document (a built-in example) and mutates it at a random place: a wrong
type, a wrong shape, NaN or infinity, a missing or unknown key, a string or a bool for a number,
a huge size. The document then goes through parsing, computing and explaining, and as JSON text
through :func:`engine.read_document`.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ScenarioError, compute, explain, parse_scenario, read_document
from tests.examples import EXAMPLES

EXAMPLE_NAMES = ("f11", "g01", "multihead", "norms", "single-key", "tokenizer")
BASES: dict[str, Any] = {name: json.loads((EXAMPLES / f"{name}.qkv.json").read_text(
    encoding="utf-8")) for name in EXAMPLE_NAMES}
# Version 2: a stack using every layer key, and an encoder–decoder with cross-attention.
_ROWS = [[0.5, -1.0], [1.0, 0.25]]
BASES["v2-stack"] = {
    "format": "qkv-studio", "version": 2, "title": "v2", "tokens": ["a", "b"], "X": _ROWS,
    "layers": [
        {"attention": {"heads": 2, "kv_heads": 1, "window": 2, "key_mask": [1, 1],
                       "qk_norm": "rmsnorm", "gamma_q": [1.5], "gamma_k": [0.5],
                       "Wq": _ROWS, "Wk": [[1], [0.5]], "Wv": [[2], [-1]], "Wo": _ROWS},
         "block": {"norm": "rmsnorm", "residual": "parallel",
                   "ffn": {"W1": _ROWS, "Wg": _ROWS, "bg": [0.1, 0.2], "activation": "silu",
                           "W2": _ROWS}}},
        {"attention": {"Wq": _ROWS, "Wk": _ROWS, "Wv": _ROWS},
         "block": {"placement": "post", "ffn": {"W1": _ROWS, "activation": "gelu_tanh",
                                                "W2": _ROWS}}}],
    "head": {"final_norm": True, "unembed": _ROWS, "bias": [1, -1], "vocab": ["x", "y"]},
}
BASES["v2-encoder"] = {
    "format": "qkv-studio", "version": 2, "title": "v2 encoder", "tokens": ["a", "b"],
    "X": _ROWS,
    "encoder": {"tokens": ["s", "t", "u"], "X": [[1, 0], [0, 1], [1, 1]],
                "layers": [{"attention": {"Wq": _ROWS, "Wk": _ROWS, "Wv": _ROWS},
                            "block": {"ffn": {"W1": _ROWS, "W2": _ROWS}}}]},
    "layers": [{"attention": {"Wq": _ROWS, "Wk": _ROWS, "Wv": _ROWS},
                "cross_attention": {"Wq": _ROWS, "Wk": _ROWS, "Wv": _ROWS,
                                    "key_mask": [1, 0, 1]},
                "block": {"gamma_c": [1, 2], "ffn": {"W1": _ROWS, "W2": _ROWS}}}],
    "head": {"unembed": _ROWS},
}
# Positions: learned rows with an offset on the decoder, RoPE on the encoder, ALiBi on a stack.
BASES["v2-positions"] = {
    **BASES["v2-encoder"], "title": "v2 positions",
    "positions": {"kind": "learned", "table": [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]],
                  "offset": 1},
    "encoder": {**BASES["v2-encoder"]["encoder"],
                "positions": {"kind": "rope", "base": 100, "rotary_dims": 2,
                              "pairing": "interleaved"}},
}
BASES["v2-alibi"] = {
    "format": "qkv-studio", "version": 2, "title": "v2 alibi", "tokens": ["a", "b"],
    "X": _ROWS, "positions": {"kind": "alibi", "slopes": [0.5, 0.25]},
    "layers": [{"attention": {"heads": 2, "causal": False, "Wq": _ROWS, "Wk": _ROWS,
                              "Wv": _ROWS}}],
}
NAMES = tuple(BASES)
Path_ = tuple[str | int, ...]

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

_BIG_ROW = [0.25] * 3
JUNK: list[object] = [
    None, True, False, 0, -1, 1.5, 64, 65, 4097, 2**31, 2**64, 10**400, -(10**30), 1e308, -1e308,
    1e-320, float("nan"), float("inf"), float("-inf"), "", "1", "1.0", "abc", "a\nb", "\u2028",
    "relu", "layernorm", "post", [], [[]], [[[]]], [1, 2], [[1, "2"]], [[True, 1]], [None],
    [[float("nan")]], {}, {"x": 1}, {"Wq": [[1]]},
    [_BIG_ROW] * 5000,          # too many rows (shared row: cheap to build)
    [[0.5] * 5000],             # too many columns
    [0.5] * 70000,              # too long a row
]


def all_paths(node: object, prefix: Path_ = ()) -> list[Path_]:
    """Every place in a document: object keys and list items, at every depth."""
    found: list[Path_] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append((*prefix, key))
            found += all_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for k, value in enumerate(node):
            found.append((*prefix, k))
            found += all_paths(value, (*prefix, k))
    return found


def numbers_scaled(node: Any, factor: float) -> Any:
    if isinstance(node, bool | str) or (isinstance(node, int) and abs(node) > 2**53):
        return node
    if isinstance(node, int | float):
        return node * factor
    if isinstance(node, list):
        return [numbers_scaled(v, factor) for v in node]
    if isinstance(node, dict):
        return {k: (v if k in ("version", "heads", "token_ids") else numbers_scaled(v, factor))
                for k, v in node.items()}
    return node


@st.composite
def malformed(draw: st.DrawFn) -> object:
    doc: Any = copy.deepcopy(BASES[draw(st.sampled_from(NAMES))])
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "delete", "unknown", "drop_item", "dup_item",
                                     "wrap", "scale", "swap"]))
        if kind == "scale":
            doc = numbers_scaled(doc, draw(st.sampled_from([0.0, -1.0, 1e150, 1e300, 1e-300])))
            continue
        paths = all_paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if kind == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(JUNK)))
        elif kind == "delete":
            del parent[key]
        elif kind == "unknown":
            target = parent if isinstance(parent, dict) else doc
            name = draw(st.sampled_from(["colour", "", "x\ny", "Wq ", "ffn", "block", "1",
                                         "layers", "cross_attention", "encoder", "head"]))
            target[name] = draw(st.sampled_from(JUNK[:12]))
        elif kind == "drop_item" and isinstance(parent[key], list) and parent[key]:
            parent[key].pop(draw(st.integers(0, len(parent[key]) - 1)))
        elif kind == "dup_item" and isinstance(parent[key], list) and parent[key]:
            parent[key].append(copy.deepcopy(parent[key][-1]))
        elif kind == "wrap":
            parent[key] = [parent[key]]
        elif kind == "swap" and isinstance(parent, dict):
            other = draw(st.sampled_from(sorted(parent)))
            parent[key], parent[other] = parent[other], parent[key]
    return doc


def check_outcome(doc: object) -> str:
    """Parse, compute and explain; return "accepted" or the refusal (checked to be one line)."""
    try:
        trace = compute(parse_scenario(doc))
    except ScenarioError as error:
        message = str(error)
        assert ": " in message, message
        assert len(message.splitlines()) == 1 and "\n" not in message, message
        assert message.split(": ")[0], message  # the place is never empty
        return message
    for name, array in trace.arrays.items():
        assert np.isfinite(array).all(), name  # an accepted document never yields inf or NaN
        for index in ((0,) * array.ndim, tuple(n - 1 for n in array.shape)):
            explanation = explain(trace, name, index)
            assert explanation.formula.startswith(name)
    return "accepted"


@SETTINGS
@given(malformed())
def test_a_mutated_document_is_accepted_or_refused_cleanly(doc: object) -> None:
    check_outcome(doc)


@SETTINGS
@given(malformed())
def test_the_same_through_json_text(tmp_path_factory: pytest.TempPathFactory,
                                    doc: object) -> None:
    folder = tmp_path_factory.mktemp("fuzz", numbered=True)
    path = folder / "doc.qkv.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    try:
        value = read_document(path)
    except ScenarioError as error:
        assert len(str(error).splitlines()) == 1 and str(error).startswith("doc.qkv.json: ")
        return
    check_outcome(value)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(EXAMPLE_NAMES), st.data())
def test_corrupted_json_text_is_refused_cleanly(tmp_path_factory: pytest.TempPathFactory,
                                                name: str, data: st.DataObject) -> None:
    raw = bytearray((EXAMPLES / f"{name}.qkv.json").read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        spot = data.draw(st.integers(0, len(raw) - 1))
        action = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if action == "flip":
            raw[spot] = data.draw(st.integers(0, 255))
        elif action == "cut":
            del raw[spot:]
            if not raw:
                break
        else:
            raw[spot:spot] = data.draw(st.sampled_from([b"\x00", b",", b"]", b"{", b"\"",
                                                        b"1e999", b"NaN", b"\xff", b"9" * 5000]))
    path = tmp_path_factory.mktemp("bytes", numbered=True) / "broken.json"
    path.write_bytes(bytes(raw))
    try:
        value = read_document(path)
    except ScenarioError as error:
        assert len(str(error).splitlines()) == 1 and str(error).startswith("broken.json: ")
        return
    check_outcome(value)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_junk_value_at_every_place_of_an_example(name: str) -> None:
    """Exhaustive over one example: each place replaced by each kind of junk, and deleted.
    Only the objects and lists on the way to the place are copied: the rest of the document
    and the junk are shared, which holds only because reading never changes a document (it
    is checked, on the example and on the junk, at the end)."""
    base = BASES[name]
    before = repr((base, JUNK))
    outcomes = set()
    for path in all_paths(base):
        # Only the first item of each list, to keep the count down.
        if any(isinstance(k, int) and k > 0 for k in path):
            continue
        for junk in [*JUNK, "delete"]:
            doc: Any = copy.copy(base)
            parent = doc
            for key in path[:-1]:
                parent[key] = copy.copy(parent[key])
                parent = parent[key]
            if junk == "delete":
                del parent[path[-1]]
            else:
                parent[path[-1]] = junk
            outcomes.add(check_outcome(doc) == "accepted")
    assert outcomes == {True, False}  # some edits are harmless, most are refused
    assert repr((base, JUNK)) == before, "reading changed the document it read"
