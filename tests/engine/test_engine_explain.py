"""Per-cell arithmetic: ``engine.arithmetic.cells`` shows the terms behind one number of a trace."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from engine import Trace, compute, explain, format_number, load_scenario, parse_cell
from engine.scenario.edit import with_document_value, with_parameter
from tests.examples import EXAMPLES, trace_of

NAMES = ("f11", "g01", "multihead", "norms", "single-key", "tokenizer")


def variants() -> list[tuple[str, Trace]]:
    """The built-in examples, plus versions that reach the other branches of the explainer."""
    out = [(name, trace_of(name)) for name in NAMES]
    g01 = load_scenario(EXAMPLES / "g01.qkv.json")
    norms = load_scenario(EXAMPLES / "norms.qkv.json")
    f11 = load_scenario(EXAMPLES / "f11.qkv.json")
    out += [
        ("g01-post", compute(with_document_value(g01, "block.placement", "post"))),
        ("g01-post-final", compute(with_document_value(
            with_document_value(g01, "block.placement", "post"), "block.final_norm", True))),
        ("g01-rms", compute(with_document_value(g01, "block.norm", "rmsnorm"))),
        ("g01-none", compute(with_document_value(g01, "block.norm", "none"))),
        ("g01-gelu", compute(with_document_value(g01, "block.ffn.activation", "gelu"))),
        ("g01-silu", compute(with_document_value(g01, "block.ffn.activation", "silu"))),
        ("g01-identity", compute(with_document_value(g01, "block.ffn.activation", "identity"))),
        ("g01-no-final", compute(with_document_value(g01, "block.final_norm", False))),
        ("g01-biases", compute(with_document_value(with_document_value(
            with_document_value(g01, "block.ffn.b1", [0.5, -2]), "block.ffn.b2", [1, 1]),
            "attention.bo", [0.25, -0.25]))),
        ("norms-rms", compute(with_document_value(norms, "block.norm", "rmsnorm"))),
        ("f11-unscaled", compute(with_document_value(f11, "attention.scale", False))),
        ("f11-open", compute(with_document_value(f11, "attention.causal", False))),
        ("f11-biases", compute(with_parameter(with_parameter(
            with_parameter(f11, "attention.bq", [1, -1]), "attention.bk", [0.5, 0]),
            "attention.bv", [0, 2]))),
    ]
    return out


VARIANTS = variants()


def final_number(formula: str) -> str:
    """The number after the formula's last ' = '."""
    return formula.rsplit(" = ", 1)[1].split(" ")[0]


def parse_shown(text: str) -> float:
    return float(text.strip("()").replace("−", "-"))


# -- the chapter's cells ----------------------------------------------------------------------

def test_q_1_0_of_f11_is_spelled_out() -> None:
    e = explain(trace_of("f11"), "Q", (1, 0))
    assert e.formula == "Q[1,0] = X[1,0]·Wq[0,0] + X[1,1]·Wq[1,0] = 1·1 + (−1)·(−1) = 2"
    assert e.value == 2.0 and e.array == "Q" and e.index == (1, 0)
    assert e.text().splitlines()[0] == e.formula


def test_a_score_is_divided_by_root_d_k() -> None:
    e = explain(trace_of("f11"), "scores", (0, 1, 0))
    assert e.formula == ("scores[0,1,0] = (Q[1,0]·K[0,0] + Q[1,1]·K[0,1]) / √2 = "
                         "(2·1 + 0·0) / 1.414214 = 2 / 1.414214 = 1.414214")
    assert e.details == ("query “爱” against key “我”, head 1",)
    masked = explain(trace_of("f11"), "scores", (0, 0, 1))
    assert "the causal mask hides key 1 from query 0: its share will be 0" in masked.details
    unscaled = explain(dict(VARIANTS)["f11-unscaled"], "scores", (0, 1, 0))
    assert unscaled.formula == "scores[0,1,0] = Q[1,0]·K[0,0] + Q[1,1]·K[0,1] = 2·1 + 0·0 = 2"


