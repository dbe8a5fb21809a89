"""An independent forward pass for version-2 documents, written from the format's text in plain
numpy (no engine function): per-head loops, explicit masks, torch's TransformerDecoderLayer
order for cross-attention. The tests compare the engine's trace with it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Doc = dict[str, Any]
A = np.ndarray


def ln(x: A, g: A, b: A, eps: float, kind: str) -> A:
    if kind == "none":
        return x.copy()
    if kind == "rmsnorm":
        return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * g
    mu = x.mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps) * g + b


def act(kind: str, z: A) -> A:
    if kind == "relu":
        return np.where(z > 0, z, 0.0)
    if kind == "gelu":
        return np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in z.ravel()]
                        ).reshape(z.shape)
    if kind == "gelu_tanh":
        return 0.5 * z * (1 + np.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z ** 3)))
    if kind == "silu":
        return z / (1 + np.exp(-z))
    return z


def arr(value: object) -> A:
    return np.array(value, dtype=float)


def attention(att: Doc, x: A, mem: A | None, eps: float, out: dict[str, A], s: str,
              causal_default: bool = True) -> A:
    """Multi-head attention, head by head; writes s+Q … s+attn_out."""
    kv = x if mem is None else mem
    h = att.get("heads", 1)
    g = att.get("kv_heads", h)
    Wq, Wk, Wv = arr(att["Wq"]), arr(att["Wk"]), arr(att["Wv"])
    Q = x @ Wq + arr(att.get("bq", 0.0))
    K = kv @ Wk + arr(att.get("bk", 0.0))
    V = kv @ Wv + arr(att.get("bv", 0.0))
    out[s + "Q"], out[s + "K"], out[s + "V"] = Q, K, V
    dk, dv = Wq.shape[1] // h, Wv.shape[1] // g
    if "qk_norm" in att:
        gq, gk = arr(att.get("gamma_q", np.ones(dk))), arr(att.get("gamma_k", np.ones(dk)))
        Q = np.hstack([ln(Q[:, k * dk:(k + 1) * dk], gq, np.zeros(dk), eps, att["qk_norm"])
                       for k in range(h)])
        K = np.hstack([ln(K[:, k * dk:(k + 1) * dk], gk, np.zeros(dk), eps, att["qk_norm"])
                       for k in range(g)])
        out[s + "Q_normed"], out[s + "K_normed"] = Q, K
    n, m = x.shape[0], kv.shape[0]
    causal = mem is None and att.get("causal", causal_default)
    seen = np.ones((n, m), dtype=bool)
    for i in range(n):
        for j in range(m):
            if causal and j > i:
                seen[i, j] = False
            if "window" in att and not i - j < att["window"]:
                seen[i, j] = False
            if "key_mask" in att and att["key_mask"][j] == 0:
                seen[i, j] = False
    scores = np.zeros((h, n, m))
    weights = np.zeros((h, n, m))
    mixed = np.zeros((n, h * dv))
    for head in range(h):
        kvh = head * g // h
        q = Q[:, head * dk:(head + 1) * dk]
        k = K[:, kvh * dk:(kvh + 1) * dk]
        v = V[:, kvh * dv:(kvh + 1) * dv]
        sc = q @ k.T / (math.sqrt(dk) if att.get("scale", True) else 1.0)
        scores[head] = sc
        for i in range(n):
            row = [math.exp(sc[i, j] - max(sc[i, seen[i]])) if seen[i, j] else 0.0
                   for j in range(m)]
            weights[head, i] = np.array(row) / sum(row)
        mixed[:, head * dv:(head + 1) * dv] = weights[head] @ v
    out[s + "scores"], out[s + "weights"], out[s + "mixed"] = scores, weights, mixed
    result = mixed @ arr(att["Wo"]) + arr(att.get("bo", 0.0)) if "Wo" in att else mixed
    out[s + "attn_out"] = result
    return result


def ffn(f: Doc, x: A, out: dict[str, A], s: str) -> A:
    up = x @ arr(f["W1"]) + arr(f.get("b1", 0.0))
    kind = f.get("activation", "relu")
    if "Wg" in f:
        gate = act(kind, x @ arr(f["Wg"]) + arr(f.get("bg", 0.0)))
        out[s + "ffn_gate"], out[s + "ffn_up"] = gate, up
        hidden = gate * up
    else:
        out[s + "ffn_pre"] = up
        hidden = act(kind, up)
    out[s + "ffn_hidden"] = hidden
    out[s + "ffn_out"] = hidden @ arr(f["W2"]) + arr(f.get("b2", 0.0))
    return out[s + "ffn_out"]


def layer(lay: Doc, x: A, mem: A | None, out: dict[str, A], s: str) -> A:
    b = lay.get("block")
    eps = b.get("eps", 1e-5) if b else 1e-5
    causal = not s.startswith("enc.")  # the encoder's self-attention is not causal by default
    if b is None:
        return attention(lay["attention"], x, None, eps, out, s, causal)
    d = x.shape[1]
    kind = b.get("norm", "layernorm")

    def nrm(v: A, which: str) -> A:
        return ln(v, arr(b.get("gamma" + which, np.ones(d))),
                  arr(b.get("beta" + which, np.zeros(d))), eps, kind)

    cross = lay.get("cross_attention")
    if b.get("placement", "pre") == "pre":  # torch norm_first=True
        out[s + "norm1"] = nrm(x, "1")
        a = attention(lay["attention"], out[s + "norm1"], None, eps, out, s, causal)
        stream = out[s + "resid1"] = x + a
        if cross is not None:
            out[s + "cross.norm"] = nrm(stream, "_c")
            c = attention(cross, out[s + "cross.norm"], mem, eps, out, s + "cross.")
            stream = out[s + "cross.resid"] = stream + c
        parallel = b.get("residual") == "parallel"
        out[s + "norm2"] = nrm(x if parallel else stream, "2")
        f = ffn(b["ffn"], out[s + "norm2"], out, s)
        out[s + "resid2"] = stream + f
        return out[s + "resid2"]
    a = attention(lay["attention"], x, None, eps, out, s, causal)  # torch norm_first=False
    out[s + "resid1"] = x + a
    stream = out[s + "norm1"] = nrm(out[s + "resid1"], "1")
    if cross is not None:
        c = attention(cross, stream, mem, eps, out, s + "cross.")
        out[s + "cross.resid"] = stream + c
        stream = out[s + "cross.norm"] = nrm(out[s + "cross.resid"], "_c")
    f = ffn(b["ffn"], stream, out, s)
    out[s + "resid2"] = stream + f
    out[s + "norm2"] = nrm(out[s + "resid2"], "2")
    return out[s + "norm2"]


def forward(doc: Doc) -> dict[str, A]:
    """Every array of a version-2 document with ``layers`` (and maybe an encoder)."""
    out: dict[str, A] = {}
    mem = None
    if "encoder" in doc:
        enc = doc["encoder"]
        x = out["enc.X"] = arr(enc["X"])
        for k, lay in enumerate(enc["layers"]):
            x = layer(lay, x, None, out, f"enc.L{k + 1}.")
        last = enc["layers"][-1].get("block")
        if enc.get("final_norm", bool(last) and last.get("placement", "pre") == "pre"):
            d = x.shape[1]
            x = out["enc.final_norm"] = ln(x, arr(enc.get("gamma_f", np.ones(d))),
                                           arr(enc.get("beta_f", np.zeros(d))),
                                           last.get("eps", 1e-5), last.get("norm", "layernorm"))
        mem = out["enc.memory"] = x
    x = out["X"] = arr(doc["X"])
    for k, lay in enumerate(doc["layers"]):
        x = layer(lay, x, mem, out, f"L{k + 1}.")
    head = doc.get("head")
    if head is not None:
        last = doc["layers"][-1].get("block") or {}
        d = x.shape[1]
        if head.get("final_norm", last.get("placement", "pre") == "pre" and bool(last)):
            x = out["final_norm"] = ln(x, arr(head.get("gamma_f", np.ones(d))),
                                       arr(head.get("beta_f", np.zeros(d))),
                                       head.get("eps", last.get("eps", 1e-5)),
                                       head.get("norm", last.get("norm", "layernorm")))
        if "unembed" in head:
            logits = out["logits"] = x @ arr(head["unembed"]) + arr(head.get("bias", 0.0))
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            out["probs"] = e / e.sum(axis=1, keepdims=True)
    return out
