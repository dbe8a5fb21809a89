"""A malformed document is refused with one line that names the place and the problem."""

from __future__ import annotations

import copy
import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import engine.format.reader
from engine import ScenarioError, compute, parse_scenario
from engine.format.writer import to_document
from engine.scenario.edit import with_parameter
from tests.examples import EXAMPLES

Doc = dict[str, Any]


def document(name: str) -> Doc:
    doc: Doc = json.loads((EXAMPLES / f"{name}.qkv.json").read_text(encoding="utf-8"))
    return doc


def refusal(doc: object) -> str:
    with pytest.raises(ScenarioError) as caught:
        compute(parse_scenario(doc))
    message = str(caught.value)
    assert "\n" not in message and len(message.splitlines()) == 1
    assert ": " in message
    return message


def edited(name: str, edit: Callable[[Doc], object]) -> Doc:
    doc = copy.deepcopy(document(name))
    edit(doc)
    return doc


def put(*path: str | int, value: object) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def drop(*path: str) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return edit


NAN, INF = float("nan"), float("inf")

CASES: list[tuple[str, Callable[[Doc], object], str]] = [
    # shapes
    ("f11", put("attention", "Wk", value=[[1, 0], [0, 1], [1, 1]]),
     "attention.Wk: expected 2 rows to match d=2, got 3"),
    ("f11", put("attention", "Wk", value=[[1, 0, 1], [0, 1, 1]]),
     "attention.Wk: expected 2 columns to match Wq (queries and keys must have the same width), "
     "got 3"),
    ("f11", put("attention", "Wq", value=[[1, 1]]),
     "attention.Wq: expected 2 rows to match d=2, got 1"),
    ("f11", put("attention", "heads", value=3),
     "attention.Wq: 2 columns do not split into 3 heads"),
    ("f11", put("attention", "bq", value=[1, 2, 3]),
     "attention.bq: expected 2 numbers to match Wq's columns, got 3"),
    ("f11", put("attention", "bo", value=[1, 2]), "attention.bo: an output bias needs Wo"),
    ("f11", put("attention", "Wo", value=[[1, 2]]),
     "attention.Wo: expected 2 rows to match the 2 concatenated value columns, got 1"),
    ("f11", put("X", 1, value=[1]), "X[1]: expected 2 numbers like row 0, got 1"),
    ("f11", put("X", value=[]), "X: expected at least one row, got none"),
    ("f11", put("X", value=[[]]), "X: expected at least one column, got none"),
    ("f11", put("X", value=[1, 1]), "X[0]: expected a row (a list of numbers), got 1"),
    ("f11", put("X", value={"a": 1}), "X: expected a matrix (a list of rows), got an object"),
    ("f11", put("tokens", value=["a"]), "tokens: expected 2 labels, got 1"),
    ("g01", put("attention", "Wo", value=[[1, 0, 0], [0, 1, 0]]),
     "attention.Wo: the block adds the attention output to X, so Wo's columns must be d=2, "
     "got 3"),
    ("g01", put("block", "gamma1", value=[1, 1, 1]),
     "block.gamma1: expected 2 numbers to match d=2, got 3"),
    ("g01", put("block", "ffn", "W2", value=[[1, 0]]),
     "block.ffn.W2: expected 2 rows to match W1's 2 columns, got 1"),
    ("g01", put("block", "ffn", "W2", value=[[1], [0]]),
     "block.ffn.W2: expected 2 columns to match d=2, got 1"),
    ("g01", put("block", "ffn", "b1", value=[1]),
     "block.ffn.b1: expected 2 numbers to match W1's columns, got 1"),
    ("g01", put("block", "unembed", value=[[1, 2, 3]]),
     "block.unembed: expected 2 rows to match d=2, got 1"),
    ("g01", put("block", "vocab", value=["a"]), "block.vocab: expected 3 labels, got 1"),
    ("g01", drop("block", "unembed"), "block.vocab: vocabulary labels need the head block.unembed"),
    # numbers
    ("f11", put("X", 1, 0, value=NAN), "X[1][0]: nan is not allowed: every number must be finite"),
    ("f11", put("X", 0, 1, value=-INF),
     "X[0][1]: -inf is not allowed: every number must be finite"),
    ("f11", put("attention", "Wv", 1, 1, value=INF),
     "attention.Wv[1][1]: inf is not allowed: every number must be finite"),
    ("f11", put("X", 0, 1, value="1"), 'X[0][1]: expected a number, got "1"'),
    ("f11", put("X", 0, 1, value=True), "X[0][1]: expected a number, got true"),
    ("f11", put("X", 0, 1, value=None), "X[0][1]: expected a number, got null"),
    ("f11", put("X", 0, 1, value=[1]), "X[0][1]: expected a number, got a list of 1"),
    ("f11", put("X", 0, 0, value=10**400),
     "X[0][0]: a whole number of about 401 digits is too large: every number must be finite"),
    ("f11", put("attention", "heads", value="1"),
     'attention.heads: expected a whole number, got "1"'),
    ("f11", put("attention", "heads", value=True),
     "attention.heads: expected a whole number, got true"),
    ("f11", put("attention", "heads", value=1.5),
     "attention.heads: expected a whole number, got 1.5"),
    ("f11", put("attention", "heads", value=0),
     "attention.heads: expected a whole number from 1 to 64, got 0"),
    ("f11", put("attention", "heads", value=2**70),
     "attention.heads: expected a whole number from 1 to 64, got a whole number of about "
     "22 digits"),
    ("f11", put("attention", "causal", value=1), "attention.causal: expected true or false, got 1"),
    ("g01", put("block", "eps", value=-1e-5), "block.eps: ε must not be negative, got -1e-05"),
    ("g01", put("block", "eps", value="1e-5"), 'block.eps: expected a number, got "1e-5"'),
    # choices and text
    ("g01", put("block", "norm", value="batchnorm"),
     'block.norm: expected one of "layernorm" | "rmsnorm" | "none", got "batchnorm"'),
    ("g01", put("block", "ffn", "activation", value="tanh"),
     'block.ffn.activation: expected one of "relu" | "gelu" | "silu" | "identity" | "gelu_tanh", '
     'got "tanh"'),
    ("g01", put("block", "placement", value="middle"),
     'block.placement: expected one of "pre" | "post", got "middle"'),
    ("f11", put("title", value=5), "title: expected text, got 5"),
    ("f11", put("title", value="x" * 201), "title: text of 201 characters is longer than 200"),
    ("f11", put("format", value="other"), 'format: expected "qkv-studio", got "other"'),
    # versions and keys
    ("f11", put("version", value=3), "version: this document is version 3, made by a newer "
     "QKV Studio; this one reads up to version 2"),
    ("f11", put("version", value=0), "version: expected a whole number from 1 to 1000000, got 0"),
    ("f11", put("colour", value="red"), "colour: unknown key (allowed here: format, version, "
     "title, note, tokens, X, token_ids, embedding, embedding_scale, token_types, type_table, "
     "positions, embedding_norm, encoder, attention, block, layers, head, targets, generation, "
     "display, exercises)"),
    ("f11", put("attention", "Wx", value=[[1]]),
     "attention.Wx: unknown key (allowed here: heads, causal, scale, scale_dk, Wq, Wk, Wv, bq, "
     "bk, bv, Wo, bo, kv_heads, window, key_mask, qk_norm, qk_norm_over, gamma_q, gamma_k, "
     "beta_q, beta_k, ablate_heads, softcap, rope_base, rope_scaled)"),
    ("g01", put("block", "dropout", value=0.1),
     "block.dropout: unknown key (allowed here: norm, eps, placement, residual, pre_norms, "
     "gamma1, beta1, gamma_c, beta_c, gamma2, beta2, gamma3, beta3, gamma4, beta4, ffn, "
     "final_norm, gamma_f, beta_f, transform, unembed, bias, vocab, softcap)"),
    ("g01", put("block", "ffn", "W3", value=[[1]]),
     "block.ffn.W3: unknown key (allowed here: W1, b1, Wg, bg, activation, W2, b2)"),
    # missing parts
    ("f11", drop("X"), "X: missing: give the input rows X (or token_ids and embedding)"),
    ("f11", drop("attention"), "attention: missing: give at least Wq, Wk and Wv"),
    ("f11", drop("attention", "Wv"), "attention.Wv: missing"),
    ("g01", drop("block", "ffn"), "block.ffn: missing: a block needs its feed-forward network"),
    ("g01", drop("block", "ffn", "W2"), "block.ffn.W2: missing"),
    # token ids
    ("tokenizer", put("token_ids", 1, value=16),
     "token_ids[1]: expected a whole number from 0 to 15, got 16"),
    ("tokenizer", put("token_ids", 0, value=-1),
     "token_ids[0]: expected a whole number from 0 to 15, got -1"),
    ("tokenizer", put("token_ids", 0, value="7"),
     'token_ids[0]: expected a whole number, got "7"'),
    ("tokenizer", put("X", value=[[1, 2, 3, 4]]),
     "X: give either X or token_ids with embedding, not both"),
    ("tokenizer", drop("embedding"), "embedding: token_ids need an embedding table to look up"),
    ("tokenizer", drop("token_ids"), "token_ids: expected a list of token ids"),
]


