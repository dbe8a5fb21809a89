"""Documents that can generate: token ids, an embedding and a vocabulary head, built from the
built-in examples and from :mod:`tests.engine.v2_documents`, one per construct the KV cache must
reproduce (stacks, every positions kind, kv_heads, windows, key masks, encoder–decoder)."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np

from engine import Scenario, parse_scenario
from tests.engine import v2_documents
from tests.examples import EXAMPLES

Doc = dict[str, Any]
STEPS = 3
"""Tokens each test appends."""


def with_token_ids(doc: Doc, seed: int = 0) -> Doc:
    """``doc`` with its rows X as the first rows of an embedding table (one row per vocabulary
    entry at least) and token ids 0 … n − 1; the head's vocabulary labels every row."""
    doc = copy.deepcopy(doc)
    x = np.array(doc.pop("X"), dtype=np.float64)
    vocab = len((doc["head"] if "head" in doc else doc["block"])["vocab"])
    extra = np.random.default_rng(seed).normal(0.0, 1.0, (max(0, vocab - len(x)), x.shape[1]))
    doc["embedding"] = np.vstack([x, extra]).round(3).tolist()
    doc["token_ids"] = list(range(len(x)))
    return doc


def example(name: str) -> Doc:
    """A built-in example with token ids (its rows X looked up from an embedding)."""
    return with_token_ids(json.loads((EXAMPLES / f"{name}.qkv.json").read_text("utf-8")))


def built(seed: int, **keys: Any) -> Doc:
    """A two-layer document of :func:`tests.engine.v2_documents.document` with token ids and a
    vocabulary of six entries."""
    doc = v2_documents.document(seed, n=4, d=4, layers=2, **keys)
    rng = np.random.default_rng(seed + 100)
    doc["head"] = v2_documents.head(rng, 4, vocab=6)
    return with_token_ids(doc, seed)


def without_pre_norms(doc: Doc) -> Doc:
    """``doc`` as OLMo 2 builds a layer: no pre-norms, its sub-layers' outputs RMSNormed."""
    for layer in doc["layers"]:
        block = layer["block"]
        for name in ("gamma1", "beta1", "gamma2", "beta2"):
            del block[name]
        block.update(norm="rmsnorm", pre_norms=False, gamma3=[1.2, 0.7, 1.0, 0.9],
                     gamma4=[0.6, 1.4, 1.1, 0.8])
    return doc


def learned_table(rows: int, d: int = 4) -> Doc:
    return {"kind": "learned",
            "table": np.random.default_rng(rows).normal(0.0, 0.5, (rows, d)).round(3).tolist()}


def cases() -> dict[str, Doc]:
    """Every construct, by name."""
    key_mask = {"key_mask": [1, 0, 1, 1]}
    return {
        "three-layers": example("three-layers"),
        "encoder-decoder": example("encoder-decoder"),
        "g01-shorthand": example("g01"),
        "sinusoidal": built(1, positions={"kind": "sinusoidal"}),
        "learned": built(2, positions=learned_table(4 + STEPS)),
        "learned-offset": built(3, positions={**learned_table(9), "offset": 2}),
        "rope": built(4, positions={"kind": "rope"}),
        "rope-interleaved-partial": built(5, positions={"kind": "rope", "pairing": "interleaved"},
                                          attention_keys={"d_k": 4, "heads": 1}),
        "alibi": built(6, positions={"kind": "alibi"}),
        "kv_heads": built(7, attention_keys={"heads": 2, "kv_heads": 1}),
        "window": built(8, attention_keys={"window": 2}),
        "key_mask": built(9, attention_keys=key_mask),
        "qk_norm": built(10, attention_keys={"qk_norm": "rmsnorm"}),
        "post-norm-gated": built(11, block_keys={"placement": "post", "gated": True}),
        "parallel-rmsnorm": built(12, block_keys={"residual": "parallel", "norm": "rmsnorm"}),
        "olmo2": without_pre_norms(built(14, positions={"kind": "rope"}, attention_keys={
            "kv_heads": 1, "qk_norm": "rmsnorm", "qk_norm_over": "all_heads",
            "gamma_q": [1.5, 0.5, 2.0, 1.0], "gamma_k": [0.8, 1.2]})),
        "rope-kv_heads-window-mask": built(13, positions={"kind": "rope"},
                                           attention_keys={"kv_heads": 1, "window": 3,
                                                           **key_mask}),
    }


def scenario(name: str) -> Scenario:
    return parse_scenario(cases()[name])
