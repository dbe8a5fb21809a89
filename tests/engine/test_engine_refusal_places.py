"""Refusals that name their place: a non-finite result (step, array, cell), the layer limit the
two stacks share, cross-attention inside an encoder; and GELU (tanh) finite for huge inputs."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.ops import activate
from tests.engine.test_engine_v2_stacks import attention, block, encoder_decoder, stack
from tests.examples import EXAMPLES

Doc = dict[str, Any]


def example(name: str) -> Doc:
    doc: Doc = json.loads((EXAMPLES / f"{name}.qkv.json").read_text(encoding="utf-8"))
    return doc


def refusal(doc: Doc) -> str:
    with pytest.raises(ScenarioError) as caught:
        compute(parse_scenario(doc))
    return str(caught.value)


# --- GELU (tanh form) ---------------------------------------------------------------------

def _gelu_tanh_by_hand(x: float) -> float:
    """The tanh formula in Python floats, one number at a time (no numpy)."""
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


def test_gelu_tanh_of_huge_inputs_is_x_or_zero_like_gelu_and_silu() -> None:
    z = np.array([1e103, -1e103, 1e200, -1e200, 1.7e308, -1.7e308, 6e102, -6e102])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        tanh = activate("gelu_tanh", z)
        erf, silu = activate("gelu", z), activate("silu", z)
    # For x ≫ 1, tanh(√(2/π)(x + 0.044715x³)) is 1 to far below float64's last bit, so the
    # true value is 0.5·x·2 = x; for x ≪ −1 it is 0.5·x·0 = 0.
    expected = np.where(z > 0, z, 0.0)
    assert tanh.tolist() == expected.tolist()
    assert erf.tolist() == expected.tolist() and silu.tolist() == expected.tolist()


def test_gelu_tanh_keeps_the_exact_formula_in_the_normal_range() -> None:
    z = np.concatenate([np.linspace(-12, 12, 2001), [1e-300, -1e-300, 0.0, 1e50, -1e50, 3e101,
                                                     -3e101, 1e100, -1e100]])
    plain = 0.5 * z * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))
    ours = activate("gelu_tanh", z)
    assert ours.tobytes() == plain.tobytes()  # the same formula, to the last bit
    np.testing.assert_allclose(ours, [_gelu_tanh_by_hand(x) for x in z.tolist()], rtol=1e-14,
                               atol=1e-14)  # 1 + tanh cancels for x < 0


def test_a_document_with_huge_gelu_tanh_inputs_computes() -> None:
    blk = block(4)
    blk["ffn"].update(activation="gelu_tanh", W1=[[1e103, -1e103, 0, 0, 0]] + [[0] * 5] * 3,
                      b1=[0] * 5)
    doc = stack([{"attention": attention(4), "block": blk}])
    trace = compute(parse_scenario(doc))
    z, hidden = trace.arrays["L1.ffn_pre"], trace.arrays["L1.ffn_hidden"]
    assert np.isfinite(hidden).all()
    big = np.abs(z) > 1e100
    assert big.any()
    assert hidden[big].tolist() == np.where(z[big] > 0, z[big], 0.0).tolist()


# --- non-finite results name their place -----------------------------------------------------

def test_an_overflow_in_layer_two_names_its_scores_cell() -> None:
    doc = example("three-layers")
    for key in ("Wq", "Wk"):
        doc["layers"][1]["attention"][key][0][0] = 1e200
    message = refusal(doc)
    assert message.startswith("L2.scores[0,0,0]: a value overflowed or was divided by zero "), \
        message
    # Independent: layer 2 reads layer 1's output x; head 0's first query and key, each about
    # 1e200·x[0,0], multiply past float64's largest number at scores[head 0, query 0, key 0].
    x = compute(parse_scenario(_only_first_layer(doc))).arrays["L1.resid2"]
    att = doc["layers"][1]["attention"]
    d_k = len(att["Wq"][0]) // att["heads"]
    q = x[0] @ np.array(att["Wq"])[:, :d_k]
    k = x[0] @ np.array(att["Wk"])[:, :d_k]
    assert np.isfinite(q).all() and np.isfinite(k).all()
    with np.errstate(over="ignore"):
        assert not np.isfinite(q @ k / math.sqrt(d_k))


def _only_first_layer(doc: Doc) -> Doc:
    one = copy.deepcopy(doc)
    one["layers"] = one["layers"][:1]
    one.pop("head", None)
    return one


def test_an_overflow_names_the_step_and_the_array_when_they_differ() -> None:
    doc = example("f11")
    doc["X"] = [[1e300, 1e300], [1e300, -1e300]]
    doc["attention"]["Wq"] = [[1e10, 1], [1, 1]]
    assert refusal(doc).startswith("projections (Q[0,0]): a value overflowed")


def test_a_constant_row_with_eps_zero_names_the_norm_and_its_cell() -> None:
    doc = example("norms")
    doc["X"] = [[2, 2]]
    message = refusal(doc)
    assert message.startswith("norm1[0,0]: a value overflowed or was divided by zero"), message
    assert message.endswith("look for huge numbers, or ε = 0 with a constant row")


# --- the layer limit, and cross-attention in an encoder --------------------------------------

def test_the_shared_layer_limit_names_both_stacks() -> None:
    doc = encoder_decoder("pre")
    doc["encoder"]["layers"] = doc["encoder"]["layers"][:1] * 100
    doc["layers"] = doc["layers"][:1]
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    assert str(caught.value) == ("layers: 100 encoder layers and 1 decoder layer are 101 layers, "
                                 "more than the limit of 100 for both stacks together")


def test_a_stack_within_the_shared_limit_is_read() -> None:
    doc = encoder_decoder("pre")
    doc["encoder"]["layers"] = doc["encoder"]["layers"][:1] * 99
    doc["layers"] = doc["layers"][:1]
    scenario = parse_scenario(doc)
    assert scenario.encoder is not None and len(scenario.encoder.layers) == 99
    assert len(scenario.layers) == 1


def test_cross_attention_inside_an_encoder_layer_is_refused_as_what_it_is() -> None:
    doc = encoder_decoder("pre")
    doc["encoder"]["layers"][0]["cross_attention"] = attention(4)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    assert str(caught.value) == ("encoder.layers.0.cross_attention: an encoder layer cannot "
                                 "have cross-attention: only a decoder layer reads the "
                                 "encoder's output")


# --- text no export can hold ------------------------------------------------------------------

@pytest.mark.parametrize(("place", "text", "message"), [
    ("tokens", ["a\x01b", "爱"], r"tokens[0]: character 2 is \u0001"),
    ("tokens", ["\x00", "爱"], r"tokens[0]: character 1 is \u0000"),
    ("title", "bell\x07", r"title: character 5 is \u0007"),
    ("note", "ok\n\tstill ok \x1b[31m", r"note: character 14 is \u001b"),
    ("tokens", ["我", "\ufffe"], r"tokens[1]: character 1 is \ufffe"),
])
def test_a_control_character_in_a_text_is_refused_at_its_place(
        place: str, text: object, message: str) -> None:
    """SVG and PowerPoint are XML, which has no way to hold these: a label with one used to
    write an SVG no reader opens and stop the PowerPoint export with a traceback."""
    doc = example("f11")
    doc[place] = text
    assert refusal(doc) == f"{message}, which is not printable text (no picture or slide can " \
                           "hold it)"


def test_tab_and_line_breaks_stay_allowed_in_texts() -> None:
    doc = example("f11")
    doc.update(tokens=["line\nbreak", "tab\there"], note="one\r\ntwo")
    assert compute(parse_scenario(doc)).scenario.tokens == ("line\nbreak", "tab\there")