@pytest.mark.parametrize(("name", "edit", "message"), CASES,
                         ids=[message.split(":")[0] + f"-{k}" for k, (_, _, message)
                              in enumerate(CASES)])
def test_refusal_names_the_place(name: str, edit: Callable[[Doc], object], message: str) -> None:
    assert refusal(edited(name, edit)) == message


def test_error_carries_place_and_problem() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(edited("f11", put("attention", "Wk", value=[[1, 0], [0, 1], [1, 1]])))
    assert caught.value.place == "attention.Wk"
    assert caught.value.problem == "expected 2 rows to match d=2, got 3"
    assert isinstance(caught.value, ValueError)


def test_nan_in_a_numpy_array_names_the_cell() -> None:
    doc = document("f11")
    doc["X"] = np.array([[1.0, 1.0], [NAN, -1.0]])
    assert refusal(doc) == "X[1][0]: nan is not allowed: every number must be finite"


def test_the_document_must_be_an_object() -> None:
    assert refusal([1, 2]) == "document: expected an object, got a list of 2"
    assert refusal(None) == "document: expected an object, got null"


@pytest.mark.parametrize("key", ["bad\nkey", "a\u2028b", "tab\there", "", " Wq"])
def test_an_odd_unknown_key_still_gives_one_line(key: str) -> None:
    doc = document("f11")
    doc["attention"][key] = 1
    message = refusal(doc)
    assert message.startswith("attention.") \
        and message.endswith("qk_norm, qk_norm_over, gamma_q, gamma_k, beta_q, beta_k, "
                             "ablate_heads, softcap, rope_base, rope_scaled)")
    assert message.split(": ")[0] != "attention."  # the key is shown, even an empty one


