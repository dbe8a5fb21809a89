"""A trace: the ordered steps of one computation and every array it names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from engine.errors import ScenarioError
from engine.forward import run, visibility
from engine.names import NORM_NAMES
from engine.reader import FloatArray
from engine.scenario import Scenario

Op = Literal["embed", "positions", "inputs", "norm", "projection", "rope", "scores", "weights",
             "mix", "residual", "ffn", "logits", "probs"]
"""The kind of operation a step performs; painters and explainers dispatch on it, never on names.

``weights`` is the mask and the softmax; cross-attention uses ``projection`` … ``mix`` with
``keys`` naming the encoder's token list."""

@dataclass(frozen=True)
class Step:
    """One step of the computation: one entry of the trace's tape.

    Attributes
    ----------
    id
        Unique identifier: the step's kind name after its scope (``"scores"``, ``"L2.norm1"``,
        ``"enc.L1.scores"``, ``"L1.cross.weights"``).
    title
        A short English title; the interface translates by ``explain_key``.
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


@dataclass(frozen=True, eq=False)
class Trace:
    """The result of :func:`compute`: the scenario, its arrays by name and its steps in order."""

    scenario: Scenario
    arrays: dict[str, FloatArray]
    steps: tuple[Step, ...]
    visible: npt.NDArray[np.bool_]

    def step_index(self, step_id: str) -> int:
        """Position of the step with ``step_id``; ``ValueError`` if there is none."""
        for k, step in enumerate(self.steps):
            if step.id == step_id:
                return k
        raise ValueError(f"no step {step_id!r} in this trace")

    def to_json(self) -> dict[str, Any]:
        """The trace as the JSON object that ``qkv-studio compute`` prints."""
        s = self.scenario
        out: dict[str, Any] = {"title": s.title, "tokens": list(s.tokens)}
        if s.block is not None and s.block.unembed is not None:
            out["vocab"] = list(s.block.vocab)
        out["arrays"] = {name: array.tolist() for name, array in self.arrays.items()}
        out["steps"] = [step.to_json() for step in self.steps]
        return out


def _attention_params(scenario: Scenario) -> tuple[str, ...]:
    a = scenario.attention
    names = ["attention.Wq", "attention.Wk", "attention.Wv"]
    biases = (("bq", a.bq), ("bk", a.bk), ("bv", a.bv))
    names += [f"attention.{b}" for b, v in biases if v is not None]
    return tuple(names)


def _attention_steps(scenario: Scenario, source: str) -> list[Step]:
    a = scenario.attention
    mask = "causal mask and " if a.causal else ""
    out_params = tuple(f"attention.{p}" for p, v in (("Wo", a.Wo), ("bo", a.bo)) if v is not None)
    return [
        Step("projections", "Q, K and V: one projection row per position",
             (source, *_attention_params(scenario)), ("Q", "K", "V"), "attention.projections",
                 "projection", module="attention"),
        Step("scores", "Scores q·k" + (", divided by √dₖ" if a.scale else ""), ("Q", "K"),
             ("scores",), "attention.scores",
                 "scores", module="attention", keys="tokens"),
        Step("weights", (mask + "softmax shares").capitalize(), ("scores",), ("weights",),
             "attention.weights",
                 "weights", module="attention", keys="tokens"),
        Step("mix", "Mix of V by the shares" + (", then Wo" if a.Wo is not None else ""),
             ("weights", "V", *out_params), ("mixed", "attn_out"), "attention.mix",
                 "mix", module="attention", keys="tokens"),
    ]


def _steps(scenario: Scenario) -> list[Step]:
    steps: list[Step] = []
    if scenario.token_ids is not None:
        steps.append(Step("embed", "Token ids look up rows of the embedding table",
                          ("token_ids", "embedding"), ("X",), "input.embed",
                 "embed"))
    block = scenario.block
    if block is None:
        steps.append(Step("inputs", "One input, three parameter paths",
                          ("X", *_attention_params(scenario)), (), "attention.inputs",
                 "inputs", module="attention"))
        return steps + _attention_steps(scenario, "X")
    norm_name = NORM_NAMES[block.norm]
    f = block.ffn
    ffn_params = tuple(path for path, value in (
        ("block.ffn.W1", f.W1), ("block.ffn.b1", f.b1), ("block.ffn.W2", f.W2),
        ("block.ffn.b2", f.b2)) if value is not None)
    ffn = Step("ffn", f"Feed-forward: {block.ffn.activation} hidden units, then back to d",
               ("norm2" if block.placement == "pre" else "norm1", *ffn_params),
               ("ffn_hidden", "ffn_out"), "block.ffn",
                 "ffn", module="block")
    if block.placement == "pre":
        steps.append(Step("norm1", f"Input norm ({norm_name}), row by row",
                          ("X", "block.gamma1", "block.beta1"), ("norm1",), "block.norm1",
                 "norm", module="block"))
        steps += _attention_steps(scenario, "norm1")
        steps += [
            Step("resid1", "First residual: X plus the attention output", ("X", "attn_out"),
                 ("resid1",), "block.resid1",
                 "residual"),
            Step("norm2", f"Second norm ({norm_name}) before the feed-forward",
                 ("resid1", "block.gamma2", "block.beta2"), ("norm2",), "block.norm2",
                 "norm", module="block"),
            ffn,
            Step("resid2", "Second residual: the stream plus the feed-forward output",
                 ("resid1", "ffn_out"), ("resid2",), "block.resid2",
                 "residual"),
        ]
        output = "resid2"
    else:
        steps += _attention_steps(scenario, "X")
        steps += [
            Step("resid1", "First residual: X plus the attention output", ("X", "attn_out"),
                 ("resid1",), "block.resid1",
                 "residual"),
            Step("norm1", f"Post-norm ({norm_name}) of the first residual",
                 ("resid1", "block.gamma1", "block.beta1"), ("norm1",), "block.norm1_post",
                 "norm", module="block"),
            ffn,
            Step("resid2", "Second residual: the normed stream plus the feed-forward output",
                 ("norm1", "ffn_out"), ("resid2",), "block.resid2_post",
                 "residual"),
            Step("norm2", f"Post-norm ({norm_name}) of the second residual",
                 ("resid2", "block.gamma2", "block.beta2"), ("norm2",), "block.norm2_post",
                 "norm", module="block"),
        ]
        output = "norm2"
    if block.final_norm:
        steps.append(Step("final_norm", f"Final norm ({norm_name}) before the vocabulary head",
                          (output, "block.gamma_f", "block.beta_f"), ("final_norm",),
                          "block.final_norm",
                 "norm", module="block"))
        output = "final_norm"
    if block.unembed is not None:
        steps.append(Step("logits", "Logits: one score per vocabulary entry",
                          (output, "block.unembed"), ("logits",), "block.logits",
                 "logits", module="block"))
        steps.append(Step("probs", "Probabilities: softmax of the logits", ("logits",),
                          ("probs",), "block.probs",
                 "probs", module="block"))
    return steps


def compute(scenario: Scenario) -> Trace:
    """Run the forward pass and lay out its steps.

    Raises
    ------
    ScenarioError
        If the numbers overflow float64 or a norm divides by zero.
    """
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            arrays = run(scenario)
    except FloatingPointError as error:
        raise ScenarioError("computation", f"a value overflowed or was divided by zero ({error}); "
                            "look for huge numbers, or ε = 0 with a constant row") from None
    return Trace(scenario=scenario, arrays=arrays, steps=tuple(_steps(scenario)),
                 visible=visibility(scenario.attention, scenario.n))
