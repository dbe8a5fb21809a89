"""An independent way to the numbers of a Hugging Face checkpoint, for the importer's tests.

`stored` reads a safetensors file by its format (an 8-byte header length, a JSON header, the raw
bytes), without the safetensors package or ml_dtypes: bfloat16 is widened as the upper half of a
float32. `hf_forward` computes the model in numpy the way transformers writes it — ``nn.Linear``
as x·Wᵀ + b, GPT-2's Conv1D as x·W + b, GPT-NeoX's fused projection viewed per head,
``rotate_half`` with cos/sin repeated over both halves, ``repeat_kv`` for grouped heads — from
the stored tensors and config, never from the imported document.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

import numpy as np

Array = np.ndarray
DTYPES = {"F64": np.float64, "F32": np.float32, "F16": np.float16}
FIXTURES = Path(__file__).resolve().parent / "checkpoints"
FAMILIES = ("gpt2", "llama", "mistral", "qwen2", "gpt_neox", "gemma", "bert", "qwen3", "phi",
            "opt", "mixtral", "qwen3_moe")


def stored(file: Path) -> dict[str, Array]:
    """Every tensor of a safetensors file, widened to float64."""
    raw = file.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + length])
    header.pop("__metadata__", None)
    data = raw[8 + length:]
    tensors = {}
    for name, entry in header.items():
        start, end = entry["data_offsets"]
        if entry["dtype"] == "BF16":
            halves = np.frombuffer(data[start:end], dtype="<u2").astype(np.uint32)
            values = (halves << 16).view(np.float32)
        else:
            values = np.frombuffer(data[start:end], dtype=np.dtype(DTYPES[entry["dtype"]]))
        tensors[name] = values.astype(np.float64).reshape(entry["shape"])
    return tensors


def config_of(folder: Path) -> dict[str, Any]:
    config: dict[str, Any] = json.loads((folder / "config.json").read_text("utf-8"))
    return config


def _layer_norm(x: Array, weight: Array, bias: Array, eps: float) -> Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _rms_norm(x: Array, weight: Array, eps: float) -> Array:
    return weight * (x / np.sqrt((x * x).mean(-1, keepdims=True) + eps))


def _softmax(x: Array) -> Array:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _act(name: str, x: Array) -> Array:
    if name in ("gelu_new", "gelu_pytorch_tanh"):
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    if name == "relu":
        return np.maximum(x, 0.0)
    if name == "gelu":
        return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    assert name == "silu", name
    return x / (1 + np.exp(-x))


def _rotate_half(x: Array) -> Array:
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def _rope(q: Array, k: Array, dims: int, base: float) -> tuple[Array, Array]:
    """q, k: heads × n × d_k; the first ``dims`` columns turned as transformers does."""
    n = q.shape[1]
    inv_freq = 1.0 / base ** (np.arange(0, dims, 2, dtype=np.float64) / dims)
    freqs = np.arange(n, dtype=np.float64)[:, None] * inv_freq[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)

    def turn(x: Array) -> Array:
        rot, rest = x[..., :dims], x[..., dims:]
        return np.concatenate([rot * cos + _rotate_half(rot) * sin, rest], axis=-1)

    return turn(q), turn(k)


def _attend(q: Array, k: Array, v: Array, window: int | None) -> tuple[Array, Array]:
    """heads × n × d each (k, v already repeated): shares and the mixed rows (n × heads·d_v)."""
    n = q.shape[1]
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    allowed = j <= i
    if window is not None:
        allowed &= i - j < window
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
    shares = _softmax(np.where(allowed, scores, -np.inf))
    mixed = (shares @ v).transpose(1, 0, 2).reshape(n, -1)
    return shares, mixed


def _linear(t: dict[str, Array], name: str, y: Array) -> Array:
    """``nn.Linear``: y·Wᵀ (+ b where the checkpoint has a bias)."""
    result = y @ t[name + ".weight"].T
    return result + t[name + ".bias"] if name + ".bias" in t else result


def _conv1d(t: dict[str, Array], name: str, y: Array) -> Array:
    """GPT-2's Conv1D: y·W + b, its weight stored in × out."""
    return y @ t[name + ".weight"] + t[name + ".bias"]