def test_line_breaks_in_a_value_are_escaped() -> None:
    doc = document("g01")
    doc["block"]["norm"] = "layer\nnorm"
    assert refusal(doc) == ('block.norm: expected one of "layernorm" | "rmsnorm" | "none", '
                            'got "layer\\nnorm"')


def test_more_than_512_positions_is_refused_before_allocation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = engine.format.reader.expect_number

    def counting(value: object, place: str) -> float:
        calls.append(place)
        return real(value, place)

    monkeypatch.setattr(engine.format.reader, "expect_number", counting)
    row = [0.5] * 1000
    doc = document("f11")
    doc["X"] = [row] * 5000  # a 40 MB matrix if it were ever converted
    tracemalloc.start()
    try:
        message = refusal(doc)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message == "X: 5000 rows is more than the limit of 512"
    assert calls == []  # not one cell was read
    assert peak < 1_000_000


def test_more_than_512_token_ids_is_refused() -> None:
    doc = document("tokenizer")
    doc["token_ids"] = [0] * 5000
    assert refusal(doc) == "token_ids: 5000 positions is more than the limit of 512"


def test_too_wide_a_matrix_is_refused() -> None:
    doc = document("f11")
    doc["attention"]["Wq"] = np.zeros((2, 9000))
    assert refusal(doc) == "attention.Wq: 9000 columns is more than the limit of 8192"
    doc = document("f11")
    doc["attention"]["bq"] = np.zeros(270000)
    assert refusal(doc) == "attention.bq: 270000 numbers is more than the limit of 262144"


