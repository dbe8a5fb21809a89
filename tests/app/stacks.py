"""Hand-made version-2 traces built from version-1 ones: stacked layers, an encoder and a
cross-attention.

The steps carry the scope, layer, token lists and array names of docs/format-v2.md, and
parameters keep their version-1 module paths; each trace lists a visibility per attention
scope, as a computed one does. In a stack, each layer's arrays are the version-1 arrays times
the layer number (so layers differ).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from engine import Step, Trace, compute, parse_scenario

HEAD_OPS = ("logits", "probs")


def _is_head(step: Step) -> bool:
    return step.op in HEAD_OPS or step.explain_key.endswith("final_norm")


def _layer_arrays(trace: Trace, steps: list[Step]) -> set[str]:
    """What ``steps`` write, with each norm's statistics and the FFN's pre-activation."""
    written = {name for s in steps for name in s.writes}
    return written | {name for name in trace.arrays
                      if name.removesuffix("_stats") in written or name == "ffn_pre"}


def _visibility(trace: Trace, steps: list[Step]) -> dict[str, npt.NDArray[np.bool_]]:
    """Every attention scope of ``steps`` sees what ``trace``'s first attention sees (as a
    computed trace lists a visibility per scope)."""
    return {step.scope: trace.visible for step in steps if step.op == "weights"}


def stacked(trace: Trace, layers: int) -> Trace:
    """``trace``'s layer steps repeated ``layers`` times under ``L1.`` … ``Ln.``, its embedding
    before them and its head after them, reading the last layer's output."""
    first = [s for s in trace.steps if s.op == "embed"]
    middle = [s for s in trace.steps if s.op != "embed" and not _is_head(s)]
    head = [s for s in trace.steps if _is_head(s)]
    written = _layer_arrays(trace, middle)
    arrays = {name: a for name, a in trace.arrays.items() if name not in written}
    steps = list(first)
    renamed: dict[str, str] = {}
    for layer in range(1, layers + 1):
        scope = f"L{layer}."
        renamed = {name: scope + name for name in written}
        for name in written:
            arrays[scope + name] = trace.arrays[name] * layer
        steps += [replace(s, id=scope + s.id, scope=scope, layer=layer,
                          reads=tuple(renamed.get(r, r) for r in s.reads),
                          writes=tuple(renamed[w] for w in s.writes)) for s in middle]
    steps += [replace(s, reads=tuple(renamed.get(r, r) for r in s.reads)) for s in head]
    return Trace(scenario=trace.scenario, arrays=arrays, steps=tuple(steps),
                 visible=trace.visible, visibility=_visibility(trace, steps))


@dataclass(frozen=True, eq=False)
class TwoListTrace(Trace):
    """A trace with an encoder's token list and a visibility per scope (as version 2's)."""

    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    masks: dict[str, npt.NDArray[np.bool_]] = field(default_factory=dict)

    def tokens_of(self, name: str) -> tuple[str, ...]:
        return self.lists[name]

    def visible_for(self, scope: str) -> npt.NDArray[np.bool_]:
        return self.masks[scope]