def test_a_share_shows_exp_of_score_minus_max() -> None:
    e = explain(trace_of("f11"), "weights", (0, 1, 0))
    s = math.sqrt(2)
    total = math.exp(0) + math.exp(0 - s)
    assert e.formula == (f"weights[0,1,0] = exp(s0 − max) / (exp(s0 − max) + exp(s1 − max)) = "
                         f"exp(0) / (exp(0) + exp(−{s:.6f})) = 1 / {total:.6f} = "
                         f"{format_number(1 / total)}")
    assert "max over the visible keys = 1.414214" in e.details[0]
    assert e.details[1] == "no key is masked in this row"


def test_a_share_names_the_masked_keys() -> None:
    trace = trace_of("multihead")
    e = explain(trace, "weights", (1, 0, 0))
    assert "masked keys (after position 0): 1, 2" in e.details
    assert "only one key is visible, so its share is 1 for lack of competition" in e.details
    assert e.formula.endswith(" = 1")
    middle = explain(trace, "weights", (0, 1, 1))
    assert "masked keys (after position 1): 2" in middle.details


def test_a_masked_share_says_zero_exactly() -> None:
    e = explain(trace_of("f11"), "weights", (0, 0, 1))
    assert e.value == 0.0
    assert e.formula == "weights[0,0,1] = 0 exactly: key 1 (“爱”) comes after query 0 and is masked"
    assert e.details == ("masked keys (after position 0): 1",)


def test_a_layernorm_cell_shows_mean_variance_eps_gamma_beta() -> None:
    g01 = load_scenario(EXAMPLES / "g01.qkv.json")
    trace = compute(with_parameter(with_parameter(g01, "block.gamma1", [2, 3]), "block.beta1",
                                                                               [0.5, -1]))
    e = explain(trace, "norm1", (1, 0))
    # Row X[1] = [0, 2]: μ = 1, σ² = 1, so (0 − 1)/√(1 + 0.00001)·2 + 0.5.
    value = (0 - 1) / math.sqrt(1 + 1e-5) * 2 + 0.5
    assert e.formula == (f"norm1[1,0] = (x − μ) / √(σ² + ε) · γ + β = (0 − 1) / "
                         f"√(1 + 0.00001) · 2 + 0.5 = {format_number(value)}")
    assert e.details == ("x = X[1,·]; row mean μ = 1; population variance σ² = 1; ε = 0.00001; "
                         "γ[0] = 2; β[0] = 0.5",)


def test_an_rmsnorm_cell_shows_the_mean_square() -> None:
    e = explain(dict(VARIANTS)["norms-rms"], "norm1", (0, 1))
    assert e.formula == f"norm1[0,1] = x / √(mean(x²) + ε) · γ = 3 / √(5 + 0) · 1 = " \
                        f"{format_number(3 / math.sqrt(5))}"
    assert "mean(x²) = 5" in e.details[0] and "ε = 0" in e.details[0]


def test_a_tiny_eps_is_never_shown_as_zero() -> None:
    g01 = load_scenario(EXAMPLES / "g01.qkv.json")
    e = explain(compute(with_document_value(g01, "block.eps", 1e-12)), "norm1", (0, 0))
    assert "ε = 1×10⁻¹²" in e.details[0] and "+ 1×10⁻¹²)" in e.formula


