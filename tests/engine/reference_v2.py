"""An independent reference forward pass for scenario documents, format version 2, in plain numpy.

Written from the format's specification alone (docs: "Version 2" of the scenario format and the
team's v2 contract for the names of the trace arrays), never from engine/: the tests compare the
engine's trace with :func:`forward`, array by array. It favours being obviously right over being
fast: every formula is the spec's, one loop per head, one row at a time where that reads better.

Readings taken where the spec is silent (each is also stated where it is used):

- `embedded` and `positions` exist only with additive positions (sinusoidal, learned); with none,
  RoPE or ALiBi the embedding (or the given X) is `X` itself, as in version 1.
- RoPE and ALiBi act on self-attention only; cross-attention (queries from the decoder, keys from
  the encoder's memory) gets no positional term, as in the 2017 Transformer and T5.
- `rope_angles` uses the document's `rotary_dims` (default: d_k of the first layer).
- ALiBi's bias is written for every pair, hidden or not: −slope·(i − j) when causal, else
  −slope·|i − j|; the mask then hides what it hides.
- `window` is taken literally, query i sees key j only if i − j < w (with `causal: false` the keys
  after i stay visible).
- Parallel residual: norm1 = Norm1(x), norm2 = Norm2(x), resid2 = x + attn_out + ffn_out, one
  sum (no resid1; pre-norm only: the spec gives no post-norm form).
- An encoder without `positions` has none (it does not inherit the decoder's); its final norm
  defaults as the head's does: on when its last layer is pre-norm, with that layer's norm and ε.
- Every encoder layer is non-causal, whatever its `causal` says.
- qk_norm's LayerNorm has a scale (gamma_q / gamma_k) and no shift; `qk_norm_over: "all_heads"`
  norms all h·d_k columns of Q (and g·d_k of K) as one row.
- `pre_norms: false` (pre-norm, sequential, no cross-attention): resid1 = x + attn(x), resid2 =
  resid1 + ffn(resid1).
- With `layers`, a document without `head` has no final norm and no logits (docs/format-v2.md);
  the version-1 shorthand keeps version 1's default final norm after a pre-norm block.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Arrays = dict[str, np.ndarray]
Doc = dict[str, Any]

HEAD_KEYS = ("final_norm", "gamma_f", "beta_f", "unembed", "vocab", "bias", "norm", "eps")


def _m(value: Any) -> np.ndarray:
    return np.array(value, dtype=np.float64)


# ----------------------------------------------------------------------------------- elementwise

def activation(x: np.ndarray, kind: str) -> np.ndarray:
    """relu, gelu (exact, erf), gelu_tanh, silu or identity, element by element."""
    if kind == "relu":
        return np.maximum(x, 0.0)
    if kind == "gelu":
        erf = np.vectorize(math.erf, otypes=[np.float64])
        return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    if kind == "gelu_tanh":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))
    if kind == "silu":
        with np.errstate(over="ignore"):  # exp(−x) = ∞ for very negative x: x / ∞ = −0, right
            return x / (1.0 + np.exp(-x))
    if kind == "identity":
        return x.copy()
    raise ValueError(f"unknown activation {kind!r}")


def norm(x: np.ndarray, kind: str, gamma: np.ndarray, beta: np.ndarray | None,
         eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Norm(x) row by row and its statistics (the contract's `*_stats` columns).

    LayerNorm: (x − μ) / √(σ² + ε) · γ + β, σ² the population variance; stats μ, σ², √(σ²+ε).
    RMSNorm: x / √(mean(x²) + ε) · γ (no β); stats mean(x²), √(mean(x²)+ε).
    none: x unchanged; stats n × 0.
    """
    n, d = x.shape
    if kind == "none":
        return x.copy(), np.zeros((n, 0))
    out = np.empty_like(x)
    if kind == "layernorm":
        stats = np.empty((n, 3))
        for r in range(n):
            mu = sum(x[r]) / d
            var = sum((v - mu) ** 2 for v in x[r]) / d
            root = math.sqrt(var + eps)
            out[r] = (x[r] - mu) / root * gamma + (0.0 if beta is None else beta)
            stats[r] = (mu, var, root)
        return out, stats
    if kind == "rmsnorm":
        stats = np.empty((n, 2))
        for r in range(n):
            mean_sq = sum(v * v for v in x[r]) / d
            root = math.sqrt(mean_sq + eps)
            out[r] = x[r] / root * gamma
            stats[r] = (mean_sq, root)
        return out, stats
    raise ValueError(f"unknown norm {kind!r}")