def with_cross(trace: Trace, memory: npt.NDArray[np.float64],
               encoder_tokens: tuple[str, ...]) -> TwoListTrace:
    """``trace`` (attention alone) followed by a cross-attention ``L1.cross.`` whose queries are
    the decoder's rows X and whose keys and values are the encoder's ``memory`` rows."""
    att = trace.scenario.attention
    x = trace.arrays["X"]
    q, k, v = x @ att.Wq, memory @ att.Wk, memory @ att.Wv
    h, d_k, d_v = att.heads, att.d_k, att.d_v
    n, m = x.shape[0], memory.shape[0]
    scores = np.stack([q[:, i * d_k:(i + 1) * d_k] @ k[:, i * d_k:(i + 1) * d_k].T
                       / np.sqrt(d_k) for i in range(h)])
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = shifted / shifted.sum(axis=-1, keepdims=True)
    mixed = np.concatenate([weights[i] @ v[:, i * d_v:(i + 1) * d_v] for i in range(h)], axis=1)
    s = "L1.cross."
    arrays = {**trace.arrays, "enc.memory": memory, f"{s}Q": q, f"{s}K": k, f"{s}V": v,
              f"{s}scores": scores, f"{s}weights": weights, f"{s}mixed": mixed,
              f"{s}attn_out": mixed @ att.Wo if att.Wo is not None else mixed}
    common = {"scope": s, "module": "attention", "layer": 1, "keys": "enc.tokens"}
    steps = [*trace.steps,
             Step(f"{s}projections", "Q from the decoder rows, K and V from the memory",
                  ("X", "enc.memory", "attention.Wq", "attention.Wk", "attention.Wv"),
                  (f"{s}Q", f"{s}K", f"{s}V"), "cross_attention.projections", "projection",
                  **common),
             Step(f"{s}scores", "Scores q·k", (f"{s}Q", f"{s}K"), (f"{s}scores",),
                  "cross_attention.scores", "scores", **common),
             Step(f"{s}weights", "Softmax shares", (f"{s}scores",), (f"{s}weights",),
                  "cross_attention.weights", "weights", **common),
             Step(f"{s}mix", "Mix of V by the shares", (f"{s}weights", f"{s}V"),
                  (f"{s}mixed", f"{s}attn_out"), "cross_attention.mix", "mix", **common)]
    return TwoListTrace(scenario=trace.scenario, arrays=arrays, steps=tuple(steps),
                        visible=trace.visible,
                        lists={"tokens": trace.scenario.tokens, "enc.tokens": encoder_tokens,
                               "vocab": ()},
                        masks={"": trace.visible, s: np.ones((n, m), dtype=bool)})


def with_encoder(decoder: Trace, encoder: Trace) -> TwoListTrace:
    """An encoder layer (``encoder``'s layer steps under ``enc.L1.``, rows and keys on the
    encoder's tokens) before ``decoder``'s steps."""
    middle = [s for s in encoder.steps if s.op != "embed" and not _is_head(s)]
    written = _layer_arrays(encoder, middle)
    renamed = {name: "enc.L1." + name for name in written} | {"X": "enc.X"}
    arrays = {**decoder.arrays, "enc.X": encoder.arrays["X"]}
    arrays |= {renamed[name]: encoder.arrays[name] for name in written}
    steps = [replace(s, id="enc.L1." + s.id, scope="enc.L1.", layer=1, stack="encoder",
                     rows="enc.tokens", keys=("enc.tokens" if s.keys else ""),
                     reads=tuple(renamed.get(r, r) for r in s.reads),
                     writes=tuple(renamed[w] for w in s.writes)) for s in middle]
    vocab = decoder.scenario.block.vocab if decoder.scenario.block is not None else ()
    return TwoListTrace(scenario=decoder.scenario, arrays=arrays,
                        steps=(*steps, *decoder.steps), visible=decoder.visible,
                        lists={"tokens": decoder.scenario.tokens,
                               "enc.tokens": encoder.scenario.tokens, "vocab": vocab},
                        masks={"": decoder.visible, "enc.L1.": encoder.visible})


def with_shared_keys(trace: Trace) -> Trace:
    """``trace`` (attention alone, several heads) recomputed as grouped-query attention with one
    K/V group (``kv_heads`` 1): Wk and Wv keep their first head's columns, and every head reads
    them."""
    document = trace.scenario.to_document()
    attention = document["attention"]
    a = trace.scenario.attention
    attention["kv_heads"] = 1
    attention["Wk"] = [row[:a.d_k] for row in attention["Wk"]]
    attention["Wv"] = [row[:a.d_v] for row in attention["Wv"]]
    for key in ("bk", "bv", "Wo", "bo"):
        attention.pop(key, None)
    return compute(parse_scenario(document))