@pytest.fixture
def old_cell_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-array limit as it was before a whole model fitted (2¹⁸): at today's 2²⁴ the
    widths and positions allowed reach it only through the logits, but the checks still guard
    every array, and they read the limit where they stand."""
    monkeypatch.setattr("engine.format.reader.MAX_CELLS", 1 << 18)
    monkeypatch.setattr("engine.format.layers.MAX_CELLS", 1 << 18)


@pytest.mark.usefixtures("old_cell_limit")
def test_heads_times_positions_squared_is_limited() -> None:
    doc = {"X": [[0.0]] * 200, "attention": {"heads": 8, "Wq": [[1.0] * 8],
                                              "Wk": [[1.0] * 8], "Wv": [[1.0] * 8]}}
    # 8 × 200² = 320 000 scores > 2¹⁸ = 262 144
    assert refusal(doc) == ("attention.heads: 8 heads × 200² positions is more than the limit "
                            "of 262144 scores")
    # 6 × 200² = 240 000 is within the limit: the document is read (not computed here).
    doc["attention"] = {"heads": 6, "Wq": [[1.0] * 6], "Wk": [[1.0] * 6], "Wv": [[1.0] * 6]}
    scenario = parse_scenario(doc)
    assert scenario.attention.heads == 6 and scenario.n == 200


@pytest.mark.usefixtures("old_cell_limit")
@pytest.mark.parametrize(("edit", "message"), [
    (lambda doc: doc["attention"].update(Wq=[[0.0] * 1000] * 2, Wk=[[0.0] * 1000] * 2),
     "attention.Wq: Q would be 300×1000 = 300000 numbers, more than the limit of 262144"),
    (lambda doc: doc["attention"].update(Wv=[[0.0] * 1000] * 2, Wo=[[0.0] * 2] * 1000),
     "attention.Wv: V would be 300×1000 = 300000 numbers, more than the limit of 262144"),
    (lambda doc: doc["block"]["ffn"].update(W1=[[0.0] * 1000] * 2, W2=[[0.0] * 2] * 1000),
     "block.ffn.W1: the hidden layer would be 300×1000 = 300000 numbers, more than the limit "
     "of 262144"),
    (lambda doc: doc["block"].update(unembed=[[0.0] * 1000] * 2, vocab=[f"v{k}" for k in
                                                                    range(1000)]),
     "block.unembed: the logits would be 300×1000 = 300000 numbers, more than the limit of "
     "262144"),
])
def test_an_array_of_the_trace_over_the_limit_is_refused_before_computing(
        edit: Callable[[Doc], object], message: str) -> None:
    doc = {"X": [[0.5, -0.5]] * 300, "attention": {
        "heads": 1, "Wq": [[1.0, 0.0], [0.0, 1.0]], "Wk": [[1.0, 0.0], [0.0, 1.0]],
        "Wv": [[1.0, 0.0], [0.0, 1.0]]},
        "block": {"ffn": {"W1": [[1.0, 0.0], [0.0, 1.0]], "W2": [[1.0, 0.0], [0.0, 1.0]]}}}
    parse_scenario(doc)  # 300 positions of width 2: well within every limit
    edit(doc)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)  # refused from the shapes alone: nothing is computed
    assert str(caught.value) == message


def test_eps_zero_on_a_constant_row_is_refused_by_compute() -> None:
    doc = document("norms")
    doc["X"] = [[2, 2]]
    scenario = parse_scenario(doc)  # a valid document ...
    with pytest.raises(ScenarioError) as caught:
        compute(scenario)  # ... whose numbers divide zero by zero
    assert str(caught.value).startswith("norm1[0,0]: ")
    assert "ε = 0 with a constant row" in str(caught.value)


def test_overflow_is_refused_by_compute() -> None:
    doc = document("f11")
    doc["X"] = [[1e300, 1e300], [1e300, -1e300]]
    doc["attention"]["Wq"] = [[1e10, 1], [1, 1]]
    with pytest.raises(ScenarioError) as caught:
        compute(parse_scenario(doc))
    assert str(caught.value).startswith("projections (Q[0,0]): a value overflowed")


def test_a_failed_edit_leaves_the_scenario_unchanged() -> None:
    scenario = parse_scenario(document("f11"))
    before = to_document(scenario)
    with pytest.raises(ScenarioError, match=r"^attention\.Wk: expected 2 rows"):
        with_parameter(scenario, "attention.Wk", [[1, 0]])
    assert to_document(scenario) == before
    assert scenario.attention.Wk.tolist() == [[0.5, 0.5], [0.5, -0.5]]


def test_defaults_fill_what_the_document_leaves_out() -> None:
    scenario = parse_scenario({"X": [[1, 2]], "attention": {"Wq": [[1], [0]], "Wk": [[1], [0]],
                                                            "Wv": [[1], [1]]}})
    a = scenario.attention
    assert (a.heads, a.causal, a.scale) == (1, True, True)
    assert scenario.tokens == ("t1",) and scenario.title == "Untitled"
    assert a.bq is None and a.Wo is None and scenario.block is None
    doc = document("g01")
    block_doc = doc["block"]
    for key in ("norm", "eps", "placement", "gamma1", "beta1", "gamma2", "beta2", "final_norm",
                "gamma_f", "beta_f"):
        del block_doc[key]
    del block_doc["ffn"]["activation"]
    block = parse_scenario(doc).block
    assert block is not None
    assert (block.norm, block.eps, block.placement, block.final_norm) == ("layernorm", 1e-5,
                                                                          "pre", True)
    assert block.ffn.activation == "relu"
    assert block.gamma1.tolist() == [1, 1] and block.beta2.tolist() == [0, 0]
    block_doc["placement"] = "post"
    post = parse_scenario(doc).block
    assert post is not None and post.final_norm is False