def softmax_visible(scores: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """Softmax of each row over its visible keys; hidden keys get exactly 0."""
    out = np.zeros_like(scores)
    for i in range(scores.shape[0]):
        keys = np.flatnonzero(visible[i])
        top = max(scores[i, j] for j in keys)
        e = {j: math.exp(scores[i, j] - top) for j in keys}
        total = sum(e.values())
        for j in keys:
            out[i, j] = e[j] / total
    return out


# ------------------------------------------------------------------------------------ positions

def sinusoidal(n: int, d: int, base: float) -> np.ndarray:
    """P[p, 2i] = sin(p / base^(2i/d)), P[p, 2i+1] = cos(p / base^(2i/d))."""
    table = np.zeros((n, d))
    for p in range(n):
        for col in range(d):
            i = col // 2
            angle = p / base ** (2 * i / d)
            table[p, col] = math.sin(angle) if col % 2 == 0 else math.cos(angle)
    return table


def rope_angles(n: int, rotary_dims: int, base: float) -> np.ndarray:
    """angle[p, i] = p · θ_i with θ_i = base^(−2i / rotary_dims), i < rotary_dims / 2."""
    return np.array([[p * base ** (-2 * i / rotary_dims) for i in range(rotary_dims // 2)]
                     for p in range(n)])


def rotate(rows: np.ndarray, heads: int, angles: np.ndarray, pairing: str) -> np.ndarray:
    """Turn each head's first r columns pair by pair, row p by angle[p, i] (r = 2·angles cols).

    half: column i pairs with i + r/2 (Llama, NeoX); interleaved: 2i with 2i + 1 (GPT-J).
    The pair (a, b) becomes (a·cos − b·sin, a·sin + b·cos); columns past r are left alone.
    """
    out = rows.copy()
    d_k = rows.shape[1] // heads
    half = angles.shape[1]
    for head in range(heads):
        c0 = head * d_k
        for p in range(rows.shape[0]):
            for i in range(half):
                first, second = (c0 + i, c0 + i + half) if pairing == "half" else (
                    c0 + 2 * i, c0 + 2 * i + 1)
                a, b = rows[p, first], rows[p, second]
                cos, sin = math.cos(angles[p, i]), math.sin(angles[p, i])
                out[p, first] = a * cos - b * sin
                out[p, second] = a * sin + b * cos
    return out


def alibi_slopes(heads: int) -> list[float]:
    """The default slopes 2^(−8k/h), k = 1..h."""
    return [2.0 ** (-8 * k / heads) for k in range(1, heads + 1)]


def alibi(slopes: list[float], n: int, causal: bool) -> np.ndarray:
    """bias[h, i, j] = −slope_h · (i − j), or −slope_h · |i − j| when not causal (every pair)."""
    out = np.zeros((len(slopes), n, n))
    for h, slope in enumerate(slopes):
        for i in range(n):
            for j in range(n):
                out[h, i, j] = -slope * ((i - j) if causal else abs(i - j))
    return out


class Positions:
    """One stack's position settings (the decoder's `positions`, or the encoder's own)."""

    def __init__(self, spec: Doc | None, n: int, d: int, first_d_k: int) -> None:
        spec = spec or {}
        self.kind: str = spec.get("kind", "none")
        self.base = float(spec.get("base", 10000))
        self.spec = spec
        self.n, self.d = n, d
        self.rotary_dims = int(spec.get("rotary_dims", first_d_k))
        self.pairing: str = spec.get("pairing", "half")

    def added(self) -> np.ndarray | None:
        """The rows added to X (sinusoidal, learned) or None."""
        if self.kind == "sinusoidal":
            return sinusoidal(self.n, self.d, self.base)
        if self.kind == "learned":
            offset = int(self.spec.get("offset", 0))
            return _m(self.spec["table"])[offset:offset + self.n]
        return None

    def angles(self) -> np.ndarray | None:
        return rope_angles(self.n, self.rotary_dims, self.base) if self.kind == "rope" else None


# ------------------------------------------------------------------------------------ attention

def attention(out: Arrays, p: str, a: Doc, x: np.ndarray, *, memory: np.ndarray | None = None,
              pos: Positions | None = None, causal_allowed: bool = True,
              qk_eps: float = 1e-5) -> np.ndarray:
    """One multi-head attention; writes `{p}Q` … `{p}attn_out` into `out`, returns attn_out.

    Queries come from x, keys and values from `memory` for cross-attention (else from x).
    """
    src = x if memory is None else memory
    h = int(a.get("heads", 1))
    g = int(a.get("kv_heads", h))
    q = x @ _m(a["Wq"]) + (_m(a["bq"]) if "bq" in a else 0.0)
    k = src @ _m(a["Wk"]) + (_m(a["bk"]) if "bk" in a else 0.0)
    v = src @ _m(a["Wv"]) + (_m(a["bv"]) if "bv" in a else 0.0)
    out[p + "Q"], out[p + "K"], out[p + "V"] = q, k, v
    d_k = q.shape[1] // h
    d_v = v.shape[1] // g

    if "qk_norm" in a and a.get("qk_norm_over") == "all_heads":  # the whole projection
        kind = a["qk_norm"]
        q = norm(q, kind, _m(a.get("gamma_q", [1.0] * h * d_k)), None, qk_eps)[0]
        k = norm(k, kind, _m(a.get("gamma_k", [1.0] * g * d_k)), None, qk_eps)[0]
        out[p + "Q_normed"], out[p + "K_normed"] = q, k
    elif "qk_norm" in a:  # per head, over its d_k columns, before RoPE
        kind = a["qk_norm"]
        gq = _m(a.get("gamma_q", [1.0] * d_k))
        gk = _m(a.get("gamma_k", [1.0] * d_k))
        q = np.hstack([norm(q[:, i * d_k:(i + 1) * d_k], kind, gq, None, qk_eps)[0]
                       for i in range(h)])
        k = np.hstack([norm(k[:, i * d_k:(i + 1) * d_k], kind, gk, None, qk_eps)[0]
                       for i in range(g)])
        out[p + "Q_normed"], out[p + "K_normed"] = q, k

    angles = pos.angles() if pos is not None and memory is None else None
    if angles is not None:
        q = rotate(q, h, angles, pos.pairing)  # type: ignore[union-attr]
        k = rotate(k, g, angles, pos.pairing)  # type: ignore[union-attr]
        out[p + "Q_rot"], out[p + "K_rot"] = q, k

    n, n_keys = x.shape[0], src.shape[0]
    causal = bool(a.get("causal", True)) and causal_allowed and memory is None
    visible = np.ones((n, n_keys), dtype=bool)
    for i in range(n):
        for j in range(n_keys):
            if causal and j > i:
                visible[i, j] = False
            if "window" in a and not i - j < int(a["window"]):
                visible[i, j] = False
            if "key_mask" in a and a["key_mask"][j] == 0:
                visible[i, j] = False
    out["visible:" + p] = visible

    scores = np.zeros((h, n, n_keys))
    for head in range(h):
        kv = head * g // h  # query head i reads kv head ⌊i·g/h⌋
        qh = q[:, head * d_k:(head + 1) * d_k]
        kh = k[:, kv * d_k:(kv + 1) * d_k]
        scores[head] = qh @ kh.T
        if a.get("scale", True):
            scores[head] = scores[head] / math.sqrt(d_k)
    use_alibi = pos is not None and pos.kind == "alibi" and memory is None
    if use_alibi:
        slopes = [float(s) for s in pos.spec.get("slopes", alibi_slopes(h))]  # type: ignore[union-attr]
        bias = alibi(slopes, n, causal)
        out[p + "qk"], out[p + "alibi"] = scores, bias
        scores = scores + bias
    out[p + "scores"] = scores

    weights = np.stack([softmax_visible(scores[head], visible) for head in range(h)])
    out[p + "weights"] = weights
    mixed = np.hstack([weights[head] @ v[:, (head * g // h) * d_v:(head * g // h + 1) * d_v]
                       for head in range(h)])
    for head in a.get("ablate_heads", []):  # an ablated head's output is 0, before Wo
        mixed[:, head * d_v:(head + 1) * d_v] = 0.0
    out[p + "mixed"] = mixed
    attn_out = mixed
    if "Wo" in a:
        attn_out = mixed @ _m(a["Wo"]) + (_m(a["bo"]) if "bo" in a else 0.0)
    out[p + "attn_out"] = attn_out
    return attn_out


# ------------------------------------------------------------------------------- block and layer

def mixture(out: Arrays, p: str, f: Doc, x: np.ndarray) -> np.ndarray:
    """A mixture of experts, token by token: softmax of x·router, the top_k largest shares
    (renormalised unless ``normalize`` is false), Σ weight · expert(x); plus, with a shared
    expert, 1 / (1 + e^(−x·shared_gate)) · shared(x)."""
    k, experts = f["top_k"], f["experts"]
    logits = x @ _m(f["router"])
    shares = np.exp(logits - logits.max(-1, keepdims=True))
    shares /= shares.sum(-1, keepdims=True)
    chosen = np.array([sorted(range(len(experts)), key=lambda e, r=row: -r[e])[:k]
                       for row in shares])
    picked = np.take_along_axis(shares, chosen, -1)
    weights = picked / picked.sum(-1, keepdims=True) if f.get("normalize", True) else picked
    each = np.array([[ffn({}, "", experts[e], x[i:i + 1])[0] for i, e in enumerate(column)]
                     for column in chosen.T])
    out.update({p + "router_logits": logits, p + "router_shares": shares,
                p + "router_chosen": chosen.astype(float), p + "router_weights": weights,
                p + "expert_out": each})
    out[p + "ffn_out"] = (weights.T[:, :, None] * each).sum(0)
    if "shared" in f:
        gate = 1 / (1 + np.exp(-(x @ _m(f["shared_gate"]))))
        shared = ffn({}, "", f["shared"], x)
        out.update({p + "shared_weight": gate, p + "shared_out": shared})
        out[p + "ffn_out"] = out[p + "ffn_out"] + gate * shared
    return out[p + "ffn_out"]


def ffn(out: Arrays, p: str, f: Doc, x: np.ndarray) -> np.ndarray:
    """The feed-forward network; gated when Wg is given: act(x·Wg + bg) ⊙ (x·W1 + b1); a
    mixture of experts when it has a router."""
    if "router" in f:
        return mixture(out, p, f, x)
    act = f.get("activation", "relu")
    up = x @ _m(f["W1"]) + (_m(f["b1"]) if "b1" in f else 0.0)
    if "Wg" in f:
        gate = activation(x @ _m(f["Wg"]) + (_m(f["bg"]) if "bg" in f else 0.0), act)
        out[p + "ffn_gate"], out[p + "ffn_up"] = gate, up
        hidden = gate * up
    else:
        out[p + "ffn_pre"] = up
        hidden = activation(up, act)
    out[p + "ffn_hidden"] = hidden
    result = hidden @ _m(f["W2"]) + (_m(f["b2"]) if "b2" in f else 0.0)
    out[p + "ffn_out"] = result
    return result


class _Norms:
    """A block's norm kind, ε and named γ/β, writing `name` and `name_stats`."""

    def __init__(self, out: Arrays, block: Doc, d: int) -> None:
        self.out, self.block, self.d = out, block, d
        self.kind: str = block.get("norm", "layernorm")
        self.eps = float(block.get("eps", 1e-5))

    def __call__(self, name: str, x: np.ndarray, gamma: str, beta: str) -> np.ndarray:
        g = _m(self.block.get(gamma, [1.0] * self.d))
        b = _m(self.block.get(beta, [0.0] * self.d))
        y, stats = norm(x, self.kind, g, b, self.eps)
        self.out[name], self.out[name + "_stats"] = y, stats
        return y


def layer(out: Arrays, p: str, lay: Doc, x: np.ndarray, pos: Positions, *,
          memory: np.ndarray | None, causal_allowed: bool = True) -> np.ndarray:
    """One layer: attention (+ cross-attention) (+ block), as the 2017 Transformer orders them."""
    a = lay["attention"]
    block = lay.get("block")
    cross = lay.get("cross_attention")
    eps = float(block.get("eps", 1e-5)) if block else 1e-5
    attend = dict(pos=pos, causal_allowed=causal_allowed, qk_eps=eps)
    if block is None:  # attention alone, as in version 1
        return attention(out, p, a, x, **attend)  # type: ignore[arg-type]
    n_ = _Norms(out, block, x.shape[1])
    cp = p + "cross."

    def cross_attend(rows: np.ndarray) -> np.ndarray:
        assert memory is not None, "cross_attention needs an encoder"
        return attention(out, cp, cross, rows, memory=memory, qk_eps=eps)

    placement = block.get("placement", "pre")
    if block.get("residual", "sequential") == "parallel":
        if placement != "pre" or cross is not None:
            raise NotImplementedError("parallel residual: pre-norm, no cross-attention")
        attn_out = attention(out, p, a, n_(p + "norm1", x, "gamma1", "beta1"), **attend)  # type: ignore[arg-type]
        ffn_in = n_(p + "norm2", x, "gamma2", "beta2")
        out[p + "resid2"] = x + attn_out + ffn(out, p, block["ffn"], ffn_in)
        return out[p + "resid2"]
    if placement == "pre" and block.get("pre_norms", True) is False:  # x + F(x) twice
        stream = out[p + "resid1"] = x + attention(out, p, a, x, **attend)  # type: ignore[arg-type]
        out[p + "resid2"] = stream + ffn(out, p, block["ffn"], stream)
        return out[p + "resid2"]
    if placement == "pre":  # x + F(Norm(x)) three times
        attn_out = attention(out, p, a, n_(p + "norm1", x, "gamma1", "beta1"), **attend)  # type: ignore[arg-type]
        stream = out[p + "resid1"] = x + attn_out
        if cross is not None:
            c = cross_attend(n_(cp + "norm", stream, "gamma_c", "beta_c"))
            stream = out[cp + "resid"] = stream + c
        f = ffn(out, p, block["ffn"], n_(p + "norm2", stream, "gamma2", "beta2"))
        out[p + "resid2"] = stream + f
        return out[p + "resid2"]
    if placement == "post":  # Norm(x + F(x)) three times
        attn_out = attention(out, p, a, x, **attend)  # type: ignore[arg-type]
        out[p + "resid1"] = x + attn_out
        stream = n_(p + "norm1", out[p + "resid1"], "gamma1", "beta1")
        if cross is not None:
            out[cp + "resid"] = stream + cross_attend(stream)
            stream = n_(cp + "norm", out[cp + "resid"], "gamma_c", "beta_c")
        out[p + "resid2"] = stream + ffn(out, p, block["ffn"], stream)
        return n_(p + "norm2", out[p + "resid2"], "gamma2", "beta2")
    raise ValueError(f"unknown placement {placement!r}")


# -------------------------------------------------------------------------------------- stacks

def _inputs(out: Arrays, p: str, source: Doc, embedding: Any, pos: Positions) -> np.ndarray:
    """X, or embedding[token_ids]; then the additive positions (`embedded`, `positions`)."""
    rows = _m(source["X"]) if "X" in source else _m(embedding)[list(source["token_ids"])]
    added = pos.added()
    if added is not None:
        out[p + "embedded"], out[p + "positions"] = rows, added
        rows = rows + added
    out[p + "X"] = rows
    angles = pos.angles()
    if angles is not None:
        out[p + "rope_angles"] = angles
    return rows


def _first_d_k(lay: Doc) -> int:
    a = lay["attention"]
    return len(a["Wq"][0]) // int(a.get("heads", 1))


def _width(source: Doc, embedding: Any) -> tuple[int, int]:
    rows = source["X"] if "X" in source else [embedding[t] for t in source["token_ids"]]
    return len(rows), len(rows[0])


def _final_norm(out: Arrays, name: str, spec: Doc, last_block: Doc | None,
                x: np.ndarray) -> np.ndarray:
    """A stack's last norm: on by default after a pre-norm last layer, its norm kind and ε."""
    last = last_block or {}
    if not spec.get("final_norm", last.get("placement", "pre") == "pre" and bool(last_block)):
        return x
    settings = {"norm": spec.get("norm", last.get("norm", "layernorm")),
                "eps": spec.get("eps", last.get("eps", 1e-5))}
    settings.update({k: spec[k] for k in ("gamma_f", "beta_f") if k in spec})
    return _Norms(out, settings, x.shape[1])(name, x, "gamma_f", "beta_f")


def forward(doc: Doc) -> Arrays:
    """Every named array of the document's trace, computed from the spec.

    Also returns, under `visible:{scope}`, the boolean n × n_keys visibility of each attention
    (not a trace array; the tests compare it with ``Trace.visible_for``).
    """
    out: Arrays = {}
    shorthand = "layers" not in doc
    layers: list[Doc] = ([{"attention": doc["attention"],
                           **({"block": doc["block"]} if "block" in doc else {})}]
                         if shorthand else doc["layers"])
    embedding = doc.get("embedding")

    memory = None
    if "encoder" in doc:
        enc = doc["encoder"]
        n_e, d_e = _width(enc, embedding)
        enc_pos = Positions(enc.get("positions"), n_e, d_e, _first_d_k(enc["layers"][0]))
        stream = _inputs(out, "enc.", enc, embedding, enc_pos)
        for ell, lay in enumerate(enc["layers"], start=1):
            stream = layer(out, f"enc.L{ell}.", lay, stream, enc_pos, memory=None,
                           causal_allowed=False)
        stream = _final_norm(out, "enc.final_norm", enc, enc["layers"][-1].get("block"), stream)
        memory = out["enc.memory"] = stream

    n, d = _width(doc, embedding)
    pos = Positions(doc.get("positions"), n, d, _first_d_k(layers[0]))
    stream = _inputs(out, "", doc, embedding, pos)
    for ell, lay in enumerate(layers, start=1):
        stream = layer(out, "" if shorthand else f"L{ell}.", lay, stream, pos, memory=memory)

    head = dict(doc.get("head", {}))
    if shorthand and "block" in doc:  # version 1 keeps the head's keys in `block`
        head.update({k: doc["block"][k] for k in HEAD_KEYS if k in doc["block"]})
    last_block = layers[-1].get("block")
    if "head" in doc or (shorthand and last_block is not None):  # no `head`: no final norm
        stream = _final_norm(out, "final_norm", head, last_block, stream)
    if "unembed" in head:
        logits = stream @ _m(head["unembed"]) + (_m(head["bias"]) if "bias" in head else 0.0)
        out["logits"] = logits
        out["probs"] = np.stack([softmax_visible(row[None, :], np.ones((1, row.size), bool))[0]
                                 for row in logits])
        if "targets" in doc:
            picked = out["probs"][np.arange(n), doc["targets"]]
            out["loss"] = -np.log(picked)
            out["loss_mean"] = np.array([out["loss"].mean()])
        elif "token_ids" in doc and _room_for_one_more(doc.get("positions"), n):
            out.update(next_token_draw(logits[-1], doc.get("generation", {})))
    return out


def _room_for_one_more(positions: Doc | None, n: int) -> bool:
    """A learned table needs a row for position n (offset + n) to take one more token."""
    if positions is None or positions.get("kind") != "learned":
        return True
    return positions.get("offset", 0) + n + 1 <= len(positions["table"])


def next_token_draw(logits: np.ndarray, run: Doc) -> Arrays:
    """The next token's draw, from the spec's words: softmax(logits / T) (T = 0: all on the
    first largest logit), top-k, then the smallest most-probable-first prefix whose renormalised
    mass reaches top-p, renormalised; draw t = len(chosen) + 1 takes one uniform number of
    default_rng((seed, t)) and the first kept id whose running share passes it."""
    temperature, top_k, top_p = (run.get("temperature", 1.0), run.get("top_k"),
                                 run.get("top_p", 1.0))
    t = len(run.get("chosen", [])) + 1
    if temperature == 0:
        tempered = np.zeros(logits.size)
        tempered[int(np.argmax(logits))] = 1.0
    else:
        tempered = softmax_visible((logits / temperature)[None, :],
                                   np.ones((1, logits.size), bool))[0]
    order = sorted((k for k in range(logits.size) if tempered[k] > 0),
                   key=lambda k: (-tempered[k], k))[:top_k]
    kept: list[int] = []
    total = sum(tempered[k] for k in order)
    for k in order:
        kept.append(k)
        if top_p < 1 and sum(tempered[j] for j in kept) / total >= top_p:
            break
    shares = np.zeros(logits.size)
    shares[kept] = tempered[kept] / tempered[kept].sum()
    u = np.random.default_rng((run.get("seed", 0), t)).random()
    running = np.cumsum(shares[kept])
    chosen = next((k for k, mass in zip(kept, running, strict=True) if mass > u), kept[-1])
    return {f"gen{t}.logits": logits, f"gen{t}.tempered": tempered,
            f"gen{t}.kept": np.array(kept, dtype=np.float64), f"gen{t}.sample_probs": shares,
            f"gen{t}.chosen": np.array([float(chosen)])}


def trace_arrays(arrays: Arrays) -> Arrays:
    """The arrays alone, without the `visible:` masks."""
    return {k: v for k, v in arrays.items() if not k.startswith("visible:")}
