"""The KV cache: one generated token computed from the keys and values already worked out.

Under the causal mask no earlier row reads a later key, so appending a token changes nothing of
the n rows computed before: each self-attention only needs the new row's query, key and value,
its scores against the n + 1 keys, its shares and its mix. The cache holds, per attention of
the main stack, the keys as they are scored (after QK-norm and RoPE) and the values; a
cross-attention's keys and values come from the encoder's memory, computed once. Norms, residuals
and feed-forwards work row by row, so they run unchanged (:mod:`engine.forward.plan`) on the one new
row. :func:`next_position` equals the last row of ``compute(extend(scenario, id))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.mapped_weight import looked_up, widening_room
from engine.format.reader import FloatArray
from engine.forward import plan as forward
from engine.forward.embedding_steps import lay_in, of_stack
from engine.forward.numerics import key_visibility, softmax
from engine.forward.positions import rope_angles, rotate
from engine.forward.tape import (
    Place,
    Tape,
    head_mix,
    head_normed,
    head_scores,
    key_value_rows,
    query_rows,
    soft_capped,
)
from engine.forward.trace import Trace
from engine.generation.append import check_room, check_token
from engine.scenario.modules import Attention
from engine.scenario.op_kinds import head_output, steps_of
from engine.scenario.positions import Positions
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal


@dataclass(frozen=True, eq=False)
class Cache:
    """What a new position reads of the earlier ones: per attention scope (``""``, ``"L2."``,
    ``"L1.cross."``) the keys as scored and the values, for the ``n`` positions of
    ``scenario``; ``key_mask`` entries of the positions generated since (always seen)."""

    scenario: Scenario
    n: int
    keys: dict[str, FloatArray]
    values: dict[str, FloatArray]


@dataclass(frozen=True, eq=False)
class NewRow:
    """The result of one cached step: the cache with the new position, and the new position's
    arrays by trace name (its row of every array of the main stack, as :func:`compute` of the
    longer document names them: ``X``, ``L1.Q``, ``L1.weights``, ``logits``, ``probs`` …;
    scores and shares are h × 1 × (n + 1), a cross-attention's h × 1 × m)."""

    cache: Cache
    output: str
    """The array the head ends with (:func:`engine.scenario.op_kinds.head_output`): the logits."""
    arrays: dict[str, FloatArray] = field(default_factory=dict)

    @property
    def logits(self) -> FloatArray:
        """The new position's row of the head's output."""
        row: FloatArray = self.arrays[self.output][0]
        return row

    @property
    def probs(self) -> FloatArray:
        row: FloatArray = self.arrays["probs"][0]
        return row


def check_causal(scenario: Scenario) -> None:
    """Refuse a main stack with a self-attention that is not causal: there a new token changes
    every earlier row, and nothing computed before can be reused."""
    for k, layer in enumerate(scenario.layers):
        if not layer.attention.causal:
            place = "attention" if scenario.shorthand else f"layers.{k}.attention"
            raise ScenarioError(f"{place}.causal", Refusal("cache_needs_causal"))


def cache_of(trace: Trace) -> Cache:
    """The cache of a computed document: each main-stack attention's scored keys and values."""
    check_causal(trace.scenario)
    keys: dict[str, FloatArray] = {}
    values: dict[str, FloatArray] = {}
    for step in steps_of(trace.steps, "scores"):
        if step.stack == "decoder":
            keys[step.scope] = trace.arrays[step.reads[1]]
            values[step.scope] = trace.arrays[f"{step.scope}V"]
    return Cache(scenario=trace.scenario, n=trace.scenario.n, keys=keys, values=values)


def _input_row(tape: Tape, scenario: Scenario, token_id: int, p: int) -> None:
    """Row p of X, as :func:`engine.forward.embedding_steps.lay_in` makes every row: the token's row
    (scaled), plus position p's row and its type's row, then the embedding norm; and RoPE's
    angles of position p (``rope_angles``). The new token continues the last one's type."""
    assert scenario.embedding is not None
    types = scenario.token_types
    given = replace(of_stack(scenario), rows=looked_up(scenario.embedding, (token_id,)), first=p,
                    types=None if types is None else types[-1:])
    lay_in(tape, Place(), given)


@dataclass
class _Step:
    """The attention of one cached step: the new position p and the cache it grows."""

    cache: Cache
    p: int
    positions: Positions | None
    keys: dict[str, FloatArray] = field(default_factory=dict)
    values: dict[str, FloatArray] = field(default_factory=dict)

    def attend(self, tape: Tape, place: Place, a: Attention, source: str,
               keys_source: str | None = None, /) -> None:
        """The new row's attention at ``place``: writes its row of every array the full
        computation names (``{scope}Q``, ``K`` and ``V`` of a self-attention, ``Q_normed``,
        ``Q_rot``, ``qk``/``alibi``, ``scores``, ``weights``, ``mixed``, ``attn_out``)."""
        s, x = place.scope, tape[source]
        q = tape.arrays[f"{s}Q"] = query_rows(a, x)
        if a.qk_norm is not None:
            assert a.gamma_q is not None
            q = tape.arrays[f"{s}Q_normed"] = head_normed(a, q, "q")
        if keys_source is None:
            keys, values, q, mask = self._grown(tape, s, a, q, x)
        else:  # cross-attention: the memory's keys and values, computed once
            keys, values, mask = self.cache.keys[s], self.cache.values[s], a.key_mask
        product = tape.arrays[f"{s}scores"] = head_scores(a, q, keys)
        if a.softcap is not None:
            tape.arrays[f"{s}scores_uncapped"] = product
            product = tape.arrays[f"{s}scores"] = soft_capped(a.softcap, product)
        if keys_source is None and self.positions is not None and self.positions.kind == "alibi":
            distance = self.p - np.arange(self.p + 1)
            slopes = self.positions.head_slopes(a.heads)
            tape.arrays[f"{s}qk"] = product
            bias = tape.arrays[f"{s}alibi"] = slopes[:, None, None] * -distance[None, None, :]
            product = tape.arrays[f"{s}scores"] = product + bias
        visible = key_visibility(1, int(keys.shape[0]), a.causal, a.window, mask, first=self.p)
        shares = softmax(product, np.broadcast_to(visible, product.shape))
        tape.arrays[f"{s}weights"] = shares
        tape.arrays[f"{s}mixed"], tape.arrays[f"{s}attn_out"] = head_mix(a, shares, values)

    def _grown(self, tape: Tape, s: str, a: Attention, q: FloatArray, x: FloatArray
               ) -> tuple[FloatArray, FloatArray, FloatArray, tuple[bool, ...] | None]:
        """A self-attention's keys and values with the new row's, the query turned by RoPE and
        the key mask with the new key seen."""
        k, v = key_value_rows(a, x)
        tape.arrays[f"{s}K"], tape.arrays[f"{s}V"] = k, v
        if a.qk_norm is not None:
            assert a.gamma_k is not None
            k = tape.arrays[f"{s}K_normed"] = head_normed(a, k, "k")
        if self.positions is not None and self.positions.kind == "rope":
            angles = tape["rope_angles"]
            positions = a.turned_by(self.positions)
            if a.own_rope:  # this layer's own angles at position p
                angles = tape.arrays[f"{s}rope_angles"] = rope_angles(
                    self.p + 1, positions.rotary(a.d_k), positions.base,
                    positions.scaling)[self.p:]
            factor = positions.turn_factor
            q = tape.arrays[f"{s}Q_rot"] = rotate(q, a.heads, angles, positions.pairing, factor)
            k = tape.arrays[f"{s}K_rot"] = rotate(k, a.groups, angles, positions.pairing, factor)
        keys = np.concatenate([self.cache.keys[s], k])
        values = np.concatenate([self.cache.values[s], v])
        self.keys[s], self.values[s] = keys, values
        mask = None
        if a.key_mask is not None:
            mask = (*a.key_mask, *(True,) * (self.p + 1 - len(a.key_mask)))
        return keys, values, q, mask


def next_position(cache: Cache, token_id: int) -> NewRow:
    """Append ``token_id`` at position ``cache.n`` and compute only its row, layer by layer,
    from the cached keys and values; the head gives its logits and probabilities.

    Raises
    ------
    ScenarioError
        As :func:`engine.generation.append.extend` refuses the token (no embedding or head, a
        learned table at its end, the position limit), or a value overflows.
    """
    scenario = cache.scenario
    p = cache.n
    check_room(scenario, p)
    check_token(scenario, token_id)
    step = _Step(cache=cache, p=p, positions=scenario.positions)
    tape = Tape()
    _input_row(tape, scenario, token_id, p)
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"), widening_room():
            out = forward.stack(tape, Place(), "", scenario.layers, "X",
                                shorthand=scenario.shorthand, attend=step.attend)
            assert scenario.head is not None
            at = Place().at("block" if scenario.head_in_block else "head")
            forward.head(tape, at, scenario.head, out)
    except FloatingPointError as error:
        raise ScenarioError(f"position {p}", Refusal("step_overflow", error=str(error))) from None
    grown = Cache(scenario=scenario, n=p + 1, keys={**cache.keys, **step.keys},
                  values={**cache.values, **step.values})
    return NewRow(cache=grown, output=head_output(tape.steps), arrays=tape.arrays)


__all__ = ["Cache", "NewRow", "cache_of", "check_causal", "next_position"]
