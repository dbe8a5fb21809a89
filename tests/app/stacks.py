"""Version-2 documents built from version-1 ones, and their computed traces: a stack of
layers, an encoder before a decoder.

A version-1 shorthand document (a top-level ``attention`` and ``block``) becomes a document with
``layers`` (each a copy of its layer) and its head keys in ``head``, or gets an ``encoder`` whose
one layer is another document's; :func:`engine.compute` computes them as any file.
"""

from __future__ import annotations

import copy
from typing import Any

from engine import Scenario, Trace, compute, parse_scenario
from engine.format.writer import to_document

HEAD_KEYS = ("final_norm", "gamma_f", "beta_f", "unembed", "vocab", "bias")
"""The version-1 block's keys that belong to the head in version 2."""

Document = dict[str, Any]


def _layer(document: Document) -> Document:
    """The one layer of a version-1 shorthand document: its attention and its block without the
    head's keys."""
    layer: Document = {"attention": copy.deepcopy(document["attention"])}
    if "block" in document:
        layer["block"] = {key: copy.deepcopy(value) for key, value in document["block"].items()
                          if key not in HEAD_KEYS}
    return layer


def stack_document(scenario: Scenario, layers: int) -> Document:
    """``scenario`` (version-1 shorthand) as a version-2 document of ``layers`` copies of its
    layer, each reading the one before, and its head after them."""
    document = to_document(scenario)
    block = document.get("block", {})
    head = {key: block[key] for key in HEAD_KEYS if key in block}
    stack = {key: value for key, value in document.items() if key not in ("attention", "block")}
    stack |= {"version": 2, "layers": [_layer(document) for _ in range(layers)]}
    if head:
        stack["head"] = head
    return stack


def stacked(scenario: Scenario, layers: int) -> Trace:
    """The computed trace of :func:`stack_document`: steps ``L1.`` … ``Ln.`` and the head."""
    return compute(parse_scenario(stack_document(scenario, layers)))


def layer_on(scenario: Scenario, rows: Any) -> Trace:
    """``scenario`` (one layer) computed on the rows ``rows``: what a later layer of its stack
    computes from the rows the layer before handed on."""
    document = to_document(scenario)
    document["X"] = [[float(v) for v in row] for row in rows]
    return compute(parse_scenario(document))


def with_encoder(decoder: Scenario, encoder: Scenario) -> Trace:
    """``decoder`` (version-1 shorthand) after an encoder of one layer: ``encoder``'s layer made
    non-causal on ``encoder``'s tokens and rows, with no final norm (steps ``enc.L1.`` then the
    decoder's own)."""
    source = to_document(encoder)
    layer = _layer(source)
    layer["attention"]["causal"] = False  # an encoder sees every token
    document = to_document(decoder) | {"version": 2, "encoder": {
        "tokens": list(encoder.tokens), "X": source["X"], "layers": [layer],
        "final_norm": False}}
    return compute(parse_scenario(document))


def with_shared_keys(trace: Trace) -> Trace:
    """``trace`` (attention alone, several heads) recomputed as grouped-query attention with one
    K/V group (``kv_heads`` 1): Wk and Wv keep their first head's columns, and every head reads
    them."""
    document = to_document(trace.scenario)
    attention = document["attention"]
    a = trace.scenario.attention
    attention["kv_heads"] = 1
    attention["Wk"] = [row[:a.d_k] for row in attention["Wk"]]
    attention["Wv"] = [row[:a.d_v] for row in attention["Wv"]]
    for key in ("bk", "bv", "Wo", "bo"):
        attention.pop(key, None)
    return compute(parse_scenario(document))
