"""Small hand-made version-2 documents with fixed random seeds, one per construct of the format.

Each builder returns a fresh document dict; numbers are rounded to 3 decimals so that a document
printed as JSON reads back as the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Doc = dict[str, Any]


def _mat(rng: np.random.Generator, rows: int, cols: int, scale: float = 0.7) -> list[Any]:
    return (rng.standard_normal((rows, cols)) * scale).round(3).tolist()


def _vec(rng: np.random.Generator, size: int, around: float = 0.0,
         scale: float = 0.3) -> list[Any]:
    return (around + rng.standard_normal(size) * scale).round(3).tolist()


def attention(rng: np.random.Generator, d: int, *, heads: int = 2, d_k: int = 2, d_v: int = 2,
              kv_heads: int | None = None, biases: bool = True, **extra: Any) -> Doc:
    """Wq, Wk, Wv (grouped when kv_heads is given), Wo back to d, and biases."""
    g = heads if kv_heads is None else kv_heads
    a: Doc = {"heads": heads, "Wq": _mat(rng, d, heads * d_k), "Wk": _mat(rng, d, g * d_k),
              "Wv": _mat(rng, d, g * d_v), "Wo": _mat(rng, heads * d_v, d)}
    if kv_heads is not None:
        a["kv_heads"] = kv_heads
    if biases:
        a.update(bq=_vec(rng, heads * d_k), bk=_vec(rng, g * d_k), bv=_vec(rng, g * d_v),
                 bo=_vec(rng, d))
    a.update(extra)
    return a


def block(rng: np.random.Generator, d: int, *, f: int = 5, placement: str = "pre",
          norm: str = "layernorm", activation: str = "gelu", gated: bool = False,
          cross: bool = False, experts: int = 0, top_k: int = 2, normalize: bool = True,
          shared: bool = False, **extra: Any) -> Doc:
    """A block with random γ/β around 1/0, an FFN with biases, gated when asked; with
    ``experts``, a router and that many such FFNs, ``top_k`` chosen (and with ``shared`` a
    shared expert, one more such FFN, behind its d × 1 gate)."""
    def one() -> Doc:
        ffn: Doc = {"W1": _mat(rng, d, f), "b1": _vec(rng, f), "activation": activation,
                    "W2": _mat(rng, f, d), "b2": _vec(rng, d)}
        if gated:
            ffn.update(Wg=_mat(rng, d, f), bg=_vec(rng, f))
        return ffn
    ffn = ({"router": _mat(rng, d, experts, 1.5), "top_k": top_k, "normalize": normalize,
            "experts": [one() for _ in range(experts)]} if experts else one())
    if experts and shared:
        ffn.update(shared_gate=_mat(rng, d, 1, 1.5), shared=one())
    b: Doc = {"norm": norm, "eps": 1e-5, "placement": placement,
              "gamma1": _vec(rng, d, 1.0), "beta1": _vec(rng, d),
              "gamma2": _vec(rng, d, 1.0), "beta2": _vec(rng, d), "ffn": ffn}
    if cross:
        b.update(gamma_c=_vec(rng, d, 1.0), beta_c=_vec(rng, d))
    b.update(extra)
    return b


def head(rng: np.random.Generator, d: int, vocab: int = 4, **extra: Any) -> Doc:
    h: Doc = {"final_norm": True, "gamma_f": _vec(rng, d, 1.0), "beta_f": _vec(rng, d),
              "unembed": _mat(rng, d, vocab), "bias": _vec(rng, vocab),
              "vocab": [f"v{k}" for k in range(vocab)]}
    h.update(extra)
    return h


def document(seed: int, n: int = 4, d: int = 4, *, layers: int = 1,
             positions: Doc | None = None, attention_keys: Doc | None = None,
             block_keys: Doc | None = None, with_head: bool = True) -> Doc:
    """n tokens of width d through `layers` identical-shaped layers and a head."""
    rng = np.random.default_rng(seed)
    doc: Doc = {"format": "qkv-studio", "version": 2, "title": f"reference {seed}",
                "tokens": [f"w{k}" for k in range(n)], "X": _mat(rng, n, d, 1.0)}
    if positions is not None:
        doc["positions"] = positions
    doc["layers"] = [{"attention": attention(rng, d, **(attention_keys or {})),
                      "block": block(rng, d, **(block_keys or {}))} for _ in range(layers)]
    if with_head:
        doc["head"] = head(rng, d)
    return doc


def learned_table(seed: int, rows: int, d: int) -> list[Any]:
    return _mat(np.random.default_rng(seed), rows, d, 0.5)


def encoder_decoder(seed: int, *, placement: str = "pre", norm: str = "layernorm",
                    source_ids: bool = False, enc_positions: Doc | None = None,
                    positions: Doc | None = None, enc_final_norm: bool | None = True) -> Doc:
    """3 source tokens, 2 target tokens, width 4: a 2-layer encoder, 2 decoder layers."""
    rng = np.random.default_rng(seed)
    d = 4
    doc: Doc = {"format": "qkv-studio", "version": 2, "title": "encoder–decoder",
                "tokens": ["<s>", "je"], "X": _mat(rng, 2, d, 1.0)}
    encoder: Doc = {"tokens": ["I", "am", "here"]}
    if source_ids:  # one shared embedding for both token lists, as in the 2017 Transformer
        doc["embedding"] = _mat(rng, 6, d, 1.0)
        del doc["X"]
        doc["token_ids"] = [1, 5]
        encoder["token_ids"] = [4, 0, 2]
    else:
        encoder["X"] = _mat(rng, 3, d, 1.0)
    if enc_positions is not None:
        encoder["positions"] = enc_positions
    encoder["layers"] = [{"attention": attention(rng, d),
                          "block": block(rng, d, placement=placement, norm=norm,
                                         activation="relu")}
                         for _ in range(2)]
    if enc_final_norm is not None:
        encoder.update(final_norm=enc_final_norm, gamma_f=_vec(rng, d, 1.0),
                       beta_f=_vec(rng, d))
    doc["encoder"] = encoder
    if positions is not None:
        doc["positions"] = positions
    doc["layers"] = [{"attention": attention(rng, d),
                      "cross_attention": attention(rng, d),
                      "block": block(rng, d, placement=placement, norm=norm, activation="relu",
                                     cross=True)}
                     for _ in range(2)]
    doc["head"] = head(rng, d, final_norm=placement == "pre")
    return doc


# ----------------------------------------------------------------------------- the constructs


def _with_token_ids(doc: Doc, seed: int) -> Doc:
    rng = np.random.default_rng(seed)
    n, d = len(doc["X"]), len(doc["X"][0])
    del doc["X"]
    doc["embedding"] = (rng.standard_normal((n + 3, d))).round(3).tolist()
    doc["token_ids"] = [(3 * k + 1) % (n + 3) for k in range(n)]
    return doc


def _head_without(doc: Doc, *keys: str) -> Doc:
    for key in keys:
        del doc["head"][key]
    return doc


def _encoder_not_causal(doc: Doc) -> Doc:
    """Every encoder layer says `causal: false`, which is what an encoder is anyway (`true` is
    refused: see test_engine_v2_refusals.py)."""
    for lay in doc["encoder"]["layers"]:
        lay["attention"]["causal"] = False
    return doc


def _shorthand(doc: Doc, head_in_block: bool) -> Doc:
    """The one-layer document written with top-level attention / block (and head)."""
    (lay,) = doc.pop("layers")
    doc.update(attention=lay["attention"], block=lay["block"])
    if head_in_block:
        doc["block"].update(doc.pop("head"))
    return doc


CASES: dict[str, Callable[[], Doc]] = {
    # positions
    "positions_none": lambda: document(1, positions={"kind": "none"}),
    "sinusoidal": lambda: document(2, positions={"kind": "sinusoidal"}),
    "sinusoidal_base_100_odd_width": lambda: document(
        3, d=5, positions={"kind": "sinusoidal", "base": 100}),
    "sinusoidal_token_ids": lambda: _with_token_ids(
        document(4, positions={"kind": "sinusoidal"}), 40),
    "learned": lambda: document(
        5, n=3, positions={"kind": "learned", "table": learned_table(50, 3, 4)}),
    "learned_offset": lambda: document(
        6, positions={"kind": "learned", "table": learned_table(60, 7, 4), "offset": 2}),
    "rope_half": lambda: document(
        7, positions={"kind": "rope", "pairing": "half"}, attention_keys={"d_k": 4}),
    "rope_interleaved_base_100": lambda: document(
        8, positions={"kind": "rope", "pairing": "interleaved", "base": 100},
        attention_keys={"d_k": 4}),
    "rope_default_pairing_and_dims": lambda: document(
        9, positions={"kind": "rope"}, attention_keys={"d_k": 4}),
    "rope_partial_half": lambda: document(
        10, positions={"kind": "rope", "rotary_dims": 4, "pairing": "half"},
        attention_keys={"d_k": 6}),
    "rope_partial_interleaved": lambda: document(
        11, positions={"kind": "rope", "rotary_dims": 2, "pairing": "interleaved"},
        attention_keys={"d_k": 6}),
    "rope_grouped_kv_3_layers": lambda: document(
        12, layers=3, positions={"kind": "rope", "rotary_dims": 2},
        attention_keys={"heads": 4, "kv_heads": 2}),
    "alibi_default_slopes": lambda: document(13, positions={"kind": "alibi"}),
    "alibi_four_heads": lambda: document(
        14, positions={"kind": "alibi"}, attention_keys={"heads": 4, "d_k": 1}),
    "alibi_slopes_non_causal": lambda: document(
        15, positions={"kind": "alibi", "slopes": [0.5, 0.125]},
        attention_keys={"causal": False}),
    # stacks
    "pre_norm_3_layers": lambda: document(20, layers=3),
    "post_norm_2_layers": lambda: document(21, layers=2, block_keys={"placement": "post"}),
    "post_norm_rmsnorm_2_layers_default_head_norm": lambda: _head_without(
        document(22, layers=2, block_keys={"placement": "post", "norm": "rmsnorm"}),
        "final_norm", "gamma_f", "beta_f"),
    "pre_norm_rmsnorm_head_default_norm": lambda: _head_without(
        document(23, layers=2, block_keys={"norm": "rmsnorm"}), "final_norm"),
    "norm_none": lambda: document(24, layers=2, block_keys={"norm": "none"}),
    "no_head": lambda: document(25, layers=2, with_head=False),
    "head_without_bias": lambda: _head_without(document(26), "bias"),
    # attention
    "grouped_query_4_heads_2_kv": lambda: document(
        30, attention_keys={"heads": 4, "kv_heads": 2}),
    "multi_query_2_heads_1_kv": lambda: document(
        31, attention_keys={"heads": 2, "kv_heads": 1, "d_v": 3}),
    "window_2": lambda: document(32, n=5, attention_keys={"window": 2}),
    "window_1": lambda: document(33, attention_keys={"window": 1}),
    "key_mask": lambda: document(34, attention_keys={"key_mask": [1, 1, 0, 1]}),
    "key_mask_non_causal": lambda: document(
        35, attention_keys={"key_mask": [0, 1, 1, 0], "causal": False}),
    "window_key_mask_non_causal": lambda: document(
        36, n=5, attention_keys={"key_mask": [1, 1, 1, 0, 1], "causal": False, "window": 2}),
    "qk_norm_rmsnorm": lambda: document(
        37, attention_keys={"qk_norm": "rmsnorm", "gamma_q": [1.2, 0.7],
                            "gamma_k": [0.9, -1.1]}),
    "qk_norm_layernorm_then_rope": lambda: document(
        38, positions={"kind": "rope"},
        attention_keys={"d_k": 4, "qk_norm": "layernorm", "gamma_q": [1.0, 0.5, 2.0, -1.0]},
        block_keys={"eps": 0.01}),
    "qk_norm_grouped_kv": lambda: document(
        39, attention_keys={"heads": 4, "kv_heads": 1, "qk_norm": "rmsnorm"}),
    "unscaled_no_biases": lambda: document(
        40, attention_keys={"scale": False, "biases": False}),
    # block
    "parallel_residual": lambda: document(
        50, layers=2, block_keys={"residual": "parallel"}),
    "swiglu": lambda: document(51, block_keys={"activation": "silu", "gated": True}),
    "geglu": lambda: document(52, block_keys={"activation": "gelu", "gated": True}),
    "gelu_tanh": lambda: document(53, block_keys={"activation": "gelu_tanh"}),
    "silu": lambda: document(54, block_keys={"activation": "silu"}),
    "identity": lambda: document(55, block_keys={"activation": "identity"}),
    "mixture_of_experts": lambda: document(
        56, layers=2, block_keys={"activation": "silu", "gated": True, "experts": 4}),
    "mixture_shared_expert": lambda: document(
        58, block_keys={"activation": "silu", "gated": True, "experts": 3, "normalize": False,
                        "shared": True}),
    "mixture_unnormalised_post_norm": lambda: document(
        57, block_keys={"experts": 3, "top_k": 1, "placement": "post", "normalize": False}),
    # shorthand documents in version 2
    "shorthand_v2_head_bias_in_head": lambda: _shorthand(document(60), False),
    "shorthand_v2_head_bias_in_block": lambda: _shorthand(document(61), True),
    "shorthand_v2_rope": lambda: _shorthand(
        document(62, positions={"kind": "rope"}, attention_keys={"d_k": 4}), False),
    # encoder–decoder: 3 source tokens, 2 target tokens
    "encoder_decoder_pre_sinusoidal": lambda: encoder_decoder(
        70, enc_positions={"kind": "sinusoidal"}, positions={"kind": "sinusoidal"}),
    "encoder_decoder_post_as_torch_default": lambda: encoder_decoder(
        71, placement="post", enc_final_norm=None),
    "encoder_decoder_token_ids_learned": lambda: encoder_decoder(
        72, source_ids=True,
        enc_positions={"kind": "learned", "table": learned_table(720, 4, 4)},
        positions={"kind": "learned", "table": learned_table(721, 2, 4)}),
    "encoder_decoder_rmsnorm_default_final_norm": lambda: encoder_decoder(
        73, norm="rmsnorm", enc_final_norm=None),
    "encoder_decoder_without_encoder_final_norm": lambda: encoder_decoder(
        74, enc_final_norm=False),
    "encoder_decoder_rope_on_self_attention_only": lambda: encoder_decoder(
        75, enc_positions={"kind": "rope", "pairing": "interleaved"},
        positions={"kind": "rope"}),
    "encoder_decoder_alibi_on_self_attention_only": lambda: encoder_decoder(
        76, enc_positions={"kind": "alibi"}, positions={"kind": "alibi", "slopes": [1, 0.5]}),
    "encoder_layers_say_not_causal": lambda: _encoder_not_causal(encoder_decoder(77)),
}
