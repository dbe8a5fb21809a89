"""File → New from architecture: a tiny version-2 document per model family, with the family's
real structure and seeded weights rounded to 2 decimals. Imports no Qt.

Every preset reads 我 爱 你 。 (ids 0–3) from the chapter's seven words, d = 8, two heads of 4,
two layers and a feed-forward 16 wide; what differs is what makes each family itself:

| family | positions | norm, placement | attention | feed-forward | head |
| --- | --- | --- | --- | --- | --- |
| GPT-2 | learned table | LayerNorm, pre | biases | GELU (tanh) | tied |
| Llama | RoPE, all of d_k | RMSNorm, pre | no biases | SwiGLU gate | untied |
| Mistral | RoPE | RMSNorm, pre | 1 K/V head, window 2 | SwiGLU gate | untied |
| Mixtral | RoPE | RMSNorm, pre | 1 K/V head | router: 2 of 4 SwiGLU experts | untied |
| Qwen2-MoE | RoPE, base 10⁶ | RMSNorm, pre | q/k/v biases, 1 K/V | 2 of 4 + gated shared | untied |
| Qwen2 | RoPE, base 10⁶ | RMSNorm, pre | q/k/v biases, 1 K/V head | SwiGLU gate | tied |
| GPT-NeoX | RoPE on half of d_k | LayerNorm, parallel residual | biases | GELU (erf) | untied |
| BERT | learned table | LayerNorm, post | no causal mask, biases | GELU (erf) | masked-LM |

BERT's reads 我 [MASK] 你 。 instead: its head is the masked-language model's (a transform, then
the tied vocabulary with its own bias), which fills the blank; its vocabulary has ``[MASK]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from app.texts.preset_words import preset_title
from engine import Scenario, parse_scenario
from engine.format.writer import FORMAT_NAME, FORMAT_VERSION

WORDS = ["我", "爱", "你", "。", "检查", "路径", "过滤"]
"""The vocabulary: the chapter's seven words."""
TOKEN_IDS = [0, 1, 2, 3]
"""我 爱 你 。"""
MASK = "[MASK]"
"""BERT's blank, the last entry of its vocabulary."""
MASKED_IDS = [0, len(WORDS), 2, 3]
"""我 [MASK] 你 。"""
D, HEADS, D_K, FFN, LAYERS, CONTEXT = 8, 2, 4, 12, 2, 8
"""Model width, heads, head width, feed-forward width, layers, learned positions' rows."""
EXPERTS = 4
"""Mixtral's experts per layer (8 in the real model, 2 chosen per token in both)."""
SPREAD = 0.5
"""The standard deviation of the seeded weights: shares neither flat nor one-hot."""

Matrix = list[list[float]]
Doc = dict[str, Any]


class Weights:
    """Seeded numbers rounded to 2 decimals, drawn in the order they are asked for."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def matrix(self, rows: int, cols: int) -> Matrix:
        values = np.round(self._rng.normal(0.0, SPREAD, (rows, cols)), 2) + 0.0  # no −0.0
        return [[float(v) for v in row] for row in values]

    def row(self, size: int) -> list[float]:
        return self.matrix(1, size)[0]


def _attention(w: Weights, *, causal: bool = True, kv_heads: int = HEADS,
               biases: str = "", window: int | None = None) -> Doc:
    """One layer's attention; ``biases`` names which of q, k, v, o have one."""
    att: Doc = {"heads": HEADS, "causal": causal, "scale": True,
                "Wq": w.matrix(D, HEADS * D_K), "Wk": w.matrix(D, kv_heads * D_K),
                "Wv": w.matrix(D, kv_heads * D_K), "Wo": w.matrix(HEADS * D_K, D)}
    if kv_heads != HEADS:
        att["kv_heads"] = kv_heads
    for name, width in (("q", HEADS * D_K), ("k", kv_heads * D_K), ("v", kv_heads * D_K),
                        ("o", D)):
        if name in biases:
            att[f"b{name}"] = w.row(width)
    if window is not None:
        att["window"] = window
    return att


def _block(w: Weights, norm: str, *, activation: str, gated: bool = False,
           biases: bool = True, placement: str = "pre", residual: str = "sequential") -> Doc:
    """One layer's norms (γ = 1, β = 0, as initialised), residual and feed-forward."""
    ffn: Doc = {"W1": w.matrix(D, FFN), "activation": activation, "W2": w.matrix(FFN, D)}
    if gated:
        ffn["Wg"] = w.matrix(D, FFN)
    if biases:
        ffn["b1"], ffn["b2"] = w.row(FFN), w.row(D)
    block: Doc = {"norm": norm, "eps": 1e-5, "placement": placement, "ffn": ffn}
    if residual != "sequential":
        block["residual"] = residual
    return block


def _document(name: str, w: Weights, positions: Doc, layer: Callable[[Weights], Doc],
              *, tied: bool | None, vocab: list[str] = WORDS, ids: list[int] = TOKEN_IDS) -> Doc:
    """The preset ``name``'s document: its English title, the embedding first, then the layers,
    then the next-token head (tied to the embedding or its own; ``None``: no next-token
    head)."""
    embedding = w.matrix(len(vocab), D)
    layers = [layer(w) for _ in range(LAYERS)]
    doc: Doc = {"format": FORMAT_NAME, "version": FORMAT_VERSION,
                "title": preset_title(name), "tokens": [vocab[i] for i in ids],
                "token_ids": ids, "embedding": embedding, "positions": positions,
                "layers": layers}
    if tied is not None:
        unembed = [list(col) for col in zip(*embedding, strict=True)] if tied \
            else w.matrix(D, len(WORDS))
        doc["head"] = {"final_norm": True, "unembed": unembed, "vocab": WORDS}
    return doc