def test_other_cells_read_naturally() -> None:
    g01 = trace_of("g01")
    assert explain(g01, "resid2", (1, 1)).formula == (
        "resid2[1,1] = resid1[1,1] + ffn_out[1,1] = 2.888377 + 0.499999 = 3.388376")
    hidden = explain(g01, "ffn_hidden", (1, 0))
    assert hidden.formula == "ffn_hidden[1,0] = relu(z[1,0]) = relu(−0.999999) = 0"
    assert hidden.details[1].endswith("this unit was zeroed")
    probs = explain(g01, "probs", (1, 2))
    assert probs.formula.endswith("= 1 / 1.688616 = 0.592201")
    assert "entry “w3” for position “p2”" in probs.details[0]
    assert explain(g01, "logits", (1, 2)).details == ("vocabulary entry “w3”",)
    x = explain(trace_of("tokenizer"), "X", (1, 2))
    assert x.formula == "X[1,2] = embedding[12,2] = −0.6"
    assert "has id 12" in x.details[0]
    q = explain(trace_of("multihead"), "Q", (1, 3))
    assert q.details == ("column 3 belongs to head 2 of 2",)
    attn = explain(trace_of("f11"), "attn_out", (1, 0))
    assert attn.details == ("no Wo: the output is the concatenated heads",)


def test_a_long_sum_is_shortened() -> None:
    doc = {"X": [[float(k) for k in range(12)]],
           "attention": {"Wq": [[1.0]] * 12, "Wk": [[1.0]] * 12, "Wv": [[1.0]] * 12}}
    from engine import parse_scenario

    e = explain(compute(parse_scenario(doc)), "Q", (0, 0))
    assert "… (12 terms)" in e.formula and e.formula.endswith(" = 66")
    assert e.formula.count("·Wq[") == 7  # six terms, the ellipsis, the last term


# -- every cell of every example ----------------------------------------------------------------

@pytest.mark.parametrize(("label", "trace"), VARIANTS, ids=[label for label, _ in VARIANTS])
def test_every_cell_explains_to_its_own_value(label: str, trace: Trace) -> None:
    count = 0
    for name, array in trace.arrays.items():
        for index in np.ndindex(array.shape):
            e = explain(trace, name, index)
            assert e.value == float(array[index])
            assert e.formula.startswith(f"{name}[")
            assert final_number(e.formula) == format_number(float(array[index])), e.formula
            assert all("\n" not in line for line in (e.formula, *e.details))
            count += 1
    assert count == sum(a.size for a in trace.arrays.values())


DOT_ARRAYS = ("Q", "K", "V", "attn_out", "ffn_out", "logits", "mixed")


@pytest.mark.parametrize(("label", "trace"), VARIANTS, ids=[label for label, _ in VARIANTS])
def test_the_shown_terms_add_up_to_the_result(label: str, trace: Trace) -> None:
    """Re-evaluate the numbers a sum of products shows: they give the value (to rounding)."""
    checked = 0
    for name in DOT_ARRAYS:
        if name not in trace.arrays or (name == "attn_out" and trace.scenario.attention.Wo is None):
            continue
        array = trace.arrays[name]
        for index in np.ndindex(array.shape):
            parts = explain(trace, name, index).formula.split(" = ")
            shown = parts[-2]
            if "…" in shown:
                continue
            total, bound = 0.0, 0.0
            for term in shown.split(" + "):
                factors = [parse_shown(f) for f in term.split("·")]
                total += math.prod(factors)
                bound += sum(abs(f) for f in factors) * 1e-6 + 1e-6
            assert abs(total - float(array[index])) <= bound, (name, index, shown)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize(("label", "trace"), VARIANTS, ids=[label for label, _ in VARIANTS])
def test_a_share_formula_adds_up(label: str, trace: Trace) -> None:
    weights = trace.arrays["weights"]
    for index in np.ndindex(weights.shape):
        formula = explain(trace, "weights", index).formula
        if "exactly" in formula:
            assert weights[index] == 0.0
            continue
        numerator, denominator = formula.split(" = ")[-2].split(" / ")
        assert math.isclose(parse_shown(numerator) / parse_shown(denominator),
                            float(weights[index]), rel_tol=1e-5, abs_tol=1e-6)
        exps = re.findall(r"exp\(([^)]*)\)", formula.split(" = ")[2])
        values = [math.exp(parse_shown(v)) for v in exps]
        assert math.isclose(sum(values[1:]), parse_shown(denominator), rel_tol=1e-5)


