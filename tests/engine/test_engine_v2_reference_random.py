"""Random version-2 documents — every option combined with every other — against the reference.

Hypothesis draws the shape and the switches (stack depth, heads and kv heads, window, key mask,
QK-norm, placement, norm, residual, activation, gate, biases, head, encoder, positions); numpy
with a drawn seed fills in the numbers. The engine must agree with reference_v2.py to 1e-12.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.test_engine_v2_reference import assert_agrees
from tests.engine.v2_documents import attention, block, head, learned_table

POSITION_KINDS = ("none", "sinusoidal", "learned", "rope", "alibi")
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
Doc = dict[str, Any]


@st.composite
def attention_options(draw: st.DrawFn, n: int, *, cross: bool = False, heads: int = 0,
                      min_d_k: int = 1) -> dict[str, Any]:
    heads = heads or draw(st.sampled_from([1, 2, 4]))
    options: dict[str, Any] = {
        "heads": heads, "d_k": draw(st.integers(min_d_k, 3)), "d_v": draw(st.integers(1, 3)),
        "biases": draw(st.booleans()), "scale": draw(st.booleans())}
    if draw(st.booleans()):
        options["kv_heads"] = draw(st.sampled_from([g for g in (1, 2, 4) if heads % g == 0]))
    if not cross and draw(st.booleans()):
        options["causal"] = draw(st.booleans())
    if draw(st.booleans()):
        options["window"] = draw(st.integers(1, n + 1))
    if draw(st.booleans()):
        options["key_mask"] = draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n))
    if draw(st.booleans()):
        options["qk_norm"] = draw(st.sampled_from(["rmsnorm", "layernorm"]))
        if draw(st.booleans()):
            options["qk_norm_over"] = "all_heads"
    return options


def _sees_a_key_everywhere(options: dict[str, Any], n_queries: int, n_keys: int,
                           causal: bool) -> bool:
    for i in range(n_queries):
        if not any((not causal or j <= i)
                   and ("window" not in options or i - j < options["window"])
                   and ("key_mask" not in options or options["key_mask"][j] == 1)
                   for j in range(n_keys)):
            return False
    return True


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, d = draw(st.integers(1, 5)), draw(st.sampled_from([2, 3, 4, 6]))
    n_enc = draw(st.integers(1, 4))
    with_encoder = draw(st.booleans())
    placement = draw(st.sampled_from(["pre", "post"]))
    norm = draw(st.sampled_from(["layernorm", "rmsnorm", "none"]))

    def a_layer(rows: int, kind: str, heads: int, *, encoder: bool = False) -> Doc:
        """RoPE: every d_k at least the rotary width 2; ALiBi: one head count per stack."""
        options = draw(attention_options(rows, heads=heads if kind == "alibi" else 0,
                                         min_d_k=2 if kind == "rope" else 1))
        causal = options.get("causal", True) and not encoder
        if not _sees_a_key_everywhere(options, rows, rows, causal):
            options.pop("key_mask", None)
            options.pop("window", None)
        cross = with_encoder and not encoder
        residual = "sequential"
        if placement == "pre" and not cross and draw(st.booleans()):
            residual = "parallel"
        activation = draw(st.sampled_from(["relu", "gelu", "gelu_tanh", "silu", "identity"]))
        layer: Doc = {"attention": attention(rng, d, **options)}
        if encoder:
            layer["attention"]["causal"] = False
        if cross:
            cross_options = draw(attention_options(n_enc, cross=True))
            cross_options.pop("window", None)
            if not _sees_a_key_everywhere(cross_options, rows, n_enc, False):
                cross_options.pop("key_mask", None)
            layer["cross_attention"] = attention(rng, d, **cross_options)
        layer["block"] = block(rng, d, f=draw(st.integers(1, 5)), placement=placement, norm=norm,
                               activation=activation, gated=draw(st.booleans()), cross=cross,
                               residual=residual, eps=draw(st.sampled_from([1e-5, 1e-2, 0.5])))
        if placement == "pre" and residual == "sequential" and not cross and draw(st.booleans()):
            for name in ("gamma1", "beta1", "gamma2", "beta2"):
                del layer["block"][name]
            layer["block"]["pre_norms"] = False  # OLMo 2: the sub-layers read the stream
        return layer

    def positions(rows: int, kind: str, heads: int) -> Doc:
        if kind == "learned":
            return {"kind": kind, "table": learned_table(int(rng.integers(1000)), rows + 2, d),
                    "offset": draw(st.integers(0, 2))}
        if kind == "rope":
            return {"kind": kind, "rotary_dims": 2, "base": draw(st.sampled_from([10000, 10])),
                    "pairing": draw(st.sampled_from(["half", "interleaved"]))}
        if kind == "alibi" and draw(st.booleans()):
            return {"kind": kind, "slopes": [0.5 / (k + 1) for k in range(heads)]}
        return {"kind": kind}

    kind, enc_kind = (draw(st.sampled_from(POSITION_KINDS)) for _ in range(2))
    heads, enc_heads = (draw(st.sampled_from([1, 2, 4])) for _ in range(2))

    doc: Doc = {"format": "qkv-studio", "version": 2, "title": "random",
                "tokens": [f"t{k}" for k in range(n)],
                "X": rng.standard_normal((n, d)).round(3).tolist(),
                "positions": positions(n, kind, heads)}
    if with_encoder:
        doc["encoder"] = {"tokens": [f"s{k}" for k in range(n_enc)],
                          "X": rng.standard_normal((n_enc, d)).round(3).tolist(),
                          "positions": positions(n_enc, enc_kind, enc_heads),
                          "layers": [a_layer(n_enc, enc_kind, enc_heads, encoder=True)
                                     for _ in range(draw(st.integers(1, 2)))]}
    doc["layers"] = [a_layer(n, kind, heads) for _ in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        doc["head"] = head(rng, d, vocab=draw(st.integers(1, 5)),
                           final_norm=draw(st.booleans()))
    return doc


@SETTINGS
@given(documents())
def test_a_random_version_2_document_is_the_reference(doc: Doc) -> None:
    assert_agrees(doc)
