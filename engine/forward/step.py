"""One entry of a trace's tape: a typed step with its operands, results and axes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Op = Literal["embed", "positions", "inputs", "norm", "projection", "rope", "scores", "weights",
             "mix", "residual", "ffn", "router", "experts", "transform", "logits", "softcap",
             "probs", "loss", "sample"]
"""The kind of operation a step performs; painters and explainers dispatch on it, never on names.

``weights`` is the mask and the softmax; cross-attention uses ``projection`` … ``mix`` with
``keys`` naming the encoder's token list. ``loss`` is the cross-entropy at every position against
the document's ``targets``; ``transform`` is a masked-language-model head's dense, activation and
LayerNorm before its logits; ``softcap`` is Gemma 2's c·tanh(logits / c) of the
uncapped logits; ``sample`` draws the next token from the last position's logits with
the document's ``generation`` settings (a document that can generate). ``router`` and
``experts`` are a mixture of experts in place of ``ffn``: the router's logits, shares, chosen
experts and weights, then the chosen experts' feed-forwards weighted and summed."""

@dataclass(frozen=True)
class Step:
    """One step of the computation: one entry of the trace's tape.

    Attributes
    ----------
    id
        Unique identifier: the step's kind name after its scope (``"scores"``, ``"L2.norm1"``,
        ``"enc.L1.scores"``, ``"L1.cross.weights"``).
    title
        A short English title, the catalogue's ``title.<explain_key>`` (:mod:`engine.words`)
        after its layer's label; the interface words every language from the same template.
    reads, writes
        Names of the arrays the step reads and writes. Trace arrays use the names of the format's
        table with the scope's prefix (``Q``, ``L2.weights`` …); parameters use their document
        path (``attention.Wq``, ``layers.1.attention.Wq``).
    explain_key
        Key of the step's explanation text in the interface (``"attention.scores"``).
    op
        The kind of operation (one of :data:`Op`).
    scope
        Prefix of the trace arrays the step writes: ``""`` (version-1 shorthand), ``"L2."``,
        ``"enc.L1."``, ``"L1.cross."``.
    module
        Document path of the module whose parameters the step uses (``"attention"``,
        ``"layers.1.cross_attention"``, ``"block"``, ``"head"``); ``""`` for none.
    layer
        1-based layer number within its stack; 0 outside the layers (embedding, head).
    stack
        ``"decoder"`` (the main stack) or ``"encoder"``.
    rows
        The token list that labels the rows of what the step writes: ``"tokens"`` or
        ``"enc.tokens"``.
    keys
        For attention steps, the token list of the keys (``"tokens"``, or ``"enc.tokens"`` for
        cross-attention); ``""`` otherwise.
    """

    id: str
    title: str
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    explain_key: str
    op: Op
    scope: str = ""
    module: str = ""
    layer: int = 0
    stack: Literal["decoder", "encoder"] = "decoder"
    rows: str = "tokens"
    keys: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "op": self.op, "title": self.title, "reads": list(self.reads),
                "writes": list(self.writes), "explain_key": self.explain_key,
                "scope": self.scope, "module": self.module, "layer": self.layer,
                "stack": self.stack, "rows": self.rows, "keys": self.keys}


__all__ = ["Op", "Step"]
