"""Hand-made stacked traces: a version-1 trace's layer repeated under the scopes ``L1.``, ``L2.`` …

Until the engine writes version-2 traces, these stand in for them: the steps carry the scope,
layer and array names of docs/format-v2.md, each layer's arrays are the version-1 arrays times
the layer number (so layers differ), and parameters keep their version-1 module paths.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Step, Trace

HEAD_OPS = ("logits", "probs")


def _is_head(step: Step) -> bool:
    return step.op in HEAD_OPS or step.explain_key.endswith("final_norm")


def stacked(trace: Trace, layers: int) -> Trace:
    """``trace``'s layer steps repeated ``layers`` times under ``L1.`` … ``Ln.``, its embedding
    before them and its head after them, reading the last layer's output."""
    first = [s for s in trace.steps if s.op == "embed"]
    middle = [s for s in trace.steps if s.op != "embed" and not _is_head(s)]
    head = [s for s in trace.steps if _is_head(s)]
    written = {name for s in middle for name in s.writes}
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
                 visible=trace.visible)