def _gpt2(c: dict[str, Any], t: dict[str, Array], ids: list[int], out: dict[str, Any]) -> Array:
    p, d, h = "transformer.", c["n_embd"], c["n_head"]
    x = t[p + "wte.weight"][ids] + t[p + "wpe.weight"][: len(ids)]
    for k in range(c["n_layer"]):
        at, eps = f"{p}h.{k}.", c["layer_norm_epsilon"]
        a = _layer_norm(x, t[at + "ln_1.weight"], t[at + "ln_1.bias"], eps)
        qkv = _conv1d(t, at + "attn.c_attn", a)
        q, key, v = (part.reshape(len(ids), h, d // h).transpose(1, 0, 2)
                     for part in np.split(qkv, 3, axis=-1))
        shares, mixed = _attend(q, key, v, None)
        x = x + _conv1d(t, at + "attn.c_proj", mixed)
        m = _layer_norm(x, t[at + "ln_2.weight"], t[at + "ln_2.bias"], eps)
        hidden = _act(c["activation_function"], _conv1d(t, at + "mlp.c_fc", m))
        x = x + _conv1d(t, at + "mlp.c_proj", hidden)
        out["shares"].append(shares)
        out["outputs"].append(x)
    final = _layer_norm(x, t[p + "ln_f.weight"], t[p + "ln_f.bias"], c["layer_norm_epsilon"])
    return final @ t[p + "wte.weight"].T


def _rope_base(c: dict[str, Any]) -> float:
    rope = c.get("rope_parameters") or {}
    return float(rope.get("rope_theta") or c.get("rope_theta") or c.get("rotary_emb_base")
                 or 10000.0)


def _llama(c: dict[str, Any], t: dict[str, Array], ids: list[int], out: dict[str, Any]) -> Array:
    n, h = len(ids), c["num_attention_heads"]
    g = c.get("num_key_value_heads") or h
    d_k = c.get("head_dim") or c["hidden_size"] // h
    window = c.get("sliding_window") if c["model_type"] == "mistral" else None
    gemma = c["model_type"] == "gemma"  # x·√d (a float32 number), 1 + weight, tied head
    x = t["model.embed_tokens.weight"][ids]
    if gemma:
        x = x * float(np.float32(math.sqrt(c["hidden_size"])))

    def linear(name: str, y: Array) -> Array:
        return _linear(t, name, y)

    def rms(y: Array, name: str) -> Array:
        return _rms_norm(y, t[name] + (1.0 if gemma else 0.0), c["rms_norm_eps"])

    for k in range(c["num_hidden_layers"]):
        at = f"model.layers.{k}."
        a = rms(x, at + "input_layernorm.weight")
        q = linear(at + "self_attn.q_proj", a).reshape(n, h, d_k).transpose(1, 0, 2)
        key = linear(at + "self_attn.k_proj", a).reshape(n, g, d_k).transpose(1, 0, 2)
        v = linear(at + "self_attn.v_proj", a).reshape(n, g, d_k).transpose(1, 0, 2)
        if at + "self_attn.q_norm.weight" in t:  # Qwen3: each head's rows RMSNormed
            q = _rms_norm(q, t[at + "self_attn.q_norm.weight"], c["rms_norm_eps"])
            key = _rms_norm(key, t[at + "self_attn.k_norm.weight"], c["rms_norm_eps"])
        q, key = _rope(q, key, d_k, _rope_base(c))
        key, v = np.repeat(key, h // g, axis=0), np.repeat(v, h // g, axis=0)
        shares, mixed = _attend(q, key, v, window)
        x = x + linear(at + "self_attn.o_proj", mixed)
        m = rms(x, at + "post_attention_layernorm.weight")
        if c["model_type"] == "mixtral":
            x = x + _experts(c, t, at + "block_sparse_moe.", m, ("w1", "w3", "w2"), True)
        elif at + "mlp.gate.weight" in t:  # Qwen3-MoE's sparse layer
            x = x + _experts(c, t, at + "mlp.", m, ("gate_proj", "up_proj", "down_proj"),
                             c["norm_topk_prob"])
        else:
            gate = _act(c["hidden_act"], linear(at + "mlp.gate_proj", m))
            gated = gate * linear(at + "mlp.up_proj", m)
            x = x + linear(at + "mlp.down_proj", gated)
        out["shares"].append(shares)
        out["outputs"].append(x)
    final = rms(x, "model.norm.weight")
    tied = c.get("tie_word_embeddings", gemma)
    head = t["model.embed_tokens.weight"] if tied else t["lm_head.weight"]
    return final @ head.T


def _experts(c: dict[str, Any], t: dict[str, Array], at: str, m: Array,
             names: tuple[str, str, str], normalize: bool) -> Array:
    """A sparse MoE, token by token: softmax of the router's logits, the top k shares
    (renormalised when ``normalize``), each chosen expert's SwiGLU (``names``: its gate, up and
    down projections; Mixtral's w1, w3, w2) weighted."""
    out = np.zeros_like(m)
    for i, row in enumerate(m):
        probs = _softmax(row @ t[at + "gate.weight"].T)
        top = sorted(range(len(probs)), key=lambda e: -probs[e])[:c["num_experts_per_tok"]]
        total = sum(probs[e] for e in top) if normalize else 1.0
        for e in top:
            def proj(name: str, y: Array, e: int = e) -> Array:
                return y @ t[f"{at}experts.{e}.{name}.weight"].T
            hidden = _act(c["hidden_act"], proj(names[0], row)) * proj(names[1], row)
            out[i] += probs[e] / total * proj(names[2], hidden)
    return out


def _gpt_neox(c: dict[str, Any], t: dict[str, Array], ids: list[int],
              out: dict[str, Any]) -> Array:
    p, n, h = "gpt_neox.", len(ids), c["num_attention_heads"]
    d_k = c["hidden_size"] // h
    dims = int(d_k * c.get("rotary_pct", c.get("partial_rotary_factor", 0.25)))
    x = t[p + "embed_in.weight"][ids]
    for k in range(c["num_hidden_layers"]):
        at, eps = f"{p}layers.{k}.", c["layer_norm_eps"]
        a = _layer_norm(x, t[at + "input_layernorm.weight"], t[at + "input_layernorm.bias"], eps)
        qkv = _linear(t, at + "attention.query_key_value", a)
        qkv = qkv.reshape(n, h, 3 * d_k).transpose(1, 0, 2)  # per head: [q, k, v]
        q, key, v = np.split(qkv, 3, axis=-1)
        q, key = _rope(q, key, dims, _rope_base(c))
        shares, mixed = _attend(q, key, v, None)
        attn = _linear(t, at + "attention.dense", mixed)
        m = _layer_norm(x, t[at + "post_attention_layernorm.weight"],
                        t[at + "post_attention_layernorm.bias"], eps)
        hidden = _act(c["hidden_act"], _linear(t, at + "mlp.dense_h_to_4h", m))
        x = x + attn + _linear(t, at + "mlp.dense_4h_to_h", hidden)  # the parallel residual
        out["shares"].append(shares)
        out["outputs"].append(x)
    final = _layer_norm(x, t[p + "final_layer_norm.weight"], t[p + "final_layer_norm.bias"],
                        c["layer_norm_eps"])
    return final @ t["embed_out.weight"].T


def _phi(c: dict[str, Any], t: dict[str, Array], ids: list[int], out: dict[str, Any]) -> Array:
    """One LayerNorm feeds attention and the MLP side by side; q/k LayerNormed per head."""
    n, h, eps = len(ids), c["num_attention_heads"], c["layer_norm_eps"]
    g = c.get("num_key_value_heads") or h
    d_k = c["hidden_size"] // h
    dims = int(d_k * c["partial_rotary_factor"])
    x = t["model.embed_tokens.weight"][ids]
    for k in range(c["num_hidden_layers"]):
        at = f"model.layers.{k}."
        a = _layer_norm(x, t[at + "input_layernorm.weight"], t[at + "input_layernorm.bias"], eps)

        def heads(name: str, count: int, y: Array = a) -> Array:
            return _linear(t, name, y).reshape(n, count, d_k).transpose(1, 0, 2)

        q, key = heads(at + "self_attn.q_proj", h), heads(at + "self_attn.k_proj", g)
        v = heads(at + "self_attn.v_proj", g)
        if c.get("qk_layernorm"):
            q = _layer_norm(q, t[at + "self_attn.q_layernorm.weight"],
                            t[at + "self_attn.q_layernorm.bias"], eps)
            key = _layer_norm(key, t[at + "self_attn.k_layernorm.weight"],
                              t[at + "self_attn.k_layernorm.bias"], eps)
        q, key = _rope(q, key, dims, _rope_base(c))
        key, v = np.repeat(key, h // g, axis=0), np.repeat(v, h // g, axis=0)
        shares, mixed = _attend(q, key, v, None)
        hidden = _act(c["hidden_act"], _linear(t, at + "mlp.fc1", a))
        x = x + _linear(t, at + "self_attn.dense", mixed) + _linear(t, at + "mlp.fc2", hidden)
        out["shares"].append(shares)
        out["outputs"].append(x)
    final = _layer_norm(x, t["model.final_layernorm.weight"], t["model.final_layernorm.bias"], eps)
    return _linear(t, "lm_head", final)


def _opt(c: dict[str, Any], t: dict[str, Array], ids: list[int], out: dict[str, Any]) -> Array:
    """Positions from row 2; pre- or post-norm; the embedding projected in and out when it is
    narrower than the layers."""
    p, n, h = "model.decoder.", len(ids), c["num_attention_heads"]
    d_k = c["hidden_size"] // h
    pre = c.get("do_layer_norm_before", True)
    x = t[p + "embed_tokens.weight"][ids]
    if p + "project_in.weight" in t:
        x = _linear(t, p + "project_in", x)
    x = x + t[p + "embed_positions.weight"][2:n + 2]

    def norm(y: Array, name: str) -> Array:
        return _layer_norm(y, t[name + ".weight"], t[name + ".bias"], 1e-5)

    for k in range(c["num_hidden_layers"]):
        at = f"{p}layers.{k}."
        a = norm(x, at + "self_attn_layer_norm") if pre else x

        def heads(name: str, y: Array = a) -> Array:
            return _linear(t, name, y).reshape(n, h, d_k).transpose(1, 0, 2)

        q, key, v = (heads(f"{at}self_attn.{name}") for name in ("q_proj", "k_proj", "v_proj"))
        shares, mixed = _attend(q, key, v, None)
        x = x + _linear(t, at + "self_attn.out_proj", mixed)
        if not pre:
            x = norm(x, at + "self_attn_layer_norm")
        m = norm(x, at + "final_layer_norm") if pre else x
        x = x + _linear(t, at + "fc2", _act(c["activation_function"], _linear(t, at + "fc1", m)))
        if not pre:
            x = norm(x, at + "final_layer_norm")
        out["shares"].append(shares)
        out["outputs"].append(x)
    if pre:
        x = norm(x, p + "final_layer_norm")
    if p + "project_out.weight" in t:
        x = _linear(t, p + "project_out", x)
    return x @ t[p + "embed_tokens.weight"].T


def _bert(c: dict[str, Any], t: dict[str, Array], ids: list[int],
          out: dict[str, Any]) -> None:
    """``BertModel``: word + position + type rows (``out["types"]``, else all 0), LayerNorm;
    post-norm layers; no head."""
    n, h, eps = len(ids), c["num_attention_heads"], c["layer_norm_eps"]
    d_k = c["hidden_size"] // h
    e = "embeddings."
    types = out.get("types") or [0] * n
    x = (t[e + "word_embeddings.weight"][ids] + t[e + "position_embeddings.weight"][:n]
         + t[e + "token_type_embeddings.weight"][types])
    x = _layer_norm(x, t[e + "LayerNorm.weight"], t[e + "LayerNorm.bias"], eps)
    for k in range(c["num_hidden_layers"]):
        at = f"encoder.layer.{k}."

        def heads(name: str, y: Array) -> Array:
            return _linear(t, name, y).reshape(n, h, d_k).transpose(1, 0, 2)

        q, key, v = (heads(f"{at}attention.self.{name}", x) for name in ("query", "key", "value"))
        scores = q @ key.transpose(0, 2, 1) / math.sqrt(d_k)
        shares = _softmax(scores)  # not causal: every token reads every token
        mixed = (shares @ v).transpose(1, 0, 2).reshape(n, -1)
        x = _layer_norm(x + _linear(t, at + "attention.output.dense", mixed),
                        t[at + "attention.output.LayerNorm.weight"],
                        t[at + "attention.output.LayerNorm.bias"], eps)
        hidden = _act(c["hidden_act"], _linear(t, at + "intermediate.dense", x))
        x = _layer_norm(x + _linear(t, at + "output.dense", hidden),
                        t[at + "output.LayerNorm.weight"], t[at + "output.LayerNorm.bias"], eps)
        out["shares"].append(shares)
        out["outputs"].append(x)


FORWARDS = {"gpt2": _gpt2, "llama": _llama, "mistral": _llama, "qwen2": _llama,
            "qwen3": _llama, "gpt_neox": _gpt_neox, "gemma": _llama, "phi": _phi, "opt": _opt,
            "bert": _bert, "mixtral": _llama, "qwen3_moe": _llama}


def hf_forward(folder: Path, ids: list[int], types: list[int] | None = None) -> dict[str, Any]:
    """The checkpoint's computation of ``ids`` (of segments ``types``: BERT's token types):
    per layer its shares (h × n × n) and output rows, then the logits and probabilities (none
    without a head: BERT)."""
    config = config_of(folder)
    out: dict[str, Any] = {"shares": [], "outputs": [], "types": types}
    logits = FORWARDS[config["model_type"]](config, stored(folder / "model.safetensors"), ids,
                                            out)
    if logits is not None:
        out["logits"], out["probs"] = logits, _softmax(logits)
    return out