# -- errors -------------------------------------------------------------------------------------

def test_an_index_outside_the_array_raises_index_error() -> None:
    trace = trace_of("f11")
    with pytest.raises(IndexError, match=r"Q\[2,0\]: outside the 2×2 array Q"):
        explain(trace, "Q", (2, 0))
    with pytest.raises(IndexError):
        explain(trace, "Q", (0, -1))
    with pytest.raises(IndexError):
        explain(trace, "Q", (0,))
    with pytest.raises(IndexError):
        explain(trace, "weights", (0, 0, 0, 0))
    with pytest.raises(IndexError):
        explain(trace_of("multihead"), "weights", (0, 0))  # two heads: the head is required


def test_two_indices_name_a_share_when_there_is_one_head() -> None:
    trace = trace_of("f11")
    assert explain(trace, "weights", (1, 0)) == explain(trace, "weights", (0, 1, 0))
    assert explain(trace, "scores", (1, 0)).index == (0, 1, 0)


def test_an_unknown_array_raises_key_error() -> None:
    trace = trace_of("f11")
    with pytest.raises(KeyError, match="Z: no such array in this trace"):
        explain(trace, "Z", (0, 0))
    with pytest.raises(KeyError, match="norm1: no such array"):
        explain(trace, "norm1", (0, 0))  # a block array, but F11 has no block


def test_parse_cell() -> None:
    assert parse_cell("Q[1,0]") == ("Q", (1, 0))
    assert parse_cell(" weights [ 0, 1 ,0 ] ") == ("weights", (0, 1, 0))
    assert parse_cell("final_norm[12,3]") == ("final_norm", (12, 3))
    for bad in ("Q[a]", "Q[]", "Q[1,,0]", "Q[-1]", "Q", "[1]", "Q[1.5]", "1Q[0]", "Q[1]x",
                "Q[１]", ""):
        with pytest.raises(ValueError, match=r"expected ARRAY|whole numbers"):
            parse_cell(bad)


@pytest.mark.parametrize(("placement", "source"), [("pre", "norm2"), ("post", "norm1")])
def test_a_hidden_unit_shows_its_source_row_w1_column_and_bias(placement: str,
                                                                source: str) -> None:
    """G01 with b1 = [0.5, −0.5]: the source row is (−0.999999, 0.999999) and W1 = I, so
    z[1,0] = −0.999999 + 0.5 (zeroed by ReLU) and z[1,1] = 0.999999 − 0.5 (kept)."""
    g01 = load_scenario(EXAMPLES / "g01.qkv.json")
    scenario = with_document_value(with_document_value(g01, "block.ffn.b1", [0.5, -0.5]),
                                   "block.placement", placement)
    trace = compute(scenario)
    zeroed, kept = explain(trace, "ffn_hidden", (1, 0)), explain(trace, "ffn_hidden", (1, 1))
    assert zeroed.formula == "ffn_hidden[1,0] = relu(z[1,0]) = relu(−0.499999) = 0"
    assert zeroed.details == (
        f"z[1,0] = {source}[1,0]·W1[0,0] + {source}[1,1]·W1[1,0] + b1[0] = "
        "(−0.999999)·1 + 0.999999·0 + 0.5 = −0.499999",
        "ReLU keeps positive z and zeroes the rest — this unit was zeroed")
    assert kept.formula == "ffn_hidden[1,1] = relu(z[1,1]) = relu(0.499999) = 0.499999"
    assert kept.details == (
        f"z[1,1] = {source}[1,0]·W1[0,1] + {source}[1,1]·W1[1,1] + b1[1] = "
        "(−0.999999)·0 + 0.999999·1 + (−0.5) = 0.499999",
        "ReLU keeps positive z and zeroes the rest")
