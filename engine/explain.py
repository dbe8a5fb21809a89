"""Per-cell arithmetic: the terms that made one number of a trace, computed on demand."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.numbers import format_exact, format_factor, format_number
from engine.ops import row_mean
from engine.phrases import phrase
from engine.reader import FloatArray
from engine.trace import Trace

_MAX_TERMS = 8
_CELL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\[\s*([0-9\s,]+)\]\s*$")


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
    """Split ``"Q[1,0]"`` into ``("Q", (1, 0))``.

    Raises
    ------
    ValueError
        If the reference is not of the form ``NAME[i,j]``.
    """
    match = _CELL.match(reference)
    if not match:
        raise ValueError(f"{reference!r}: expected ARRAY[i,j], for example Q[1,0] or "
                         "weights[0,1,0]")
    parts = [p.strip() for p in match.group(2).split(",")]
    if any(not p.isdigit() for p in parts):
        raise ValueError(f"{reference!r}: indices must be whole numbers from 0")
    return match.group(1), tuple(int(p) for p in parts)


def _cell(name: str, index: Sequence[int]) -> str:
    return f"{name}[{','.join(str(k) for k in index)}]"


def _sum_text(count: int, term: Callable[[int], tuple[str, str]],
              lang: str = "en") -> tuple[str, str]:
    """The symbols and the values of a sum of ``count`` terms, each joined by `` + ``.

    ``term(t)`` gives the symbol and the value text of term ``t``. A sum of more than
    ``_MAX_TERMS`` terms shows its first terms, an ellipsis and its last term, and only the terms
    shown are formatted (a width-256 row costs as little as a short one).
    """
    if count > _MAX_TERMS:
        keep = _MAX_TERMS - 2
        shown = [term(t) for t in range(keep)]
        last = term(count - 1)
        symbols = [*(sym for sym, _ in shown), phrase(lang, "terms", count=count), last[0]]
        values = [*(num for _, num in shown), "…", last[1]]
    else:
        pairs = [term(t) for t in range(count)]
        symbols = [sym for sym, _ in pairs]
        values = [num for _, num in pairs]
    return " + ".join(symbols), " + ".join(values)


def _dot(result: str, left: tuple[str, int, FloatArray], right: tuple[str, int, FloatArray],
         bias: tuple[str, float] | None, value: float, lang: str = "en") -> str:
    """``Q[1,0] = X[1,0]·Wq[0,0] + … = 1·1 + … = 2``: a row of ``left`` by a column of ``right``."""
    lname, row, lvec = left
    rname, col, rvec = right
    width = len(lvec)
    if len(rvec) != width:
        raise ValueError(f"{result}: {width} terms on the left, {len(rvec)} on the right")

    def term(t: int) -> tuple[str, str]:
        if t == width and bias is not None:
            return f"{bias[0]}[{col}]", format_factor(bias[1])
        return (f"{lname}[{row},{t}]·{rname}[{t},{col}]",
                f"{format_factor(float(lvec[t]))}·{format_factor(float(rvec[t]))}")

    sym, num = _sum_text(width + (bias is not None), term, lang)
    return f"{result} = {sym} = {num} = {format_number(value)}"


class _Explainer:
    def __init__(self, trace: Trace, lang: str = "en") -> None:
        self.lang = lang
        self.trace = trace
        self.s = trace.scenario
        self.a = trace.arrays
        block = self.s.block
        self.pre = block is None or block.placement == "pre"
        self.attention_input = "norm1" if block is not None and self.pre else "X"

    def say(self, key: str, /, **fields: object) -> str:
        return phrase(self.lang, key, **fields)

    def _sum_terms(self, count: int, term: Callable[[int], tuple[str, str]]) -> tuple[str, str]:
        return _sum_text(count, term, self.lang)

    def _dot_terms(self, result: str, left: tuple[str, int, FloatArray],
                   right: tuple[str, int, FloatArray], bias: tuple[str, float] | None,
                   value: float) -> str:
        return _dot(result, left, right, bias, value, self.lang)

    def explain(self, name: str, index: tuple[int, ...]) -> Explanation:
        if name not in self.a:
            known = ", ".join(self.a)
            raise KeyError(f"{name}: no such array in this trace (it has {known})")
        array = self.a[name]
        if name in ("scores", "weights") and len(index) == 2 and array.shape[0] == 1:
            index = (0, *index)
        if len(index) != array.ndim or any(not 0 <= k < n for k, n in zip(index, array.shape,
                                                                          strict=True)):
            shape = "×".join(str(n) for n in array.shape)
            raise IndexError(f"{_cell(name, index)}: outside the {shape} array {name}")
        value = float(array[index])
        method = getattr(self, f"_{name}")
        formula, details = method(index, value)
        return Explanation(name, index, value, formula, tuple(details))

    # -- inputs ---------------------------------------------------------------------------
    def _X(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        i, j = index
        token = self.s.tokens[i]
        if self.s.token_ids is not None:
            tid = self.s.token_ids[i]
            return (f"X[{i},{j}] = embedding[{tid},{j}] = {format_number(value)}",
                    [self.say("embedding_row", token=token, tid=tid, i=i)])
        return (f"X[{i},{j}] = {format_number(value)}",
                [self.say("typed_input", token=token, j=j)])

    # -- attention --------------------------------------------------------------------------
    def _projection(self, out: str, weight: str, bias_name: str, index: tuple[int, ...],
                    value: float) -> tuple[str, list[str]]:
        i, c = index
        att = self.s.attention
        matrix = getattr(att, weight)
        bias = getattr(att, bias_name)
        src = self.a[self.attention_input]
        term_bias = (bias_name, float(bias[c])) if bias is not None else None
        text = self._dot_terms(_cell(out, index), (self.attention_input, i, src[i]),
                               (weight, c, matrix[:, c]), term_bias, value)
        width = att.d_v if out == "V" else att.d_k
        details = [self.say("head_column", c=c, head=c // width + 1, heads=att.heads)] \
            if att.heads > 1 \
            else []
        return text, details

    def _Q(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._projection("Q", "Wq", "bq", index, value)

    def _K(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._projection("K", "Wk", "bk", index, value)

    def _V(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._projection("V", "Wv", "bv", index, value)

    def _scores(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        h, i, j = index
        att = self.s.attention
        cols = range(h * att.d_k, (h + 1) * att.d_k)
        q, k = self.a["Q"], self.a["K"]

        def term(t: int) -> tuple[str, str]:
            c = cols[t]
            return (f"Q[{i},{c}]·K[{j},{c}]",
                    f"{format_factor(float(q[i, c]))}·{format_factor(float(k[j, c]))}")

        sym, num = self._sum_terms(len(cols), term)
        dot = float(q[i, list(cols)] @ k[j, list(cols)])
        name = _cell("scores", index)
        if att.scale:
            text = (f"{name} = ({sym}) / √{att.d_k} = ({num}) / {format_number(math.sqrt(att.d_k))}"
                    f" = {format_number(dot)} / {format_number(math.sqrt(att.d_k))}"
                    f" = {format_number(value)}")
        else:
            text = f"{name} = {sym} = {num} = {format_number(value)}"
        details = [self.say("query_key", query=self.s.tokens[i], key=self.s.tokens[j],
                            head=h + 1)]
        if not self.trace.visible[i, j]:
            details.append(self.say("mask_will_hide", i=i, j=j))
        return text, details

    def _weights(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        h, i, j = index
        row = self.a["scores"][h, i].tolist()
        seen = self.trace.visible[i]
        visible = np.flatnonzero(seen).tolist()
        hidden = np.flatnonzero(~seen).tolist()
        name = _cell("weights", index)
        masked = (self.say("masked_keys", i=i, keys=", ".join(str(k) for k in hidden))
                  if hidden else self.say("none_masked"))
        if j in hidden:
            return (f"{name} {self.say('masked_share', j=j, token=self.s.tokens[j], i=i)}",
                    [masked])
        top = max(row[k] for k in visible)
        total = sum(math.exp(row[k] - top) for k in visible)
        sym, num = self._sum_terms(len(visible), lambda t: (
            f"exp(s{visible[t]} − max)", f"exp({format_number(row[visible[t]] - top)})"))
        text = (f"{name} = exp(s{j} − max) / ({sym}) = exp({format_number(row[j] - top)})"
                f" / ({num}) = {format_number(math.exp(row[j] - top))} / "
                f"{format_number(total)} = {format_number(value)}")
        details = [self.say("row_max", h=h, i=i, top=format_number(top)),
                   masked]
        if len(visible) == 1:
            details.append(self.say("one_key"))
        return text, details

    def _mixed(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        i, c = index
        att = self.s.attention
        h = c // att.d_v
        w, v = self.a["weights"][h, i], self.a["V"][:, c]
        keys = np.flatnonzero(self.trace.visible[i]).tolist()
        sym, num = self._sum_terms(len(keys), lambda t: (
            f"weights[{h},{i},{keys[t]}]·V[{keys[t]},{c}]",
            f"{format_factor(float(w[keys[t]]))}·{format_factor(float(v[keys[t]]))}"))
        return (f"mixed[{i},{c}] = {sym} = {num} = {format_number(value)}",
                [self.say("mix_note", c=c, head=h + 1, local=c - h * att.d_v)])

    def _attn_out(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        i, c = index
        att = self.s.attention
        if att.Wo is None:
            return (f"attn_out[{i},{c}] = mixed[{i},{c}] = {format_number(value)}",
                    [self.say("no_wo")])
        bias = ("bo", float(att.bo[c])) if att.bo is not None else None
        return self._dot_terms(_cell("attn_out", index), ("mixed", i, self.a["mixed"][i]),
                               ("Wo", c, att.Wo[:, c]), bias, value), []

    # -- block ------------------------------------------------------------------------------
    def _norm(self, name: str, source: str, which: str, index: tuple[int, ...],
              value: float) -> tuple[str, list[str]]:
        block = self.s.block
        assert block is not None
        i, j = index
        x = self.a[source][i]
        gamma = {"1": block.gamma1, "2": block.gamma2, "f": block.gamma_f}[which]
        beta = {"1": block.beta1, "2": block.beta2, "f": block.beta_f}[which]
        g, b, e = float(gamma[j]), float(beta[j]), block.eps
        cell, xj = _cell(name, index), format_factor(float(x[j]))
        if block.norm == "none":
            return f"{cell} = {source}[{i},{j}] = {format_number(value)}", [self.say("norm_off")]
        if block.norm == "rmsnorm":
            ms = float(np.mean(x**2))
            return (f"{cell} = x / √(mean(x²) + ε) · γ = {xj} / √({format_number(ms)} + "
                    f"{format_exact(e)}) · {format_factor(g)} = {format_number(value)}",
                    [self.say("rms_stats", source=source, i=i, ms=format_number(ms),
                              eps=format_exact(e), j=j, gamma=format_number(g))])
        mean = float(row_mean(x)[0])
        var = float(np.mean((x - mean) ** 2))
        return (f"{cell} = (x − μ) / √(σ² + ε) · γ + β = ({xj} − {format_factor(mean)}) / "
                f"√({format_number(var)} + {format_exact(e)}) · {format_factor(g)} + "
                f"{format_factor(b)} = {format_number(value)}",
                [self.say("layer_stats", source=source, i=i, mean=format_number(mean),
                          var=format_number(var), eps=format_exact(e), j=j, gamma=format_number(g),
                          beta=format_number(b))])

    def _norm1(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._norm("norm1", "X" if self.pre else "resid1", "1", index, value)

    def _norm2(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._norm("norm2", "resid1" if self.pre else "resid2", "2", index, value)

    def _final_norm(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._norm("final_norm", "resid2" if self.pre else "norm2", "f", index, value)

    def _sum(self, name: str, left: str, right: str, index: tuple[int, ...],
             value: float) -> tuple[str, list[str]]:
        a, b = float(self.a[left][index]), float(self.a[right][index])
        return (f"{_cell(name, index)} = {_cell(left, index)} + {_cell(right, index)} = "
                f"{format_number(a)} + {format_factor(b)} = {format_number(value)}", [])

    def _resid1(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._sum("resid1", "X", "attn_out", index, value)

    def _resid2(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        return self._sum("resid2", "resid1" if self.pre else "norm1", "ffn_out", index, value)

    def _ffn_hidden(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        block = self.s.block
        assert block is not None
        i, c = index
        source = "norm2" if self.pre else "norm1"
        ffn = block.ffn
        bias = ("b1", float(ffn.b1[c])) if ffn.b1 is not None else None
        z = float(self.a[source][i] @ ffn.W1[:, c]) + (bias[1] if bias else 0.0)
        pre = self._dot_terms(f"z[{i},{c}]", (source, i, self.a[source][i]),
                              ("W1", c, ffn.W1[:, c]), bias, z)
        act = ffn.activation
        note = self.say(act)
        zeroed = [self.say("zeroed")] if act == "relu" and z <= 0 else [""]
        return (f"ffn_hidden[{i},{c}] = {act}(z[{i},{c}]) = {act}({format_number(z)}) = "
                f"{format_number(value)}", [pre, note + zeroed[0]])

    def _ffn_out(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        block = self.s.block
        assert block is not None
        i, c = index
        ffn = block.ffn
        bias = ("b2", float(ffn.b2[c])) if ffn.b2 is not None else None
        hidden = self.a["ffn_hidden"][i]
        return self._dot_terms(_cell("ffn_out", index), ("ffn_hidden", i, hidden),
                               ("W2", c, ffn.W2[:, c]), bias, value), []

    def _logits(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        block = self.s.block
        assert block is not None and block.unembed is not None
        i, c = index
        source = "final_norm" if block.final_norm else ("resid2" if self.pre else "norm2")
        return (self._dot_terms(_cell("logits", index), (source, i, self.a[source][i]),
                                ("unembed", c, block.unembed[:, c]), None, value),
                [self.say("vocab_entry", entry=block.vocab[c])])

    def _probs(self, index: tuple[int, ...], value: float) -> tuple[str, list[str]]:
        block = self.s.block
        assert block is not None
        i, c = index
        row = self.a["logits"][i]
        top = float(row.max())
        with np.errstate(over="ignore"):  # a shift past −1.8e308 is −∞: its exp is exactly 0
            total = float(np.exp(row - top).sum())
        sym, num = self._sum_terms(len(row), lambda k: (f"exp(l{k} − max)",
                                                  f"exp({format_number(float(row[k]) - top)})"))
        return (f"probs[{i},{c}] = exp(l{c} − max) / ({sym}) = "
                f"exp({format_number(float(row[c]) - top)}) / ({num}) = "
                f"{format_number(math.exp(float(row[c]) - top))} / {format_number(total)} = "
                f"{format_number(value)}",
                [self.say("prob_row", i=i, top=format_number(top), entry=block.vocab[c],
                          token=self.s.tokens[i])])


def explain(trace: Trace, array: str, index: Sequence[int], lang: str = "en") -> Explanation:
    """The arithmetic behind ``trace.arrays[array][index]``.

    For ``scores`` and ``weights`` with one head, a two-part index ``(i, j)`` is accepted. The
    words around the arithmetic are in ``lang`` (``"en"`` or ``"zh"``); the formulas are the same.

    Raises
    ------
    KeyError
        If the trace has no such array.
    IndexError
        If the index is outside the array.
    """
    return _Explainer(trace, lang).explain(array, tuple(int(k) for k in index))


__all__ = ["Explanation", "explain", "parse_cell"]
