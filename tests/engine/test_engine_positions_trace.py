"""Positions in the forward pass: trace arrays, steps, explain, the swap demo, round trips and
refusals through whole documents.

Expected numbers are computed here by loops and the published formulas (never by
engine/forward/positions.py), and the stacks come from the helpers of the version-2 stack tests.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine.scenario.scenario
from app.cli import main
from engine import ScenarioError, compute, explain, format_number, parse_scenario
from engine.arithmetic.differences import compare
from engine.format.writer import to_document
from engine.forward.size import trace_numbers
from engine.scenario.edit import with_parameter
from engine.scenario.resize import Sizes, resize
from engine.scenario.swap import swap_order, swap_tokens
from tests.engine.test_engine_explain import final_number, parse_shown
from tests.engine.test_engine_malformed import BASES
from tests.engine.test_engine_v2_reference import assert_agrees
from tests.engine.test_engine_v2_stacks import attention, block, head, m, stack
from tests.engine.v2_documents import CASES
from tests.examples import EXAMPLES

Doc = dict[str, Any]


def turn_by_hand(rows: np.ndarray, heads: int, r: int, base: float,
                 pairing: str) -> np.ndarray:
    """RoPE written out: head by head, position by position, pair by pair."""
    out = rows.copy()
    d_k = rows.shape[1] // heads
    for h in range(heads):
        for p in range(rows.shape[0]):
            for i in range(r // 2):
                a, b = (i, i + r // 2) if pairing == "half" else (2 * i, 2 * i + 1)
                a, b = h * d_k + a, h * d_k + b
                t = p * base ** (-2 * i / r)
                out[p, a] = rows[p, a] * math.cos(t) - rows[p, b] * math.sin(t)
                out[p, b] = rows[p, a] * math.sin(t) + rows[p, b] * math.cos(t)
    return out


def softmax_rows(scores: np.ndarray, visible: np.ndarray) -> np.ndarray:
    s = np.where(visible, scores, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# -- additive kinds ----------------------------------------------------------------------------

def test_sinusoidal_rows_are_added_before_the_first_layer() -> None:
    doc = stack([{"attention": attention(4), "block": block(4)} for _ in range(2)],
                positions={"kind": "sinusoidal", "base": 100})
    trace = compute(parse_scenario(doc))
    X = np.array(doc["X"])
    P = np.array([[math.sin(p / 100 ** (c // 2 * 2 / 4)) if c % 2 == 0 else
                   math.cos(p / 100 ** (c // 2 * 2 / 4)) for c in range(4)] for p in range(4)])
    np.testing.assert_array_equal(trace.arrays["embedded"], X)
    np.testing.assert_allclose(trace.arrays["positions"], P, rtol=0, atol=1e-15)
    np.testing.assert_allclose(trace.arrays["X"], X + P, rtol=0, atol=1e-15)
    step = trace.steps[0]
    assert (step.id, step.op, step.reads, step.writes) == (
        "positions", "positions", ("embedded", "positions"), ("X",))
    assert trace.steps[1].reads[0] == "X", "the first layer reads the rows with positions"
    assert list(trace.arrays)[:3] == ["embedded", "positions", "X"]


def test_learned_rows_with_token_ids_and_an_offset() -> None:
    doc = stack([{"attention": attention(4), "block": block(4)}], n=3)
    del doc["X"]
    table = m(6, 4)
    doc.update(token_ids=[4, 0, 4], embedding=m(5, 4),
               positions={"kind": "learned", "table": table, "offset": 2})
    trace = compute(parse_scenario(doc))
    looked_up = np.array(doc["embedding"])[[4, 0, 4]]
    np.testing.assert_array_equal(trace.arrays["embedded"], looked_up)
    np.testing.assert_array_equal(trace.arrays["X"], looked_up + np.array(table)[2:5])
    embed, positions = trace.steps[0], trace.steps[1]
    assert embed.writes == ("embedded",)
    assert positions.reads == ("embedded", "positions", "positions.table")
    assert "positions.table" in parse_scenario(doc).parameter_paths()
    text = explain(trace, "positions", (1, 3)).text()
    assert text.startswith(f"positions[1,3] = table[3,3] = {table[3][3]:g}".replace("-", "−"))
    assert "offset + p = 2 + 1 = 3" in text


# -- RoPE --------------------------------------------------------------------------------------

@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_rope_turns_q_and_k_of_every_layer_and_the_scores_read_them(pairing: str) -> None:
    layers = [{"attention": attention(4, heads=2, dk=4, kv=1), "block": block(4)}
              for _ in range(2)]
    doc = stack(layers, positions={"kind": "rope", "base": 50, "rotary_dims": 2,
                                   "pairing": pairing})
    trace = compute(parse_scenario(doc))
    a = trace.arrays
    assert "embedded" not in a and "positions" not in a
    np.testing.assert_allclose(a["rope_angles"], [[p * 1.0] for p in range(4)], atol=0)
    for ell in (1, 2):
        s = f"L{ell}."
        np.testing.assert_allclose(a[f"{s}Q_rot"], turn_by_hand(a[f"{s}Q"], 2, 2, 50, pairing),
                                   rtol=0, atol=1e-14)
        np.testing.assert_allclose(a[f"{s}K_rot"], turn_by_hand(a[f"{s}K"], 1, 2, 50, pairing),
                                   rtol=0, atol=1e-14)
        step = trace.steps[trace.step_index(f"{s}rope")]
        assert (step.op, step.reads, step.writes, step.layer) == (
            "rope", (f"{s}Q", f"{s}K", "rope_angles"), (f"{s}Q_rot", f"{s}K_rot"), ell)
        assert trace.step_index(f"{s}rope") == trace.step_index(f"{s}projections") + 1
        scores = trace.steps[trace.step_index(f"{s}scores")]
        assert scores.reads == (f"{s}Q_rot", f"{s}K_rot")
        q, k = a[f"{s}Q_rot"], a[f"{s}K_rot"]
        expected = np.stack([q[:, h * 4:(h + 1) * 4] @ k.T / 2 for h in range(2)])
        np.testing.assert_allclose(a[f"{s}scores"], expected, rtol=0, atol=1e-14)


def test_rope_after_qk_norm_turns_the_normed_rows() -> None:
    att = attention(4, heads=1, dk=4, qk_norm="rmsnorm")
    doc = stack([{"attention": att, "block": block(4)}], positions={"kind": "rope"})
    trace = compute(parse_scenario(doc))
    step = trace.steps[trace.step_index("L1.rope")]
    assert step.reads[:2] == ("L1.Q_normed", "L1.K_normed")
    np.testing.assert_allclose(trace.arrays["L1.Q_rot"],
                               turn_by_hand(trace.arrays["L1.Q_normed"], 1, 4, 10000, "half"),
                               rtol=0, atol=1e-14)


def test_the_rope_example_scores_depend_on_the_distance_only() -> None:
    trace = compute(parse_scenario(json.loads((EXAMPLES / "rope.qkv.json").read_text())))
    scores = trace.arrays["scores"][0]
    assert np.array_equal(trace.arrays["Q"][0], trace.arrays["Q"][2]), "one word, three places"
    assert scores[1, 0] == pytest.approx(scores[2, 1], abs=1e-15)
    assert scores[2, 0] == pytest.approx((math.cos(2) + math.cos(0.2)) / 2, abs=1e-15)
    assert scores[1, 1] == pytest.approx(1.0, abs=1e-15)


def test_explain_writes_the_rotation_out() -> None:
    layers = [{"attention": attention(4, heads=1, dk=4), "block": block(4)} for _ in range(2)]
    doc = stack(layers, positions={"kind": "rope", "base": 100, "pairing": "half"})
    trace = compute(parse_scenario(doc))
    q = trace.arrays["L2.Q"]
    value = trace.arrays["L2.Q_rot"][1, 0]
    assert value == pytest.approx(q[1, 0] * math.cos(1) - q[1, 2] * math.sin(1), abs=1e-15)
    text = explain(trace, "L2.Q_rot", (1, 0)).text().splitlines()
    assert text[0].startswith("L2.Q_rot[1,0] = L2.Q[1,0]·cos(p·θ₀) − L2.Q[1,2]·sin(p·θ₀) = ")
    assert text[0].endswith(" = " + f"{value:.6f}".rstrip("0").replace("-", "−"))
    assert "0.540302" in text[0] and "0.841471" in text[0]
    assert text[1] == "pair 0: columns 0 and 2 turn together in their plane (head 1, half " \
                      "pairing: i with i + r/2)"
    assert text[2] == "angle p·θ₀ = 1 rad at position 1; cos = 0.540302, sin = 0.841471"
    partner = explain(trace, "L2.Q_rot", (1, 2)).text()
    assert partner.startswith("L2.Q_rot[1,2] = L2.Q[1,0]·sin(p·θ₀) + L2.Q[1,2]·cos(p·θ₀) = ")
    second = explain(trace, "L2.K_rot", (2, 3), "zh").text()
    assert "L2.K[2,1]·sin(p·θ₁) + L2.K[2,3]·cos(p·θ₁)" in second
    assert "第 1 对：第 1 列和第 3 列" in second and "0.2 弧度" in second
    angle = explain(trace, "rope_angles", (2, 1)).formula
    assert angle == "rope_angles[2,1] = p·θ₁ = 2·100^(−2/4) = 2·0.1 = 0.2"


def scaled_trace(scaling: Doc) -> Any:
    """Two layers of one head of 8 columns (four pairs), RoPE of base 500 scaled."""
    layers = [{"attention": attention(4, heads=1, dk=8), "block": block(4)} for _ in range(2)]
    doc = stack(layers, positions={"kind": "rope", "base": 500, "scaling": scaling})
    return compute(parse_scenario(doc))


def test_explain_says_what_a_scaling_did_to_each_frequency() -> None:
    # Base 500, r = 8: θ = 1, 0.211474, 0.044721, 0.009457; wavelengths 6.28, 29.7, 140.5, 664.
    trace = scaled_trace({"type": "llama3", "factor": 8, "low_freq_factor": 1,
                          "high_freq_factor": 8, "original_max_position_embeddings": 256})
    kept, smoothed, divided = (explain(trace, "rope_angles", (2, i)).text().splitlines()
                               for i in (1, 2, 3))
    assert kept[0] == "rope_angles[2,1] = p·θ₁·m = 2·500^(−2/8)·m = 2·0.211474·1 = 0.422949"
    assert kept[2] == ("llama3: wavelength 2π/θ = 29.711349 is below 32 (= 256/8): frequency "
                       "kept (m = 1)")
    s = (256 / (2 * math.pi / 500 ** -0.5) - 1) / 7
    m = (1 - s) / 8 + s
    assert smoothed[0].endswith(f"= 2·0.044721·{m:.6f} = {2 * 500 ** -0.5 * m:.6f}")
    assert smoothed[2] == ("llama3: wavelength 2π/θ = 140.496295 is between 32 and 256: "
                           f"smoothed, s = (256/140.496295 − 1)/(8 − 1) = {s:.6f}, m = (1 − s)/8 "
                           f"+ s = {m:.6f}")
    assert divided[2] == ("llama3: wavelength 2π/θ = 664.365959 is above 256 (= 256/1): "
                          "frequency divided by 8 (m = 1/8)")
    assert explain(trace, "rope_angles", (2, 3), "zh").text().splitlines()[2] == \
        "llama3：波长 2π/θ = 664.365959 大于 256（= 256/1）：频率除以 8（m = 1/8）"
    linear = explain(scaled_trace({"type": "linear", "factor": 4}), "rope_angles", (3, 0), "zh")
    assert linear.formula == "rope_angles[3,0] = p·θ₀·m = 3·500^(−0/8)·m = 3·1·0.25 = 0.75"
    assert linear.details[-1] == "linear 缩放：每个频率都除以系数 4（m = 1/4）"


def test_explain_writes_yarns_ramp_and_attention_factor_out() -> None:
    trace = scaled_trace({"type": "yarn", "factor": 4, "original_max_position_embeddings": 64})
    ramp = explain(trace, "rope_angles", (2, 1)).text().splitlines()
    assert ramp[0] == "rope_angles[2,1] = p·θ₁·m = 2·500^(−2/8)·m = 2·0.211474·0.625 = 0.264343"
    assert ramp[2] == ("yarn: pair 1 on the ramp from pair 0 to pair 2: ramp = 0.5, m = ramp/4 "
                       "+ 1 − ramp = 0.625")
    a = 0.1 * math.log(4) + 1
    q, angle = trace.arrays["L1.Q"][2], 2 * 500 ** -0.25 * 0.625
    value = (q[1] * math.cos(angle) - q[5] * math.sin(angle)) * a
    assert trace.arrays["L1.Q_rot"][2, 1] == pytest.approx(value, abs=1e-15)
    text = explain(trace, "L1.Q_rot", (2, 1), "zh").text().splitlines()
    assert text[0].startswith("L1.Q_rot[2,1] = (L1.Q[2,1]·cos(p·θ₁) − L1.Q[2,5]·sin(p·θ₁))·a = (")
    assert text[0].endswith(f")·{a:.6f} = {format_number(value)}")
    assert text[3] == f"yarn：cos 和 sin 乘以注意力系数 a = {a!r}"


def test_longrope_divides_each_frequency_by_its_own_factor() -> None:
    trace = scaled_trace({"type": "longrope", "short_factor": [1, 1.5, 2, 4],
                          "attention_factor": 1.2})
    angle = explain(trace, "rope_angles", (2, 3)).text().splitlines()
    assert angle[0] == ("rope_angles[2,3] = p·θ₃·m = 2·500^(−6/8)·m = 2·0.009457·0.25 = "
                        f"{format_number(2 * 500 ** -0.75 / 4)}")
    assert angle[2] == "longrope: pair 3's frequency divided by its short factor 4 (m = 0.25)"
    q, turn = trace.arrays["L1.Q"][2], 2 * 500 ** -0.25 / 1.5
    value = (q[1] * math.sin(turn) + q[5] * math.cos(turn)) * 1.2
    assert trace.arrays["L1.Q_rot"][2, 5] == pytest.approx(value, abs=1e-15)
    assert explain(trace, "L1.Q_rot", (2, 5), "zh").details[-1] == \
        "longrope：cos 和 sin 乘以注意力系数 a = 1.2"
    layers = [{"attention": attention(4, heads=1, dk=8), "block": block(4)}]
    wrong = stack(layers, positions={"kind": "rope", "scaling": {
        "type": "longrope", "short_factor": [1, 2, 3]}})
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(wrong)
    assert str(caught.value) == ("positions.scaling.short_factor: expected 4 factors, one per "
                                 "turned pair of columns (r/2), got 3")


def test_cross_attention_is_not_turned() -> None:
    doc = encoder_decoder({"kind": "rope"}, {"kind": "rope"})
    trace = compute(parse_scenario(doc))
    ids = [step.id for step in trace.steps]
    assert "enc.L1.rope" in ids and "L1.rope" in ids and "L1.cross.rope" not in ids
    assert trace.steps[trace.step_index("L1.cross.scores")].reads == ("L1.cross.Q",
                                                                      "L1.cross.K")
    assert "enc.rope_angles" in trace.arrays and "rope_angles" in trace.arrays
    assert trace.steps[trace.step_index("enc.L1.rope")].reads[2] == "enc.rope_angles"


# -- ALiBi -------------------------------------------------------------------------------------

@pytest.mark.parametrize("causal", [True, False])
def test_alibi_adds_the_distance_bias_to_the_scores(causal: bool) -> None:
    doc = stack([{"attention": attention(4, heads=2, causal=causal), "block": block(4)}],
                positions={"kind": "alibi"})
    trace = compute(parse_scenario(doc))
    a = trace.arrays
    slopes = [2 ** (-8 * k / 2) for k in (1, 2)]  # 1/16 and 1/256
    bias = np.array([[[-s * ((i - j) if causal else abs(i - j)) for j in range(4)]
                      for i in range(4)] for s in slopes])
    np.testing.assert_allclose(a["L1.alibi"], bias, rtol=0, atol=0)
    np.testing.assert_array_equal(a["L1.scores"], a["L1.qk"] + bias)
    visible = np.tril(np.ones((4, 4), bool)) if causal else np.ones((4, 4), bool)
    np.testing.assert_allclose(a["L1.weights"], softmax_rows(a["L1.qk"] + bias, visible),
                               rtol=0, atol=1e-15)
    assert trace.steps[trace.step_index("L1.scores")].writes == ("L1.qk", "L1.alibi",
                                                                  "L1.scores")
    text = explain(trace, "L1.alibi", (0, 3, 1)).text()
    distance = "(3 − 1)" if causal else "|3 − 1|"
    assert text.startswith(f"L1.alibi[0,3,1] = −slope·{distance[0]}i − j{distance[-1]} = "
                           f"−0.0625·{distance} = −0.125")
    assert "2^(−8k/h) with k = 1, h = 2" in text


def test_given_slopes_and_the_biased_score_explained() -> None:
    doc = stack([{"attention": attention(4, heads=2), "block": block(4)}],
                positions={"kind": "alibi", "slopes": [0.5, 2]})
    trace = compute(parse_scenario(doc))
    assert trace.arrays["L1.alibi"][1, 2, 0] == -4.0
    assert "given in the document" in explain(trace, "L1.alibi", (1, 2, 0)).text()
    qk = trace.arrays["L1.qk"][1, 2, 0]
    formula = explain(trace, "L1.scores", (1, 2, 0)).formula
    assert formula.startswith("L1.scores[1,2,0] = L1.qk[1,2,0] + L1.alibi[1,2,0] = ")
    assert formula.endswith(f" + (−4) = {qk - 4:.6f}".rstrip("0").replace("-", "−"))


# -- the encoder -------------------------------------------------------------------------------

def encoder_decoder(positions: Doc | None, enc_positions: Doc | None) -> Doc:
    doc = stack([{"attention": attention(4), "cross_attention": attention(4),
                  "block": block(4, cross=True)}], n=2, head=head(4))
    doc["encoder"] = {"tokens": ["I", "am", "here"], "X": m(3, 4),
                      "layers": [{"attention": attention(4), "block": block(4)}]}
    if enc_positions is not None:
        doc["encoder"]["positions"] = enc_positions
    if positions is not None:
        doc["positions"] = positions
    return doc


def test_encoder_positions_take_the_enc_prefix() -> None:
    doc = encoder_decoder(None, {"kind": "sinusoidal"})
    trace = compute(parse_scenario(doc))
    X = np.array(doc["encoder"]["X"])
    P = np.array([[0, 1, 0, 1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)],
                  [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)]])
    np.testing.assert_allclose(trace.arrays["enc.X"], X + P, rtol=0, atol=1e-15)
    step = trace.steps[trace.step_index("enc.positions")]
    assert (step.stack, step.rows, step.reads, step.writes) == (
        "encoder", "enc.tokens", ("enc.embedded", "enc.positions"), ("enc.X",))
    assert "positions" not in trace.arrays and "embedded" not in trace.arrays
    assert explain(trace, "enc.X", (2, 0)).formula.startswith(
        "enc.X[2,0] = enc.embedded[2,0] + enc.positions[2,0] = ")


# -- version 1 and round trips -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["f11", "g01", "multihead", "tokenizer"])
def test_positions_none_changes_nothing(name: str) -> None:
    original = json.loads((EXAMPLES / f"{name}.qkv.json").read_text(encoding="utf-8"))
    plain = compute(parse_scenario(original))
    marked = copy.deepcopy(original)
    marked["positions"] = {"kind": "none"}
    with_none = compute(parse_scenario(marked))
    assert [s.to_json() for s in plain.steps] == [s.to_json() for s in with_none.steps]
    assert list(plain.arrays) == list(with_none.arrays)
    for key in plain.arrays:
        np.testing.assert_array_equal(plain.arrays[key], with_none.arrays[key])
    assert to_document(parse_scenario(marked))["positions"] == {"kind": "none"}
    assert "positions" not in to_document(parse_scenario(original))


@pytest.mark.parametrize("positions", [
    {"kind": "sinusoidal", "base": 100},
    {"kind": "learned", "table": [[1, 2, 3, 4]] * 5, "offset": 1},
    {"kind": "rope", "base": 10000, "rotary_dims": 2, "pairing": "interleaved"},
    {"kind": "alibi", "slopes": [0.5, 0.25]},
])
def test_positions_survive_saving_and_reading(positions: Doc) -> None:
    doc = stack([{"attention": attention(4), "block": block(4)}], positions=positions)
    s = parse_scenario(doc)
    written = json.loads(json.dumps(to_document(s)))
    assert written["positions"] == positions
    again = compute(parse_scenario(written))
    for key, values in compute(s).arrays.items():
        np.testing.assert_array_equal(again.arrays[key], values, err_msg=key)


def test_the_learned_table_is_an_editable_parameter() -> None:
    doc = stack([{"attention": attention(4), "block": block(4)}], n=2,
                positions={"kind": "learned", "table": [[0, 0, 0, 0]] * 3})
    s = with_parameter(parse_scenario(doc), "positions.table", [[1, 0, 0, 0]] * 3)
    trace = compute(s)
    np.testing.assert_array_equal(trace.arrays["X"], np.array(doc["X"]) + [[1, 0, 0, 0]] * 2)


# -- refusals ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(positions={"kind": "learned", "table": [[0] * 4] * 2, "offset": 1}),
     "positions.table: expected at least 3 rows for n = 2 from offset 1, got 2"),
    (lambda d: d.update(positions={"kind": "rope", "rotary_dims": 6}),
     "positions.rotary_dims: 6 is more than d_k = 2 of layers.0.attention"),
    (lambda d: d.update(positions={"kind": "rope", "rotary_dims": 3}),
     "positions.rotary_dims: expected an even number (columns turn in pairs), got 3"),
    (lambda d: d.update(positions={"kind": "alibi", "slopes": [1, 2, 3]}),
     "positions.slopes: expected 2 numbers to match the 2 heads of layers.0.attention, got 3"),
    (lambda d: d["encoder"].update(positions={"kind": "learned", "table": [[0] * 4] * 2}),
     "encoder.positions.table: expected at least 3 rows for n = 3 from offset 0, got 2"),
    (lambda d: d["encoder"].update(positions={"kind": "rope", "pairing": "both"}),
     'encoder.positions.pairing: expected one of "half" | "interleaved", got "both"'),
])
def test_a_malformed_positions_object_is_refused_naming_its_place(change: Any,
                                                                  message: str) -> None:
    doc = encoder_decoder(None, None)
    change(doc)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    assert str(caught.value) == message


def test_the_shorthand_names_its_attention() -> None:
    doc = json.loads((EXAMPLES / "f11.qkv.json").read_text(encoding="utf-8"))
    doc["positions"] = {"kind": "rope", "rotary_dims": 4}
    with pytest.raises(ScenarioError, match=r"^positions\.rotary_dims: 4 is more than d_k = 2 "
                                            r"of attention$"):
        parse_scenario(doc)


# -- the swap demo -----------------------------------------------------------------------------

def test_the_order_example_reads_the_verb_before_each_item() -> None:
    doc = json.loads((EXAMPLES / "order.qkv.json").read_text(encoding="utf-8"))
    s = parse_scenario(doc)
    assert s.tokens == ("排除", "A", "保留", "B")
    a, b = compute(s), compute(swap_tokens(s, 1, 3))
    # By hand: A (position 1) asks with q = [3, 0]; each verb answers with k = [2, 3], the
    # items with k = 0. RoPE turns q by 1 radian per position and k likewise, so a verb at j
    # scores 3·|k|·cos(j − 1 + atan2(3, 2)) / √2 and an item scores 0.
    def verb(j: int) -> float:
        return 3 * math.hypot(2, 3) * math.cos(j - 1 + math.atan2(3, 2)) / math.sqrt(2)

    expected = math.exp(verb(0)) / (math.exp(verb(0)) + math.exp(verb(2)) + 2)
    assert a.arrays["weights"][0, 1, 0] == pytest.approx(expected, abs=1e-12)
    assert expected > 0.99
    assert a.arrays["mixed"][1, 0] > 0.99, "A reads 排除: excluded"
    assert b.arrays["mixed"][3, 1] > 0.99, "after the swap A sits at 3 and reads 保留: kept"
    by_token = compare(a, b, order=swap_order(4, 1, 3))
    assert {"weights", "mixed"} <= set(by_token.changed(1e-3))


@pytest.mark.parametrize("kind", ["sinusoidal", "rope"])
def test_with_positions_a_swap_changes_the_shares_and_without_it_only_moves_them(
        kind: str) -> None:
    layers = [{"attention": attention(4, heads=2, causal=False), "block": block(4)}]
    order = swap_order(4, 0, 2)
    for positions, moved in (({"kind": kind}, True), ({"kind": "none"}, False)):
        s = parse_scenario(stack(layers, positions=positions))
        by_token = compare(compute(s), compute(swap_tokens(s, 0, 2)), order=order)
        assert ("L1.weights" in by_token.changed(1e-6)) is moved, positions
        if not moved:
            assert by_token.changed(1e-12) == []


def test_explain_partial_and_interleaved_rope() -> None:
    doc = stack([{"attention": attention(4, heads=1, dk=4), "block": block(4)}],
                positions={"kind": "rope", "rotary_dims": 2, "pairing": "interleaved"})
    trace = compute(parse_scenario(doc))
    kept = explain(trace, "L1.Q_rot", (1, 3)).text().splitlines()
    assert kept[0] == "L1.Q_rot[1,3] = L1.Q[1,3] = " + \
        f"{trace.arrays['L1.Q'][1, 3]:.6f}".rstrip("0").rstrip(".").replace("-", "−")
    assert kept[1] == "column 3 of head 1 is past rotary_dims = 2: not turned"
    turned = explain(trace, "L1.K_rot", (3, 1)).text().splitlines()
    assert turned[0].startswith("L1.K_rot[3,1] = L1.K[3,0]·sin(p·θ₀) + L1.K[3,1]·cos(p·θ₀) = ")
    assert turned[1].endswith("(head 1, interleaved pairing: 2i with 2i + 1)")
    assert turned[2] == "angle p·θ₀ = 3 rad at position 3; cos = −0.989992, sin = 0.14112"


def test_the_command_line_explains_a_turned_cell(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    layers = [{"attention": attention(4, heads=1, dk=4), "block": block(4)} for _ in range(2)]
    path = tmp_path / "rope.qkv.json"
    path.write_text(json.dumps(stack(layers, positions={"kind": "rope", "base": 100})),
                    encoding="utf-8")
    assert main(["explain", str(path), "L2.Q_rot[1,0]"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("L2.Q_rot[1,0] = L2.Q[1,0]·cos(p·θ₀) − L2.Q[1,2]·sin(p·θ₀) = ")
    assert out[2] == "angle p·θ₀ = 1 rad at position 1; cos = 0.540302, sin = 0.841471"
    assert main(["explain", "rope", "K_rot[2,1]"]) == 0
    assert capsys.readouterr().out.startswith(
        "K_rot[2,1] = K[2,1]·cos(p·θ₁) − K[2,3]·sin(p·θ₁) = 1·0.980067 − 0·0.198669 = 0.980067")


def test_the_arrays_of_positions_count_toward_the_trace_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layers = [{"attention": attention(4, heads=2), "block": block(4)}]
    plain, biased = stack(layers), stack(layers, positions={"kind": "alibi"})
    without = trace_numbers(4, 4, parse_scenario(plain).layers)
    monkeypatch.setattr(engine.scenario.scenario, "MAX_TRACE_NUMBERS", without + 2 * 2 * 4 * 4 - 1)
    parse_scenario(plain)
    with pytest.raises(ScenarioError, match=rf"the trace would hold {without + 64} numbers, "
                                            rf"more than the limit of {without + 63}:"):
        parse_scenario(biased)


POSITION_CASES = sorted(name for name in CASES if any(
    word in name for word in ("rope", "alibi", "sinusoidal", "learned", "positions")) and
    name != "encoder_decoder_token_ids_learned")  # refused for its X beside token ids


@pytest.mark.parametrize("case", POSITION_CASES)
def test_the_engine_agrees_with_the_independent_reference(case: str) -> None:
    """reference_v2.py was written from the spec by another hand: every array to 1e-12."""
    assert_agrees(CASES[case]())


def test_resizing_keeps_the_positions_valid() -> None:
    learned = parse_scenario(stack([{"attention": attention(4), "block": block(4)}], n=2,
                                   positions={"kind": "learned", "table": m(3, 4),
                                              "offset": 1}))
    wider = parse_scenario(resize(learned, Sizes(n=4, d=6, d_k=2, d_v=2, heads=2)).document)
    table = np.asarray(wider.positions.table if wider.positions is not None else None)
    assert table.shape == (5, 6), "two more positions, two more rows; d columns"
    np.testing.assert_array_equal(table[:3, :4], learned.parameter("positions.table"))
    assert compute(wider).arrays["X"].shape == (4, 6)
    rope = parse_scenario(stack([{"attention": attention(4, heads=1, dk=4), "block": block(4)}],
                                positions={"kind": "rope", "rotary_dims": 4}))
    narrow = parse_scenario(resize(rope, Sizes(n=4, d=4, d_k=3, d_v=2, heads=1)).document)
    assert narrow.positions is not None and narrow.positions.rotary_dims == 2
    alibi = parse_scenario(stack([{"attention": attention(4, heads=2), "block": block(4)}],
                                 positions={"kind": "alibi", "slopes": [0.5, 0.25]}))
    more = parse_scenario(resize(alibi, Sizes(n=4, d=4, d_k=2, d_v=2, heads=4)).document)
    assert more.parameter("positions.slopes").tolist() == [0.5, 0.25, 0, 0]


EXPLAINED = {
    "v2-positions": BASES["v2-positions"], "v2-alibi": BASES["v2-alibi"],
    "sinusoidal": stack([{"attention": attention(4, heads=2, dk=4), "block": block(4)}],
                        positions={"kind": "sinusoidal"}),
    "order": json.loads((EXAMPLES / "order.qkv.json").read_text(encoding="utf-8")),
    "rope": json.loads((EXAMPLES / "rope.qkv.json").read_text(encoding="utf-8")),
}


@pytest.mark.parametrize("name", sorted(EXPLAINED))
def test_every_cell_of_a_trace_with_positions_explains_to_its_value(name: str) -> None:
    trace = compute(parse_scenario(EXPLAINED[name]))
    turned = 0
    for array_name, array in trace.arrays.items():
        for index in np.ndindex(array.shape):
            value = float(array[index])
            assert explain(trace, array_name, index, "zh").value == value
            e = explain(trace, array_name, index)
            assert e.value == value and e.formula.startswith(f"{array_name}[")
            assert final_number(e.formula) == format_number(value), e.formula
            local = array_name.rsplit(".", 1)[-1]
            shown = e.formula.split(" = ")[-2]
            if local in ("Q_rot", "K_rot") and "cos" not in shown:  # the turned pair's sum
                first, sign, second = shown.rpartition(" − ") if " − " in shown else \
                    shown.rpartition(" + ")
                terms = [math.prod(parse_shown(f) for f in t.split("·")) for t in (first, second)]
                total = terms[0] - terms[1] if sign == " − " else terms[0] + terms[1]
                assert abs(total - value) <= 1e-5, (array_name, index, shown)
                turned += 1
    assert turned or name not in ("rope", "order", "v2-positions")
