"""The reference against PyTorch's own layers where torch is installed. torch is not a test
dependency (CI and ./dev.sh test skip this file); to run it: `.venv/bin/pip install torch`.
Float64 throughout, dropout 0."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.engine.reference_v2 import Positions, activation, attention, layer, norm
from tests.engine.v2_documents import CASES, encoder_decoder

torch = pytest.importorskip("torch")
F = torch.nn.functional


def t(value: Any) -> Any:
    return torch.tensor(np.asarray(value, dtype=np.float64))


def load_attention(mha: Any, a: dict[str, Any]) -> None:
    """torch computes x @ W.T: the document's right-multiplied matrices go in transposed."""
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([t(a["Wq"]).T, t(a["Wk"]).T, t(a["Wv"]).T]))
        mha.in_proj_bias.copy_(torch.cat([t(a["bq"]), t(a["bk"]), t(a["bv"])]))
        mha.out_proj.weight.copy_(t(a["Wo"]).T)
        mha.out_proj.bias.copy_(t(a["bo"]))


def load_norm(ln: Any, block: dict[str, Any], gamma: str, beta: str) -> None:
    with torch.no_grad():
        ln.weight.copy_(t(block[gamma]))
        ln.bias.copy_(t(block[beta]))


def load_ffn(torch_layer: Any, ffn: dict[str, Any]) -> None:
    with torch.no_grad():
        torch_layer.linear1.weight.copy_(t(ffn["W1"]).T)
        torch_layer.linear1.bias.copy_(t(ffn["b1"]))
        torch_layer.linear2.weight.copy_(t(ffn["W2"]).T)
        torch_layer.linear2.bias.copy_(t(ffn["b2"]))


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_a_decoder_layer_is_torch_transformer_decoder_layer(placement: str) -> None:
    doc = encoder_decoder(90, placement=placement)
    lay = doc["layers"][0]
    block = lay["block"]
    x = np.array(doc["X"])
    memory = np.random.default_rng(91).standard_normal((3, 4))
    ours: dict[str, np.ndarray] = {}
    result = layer(ours, "L1.", lay, x, Positions(None, 2, 4, 2), memory=memory)

    dec = torch.nn.TransformerDecoderLayer(4, 2, dim_feedforward=5, dropout=0.0,
                                           activation="relu", batch_first=True,
                                           norm_first=placement == "pre").double().eval()
    load_attention(dec.self_attn, lay["attention"])
    load_attention(dec.multihead_attn, lay["cross_attention"])
    load_norm(dec.norm1, block, "gamma1", "beta1")
    load_norm(dec.norm2, block, "gamma_c", "beta_c")
    load_norm(dec.norm3, block, "gamma2", "beta2")
    load_ffn(dec, block["ffn"])
    causal = torch.triu(torch.ones(2, 2, dtype=torch.bool), diagonal=1)  # True: hidden
    with torch.no_grad():
        theirs = dec(t(x)[None], t(memory)[None], tgt_mask=causal)[0].numpy()
    np.testing.assert_allclose(result, theirs, rtol=1e-12, atol=1e-12)
    assert ours["L1.cross.weights"].shape == (2, 2, 3)


def test_an_encoder_layer_is_torch_transformer_encoder_layer() -> None:
    doc = encoder_decoder(92, placement="post")
    lay = doc["encoder"]["layers"][1]
    x = np.array(doc["encoder"]["X"])
    ours: dict[str, np.ndarray] = {}
    result = layer(ours, "enc.L2.", lay, x, Positions(None, 3, 4, 2), memory=None,
                   causal_allowed=False)
    enc = torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=5, dropout=0.0,
                                           activation="relu", batch_first=True,
                                           norm_first=False).double().eval()
    load_attention(enc.self_attn, lay["attention"])
    load_norm(enc.norm1, lay["block"], "gamma1", "beta1")
    load_norm(enc.norm2, lay["block"], "gamma2", "beta2")
    load_ffn(enc, lay["block"]["ffn"])
    with torch.no_grad():
        theirs = enc(t(x)[None])[0].numpy()
    np.testing.assert_allclose(result, theirs, rtol=1e-12, atol=1e-12)


def _sdpa(doc: dict[str, Any], bias: np.ndarray | None = None) -> tuple[Any, Any]:
    """Our `mixed` and torch's scaled_dot_product_attention on the same Q, K, V and mask."""
    a = doc["layers"][0]["attention"]
    x = np.array(doc["X"])
    ours: dict[str, np.ndarray] = {}
    attention(ours, "", a, x, pos=Positions(doc.get("positions"), *x.shape, 2))
    h, g = a["heads"], a.get("kv_heads", a["heads"])
    n = x.shape[0]
    q = t(ours["Q"]).reshape(n, h, -1).transpose(0, 1)
    k = t(ours["K"]).reshape(n, g, -1).transpose(0, 1)
    v = t(ours["V"]).reshape(n, g, -1).transpose(0, 1)
    mask = t(np.where(ours["visible:"], 0.0, -np.inf))
    if bias is not None:
        mask = mask + t(bias)
    theirs = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=g != h)
    return ours, theirs.transpose(0, 1).reshape(n, -1).numpy()


@pytest.mark.parametrize("case", ["grouped_query_4_heads_2_kv", "multi_query_2_heads_1_kv",
                                  "window_2", "key_mask", "window_key_mask_non_causal"])
def test_masked_and_grouped_attention_is_torch_sdpa(case: str) -> None:
    ours, theirs = _sdpa(CASES[case]())
    np.testing.assert_allclose(ours["mixed"], theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", ["alibi_default_slopes", "alibi_four_heads",
                                  "alibi_slopes_non_causal"])
def test_alibi_is_an_additive_bias_in_torch_sdpa(case: str) -> None:
    doc = CASES[case]()
    ours: dict[str, np.ndarray] = {}
    x = np.array(doc["X"])
    attention(ours, "", doc["layers"][0]["attention"], x,
              pos=Positions(doc["positions"], *x.shape, 2))
    _, theirs = _sdpa(doc, bias=ours["alibi"])
    np.testing.assert_allclose(ours["mixed"], theirs, rtol=1e-12, atol=1e-12)


def test_norms_and_activations_are_torch_functions() -> None:
    x = np.random.default_rng(93).standard_normal((3, 6)) * 3
    g, b = np.linspace(0.5, 1.5, 6), np.linspace(-0.2, 0.3, 6)
    np.testing.assert_allclose(norm(x, "layernorm", g, b, 1e-5)[0],
                               F.layer_norm(t(x), (6,), t(g), t(b), 1e-5).numpy(), rtol=1e-12,
                               atol=1e-13)
    np.testing.assert_allclose(norm(x, "rmsnorm", g, None, 1e-5)[0],
                               F.rms_norm(t(x), (6,), t(g), 1e-5).numpy(), rtol=1e-12,
                               atol=1e-13)
    for ours, theirs in [("gelu", F.gelu(t(x))), ("gelu_tanh", F.gelu(t(x), approximate="tanh")),
                         ("silu", F.silu(t(x))), ("relu", F.relu(t(x)))]:
        np.testing.assert_allclose(activation(x, ours), theirs.numpy(), rtol=1e-13, atol=1e-15)