def _learned(w: Weights) -> Doc:
    return {"kind": "learned", "table": w.matrix(CONTEXT, D)}


def _rope(base: float, rotary_dims: int = D_K) -> Doc:
    return {"kind": "rope", "base": base, "rotary_dims": rotary_dims, "pairing": "half"}


def gpt2() -> Doc:
    w = Weights(2019)
    return _document("gpt2", w, _learned(w), lambda w: {
        "attention": _attention(w, biases="qkvo"),
        "block": _block(w, "layernorm", activation="gelu_tanh")}, tied=True)


def llama() -> Doc:
    w = Weights(2023)
    return _document("llama", w, _rope(10000), lambda w: {
        "attention": _attention(w),
        "block": _block(w, "rmsnorm", activation="silu", gated=True, biases=False)}, tied=False)


def mistral() -> Doc:
    w = Weights(7)
    return _document("mistral", w, _rope(10000), lambda w: {
        "attention": _attention(w, kv_heads=1, window=2),
        "block": _block(w, "rmsnorm", activation="silu", gated=True, biases=False)}, tied=False)


def mixtral() -> Doc:
    """Mistral's attention (no window, as Mixtral has none) and, in place of the feed-forward,
    a router choosing 2 of 4 SwiGLU experts per token, their weights renormalised."""
    w = Weights(8)

    def layer(w: Weights) -> Doc:
        block = _block(w, "rmsnorm", activation="silu", gated=True, biases=False)
        block["ffn"] = {"router": w.matrix(D, EXPERTS), "top_k": 2, "normalize": True,
                        "experts": [block["ffn"], *(_block(w, "rmsnorm", activation="silu",
                                                           gated=True, biases=False)["ffn"]
                                                    for _ in range(EXPERTS - 1))]}
        return {"attention": _attention(w, kv_heads=1), "block": block}

    return _document("mixtral", w, _rope(1_000_000), layer, tied=False)


def qwen2_moe() -> Doc:
    """Qwen2's attention and, in place of the feed-forward, a router choosing 2 of 4 SwiGLU
    experts per token, their shares not renormalised, and a shared SwiGLU expert every token
    runs, weighted by the sigmoid of its one-column gate."""
    w = Weights(1536)

    def layer(w: Weights) -> Doc:
        experts = [_block(w, "rmsnorm", activation="silu", gated=True, biases=False)["ffn"]
                   for _ in range(EXPERTS)]
        shared = _block(w, "rmsnorm", activation="silu", gated=True, biases=False)
        shared["ffn"] = {"router": w.matrix(D, EXPERTS), "top_k": 2, "normalize": False,
                         "experts": experts, "shared_gate": w.matrix(D, 1),
                         "shared": shared["ffn"]}
        return {"attention": _attention(w, kv_heads=1, biases="qkv"), "block": shared}

    return _document("qwen2_moe", w, _rope(1_000_000), layer, tied=False)


def qwen2() -> Doc:
    w = Weights(2024)
    return _document("qwen2", w, _rope(1_000_000), lambda w: {
        "attention": _attention(w, kv_heads=1, biases="qkv"),
        "block": _block(w, "rmsnorm", activation="silu", gated=True, biases=False)}, tied=True)


def gpt_neox() -> Doc:
    w = Weights(2022)
    return _document("gpt_neox", w, _rope(10000, rotary_dims=D_K // 2), lambda w: {
        "attention": _attention(w, biases="qkvo"),
        "block": _block(w, "layernorm", activation="gelu", residual="parallel")}, tied=False)


def bert() -> Doc:
    w = Weights(2018)
    vocab = [*WORDS, MASK]
    doc = _document("bert", w, _learned(w), lambda w: {
        "attention": _attention(w, causal=False, biases="qkvo"),
        "block": _block(w, "layernorm", activation="gelu", placement="post")}, tied=None,
        vocab=vocab, ids=MASKED_IDS)
    transform: Doc = {"W": w.matrix(D, D), "b": w.row(D), "activation": "gelu",
                      "gamma": [1.0] * D, "beta": [0.0] * D, "eps": 1e-12}
    doc["head"] = {"final_norm": False, "transform": transform,
                   "unembed": [list(col) for col in zip(*doc["embedding"], strict=True)],
                   "bias": w.row(len(vocab)), "vocab": vocab}
    return doc


PRESETS: dict[str, Callable[[], Doc]] = {"gpt2": gpt2, "llama": llama, "mistral": mistral,
                                         "mixtral": mixtral, "qwen2_moe": qwen2_moe,
                                         "qwen2": qwen2,
                                         "gpt_neox": gpt_neox, "bert": bert}
"""Each family's preset document, in the menu's order."""


def preset_document(name: str, note: str = "") -> Doc:
    """The preset ``name``'s version-2 document as JSON-ready data, with ``note`` (``KeyError``
    for a family that has none)."""
    doc = PRESETS[name]()
    return {**doc, "note": note} if note else doc


def preset(name: str, note: str = "") -> Scenario:
    """The preset ``name`` as a document, checked by the engine's own parser."""
    return parse_scenario(preset_document(name, note))
