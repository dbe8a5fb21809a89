"""The trace of a document one token longer, grown from the KV cache instead of computed again.

Under the causal mask a new token changes nothing of the rows computed before (see
:mod:`engine.generation.kv_cache`). So the longer document's trace is the old trace with the new
position's row appended to every array of the main stack; the one new row is computed layer by layer
from the cached keys and values (:func:`engine.generation.kv_cache.next_position`). Only the scores
of the earlier queries against the new key are new numbers in old rows: the mask hides them (share
0) but the scores grid prints them, so they are worked from the earlier q rows and the new key. The
encoder and the memory's keys and values stay as they are. The result equals
:func:`engine.forward.trace.compute` of the longer document to rounding (the products of one row and
of n rows may add in another order).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.generation_keys import Generation
from engine.format.reader import FloatArray
from engine.forward.alibi import alibi_bias
from engine.forward.numerics import key_visibility
from engine.forward.step import Step
from engine.forward.tape import head_scores, soft_capped
from engine.forward.trace import Trace
from engine.generation.append import can_generate
from engine.generation.kv_cache import NewRow, cache_of, next_position
from engine.generation.sampling import sample
from engine.scenario.modules import Attention
from engine.scenario.op_kinds import KINDS, head_output, steps_of
from engine.scenario.scenario import Scenario


def grown(trace: Trace, longer: Scenario) -> Trace | None:
    """The trace of ``longer``, which is ``trace``'s document with one token appended
    (:func:`engine.generation.append.extend`), grown from the KV cache; None where the cache cannot
    grow it (a main stack that is not causal, no draw to continue, a trace shown in another
    row order, a new row that overflows): compute that document instead, which says why."""
    scenario = trace.scenario
    ids, longer_ids = scenario.token_ids, longer.token_ids
    if (ids is None or longer_ids is None or longer_ids[:-1] != ids
            or trace.row_order is not None or not KINDS[trace.steps[-1].op].draws
            or not all(layer.attention.causal for layer in scenario.layers)):
        return None
    try:
        row = next_position(cache_of(trace), longer_ids[-1])
    except ScenarioError:
        return None
    return _appended(trace, longer, row)


MEMORY_SIDE = ("K", "V", "K_normed")
"""A cross-attention's arrays worked from the encoder's memory: the same for every token."""


def _stays(name: str) -> bool:
    """Whether the array ``name`` is the same in the longer document: the encoder's, and a
    cross-attention's keys and values."""
    scope, _, kind = name.rpartition(".")
    return name.startswith("enc.") or (scope.endswith("cross") and kind in MEMORY_SIDE)


def _appended(trace: Trace, longer: Scenario, row: NewRow) -> Trace | None:
    """The old trace with the new row appended to each array it grows, and the next draw;
    None if the trace holds an array the new row has no row of."""
    n = trace.scenario.n
    columns = _new_key_columns(trace, row, n)
    drawn = trace.steps[-1].writes
    arrays: dict[str, FloatArray] = {}
    for name, old in trace.arrays.items():
        if name in drawn:
            continue
        new = row.arrays.get(name)
        if new is None:
            if not _stays(name):
                return None
            arrays[name] = old
        elif old.ndim == 2:
            arrays[name] = np.concatenate([old, new])
        elif name in columns:  # a self-attention: the earlier rows read one more key
            arrays[name] = np.concatenate([np.concatenate([old, columns[name]], axis=2), new],
                                          axis=1)
        else:  # a cross-attention: the same keys
            arrays[name] = np.concatenate([old, new], axis=1)
    steps = trace.steps[:-1]
    if can_generate(longer):
        run = longer.generation or Generation()
        t = len(run.chosen) + 1
        draw = sample(arrays[head_output(steps)][-1], run.settings, t).trace_arrays(t)
        arrays.update(draw)
        steps = (*steps, replace(trace.steps[-1], writes=tuple(draw)))
    visibility = {scope: _visible(longer, step, visible, n)
                  for scope, visible, step in _weights_steps(trace)}
    first = "" if longer.shorthand else "L1."
    return Trace(scenario=longer, arrays=arrays, steps=steps, visible=visibility[first],
                 visibility=visibility)


def _weights_steps(trace: Trace) -> list[tuple[str, np.ndarray, Step]]:
    """Each attention's scope, visibility and ``weights`` step."""
    return [(step.scope, trace.visibility[step.scope], step)
            for step in steps_of(trace.steps, "weights")]


def _visible(longer: Scenario, step: Step, visible: np.ndarray, n: int) -> np.ndarray:
    """An attention's visibility in the longer document: the encoder's as it was; the main
    stack's with one more query (and, in a self-attention, one more key)."""
    if step.stack == "encoder":
        return visible
    a: Attention = longer.module(step.module)
    keys = n + 1 if step.keys == step.rows else int(visible.shape[1])
    return key_visibility(n + 1, keys, a.causal, a.window, a.key_mask)


def _new_key_columns(trace: Trace, row: NewRow, n: int) -> dict[str, FloatArray]:
    """Per self-attention of the main stack, the earlier rows' column for the new key
    (h × n × 1): scores (and ``qk``) from their q rows, the ALiBi bias, shares 0 (hidden)."""
    columns: dict[str, FloatArray] = {}
    for step in steps_of(trace.steps, "scores"):
        if step.stack != "decoder" or step.keys != step.rows:
            continue
        a: Attention = trace.scenario.module(step.module)
        s = step.scope
        product = head_scores(a, trace.arrays[step.reads[0]], row.cache.keys[s][-1:])
        if a.softcap is not None:
            columns[f"{s}scores_uncapped"] = product
            product = soft_capped(a.softcap, product)
        if f"{s}alibi" in trace.arrays:
            positions = trace.scenario.positions
            assert positions is not None
            bias = alibi_bias(positions.head_slopes(a.heads), n + 1, a.causal)[:, :n, n:]
            columns[f"{s}qk"], columns[f"{s}alibi"] = product, bias
            product = product + bias
        columns[f"{s}scores"] = product
        columns[f"{s}weights"] = np.zeros_like(product)
    return columns


__all__ = ["grown"]
