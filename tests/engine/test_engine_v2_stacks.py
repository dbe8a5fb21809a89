"""Version 2: stacks, grouped-query attention, windows, key masks, QK-norm, parallel residuals,
gated FFNs and encoder–decoder, each against the independent numpy pass of reference_v2.py."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from engine import compute, parse_scenario
from tests.engine.reference_v2 import forward, trace_arrays

Doc = dict[str, Any]
RNG = np.random.default_rng(14)


def m(rows: int, cols: int) -> list[list[float]]:
    return np.round(RNG.normal(0, 0.6, (rows, cols)), 3).tolist()


def v(length: int, centre: float = 0.0) -> list[float]:
    return np.round(centre + RNG.normal(0, 0.3, length), 3).tolist()


def attention(d: int, heads: int = 2, dk: int = 2, kv: int | None = None, d_in: int | None = None,
              **extra: object) -> Doc:
    g = kv or heads
    rows = d_in or d
    att: Doc = {"heads": heads, "Wq": m(d, heads * dk), "Wk": m(rows, g * dk),
                "Wv": m(rows, g * dk), "Wo": m(heads * dk, d), "bq": v(heads * dk)}
    if kv is not None:
        att["kv_heads"] = kv
    att.update(extra)
    return att


def block(d: int, placement: str = "pre", f: int = 5, cross: bool = False,
          **extra: object) -> Doc:
    blk: Doc = {"norm": "layernorm", "placement": placement, "gamma1": v(d, 1), "beta1": v(d),
                "gamma2": v(d, 1), "beta2": v(d),
                "ffn": {"W1": m(d, f), "b1": v(f), "activation": "relu", "W2": m(f, d),
                        "b2": v(d)}}
    if cross:
        blk.update(gamma_c=v(d, 1), beta_c=v(d))
    blk.update(extra)
    return blk


def stack(layers: list[Doc], n: int = 4, d: int = 4, head: Doc | None = None, **extra: object
          ) -> Doc:
    doc: Doc = {"format": "qkv-studio", "version": 2, "title": "stack",
                "tokens": [f"w{k}" for k in range(n)], "X": m(n, d), "layers": layers}
    if head is not None:
        doc["head"] = head
    doc.update(extra)
    return doc


def head(d: int, size: int = 3, **extra: object) -> Doc:
    out: Doc = {"gamma_f": v(d, 1), "beta_f": v(d), "unembed": m(d, size),
                "vocab": [f"v{k}" for k in range(size)]}
    out.update(extra)
    return out


def agree(doc: Doc) -> dict[str, np.ndarray]:
    """Compute ``doc`` and check every array the reference makes, to 1e-12."""
    trace = compute(parse_scenario(doc))
    expected = trace_arrays(forward(copy.deepcopy(doc)))
    for name, values in expected.items():
        assert name in trace.arrays, name
        np.testing.assert_allclose(trace.arrays[name], values, rtol=1e-12, atol=1e-12,
                                   err_msg=name)
    return trace.arrays


def test_a_three_layer_pre_norm_stack_with_a_head() -> None:
    doc = stack([{"attention": attention(4), "block": block(4)} for _ in range(3)],
                head=head(4, bias=v(3)))
    arrays = agree(doc)
    assert {"L1.scores", "L2.weights", "L3.resid2", "final_norm", "logits", "probs"} <= set(arrays)
    assert "scores" not in arrays, "a stack has no bare per-layer names"


def test_a_two_layer_post_norm_stack() -> None:
    doc = stack([{"attention": attention(4), "block": block(4, "post")} for _ in range(2)],
                head=head(4))
    arrays = agree(doc)
    assert "final_norm" not in arrays, "post-norm: no final norm by default"
    steps = {s.id: s for s in compute(parse_scenario(doc)).steps}
    assert steps["L2.projections"].reads[0] == "L1.norm2", "post-norm: layer 1 ends in norm2"
    assert steps["L2.resid1"].reads == ("L1.norm2", "L2.attn_out")


def test_grouped_query_attention_shares_each_kv_head() -> None:
    doc = stack([{"attention": attention(4, heads=4, dk=2, kv=2), "block": block(4)}])
    arrays = agree(doc)
    assert arrays["L1.K"].shape == (4, 4) and arrays["L1.scores"].shape == (4, 4, 4)
    trace = compute(parse_scenario(doc))
    assert trace.scenario.module("layers.0.attention").kv_head(3) == 1


@pytest.mark.parametrize("extra", [{"window": 2}, {"key_mask": [1, 0, 1, 1]},
                                   {"window": 3, "key_mask": [1, 0, 1, 1]},
                                   {"causal": False, "window": 1}])
def test_windows_and_key_masks_hide_exactly_their_keys(extra: Doc) -> None:
    doc = stack([{"attention": attention(4, **extra), "block": block(4)}])
    arrays = agree(doc)
    trace = compute(parse_scenario(doc))
    seen = trace.visible_for("L1.")
    assert np.all(arrays["L1.weights"][:, ~seen] == 0.0)
    np.testing.assert_allclose(arrays["L1.weights"].sum(axis=-1), 1.0, rtol=1e-15)
    if "window" in extra:
        assert not seen[3, 0] and seen[3, 3]


@pytest.mark.parametrize("kind", ["rmsnorm", "layernorm"])
def test_qk_norm_normalises_each_heads_queries_and_keys(kind: str) -> None:
    doc = stack([{"attention": attention(4, qk_norm=kind, gamma_q=v(2, 1), gamma_k=v(2, 1)),
                  "block": block(4, eps=1e-3)}])
    arrays = agree(doc)
    assert [s.id for s in compute(parse_scenario(doc)).steps][:4] == [
        "L1.norm1", "L1.projections", "L1.qk_norm", "L1.scores"]
    assert arrays["L1.Q_normed"].shape == arrays["L1.Q"].shape


def test_a_parallel_residual_adds_both_branches_to_the_input() -> None:
    doc = stack([{"attention": attention(4), "block": block(4, residual="parallel")}])
    arrays = agree(doc)
    np.testing.assert_allclose(arrays["L1.resid2"], arrays["X"] + arrays["L1.attn_out"] +
                               arrays["L1.ffn_out"], rtol=1e-14)


@pytest.mark.parametrize("activation", ["silu", "gelu"])
def test_gated_feed_forwards_swiglu_and_geglu(activation: str) -> None:
    blk = block(4)
    blk["ffn"].update(Wg=m(4, 5), bg=v(5), activation=activation)
    arrays = agree(stack([{"attention": attention(4), "block": blk}]))
    np.testing.assert_array_equal(arrays["L1.ffn_hidden"],
                                  arrays["L1.ffn_gate"] * arrays["L1.ffn_up"])


def test_gelu_tanh_is_the_tanh_formula() -> None:
    blk = block(4)
    blk["ffn"]["activation"] = "gelu_tanh"
    arrays = agree(stack([{"attention": attention(4), "block": blk}]))
    z = arrays["L1.ffn_pre"]
    np.testing.assert_allclose(arrays["L1.ffn_hidden"], 0.5 * z * (1 + np.tanh(
        np.sqrt(2 / np.pi) * (z + 0.044715 * z**3))), rtol=1e-15)


def test_the_head_bias_is_added_to_the_logits() -> None:
    doc = stack([{"attention": attention(4), "block": block(4)}], head=head(4, bias=[1, 2, 3]))
    without = copy.deepcopy(doc)
    del without["head"]["bias"]
    a, b = compute(parse_scenario(doc)), compute(parse_scenario(without))
    np.testing.assert_allclose(a.arrays["logits"] - b.arrays["logits"], [[1, 2, 3]] * 4,
                               rtol=1e-12)


def encoder_decoder(placement: str) -> Doc:
    enc = {"tokens": ["a", "b", "c"], "X": m(3, 4),
           "layers": [{"attention": attention(4), "block": block(4, placement)}
                      for _ in range(2)]}
    layers = [{"attention": attention(4), "cross_attention": attention(4, heads=2),
               "block": block(4, placement, cross=True)} for _ in range(2)]
    return stack(layers, n=2, encoder=enc, head=head(4))


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_encoder_decoder_is_transformer_decoder_layer_arithmetic(placement: str) -> None:
    doc = encoder_decoder(placement)
    arrays = agree(doc)
    assert arrays["L1.cross.weights"].shape == (2, 2, 3)
    trace = compute(parse_scenario(doc))
    assert trace.visible_for("enc.L1.").all(), "the encoder is not causal"
    assert trace.visible_for("L1.cross.").all()
    assert trace.tokens_of("enc.tokens") == ("a", "b", "c")
    steps = {s.id: s for s in trace.steps}
    cross = steps["L1.cross.weights"]
    assert (cross.op, cross.keys, cross.rows, cross.module) == (
        "weights", "enc.tokens", "tokens", "layers.0.cross_attention")
    assert steps["enc.L2.scores"].stack == "encoder"
    assert steps["enc.L2.scores"].rows == "enc.tokens"
    ids = [s.id for s in trace.steps]
    assert ids.index("enc.L2.resid2" if placement == "pre" else "enc.L2.norm2") < ids.index(
        "L1.projections")
    order = ["L1.resid1", "L1.cross.norm", "L1.cross.projections", "L1.cross.resid", "L1.norm2"]
    if placement == "post":
        order = ["L1.norm1", "L1.cross.projections", "L1.cross.resid", "L1.cross.norm",
                 "L1.ffn"]
    assert [ids.index(k) for k in order] == sorted(ids.index(k) for k in order)


def test_step_metadata_of_a_stack() -> None:
    trace = compute(parse_scenario(stack([{"attention": attention(4), "block": block(4)}
                                          for _ in range(2)], head=head(4))))
    s = {step.id: step for step in trace.steps}
    assert (s["L2.scores"].layer, s["L2.scores"].scope, s["L2.scores"].module) == (
        2, "L2.", "layers.1.attention")
    assert s["L2.norm1"].reads == ("L1.resid2", "layers.1.block.gamma1", "layers.1.block.beta1")
    assert s["L2.ffn"].module == "layers.1.block" and s["L2.resid1"].op == "residual"
    assert s["final_norm"].reads[1:] == ("head.gamma_f", "head.beta_f")
    assert s["logits"].module == "head" and s["logits"].layer == 0
    assert trace.tokens_of("vocab") == ("v0", "v1", "v2")
    assert trace.tokens_of("enc.tokens") == ()
    with pytest.raises(KeyError):
        trace.tokens_of("source")
    with pytest.raises(KeyError):
        trace.visible_for("L3.")
