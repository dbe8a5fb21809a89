"""Properties over random scenarios, and agreement with a plain-Python reference forward pass.

The reference below reads the document itself (with the format's defaults) and computes every
named array with explicit loops, ``math.exp``, ``math.sqrt`` and ``math.erf``; it shares no code
with the engine.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import compute, explain, format_number, parse_scenario
from tests.engine.reference_v2 import next_token_draw

Doc = dict[str, Any]
Matrix = list[list[float]]

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

numbers = st.floats(min_value=-2.0, max_value=2.0, allow_nan=False, allow_infinity=False)


def matrix(rows: int, cols: int) -> st.SearchStrategy[Matrix]:
    return st.lists(st.lists(numbers, min_size=cols, max_size=cols), min_size=rows,
                    max_size=rows)


def vector(length: int) -> st.SearchStrategy[list[float]]:
    return st.lists(numbers, min_size=length, max_size=length)


@st.composite
def documents(draw: st.DrawFn, causal: bool | None = None, with_ids: bool = True) -> Doc:
    """A valid random document: n 1..6, d 1..6, heads 1..3, d_k and d_v 1..3, every option."""
    n = draw(st.integers(1, 6))
    h = draw(st.integers(1, 3))
    d_k = draw(st.integers(1, 3))
    has_block = draw(st.booleans())
    has_wo = draw(st.booleans())
    if has_block and not has_wo:
        # The block adds the concatenated heads to X: h·d_v must be d.
        d_v = draw(st.integers(1, min(3, 6 // h)))
        d = h * d_v
    else:
        d_v = draw(st.integers(1, 3))
        d = draw(st.integers(1, 6))
    doc: Doc = {"format": "qkv-studio", "version": 1}
    if with_ids and draw(st.booleans()):
        vocab_rows = draw(st.integers(1, 5))
        doc["embedding"] = draw(matrix(vocab_rows, d))
        doc["token_ids"] = draw(st.lists(st.integers(0, vocab_rows - 1), min_size=n, max_size=n))
    else:
        doc["X"] = draw(matrix(n, d))
    if draw(st.booleans()):
        doc["tokens"] = [f"w{k}" for k in range(n)]
    att: Doc = {"Wq": draw(matrix(d, h * d_k)), "Wk": draw(matrix(d, h * d_k)),
                "Wv": draw(matrix(d, h * d_v))}
    if h > 1 or draw(st.booleans()):
        att["heads"] = h
    if causal is not None:
        att["causal"] = causal
    elif draw(st.booleans()):
        att["causal"] = draw(st.booleans())
    if draw(st.booleans()):
        att["scale"] = draw(st.booleans())
    for name, width in (("bq", h * d_k), ("bk", h * d_k), ("bv", h * d_v)):
        if draw(st.booleans()):
            att[name] = draw(vector(width))
    if has_wo:
        d_out = d if has_block else draw(st.integers(1, 6))
        att["Wo"] = draw(matrix(h * d_v, d_out))
        if draw(st.booleans()):
            att["bo"] = draw(vector(d_out))
    doc["attention"] = att
    if has_block:
        doc["block"] = draw(blocks(d))
    return doc


@st.composite
def blocks(draw: st.DrawFn, d: int) -> Doc:
    f = draw(st.integers(1, 6))
    ffn: Doc = {"W1": draw(matrix(d, f)), "W2": draw(matrix(f, d))}
    if draw(st.booleans()):
        ffn["activation"] = draw(st.sampled_from(["relu", "gelu", "silu", "identity"]))
    if draw(st.booleans()):
        ffn["b1"] = draw(vector(f))
    if draw(st.booleans()):
        ffn["b2"] = draw(vector(d))
    block: Doc = {"ffn": ffn}
    if draw(st.booleans()):
        block["norm"] = draw(st.sampled_from(["layernorm", "rmsnorm", "none"]))
    if draw(st.booleans()):
        block["eps"] = draw(st.sampled_from([1e-5, 1e-3, 0.1, 1.0]))
    if draw(st.booleans()):
        block["placement"] = draw(st.sampled_from(["pre", "post"]))
    if draw(st.booleans()):
        block["final_norm"] = draw(st.booleans())
    for name in ("gamma1", "beta1", "gamma2", "beta2", "gamma_f", "beta_f"):
        if draw(st.booleans()):
            block[name] = draw(vector(d))
    if draw(st.booleans()):
        size = draw(st.integers(1, 5))
        block["unembed"] = draw(matrix(d, size))
        if draw(st.booleans()):
            block["vocab"] = [f"v{k}" for k in range(size)]
    return block


# -- the reference: loops over plain lists --------------------------------------------------

def ref_matmul(a: Matrix, b: Matrix) -> Matrix:
    out = []
    for i in range(len(a)):
        row = []
        for j in range(len(b[0])):
            total = 0.0
            for t in range(len(b)):
                total += a[i][t] * b[t][j]
            row.append(total)
        out.append(row)
    return out


def ref_add_row(a: Matrix, bias: list[float] | None) -> Matrix:
    if bias is None:
        return [list(r) for r in a]
    return [[a[i][j] + bias[j] for j in range(len(a[i]))] for i in range(len(a))]


def ref_add(a: Matrix, b: Matrix) -> Matrix:
    return [[a[i][j] + b[i][j] for j in range(len(a[i]))] for i in range(len(a))]


def ref_softmax_row(row: list[float], visible: list[bool]) -> list[float]:
    top = max(row[k] for k in range(len(row)) if visible[k])
    exps = [math.exp(row[k] - top) if visible[k] else 0.0 for k in range(len(row))]
    total = sum(exps)
    return [e / total for e in exps]


def ref_norm(kind: str, x: Matrix, gamma: list[float], beta: list[float], eps: float) -> Matrix:
    out = []
    for row in x:
        d = len(row)
        if kind == "layernorm":
            mean = sum(row) / d
            var = sum((v - mean) ** 2 for v in row) / d
            out.append([(row[j] - mean) / math.sqrt(var + eps) * gamma[j] + beta[j]
                        for j in range(d)])
        elif kind == "rmsnorm":
            rms = math.sqrt(sum(v * v for v in row) / d + eps)
            out.append([row[j] / rms * gamma[j] for j in range(d)])
        else:
            out.append(list(row))
    return out


def ref_activation(kind: str, z: float) -> float:
    if kind == "relu":
        return z if z > 0 else 0.0
    if kind == "gelu":
        return 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))
    if kind == "silu":
        return z / (1.0 + math.exp(-z))
    return z


def reference(doc: Doc) -> dict[str, Any]:
    """Every named array of the format's table, by the table's definitions."""
    if "X" in doc:
        X = [[float(v) for v in r] for r in doc["X"]]
    else:
        X = [[float(v) for v in doc["embedding"][t]] for t in doc["token_ids"]]
    n, d = len(X), len(X[0])
    att = doc["attention"]
    h = att.get("heads", 1)
    causal = att.get("causal", True)
    scale = att.get("scale", True)
    d_k = len(att["Wq"][0]) // h
    d_v = len(att["Wv"][0]) // h
    visible = [[(j <= i) or not causal for j in range(n)] for i in range(n)]
    out: dict[str, Any] = {"X": X}

    def attention(x: Matrix) -> None:
        Q = ref_add_row(ref_matmul(x, att["Wq"]), att.get("bq"))
        K = ref_add_row(ref_matmul(x, att["Wk"]), att.get("bk"))
        V = ref_add_row(ref_matmul(x, att["Wv"]), att.get("bv"))
        scores, weights = [], []
        mixed = [[0.0] * (h * d_v) for _ in range(n)]
        for head in range(h):
            s_head = []
            for i in range(n):
                row = []
                for j in range(n):
                    dot = 0.0
                    for c in range(head * d_k, (head + 1) * d_k):
                        dot += Q[i][c] * K[j][c]
                    row.append(dot / math.sqrt(d_k) if scale else dot)
                s_head.append(row)
            w_head = [ref_softmax_row(s_head[i], visible[i]) for i in range(n)]
            for i in range(n):
                for c in range(head * d_v, (head + 1) * d_v):
                    mixed[i][c] = sum(w_head[i][j] * V[j][c] for j in range(n))
            scores.append(s_head)
            weights.append(w_head)
        attn_out = (ref_add_row(ref_matmul(mixed, att["Wo"]), att.get("bo")) if "Wo" in att
                    else [list(r) for r in mixed])
        out.update(Q=Q, K=K, V=V, scores=scores, weights=weights, mixed=mixed, attn_out=attn_out)

    block = doc.get("block")
    if block is None:
        attention(X)
        return out
    kind = block.get("norm", "layernorm")
    eps = block.get("eps", 1e-5)
    placement = block.get("placement", "pre")

    def norm(x: Matrix, which: str) -> Matrix:
        gamma = block.get(f"gamma{which}", [1.0] * d)
        beta = block.get(f"beta{which}", [0.0] * d)
        return ref_norm(kind, x, gamma, beta, eps)

    ffn = block["ffn"]
    activation = ffn.get("activation", "relu")

    def feed_forward(x: Matrix) -> None:
        z = ref_add_row(ref_matmul(x, ffn["W1"]), ffn.get("b1"))
        hidden = [[ref_activation(activation, v) for v in r] for r in z]
        out["ffn_hidden"] = hidden
        out["ffn_out"] = ref_add_row(ref_matmul(hidden, ffn["W2"]), ffn.get("b2"))

    if placement == "pre":
        out["norm1"] = norm(X, "1")
        attention(out["norm1"])
        out["resid1"] = ref_add(X, out["attn_out"])
        out["norm2"] = norm(out["resid1"], "2")
        feed_forward(out["norm2"])
        out["resid2"] = ref_add(out["resid1"], out["ffn_out"])
        stream = out["resid2"]
    else:
        attention(X)
        out["resid1"] = ref_add(X, out["attn_out"])
        out["norm1"] = norm(out["resid1"], "1")
        feed_forward(out["norm1"])
        out["resid2"] = ref_add(out["norm1"], out["ffn_out"])
        out["norm2"] = norm(out["resid2"], "2")
        stream = out["norm2"]
    if block.get("final_norm", placement == "pre"):
        out["final_norm"] = stream = norm(stream, "_f")
    if "unembed" in block:
        out["logits"] = ref_matmul(stream, block["unembed"])
        size = len(block["unembed"][0])
        out["probs"] = [ref_softmax_row(r, [True] * size) for r in out["logits"]]
        if "token_ids" in doc and len(doc["embedding"]) >= size:
            # it can generate (a row for every entry a draw may pick): the trace ends with the
            # next token's draw
            out.update(next_token_draw(np.array(out["logits"][-1]), {}))
    return out


# -- properties -------------------------------------------------------------------------------

NEAR_TIE: Doc = {
    "format": "qkv-studio", "version": 1, "embedding": [[0.0], [0.0], [0.0]], "token_ids": [0],
    "attention": {"Wq": [[0.0]], "Wk": [[0.0]], "Wv": [[1.2574241930634258e-16]]},
    "block": {"ffn": {"W1": [[0.0]], "W2": [[0.0]]}, "final_norm": False, "beta1": [-2.0],
              "unembed": [[1.0, 1.375, 0.75]]}}
"""A draw found by the property below: logits of about 1e-16, whose probabilities differ
only by rounding, the engine ranking them 0, 2, 1 and the reference 0, 1, 2."""
APART: Doc = {**NEAR_TIE, "embedding": [[1.0], [0.0], [0.0]],
              "attention": {"Wq": [[0.0]], "Wk": [[0.0]], "Wv": [[0.25]]}}
"""The same with logits 0.5 · (1, 1.375, 0.75): three probabilities far apart, ranked 1, 0, 2
(few drawn documents generate with probabilities apart: about one in 75)."""


@SETTINGS
@given(documents())
@example(NEAR_TIE)
@example(APART)
def test_every_array_agrees_with_the_reference(doc: Doc) -> None:
    trace = compute(parse_scenario(doc))
    expected = reference(doc)
    derived = {name for name in trace.arrays if name.endswith("_stats") or name == "ffn_pre"}
    assert set(trace.arrays) - derived == set(expected)
    for name, values in expected.items():
        got = trace.arrays[name]
        assert got.shape == np.asarray(values).shape, name
        if name.endswith((".kept", ".chosen")):
            continue  # orders, compared below
        assert np.allclose(got, values, rtol=1e-7, atol=1e-8), name
    for kept in (name for name in expected if name.endswith(".kept")):
        draw = kept.removesuffix(".kept")
        assert_same_draw(trace.arrays, expected, draw)


def assert_same_draw(got: dict[str, np.ndarray], expected: dict[str, Any], draw: str) -> None:
    """The engine's draw ``draw`` (``gen1``) keeps the ids the reference keeps, most probable
    first, and chooses the same place among them. Probabilities that differ only by rounding
    (the engine shifts the logits before the softmax, the reference does not) may be ranked
    either way: where the orders differ, the ids must be that close in the reference's own
    probabilities; anything more apart is a different ranking and fails."""
    tempered = np.asarray(expected[f"{draw}.tempered"])
    mine, theirs = got[f"{draw}.kept"].astype(int), np.asarray(expected[f"{draw}.kept"], int)
    assert mine.shape == theirs.shape, f"{draw}.kept"
    assert np.allclose(tempered[mine], tempered[theirs], rtol=0, atol=1e-15), \
        (f"{draw}.kept", mine, theirs)
    place = list(mine).index(int(got[f"{draw}.chosen"][0]))
    assert place == list(theirs).index(int(np.asarray(expected[f"{draw}.chosen"])[0])), \
        f"{draw}.chosen"


@SETTINGS
@given(documents())
def test_shares_sum_to_one_and_masked_shares_are_exactly_zero(doc: Doc) -> None:
    trace = compute(parse_scenario(doc))
    weights = trace.arrays["weights"]
    n = trace.scenario.n
    assert np.allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    assert (weights >= 0).all()
    causal = doc["attention"].get("causal", True)
    for i in range(n):
        for j in range(n):
            hidden = causal and j > i
            assert bool(trace.visible[i, j]) is not hidden
            if hidden:
                assert (weights[:, i, j] == 0.0).all()
    if causal:
        assert (weights[:, 0, 0] == 1.0).all()
    if "probs" in trace.arrays:
        assert np.allclose(trace.arrays["probs"].sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@SETTINGS
@given(documents(causal=False, with_ids=False), st.randoms(use_true_random=False))
def test_without_the_mask_permuting_positions_permutes_every_output(doc: Doc,
                                                                    rnd: Any) -> None:
    n = len(doc["X"])
    order = list(range(n))
    rnd.shuffle(order)
    shuffled = dict(doc)
    shuffled["X"] = [doc["X"][k] for k in order]
    a = compute(parse_scenario(doc)).arrays
    b = compute(parse_scenario(shuffled)).arrays
    assert set(a) == set(b)
    for name, values in a.items():
        # Scores and shares are permuted along both the query and the key axis.
        expected = values[:, order][:, :, order] if name in ("scores", "weights") else values[order]
        assert np.allclose(b[name], expected, rtol=1e-9, atol=1e-10), name


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_cell_of_a_random_trace_can_be_explained(doc: Doc) -> None:
    trace = compute(parse_scenario(doc))
    for name, array in trace.arrays.items():
        for index in np.ndindex(array.shape):
            text = explain(trace, name, index).formula
            final = text.rsplit(" = ", 1)[1].split(" ")[0]
            assert final == format_number(float(array[index])), (name, index, text)


@SETTINGS
@given(documents(), st.data())
def test_changing_wv_never_changes_the_shares(doc: Doc, data: st.DataObject) -> None:
    # Pre or post, the attention's input (norm1 or X) does not depend on Wv, nor do Q and K.
    before = compute(parse_scenario(doc)).arrays["weights"]
    att = doc["attention"]
    rows, cols = len(att["Wv"]), len(att["Wv"][0])
    changed = dict(doc, attention=dict(att, Wv=data.draw(matrix(rows, cols))))
    after = compute(parse_scenario(changed)).arrays["weights"]
    assert np.array_equal(before, after)
