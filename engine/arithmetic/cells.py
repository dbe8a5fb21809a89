"""Per-cell arithmetic: the terms that made one number of a trace, computed on demand.

The explainer finds the step that wrote the array and dispatches on the step's op kind (and the
array's name within the step's scope): the operands are the step's ``reads`` and the parameters
of the step's module, so every layer, the encoder and cross-attention explain alike.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.arithmetic.differences import source_cell
from engine.arithmetic.positions import (
    added_row,
    alibi_cell,
    biased_score,
    position_sum,
    rope_angle,
    rotated,
    soft_capped_cell,
    type_row,
)
from engine.arithmetic.terms import cell, dot, sum_text
from engine.format.errors import one_line
from engine.format.generation_keys import Settings
from engine.format.mapped_weight import column_block, looked_up
from engine.format.numbers import format_exact, format_factor, format_number
from engine.format.reader import FloatArray
from engine.format.whole_text import read_whole
from engine.forward.numerics import row_mean
from engine.forward.plan import MEMORY
from engine.forward.trace import Step, Trace
from engine.scenario.modules import Attention
from engine.scenario.op_kinds import head_output, made_by, steps_of
from engine.scenario.op_table import op_table
from engine.scenario.positions import Positions
from engine.words import say

_CELL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\[\s*([0-9\s,]+)\]\s*$")

Result = tuple[str, list[str]]


@dataclass(frozen=True)
class Explanation:
    """How one cell was computed.

    Attributes
    ----------
    formula
        One line: the symbolic terms, the same terms with values, and the result.
    details
        Further lines: statistics of a norm, masked keys, which head a column belongs to.
    """

    array: str
    index: tuple[int, ...]
    value: float
    formula: str
    details: tuple[str, ...] = ()

    def text(self) -> str:
        return "\n".join((self.formula, *self.details))


def parse_cell(reference: str) -> tuple[str, tuple[int, ...]]:
    """Split ``"Q[1,0]"`` into ``("Q", (1, 0))`` (``"L2.weights[0,1,0]"`` alike).

    Raises
    ------
    ValueError
        If the reference is not of the form ``NAME[i,j]``, or an index is longer than
        :data:`~engine.format.whole_text.MOST_DIGITS` digits (a
        :class:`~engine.format.errors.ScenarioError` at ``NAME[…]``).
    """
    match = _CELL.match(reference)
    if not match:
        raise ValueError(f"{reference!r}: expected ARRAY[i,j], for example Q[1,0] or "
                         "weights[0,1,0]")
    parts = [p.strip() for p in match.group(2).split(",")]
    if any(not p.isdigit() for p in parts):
        raise ValueError(f"{reference!r}: indices must be whole numbers from 0")
    name = match.group(1)
    return name, tuple(read_whole(p, f"{name}[…]") for p in parts)


@dataclass(frozen=True)
class _Cell:
    """The cell being explained: its array's full name, its name within the step's scope, the
    step that wrote it, the index and the value."""

    name: str
    local: str
    step: Step | None
    index: tuple[int, ...]
    value: float


class _Explainer:
    def __init__(self, trace: Trace, lang: str = "en", places: int = 6) -> None:
        self.lang = lang
        self.places = places
        self.trace = trace
        self.s = trace.scenario
        self.a = trace.arrays
        self.writer = {name: step for step in trace.steps for name in made_by(step)}

    @property
    def vocab_scores(self) -> str:
        """The array the vocabulary head ends with, which the probabilities and a draw read."""
        return head_output(self.trace.steps)

    def say(self, key: str, /, **fields: object) -> str:
        """The phrase ``key``; text fields (a document's token labels) have their line breaks
        and other unprintable characters escaped, so a label cannot forge a line."""
        return say(key, self.lang, **{name: one_line(value) if isinstance(value, str) else value
                                      for name, value in fields.items()})

    def num(self, value: float) -> str:
        """``value`` with the explanation's decimals."""
        return format_number(value, self.places)

    def factor(self, value: float) -> str:
        """``value`` as a factor of a product, with the explanation's decimals."""
        return format_factor(value, self.places)

    def sum_terms(self, count: int, term: Callable[[int], tuple[str, str]]) -> tuple[str, str]:
        return sum_text(count, term, self.lang)

    def dot_terms(self, result: str, left: tuple[str, int, FloatArray],
                  right: tuple[str, int, FloatArray], bias: tuple[str, float] | None,
                  value: float) -> str:
        return dot(result, left, right, bias, value, self.lang, self.places)

    def module(self, step: Step) -> Any:
        return self.s.module(step.module)

    def param(self, path: str) -> FloatArray:
        return self.s.parameter(path)

    def explain(self, name: str, index: tuple[int, ...]) -> Explanation:
        if name not in self.a:
            raise KeyError(f"{name}: no such array in this trace (it has {self._known()})")
        array = self.a[name]
        step = self.writer.get(name)
        local = name[len(step.scope):] if step is not None else name.rsplit(".", 1)[-1]
        if local in ("scores", "weights", "qk", "alibi") and len(index) == 2 \
                and array.shape[0] == 1:
            index = (0, *index)
        if len(index) != array.ndim or any(not 0 <= k < n for k, n in zip(index, array.shape,
                                                                          strict=True)):
            shape = "×".join(str(n) for n in array.shape)
            raise IndexError(f"{cell(name, index)}: outside the {shape} array {name}")
        target = _Cell(name, local, step, index, float(array[index]))
        formula, details = self._dispatch(target)
        return Explanation(name, index, target.value, formula, tuple(details))

    def _known(self) -> str:
        names = list(self.a)
        return ", ".join(names) if len(names) <= 24 else \
            ", ".join(names[:20]) + f", … ({len(names)} arrays)"

    def _dispatch(self, c: _Cell) -> Result:
        step = c.step
        if step is None and c.local in ("positions", "rope_angles"):
            return self._position_table(c)
        if step is None and c.local == "type_rows" and self.s.token_types is not None:
            p = c.index[0]
            return type_row(c.name, c.index, c.value, self.s.token_types[p], self.s.tokens[p],
                            self.say, self.places)
        if step is None:
            return self._input(c)
        if c.local.endswith("_stats"):
            return self._stats(c)
        if c.name == MEMORY:
            source = step.writes[0]
            return (f"{cell(c.name, c.index)} = {cell(source, c.index)} = "
                    f"{self.num(c.value)}", [])
        return EXPLAINERS[step.op](self, c)

    def _value(self, c: _Cell) -> Result:
        """The value alone: a step that only shows its operands (attention's inputs)."""
        return f"{cell(c.name, c.index)} = {self.num(c.value)}", []

    # -- inputs ---------------------------------------------------------------------------
    def _input(self, c: _Cell) -> Result:
        i, j = c.index
        encoder = c.name.startswith("enc.")
        owner: Any = self.s.encoder if encoder else self.s
        token = owner.tokens[i]
        if owner.token_ids is not None:
            tid = owner.token_ids[i]
            scale = owner.embedding_scale
            if scale is not None and self.s.embedding is not None:
                row = float(looked_up(self.s.embedding, (tid,))[0, j])
                return (f"{cell(c.name, c.index)} = embedding[{tid},{j}] × {format_exact(scale)}"
                        f" = {self.num(row)} × {self.factor(scale)} = {self.num(c.value)}",
                        [self.say("scaled_row", token=token, tid=tid, scale=format_exact(scale))])
            return (f"{cell(c.name, c.index)} = embedding[{tid},{j}] = {self.num(c.value)}",
                    [self.say("embedding_row", token=token, tid=tid, i=i)])
        return (f"{cell(c.name, c.index)} = {self.num(c.value)}",
                [self.say("typed_input", token=token, j=j)])

    # -- attention --------------------------------------------------------------------------
    def _projection(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        i, col = c.index
        att = self.module(step)
        weight = {"Q": "Wq", "K": "Wk", "V": "Wv"}[c.local]
        cross = step.keys != "" and c.local != "Q"
        source = step.reads[1] if cross else step.reads[0]
        column = column_block(getattr(att, weight), col, col + 1)[:, 0]
        bias_name = "b" + weight[1]
        bias = getattr(att, bias_name)
        term_bias = (bias_name, float(bias[col])) if bias is not None else None
        text = self.dot_terms(cell(c.name, c.index), (source, i, self.a[source][i]),
                              (weight, col, column), term_bias, c.value)
        width = att.d_v if c.local == "V" else att.d_k
        heads = att.heads if c.local == "Q" else att.groups
        details = [self.say("head_column", c=col, head=col // width + 1, heads=heads)] \
            if heads > 1 else []
        return text, details

    def _seen(self, step: Step) -> np.ndarray:
        return self.trace.visible_for(step.scope)

    def _scores(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        s = step.scope
        h, i, j = c.index
        att = self.module(step)
        if c.local == "scores" and f"{s}qk" in self.a:
            qk, bias = s + "qk", s + "alibi"
            return biased_score(c.name, c.index, c.value, (qk, float(self.a[qk][c.index])),
                                (bias, float(self.a[bias][c.index])), self.say, self.places)
        if c.local == "scores" and att.softcap is not None:
            raw = s + "scores_uncapped"
            return soft_capped_cell(c.name, c.index, c.value, att.softcap,
                                    (raw, float(self.a[raw][c.index])), self.say, self.places)
        if c.local == "alibi":
            positions = self._positions_of(step.stack)
            return alibi_cell(c.name, c.index, c.value, float(positions.head_slopes(att.heads)[h]),
                              positions.slopes is None, att.heads, att.causal, self.say,
                              self.places)
        qn, kn = step.reads[0], step.reads[1]
        q_cols = range(h * att.d_k, (h + 1) * att.d_k)
        k_cols = range(att.kv_head(h) * att.d_k, (att.kv_head(h) + 1) * att.d_k)
        q, k = self.a[qn], self.a[kn]

        def term(t: int) -> tuple[str, str]:
            cq, ck = q_cols[t], k_cols[t]
            return (f"{qn}[{i},{cq}]·{kn}[{j},{ck}]",
                    f"{self.factor(float(q[i, cq]))}·{self.factor(float(k[j, ck]))}")

        sym, num = self.sum_terms(len(q_cols), term)
        product = float(q[i, list(q_cols)] @ k[j, list(k_cols)])
        name = cell(c.name, c.index)
        if att.scale:
            root = self.num(math.sqrt(att.scale_number))
            text = (f"{name} = ({sym}) / √{format_exact(att.scale_number)} = ({num}) / {root}"
                    f" = {self.num(product)} / {root} = {self.num(c.value)}")
        else:
            text = f"{name} = {sym} = {num} = {self.num(c.value)}"
        queries, keys = self.trace.tokens_of(step.rows), self.trace.tokens_of(step.keys)
        details = [self.say("query_key", query=queries[i], key=keys[j], head=h + 1)]
        if not self._seen(step)[i, j]:
            causal_only = att.window is None and att.key_mask is None
            details.append(self.say("mask_will_hide" if causal_only else "mask_will_hide_any",
                                    i=i, j=j))
        return text, details

    # -- positions --------------------------------------------------------------------------
    def _positions_of(self, stack: str) -> Positions:
        owner: Any = self.s.encoder if stack == "encoder" else self.s
        positions: Positions = owner.positions
        return positions

    def _position_table(self, c: _Cell) -> Result:
        """A cell of the rows the positions add, or of RoPE's angles (arrays no step writes)."""
        positions = self._positions_of("encoder" if c.name.startswith("enc.") else "decoder")
        width = int(self.a[c.name].shape[1])
        if c.local == "rope_angles":
            turned = next((step for step in steps_of(self.trace.steps, "rope")
                           if c.name in step.reads), None)
            # a layer's L2.rope_angles, or the stack's (which no layer may read: each has its own)
            own = positions if turned is None else self._turning(turned.scope, positions)
            return rope_angle(c.name, c.index, c.value, own.base, 2 * width, self.say,
                              self.places, own.scaling)
        return added_row(c.name, c.index, c.value, positions, width, self.say, self.places)

    def _turning(self, scope: str, positions: Positions) -> Positions:
        """What the self-attention of ``scope`` turns by: the stack's positions with its own
        ``rope_base`` and without the scaling it leaves out."""
        att: Attention = next(self.module(each)
                              for each in steps_of(self.trace.steps, "projection")
                              if each.scope == scope)
        return att.turned_by(positions)

    def _with_positions(self, c: _Cell) -> Result:
        """X (or embed_sum) = embedded + positions + type_rows (those the step adds)."""
        step = c.step
        assert step is not None
        terms = [name for name in step.reads if name in self.a]
        p = c.index[0]
        token = self.trace.tokens_of(step.rows)[p]
        types = self.s.token_types
        with_types = f"{step.scope}type_rows" in terms and types is not None
        with_positions = f"{step.scope}positions" in terms
        detail = (self.say("plus_position_type", token=token, p=p, t=types[p])
                  if with_types and with_positions and types is not None
                  else self.say("plus_type", token=token, t=types[p])
                  if with_types and types is not None
                  else self.say("plus_position", token=token, p=p))
        return position_sum(c.name, c.index, c.value,
                            [(name, float(self.a[name][c.index])) for name in terms], detail,
                            self.places)

    def _rope(self, c: _Cell) -> Result:
        """Q_rot or K_rot: one column of a pair turned by p·θ."""
        step = c.step
        assert step is not None
        source = step.reads[0] if c.local == "Q_rot" else step.reads[1]
        att = next(self.module(each) for each in steps_of(self.trace.steps, "projection")
                   if each.scope == step.scope)
        positions = att.turned_by(self._positions_of(step.stack))
        return rotated(c.name, c.index, c.value, (source, self.a[source]),
                       self.a[step.reads[2]], positions.pairing, att.d_k, self.say, self.places,
                       positions.scaling)

    def _weights(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        att = self.module(step)
        h, i, j = c.index
        row = self.a[step.reads[0]][h, i].tolist()
        seen = self._seen(step)[i]
        visible = np.flatnonzero(seen).tolist()
        hidden = np.flatnonzero(~seen).tolist()
        name = cell(c.name, c.index)
        causal_only = att.window is None and att.key_mask is None
        listed = ", ".join(str(k) for k in hidden)
        masked = (self.say("masked_keys" if causal_only else "masked_keys_any", i=i, keys=listed)
                  if hidden else self.say("none_masked"))
        if j in hidden:
            token = self.trace.tokens_of(step.keys)[j]
            why = self.say("masked_share" if causal_only else "hidden_share", j=j, token=token,
                           i=i)
            return f"{name} {why}", [masked]
        top = max(row[k] for k in visible)
        total = sum(math.exp(row[k] - top) for k in visible)
        sym, num = self.sum_terms(len(visible), lambda t: (
            f"exp(s{visible[t]} − max)", f"exp({self.num(row[visible[t]] - top)})"))
        text = (f"{name} = exp(s{j} − max) / ({sym}) = exp({self.num(row[j] - top)})"
                f" / ({num}) = {self.num(math.exp(row[j] - top))} / "
                f"{self.num(total)} = {self.num(c.value)}")
        details = [self.say("row_max", scores=step.reads[0], h=h, i=i, top=self.num(top)),
                   masked]
        if len(visible) == 1:
            details.append(self.say("one_key"))
        return text, details

    def _mix(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        att = self.module(step)
        i, col = c.index
        s = step.scope
        if c.local == "attn_out":
            if att.Wo is None:
                return (f"{cell(c.name, c.index)} = {cell(s + 'mixed', c.index)} = "
                        f"{self.num(c.value)}", [self.say("no_wo")])
            bias = ("bo", float(att.bo[col])) if att.bo is not None else None
            column = column_block(att.Wo, col, col + 1)[:, 0]
            return self.dot_terms(cell(c.name, c.index), (f"{s}mixed", i, self.a[f"{s}mixed"][i]),
                                  ("Wo", col, column), bias, c.value), []
        h = col // att.d_v
        if h in att.ablate_heads:
            return (f"{cell(c.name, c.index)} = 0",
                    [self.say("head_ablated", head=h + 1, index=h)])
        v_col = att.kv_head(h) * att.d_v + col - h * att.d_v
        w, v = self.a[f"{s}weights"][h, i], self.a[f"{s}V"][:, v_col]
        keys = np.flatnonzero(self._seen(step)[i]).tolist()
        sym, num = self.sum_terms(len(keys), lambda t: (
            f"{s}weights[{h},{i},{keys[t]}]·{s}V[{keys[t]},{v_col}]",
            f"{self.factor(float(w[keys[t]]))}·{self.factor(float(v[keys[t]]))}"))
        return (f"{cell(c.name, c.index)} = {sym} = {num} = {self.num(c.value)}",
                [self.say("mix_note", c=col, head=h + 1, local=col - h * att.d_v)])

    # -- norms, residuals ---------------------------------------------------------------------
    def _norm_rows(self, c: _Cell) -> tuple[str, FloatArray, float, float, str, float]:
        """The normalised row, γ and β at the cell's column, the norm kind and ε."""
        step = c.step
        assert step is not None
        i, j = c.index
        module = self.module(step)
        if c.local in ("Q_normed", "K_normed"):  # QK-norm: the columns it spans of Q or K
            which = "q" if c.local == "Q_normed" else "k"
            width = module.qk_norm_width(which)  # the head's d_k, or every head's
            start = j // width * width
            x = self.a[step.reads[0 if c.local == "Q_normed" else 1]][i, start:start + width]
            gamma, beta = getattr(module, f"gamma_{which}"), getattr(module, f"beta_{which}")
            return (step.reads[0 if c.local == "Q_normed" else 1], x,
                    float(gamma[j - start]), float(beta[j - start]) if beta is not None else 0.0,
                    module.qk_norm, module.qk_eps)
        x = self.a[step.reads[0]][i]
        beta = float(self.param(step.reads[2])[j]) if len(step.reads) > 2 else 0.0  # RMSNorm
        return (step.reads[0], x, float(self.param(step.reads[1])[j]), beta, module.norm,
                module.eps)

    def _norm(self, c: _Cell) -> Result:
        i, j = c.index
        source, x, g, b, kind, e = self._norm_rows(c)
        k = j if c.local not in ("Q_normed", "K_normed") else j % len(x)
        name, xj = cell(c.name, c.index), self.factor(float(x[k]))
        if kind == "none":
            return f"{name} = {source}[{i},{j}] = {self.num(c.value)}", [self.say("norm_off")]
        if kind == "rmsnorm":
            ms = float(np.mean(x**2))
            return (f"{name} = x / √(mean(x²) + ε) · γ = {xj} / √({self.num(ms)} + "
                    f"{format_exact(e)}) · {self.factor(g)} = {self.num(c.value)}",
                    [self.say("rms_stats", source=source, i=i, ms=self.num(ms),
                              eps=format_exact(e), j=j, gamma=self.num(g))])
        return self._layer_norm(c, source, x, k, (g, b, e))

    def _layer_norm(self, c: _Cell, source: str, x: FloatArray, k: int,
                    gamma_beta_eps: tuple[float, float, float]) -> Result:
        """A LayerNorm cell: (x − μ) / √(σ² + ε) · γ + β of row ``x`` at its column ``k``."""
        g, b, e = gamma_beta_eps
        i, j = c.index
        mean = float(row_mean(x)[0])
        var = float(np.mean((x - mean) ** 2))
        return (f"{cell(c.name, c.index)} = (x − μ) / √(σ² + ε) · γ + β = "
                f"({self.factor(float(x[k]))} − {self.factor(mean)}) / "
                f"√({self.num(var)} + {format_exact(e)}) · {self.factor(g)} + "
                f"{self.factor(b)} = {self.num(c.value)}",
                [self.say("layer_stats", source=source, i=i, mean=self.num(mean),
                          var=self.num(var), eps=format_exact(e), j=j, gamma=self.num(g),
                          beta=self.num(b))])

    def _stats(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        i, k = c.index
        module = self.module(step)
        source = step.reads[0]
        symbols = {"layernorm": ("μ = mean(x)", "σ² = mean((x − μ)²)", "√(σ² + ε)"),
                   "rmsnorm": ("mean(x²)", "√(mean(x²) + ε)")}[module.norm]
        return (f"{cell(c.name, c.index)} = {symbols[k]} = {self.num(c.value)}",
                [f"x = {source}[{i},·]; ε = {format_exact(module.eps)}"])

    def _sum(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        first, *rest = (float(self.a[name][c.index]) for name in step.reads)
        names = " + ".join(cell(name, c.index) for name in step.reads)
        values = " + ".join([self.num(first), *(self.factor(value) for value in rest)])
        return f"{cell(c.name, c.index)} = {names} = {values} = {self.num(c.value)}", []

    # -- feed-forward, head -------------------------------------------------------------------
    def _ffn(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        ffn = self.module(step).ffn
        i, col = c.index
        s, source = step.scope, step.reads[0]
        x = self.a[source][i]
        if c.local == "ffn_out":
            bias = ("b2", float(ffn.b2[col])) if ffn.b2 is not None else None
            column = column_block(ffn.W2, col, col + 1)[:, 0]
            return self.dot_terms(cell(c.name, c.index), (f"{s}ffn_hidden", i,
                                                          self.a[f"{s}ffn_hidden"][i]),
                                  ("W2", col, column), bias, c.value), []
        if c.local in ("ffn_pre", "ffn_up"):
            bias = ("b1", float(ffn.b1[col])) if ffn.b1 is not None else None
            column = column_block(ffn.W1, col, col + 1)[:, 0]
            return self.dot_terms(cell(c.name, c.index), (source, i, x), ("W1", col, column),
                                  bias, c.value), []
        if c.local == "ffn_hidden" and ffn.Wg is not None:
            gate, up = float(self.a[f"{s}ffn_gate"][i, col]), float(self.a[f"{s}ffn_up"][i, col])
            return (f"{cell(c.name, c.index)} = {cell(s + 'ffn_gate', c.index)}·"
                    f"{cell(s + 'ffn_up', c.index)} = {self.factor(gate)}·{self.factor(up)}"
                    f" = {self.num(c.value)}", [])
        weight, bias_name = ("Wg", "bg") if c.local == "ffn_gate" else ("W1", "b1")
        column = column_block(getattr(ffn, weight), col, col + 1)[:, 0]
        bias_row = getattr(ffn, bias_name)
        bias = (bias_name, float(bias_row[col])) if bias_row is not None else None
        z = float(x @ column) + (bias[1] if bias else 0.0)
        pre = self.dot_terms(f"z[{i},{col}]", (source, i, x), (weight, col, column), bias, z)
        act = ffn.activation
        zeroed = self.say("zeroed") if act == "relu" and z <= 0 else ""
        return (f"{cell(c.name, c.index)} = {act}(z[{i},{col}]) = {act}({self.num(z)}) = "
                f"{self.num(c.value)}", [pre, self.say(act) + zeroed])

    def _router(self, c: _Cell) -> Result:
        """A router's cell: a logit (x · W_r), a share (the softmax over the experts), a chosen
        expert (the r-th largest share) or its weight (renormalised: the share over the chosen
        ones' sum)."""
        step = c.step
        assert step is not None
        m = self.module(step).ffn
        i, col = c.index
        s, name = step.scope, cell(c.name, c.index)
        logits, shares = self.a[f"{s}router_logits"][i], self.a[f"{s}router_shares"][i]
        chosen = self.a[f"{s}router_chosen"][i].astype(int).tolist()
        if c.local == "router_logits":
            source = step.reads[0]
            return self.dot_terms(name, (source, i, self.a[source][i]),
                                  ("W_r", col, m.router[:, col]), None, c.value), []
        if c.local == "router_shares":
            top = float(logits.max())
            sym, num = self.sum_terms(len(logits), lambda e: (
                f"exp(r{e} − max)", f"exp({self.num(float(logits[e]) - top)})"))
            picked = self.say("expert_chosen" if col in chosen else "expert_not_chosen",
                              k=m.top_k)
            return (f"{name} = exp(r{col} − max) / ({sym}) = "
                    f"exp({self.num(float(logits[col]) - top)}) / ({num}) = {self.num(c.value)}",
                    [self.say("router_max", logits=f"{s}router_logits", i=i,
                              top=self.num(top)), picked])
        e = chosen[col]
        if c.local == "router_chosen":
            return (f"{name} = {e}: {s}router_shares[{i},{e}] = {self.num(float(shares[e]))}",
                    [self.say("expert_rank", rank=col + 1, k=m.top_k)])
        if not m.normalize:
            return (f"{name} = {s}router_shares[{i},{e}] = {self.num(c.value)}",
                    [self.say("expert_unnormalised")])
        sym, num = self.sum_terms(len(chosen), lambda r: (
            f"p{chosen[r]}", self.num(float(shares[chosen[r]]))))
        return (f"{name} = p{e} / ({sym}) = {self.num(float(shares[e]))} / ({num}) = "
                f"{self.num(c.value)}", [self.say("expert_renormalised", k=m.top_k)])

    def _experts(self, c: _Cell) -> Result:
        """An expert's output (its feed-forward of the token's row), the shared expert's gate
        σ(x · w_g) or output, or a cell of the sum Σ_r w_r · expert_r(x) (+ g · shared(x))."""
        step = c.step
        assert step is not None
        s, source = step.scope, step.reads[0]
        if c.local == "expert_out":
            r, i, col = c.index
            e = int(self.a[f"{s}router_chosen"][i, r])
            return (f"{cell(c.name, c.index)} = experts.{e}({source}[{i},·])[{col}] = "
                    f"{self.num(c.value)}", [self.say("expert_output", rank=r + 1, e=e)])
        i, col = c.index
        if c.local == "shared_out":
            return (f"{cell(c.name, c.index)} = shared({source}[{i},·])[{col}] = "
                    f"{self.num(c.value)}", [self.say("shared_output")])
        if c.local == "shared_weight":
            gate = self.module(step).ffn.shared_gate[:, 0]
            z = float(self.a[source][i] @ gate)
            pre = self.dot_terms(f"z[{i}]", (source, i, self.a[source][i]),
                                 ("shared_gate", 0, gate), None, z)
            return (f"{cell(c.name, c.index)} = σ(z[{i}]) = σ({self.num(z)}) = "
                    f"{self.num(c.value)}", [pre, self.say("shared_gate")])
        weights, outputs = self.a[f"{s}router_weights"][i], self.a[f"{s}expert_out"][:, i, col]
        terms = [(f"w{r}·{s}expert_out[{r},{i},{col}]",
                  f"{self.factor(float(weights[r]))}·{self.factor(float(outputs[r]))}")
                 for r in range(len(weights))]
        details = [self.say("experts_sum")]
        if f"{s}shared_out" in step.writes:
            g, out = self.a[f"{s}shared_weight"][i, 0], self.a[f"{s}shared_out"][i, col]
            terms.append((f"g·{s}shared_out[{i},{col}]",
                          f"{self.factor(float(g))}·{self.factor(float(out))}"))
            details.append(self.say("experts_shared_sum", g=f"{s}shared_weight[{i},0]"))
        sym, num = self.sum_terms(len(terms), lambda r: terms[r])
        return f"{cell(c.name, c.index)} = {sym} = {num} = {self.num(c.value)}", details

    def _transform(self, c: _Cell) -> Result:
        """A masked-language-model transform's cell: source · W + b, its activation, or the
        LayerNorm of the activated row."""
        step = c.step
        assert step is not None
        t = self.module(step)
        i, col = c.index
        source = step.reads[0]
        if c.local == "transform_pre":
            return self.dot_terms(cell(c.name, c.index), (source, i, self.a[source][i]),
                                  ("W", col, t.W[:, col]), ("b", float(t.b[col])),
                                  c.value), []
        if c.local == "transform_hidden":
            z = float(self.a["transform_pre"][i, col])
            return (f"{cell(c.name, c.index)} = {t.activation}({cell('transform_pre', c.index)})"
                    f" = {t.activation}({self.num(z)}) = {self.num(c.value)}",
                    [self.say(t.activation)])
        return self._layer_norm(c, "transform_hidden", self.a["transform_hidden"][i], col,
                                (float(t.gamma[col]), float(t.beta[col]), t.eps))

    def _logits(self, c: _Cell) -> Result:
        step = c.step
        assert step is not None
        head = self.s.head
        assert head is not None and head.unembed is not None
        i, col = c.index
        source = step.reads[0]
        bias = ("bias", float(head.bias[col])) if head.bias is not None else None
        column = column_block(head.unembed, col, col + 1)[:, 0]
        return (self.dot_terms(cell(c.name, c.index), (source, i, self.a[source][i]),
                               ("unembed", col, column), bias, c.value),
                [self.say("vocab_entry", entry=head.vocab[col])])

    def _softcap(self, c: _Cell) -> Result:
        """A capped logit: c · tanh(uncapped / c)."""
        step = c.step
        assert step is not None and self.s.head is not None and self.s.head.softcap is not None
        return soft_capped_cell(c.name, c.index, c.value, self.s.head.softcap,
                                (step.reads[0], float(self.a[step.reads[0]][c.index])),
                                self.say, self.places)

    def _probs(self, c: _Cell) -> Result:
        i, col = c.index
        row = self.a[self.vocab_scores][i]
        top = float(row.max())
        with np.errstate(over="ignore"):  # a shift past −1.8e308 is −∞: its exp is exactly 0
            total = float(np.exp(row - top).sum())
        sym, num = self.sum_terms(len(row), lambda k: (
            f"exp(l{k} − max)", f"exp({self.num(float(row[k]) - top)})"))
        vocab = self.trace.tokens_of("vocab")
        return (f"probs[{i},{col}] = exp(l{col} − max) / ({sym}) = "
                f"exp({self.num(float(row[col]) - top)}) / ({num}) = "
                f"{self.num(math.exp(float(row[col]) - top))} / {self.num(total)} = "
                f"{self.num(c.value)}",
                [self.say("prob_row", i=i, top=self.num(top), entry=vocab[col],
                          token=self.s.tokens[i])])

    def _loss(self, c: _Cell) -> Result:
        """A position's cross-entropy, or their mean."""
        targets = self.s.targets
        assert targets is not None
        loss = self.a["loss"]
        if c.name == "loss_mean":
            sym, num = self.sum_terms(len(loss), lambda k: (
                f"loss[{k}]", self.num(float(loss[k]))))
            return (f"loss_mean[0] = ({sym}) / {len(loss)} = ({num}) / {len(loss)} = "
                    f"{self.num(c.value)}", [self.say("loss_mean", n=len(loss))])
        i = c.index[0]
        target = targets[i]
        p = float(self.a["probs"][i, target])
        return (f"loss[{i}] = −log probs[{i},{target}] = −log({self.num(p)}) = "
                f"{self.num(c.value)}",
                [self.say("loss_row", i=i, token=self.s.tokens[i], target=target,
                          entry=self.trace.tokens_of("vocab")[target])])


    def _sample(self, c: _Cell) -> Result:
        """One number of a draw: the last position's logit, its tempered probability, a kept
        id, its renormalised share, or the chosen id."""
        prefix, part = c.name.rsplit(".", 1)
        run = self.s.generation.settings if self.s.generation is not None else Settings()
        vocab = self.trace.tokens_of("vocab")
        row = self.a[self.vocab_scores][-1]
        last = self.s.n - 1
        v = c.index[0]
        if part == "logits":
            return (f"{cell(c.name, c.index)} = {self.vocab_scores}[{last},{v}] = "
                    f"{format_number(c.value)}",
                    [self.say("draw_logit", i=last, token=self.s.tokens[last], entry=vocab[v])])
        if part == "tempered":
            return self._tempered(c, row, run.temperature, vocab[v])
        kept = [int(k) for k in self.a[f"{prefix}.kept"]]
        if part == "kept":
            tempered = self.a[f"{prefix}.tempered"]
            return (f"{cell(c.name, c.index)} = {int(c.value)}",
                    [self.say("draw_kept", rank=v + 1, entry=vocab[int(c.value)],
                              p=format_number(float(tempered[int(c.value)])), kept=len(kept))])
        if part == "chosen":
            chosen = int(c.value)
            return (f"{cell(c.name, c.index)} = {chosen}",
                    [self.say("draw_chosen", entry=vocab[chosen], seed=run.seed,
                              t=prefix.removeprefix("gen"))])
        return self._renormalised(c, prefix, kept, vocab[v])

    def _tempered(self, c: _Cell, row: FloatArray, temperature: float, entry: str) -> Result:
        v = c.index[0]
        if temperature == 0.0:
            return (f"{cell(c.name, c.index)} = {format_number(c.value)}",
                    [self.say("draw_greedy", entry=entry)])
        top = float(row.max())
        t = format_number(temperature)
        sym, num = self.sum_terms(len(row), lambda k: (
            f"exp((l{k} − max)/T)", f"exp({format_number((float(row[k]) - top) / temperature)})"))
        return (f"{cell(c.name, c.index)} = exp((l{v} − max)/T) / ({sym}) = "
                f"exp({format_number((float(row[v]) - top) / temperature)}) / ({num}) = "
                f"{format_number(c.value)}",
                [self.say("draw_tempered", t=t, top=format_number(top), entry=entry)])

    def _renormalised(self, c: _Cell, prefix: str, kept: list[int], entry: str) -> Result:
        v = c.index[0]
        if v not in kept:
            return (f"{cell(c.name, c.index)} = 0", [self.say("draw_cut", entry=entry)])
        tempered = self.a[f"{prefix}.tempered"]
        sym, num = self.sum_terms(len(kept), lambda k: (
            f"{prefix}.tempered[{kept[k]}]", format_number(float(tempered[kept[k]]))))
        return (f"{cell(c.name, c.index)} = {prefix}.tempered[{v}] / ({sym}) = "
                f"{format_number(float(tempered[v]))} / ({num}) = {format_number(c.value)}",
                [self.say("draw_share", entry=entry, kept=len(kept))])

EXPLAINERS = op_table("explain", {
    "embed": _Explainer._input,
    "positions": _Explainer._with_positions,
    "inputs": _Explainer._value,
    "norm": _Explainer._norm,
    "projection": _Explainer._projection,
    "rope": _Explainer._rope,
    "scores": _Explainer._scores,
    "weights": _Explainer._weights,
    "mix": _Explainer._mix,
    "residual": _Explainer._sum,
    "ffn": _Explainer._ffn,
    "router": _Explainer._router,
    "experts": _Explainer._experts,
    "transform": _Explainer._transform,
    "logits": _Explainer._logits,
    "softcap": _Explainer._softcap,
    "probs": _Explainer._probs,
    "loss": _Explainer._loss,
    "sample": _Explainer._sample,
})
"""Each op kind's explanation of a cell it wrote."""


def explain(trace: Trace, array: str, index: Sequence[int], lang: str = "en",
            places: int = 6) -> Explanation:
    """The arithmetic behind ``trace.arrays[array][index]``.

    For ``scores`` and ``weights`` with one head, a two-part index ``(i, j)`` is accepted. A
    trace drawn by token explains the cell of the computed one its row holds. The
    words around the arithmetic are in ``lang`` (``"en"`` or ``"zh"``); the formulas are the same.
    Numbers print with ``places`` decimals (a frame's hover passes the frame's own).

    Raises
    ------
    KeyError
        If the trace has no such array.
    IndexError
        If the index is outside the array.
    """
    source, cell_index = source_cell(trace, array, tuple(int(k) for k in index))
    return _Explainer(source, lang, places).explain(array, cell_index)


__all__ = ["Explanation", "explain", "made_by", "parse_cell"]
