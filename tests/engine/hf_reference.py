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
            "opt", "phi3", "stablelm", "starcoder2", "gemma2", "qwen3_moe", "mixtral", "olmo2",
            "qwen2_moe", "gemma3_text")
SCALED = ("llama-rope-linear", "llama-rope-llama3", "llama-rope-yarn", "phi3-longrope")
"""The fixtures whose RoPE is scaled (besides one per family)."""
CAPPED = ("gemma2-capped",)
"""Gemma 2 with both soft caps set small (scores 5, logits 3: they bite on tiny weights)."""


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


def _scaled(rope: dict[str, Any], c: dict[str, Any], dims: int, base: float,
            inv_freq: Array) -> tuple[Array, float]:
    """The inverse frequencies and cos/sin factor of a ``linear``, ``llama3`` or ``yarn``
    scaling, as ``transformers.modeling_rope_utils`` computes them."""
    kind, factor = rope.get("rope_type", "default"), rope.get("factor")
    original = rope.get("original_max_position_embeddings") or c["max_position_embeddings"]
    if kind == "linear":
        return inv_freq / factor, 1.0
    if kind == "llama3":
        low, high = rope["low_freq_factor"], rope["high_freq_factor"]
        wavelen = 2 * math.pi / inv_freq
        scaled = np.where(wavelen > original / low, inv_freq / factor, inv_freq)
        smooth = (original / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < original / high) & ~(wavelen > original / low)
        return np.where(medium, smoothed, scaled), 1.0
    if kind == "longrope":  # within the original context: the short factors
        original = c.get("original_max_position_embeddings") or original
        stretch = factor or c["max_position_embeddings"] / original
        attention = rope.get("attention_factor") or (
            1.0 if stretch <= 1 else math.sqrt(1 + math.log(stretch) / math.log(original)))
        return inv_freq / np.array(rope["short_factor"]), attention
    if kind == "yarn":
        def turns(rotations: float) -> float:
            return dims * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))
        low, high = turns(rope.get("beta_fast") or 32), turns(rope.get("beta_slow") or 1)
        if rope.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dims - 1)
        ramp = np.clip((np.arange(dims // 2) - low) / ((high + 0.001 if low == high else high)
                                                       - low), 0, 1)
        extrapolation = 1 - ramp
        mscale, all_dims = rope.get("mscale"), rope.get("mscale_all_dim")

        def m(scale: float) -> float:
            return 1.0 if factor <= 1 else 0.1 * scale * math.log(factor) + 1.0
        attention = rope.get("attention_factor") or (m(mscale) / m(all_dims)
                                                     if mscale and all_dims else m(1))
        return (inv_freq / factor * (1 - extrapolation) + inv_freq * extrapolation,
                attention)
    return inv_freq, 1.0


def _rope(q: Array, k: Array, dims: int, base: float,
          c: dict[str, Any] | None = None) -> tuple[Array, Array]:
    """q, k: heads × n × d_k; the first ``dims`` columns turned as transformers does (scaled as
    ``c``'s ``rope_parameters`` say)."""
    n = q.shape[1]
    inv_freq = 1.0 / base ** (np.arange(0, dims, 2, dtype=np.float64) / dims)
    factor = 1.0
    if c is not None:
        inv_freq, factor = _scaled(c.get("rope_parameters") or {}, c, dims, base, inv_freq)
    freqs = np.arange(n, dtype=np.float64)[:, None] * inv_freq[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb) * factor, np.sin(emb) * factor

    def turn(x: Array) -> Array:
        rot, rest = x[..., :dims], x[..., dims:]
        return np.concatenate([rot * cos + _rotate_half(rot) * sin, rest], axis=-1)

    return turn(q), turn(k)


def _attend(q: Array, k: Array, v: Array, window: int | None,
            cap: float | None = None, scalar: float | None = None) -> tuple[Array, Array]:
    """heads × n × d each (k, v already repeated): shares and the mixed rows (n × heads·d_v);
    ``cap``: Gemma 2's cap · tanh(scores / cap) after the scaling, before the mask;
    ``scalar``: Gemma 2's ``query_pre_attn_scalar``, the scores × scalar^(−1/2) (else ÷ √d)."""
    n = q.shape[1]
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    allowed = j <= i
    if window is not None:
        allowed &= i - j < window
    scores = (q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1]) if scalar is None
              else q @ k.transpose(0, 2, 1) * scalar ** -0.5)
    if cap is not None:
        scores = cap * np.tanh(scores / cap)
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


def _gemma3_base(c: dict[str, Any], layer_type: str) -> float:
    """Gemma 3's RoPE base of a layer type: its ``rope_parameters`` entry's, else the legacy
    ``rope_theta`` (full) or ``rope_local_base_freq`` (sliding), else 1e6 or 1e4."""
    entry = (c.get("rope_parameters") or {}).get(layer_type) or {}
    if entry.get("rope_theta") is not None:
        return float(entry["rope_theta"])
    full = layer_type == "full_attention"
    legacy = c.get("rope_theta" if full else "rope_local_base_freq")
    return float(legacy if legacy is not None else 1e6 if full else 1e4)


def _llama(c: dict[str, Any], t: dict[str, Array], ids: list[int], out: dict[str, Any]) -> Array:
    n, h = len(ids), c["num_attention_heads"]
    g = c.get("num_key_value_heads") or h
    d_k = c.get("head_dim") or c["hidden_size"] // h
    window = c.get("sliding_window") if c["model_type"] in ("mistral", "phi3") else None
    dims = int(d_k * c.get("partial_rotary_factor", 1.0)) if c["model_type"] == "phi3" else d_k
    gemma = c["model_type"] in ("gemma", "gemma2", "gemma3_text")  # x·√d, 1 + weight, tied
    sandwich = c["model_type"] in ("gemma2", "gemma3_text")  # outputs normed, windows by type
    third = c["model_type"] == "gemma3_text"  # a RoPE base per layer type
    olmo = c["model_type"] == "olmo2"  # no pre-norms; outputs and whole projections normed
    eps = c.get("rms_norm_eps", 1e-5 if olmo else 1e-6)
    x = t["model.embed_tokens.weight"][ids]
    if gemma:
        x = x * float(np.float32(math.sqrt(c["hidden_size"])))

    def linear(name: str, y: Array) -> Array:
        return _linear(t, name, y)

    def rms(y: Array, name: str) -> Array:
        return _rms_norm(y, t[name] + (1.0 if gemma else 0.0), eps)

    for k in range(c["num_hidden_layers"]):
        at = f"model.layers.{k}."
        a = x if olmo else rms(x, at + "input_layernorm.weight")
        if at + "self_attn.qkv_proj.weight" in t:  # Phi-3: q, k, v rows one after the other
            fused = a @ t[at + "self_attn.qkv_proj.weight"].T
            q, key, v = np.split(fused, [h * d_k, (h + g) * d_k], axis=-1)
        else:
            q, key, v = (linear(f"{at}self_attn.{name}_proj", a) for name in "qkv")
        if olmo:  # OLMo 2: all heads' columns RMSNormed together, before the split
            q = rms(q, at + "self_attn.q_norm.weight")
            key = rms(key, at + "self_attn.k_norm.weight")
        q = q.reshape(n, h, d_k).transpose(1, 0, 2)
        key = key.reshape(n, g, d_k).transpose(1, 0, 2)
        v = v.reshape(n, g, d_k).transpose(1, 0, 2)
        if at + "self_attn.q_norm.weight" in t and not olmo:  # Qwen3, Gemma 3: each head's rows
            q = rms(q, at + "self_attn.q_norm.weight")
            key = rms(key, at + "self_attn.k_norm.weight")
        if third:
            q, key = _rope(q, key, dims, _gemma3_base(c, c["layer_types"][k]))
        else:
            q, key = _rope(q, key, dims, _rope_base(c), c)
        key, v = np.repeat(key, h // g, axis=0), np.repeat(v, h // g, axis=0)
        if sandwich:
            window = c["sliding_window"] if c["layer_types"][k] == "sliding_attention" else None
        shares, mixed = _attend(q, key, v, window, c.get("attn_logit_softcapping"),
                                c.get("query_pre_attn_scalar"))
        attended = linear(at + "self_attn.o_proj", mixed)
        if sandwich or olmo:
            attended = rms(attended, at + "post_attention_layernorm.weight")
        x = x + attended
        m = x if olmo else rms(x, at + ("pre_feedforward_layernorm.weight" if sandwich
                                        else "post_attention_layernorm.weight"))
        if c["model_type"] == "mixtral":
            fed = _experts(c, t, at + "block_sparse_moe.", m, ("w1", "w3", "w2"), True)
        elif at + "mlp.gate.weight" in t:  # Qwen3-MoE's and Qwen2-MoE's sparse layer
            fed = _experts(c, t, at + "mlp.", m, ("gate_proj", "up_proj", "down_proj"),
                           c["norm_topk_prob"])
        else:
            if at + "mlp.gate_up_proj.weight" in t:  # Phi-3: the gate's rows, then up's
                gate, up = np.split(m @ t[at + "mlp.gate_up_proj.weight"].T, 2, axis=-1)
            else:
                gate, up = linear(at + "mlp.gate_proj", m), linear(at + "mlp.up_proj", m)
            fed = linear(at + "mlp.down_proj",
                         _act(c.get("hidden_act") or c["hidden_activation"], gate) * up)
        x = x + (rms(fed, at + "post_feedforward_layernorm.weight") if sandwich or olmo
                 else fed)
        out["shares"].append(shares)
        out["outputs"].append(x)
    final = rms(x, "model.norm.weight")
    tied = c.get("tie_word_embeddings", gemma)
    head = t["model.embed_tokens.weight"] if tied else t["lm_head.weight"]
    logits: Array = final @ head.T
    cap = c.get("final_logit_softcapping")
    return logits if cap is None else cap * np.tanh(logits / cap)


def _experts(c: dict[str, Any], t: dict[str, Array], at: str, m: Array,
             names: tuple[str, str, str], normalize: bool) -> Array:
    """A sparse MoE, token by token: softmax of the router's logits, the top k shares
    (renormalised when ``normalize``), each chosen expert's SwiGLU (``names``: its gate, up and
    down projections; Mixtral's w1, w3, w2) weighted; plus Qwen2-MoE's shared expert, a SwiGLU
    times the sigmoid of its one-row gate."""
    out = np.zeros_like(m)
    shared = at + "shared_expert"
    for i, row in enumerate(m):
        if shared + "_gate.weight" in t:
            def own(name: str, y: Array) -> Array:
                return y @ t[f"{shared}.{name}.weight"].T
            gate = 1 / (1 + math.exp(-float(row @ t[shared + "_gate.weight"][0])))
            out[i] += gate * own("down_proj", _act(c["hidden_act"], own("gate_proj", row))
                                 * own("up_proj", row))
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


def _stablelm(c: dict[str, Any], t: dict[str, Array], ids: list[int],
              out: dict[str, Any]) -> Array:
    """StableLM and Starcoder2: LayerNorm pre-norm, sequential or parallel (StableLM's
    ``use_parallel_residual``: one norm feeds both halves), the first ``partial_rotary_factor``
    of each head turned (Starcoder2: all), a SwiGLU (StableLM) or ``c_fc``/``c_proj`` feed-forward
    (Starcoder2, whose every layer slides ``sliding_window`` and whose head is tied)."""
    n, h = len(ids), c["num_attention_heads"]
    eps = c.get("layer_norm_eps") or c["norm_epsilon"]
    g = c.get("num_key_value_heads") or h
    d_k = c["hidden_size"] // h
    dims = int(d_k * c.get("partial_rotary_factor", 1.0))
    window = c.get("sliding_window") if c["model_type"] == "starcoder2" else None
    x = t["model.embed_tokens.weight"][ids]

    def norm(y: Array, name: str) -> Array:
        return _layer_norm(y, t[name + ".weight"], t[name + ".bias"], eps)

    def mlp(y: Array, at: str) -> Array:
        if at + "mlp.c_fc.weight" in t:
            return _linear(t, at + "mlp.c_proj", _act(c["hidden_act"],
                                                      _linear(t, at + "mlp.c_fc", y)))
        gated = _act(c["hidden_act"], _linear(t, at + "mlp.gate_proj", y))
        return _linear(t, at + "mlp.down_proj", gated * _linear(t, at + "mlp.up_proj", y))

    for k in range(c["num_hidden_layers"]):
        at = f"model.layers.{k}."
        a = norm(x, at + "input_layernorm")

        def heads(name: str, count: int, y: Array = a) -> Array:
            return _linear(t, name, y).reshape(n, count, d_k).transpose(1, 0, 2)

        q, key = heads(at + "self_attn.q_proj", h), heads(at + "self_attn.k_proj", g)
        v = heads(at + "self_attn.v_proj", g)
        q, key = _rope(q, key, dims, _rope_base(c))
        key, v = np.repeat(key, h // g, axis=0), np.repeat(v, h // g, axis=0)
        shares, mixed = _attend(q, key, v, window)
        attended = _linear(t, at + "self_attn.o_proj", mixed)
        if c.get("use_parallel_residual"):
            x = x + attended + mlp(a, at)
        else:
            x = x + attended
            x = x + mlp(norm(x, at + "post_attention_layernorm"), at)
        out["shares"].append(shares)
        out["outputs"].append(x)
    head = t.get("lm_head.weight", t["model.embed_tokens.weight"])
    return norm(x, "model.norm") @ head.T


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
            "bert": _bert, "phi3": _llama, "stablelm": _stablelm, "starcoder2": _stablelm,
            "gemma2": _llama, "mixtral": _llama, "qwen3_moe": _llama, "olmo2": _llama,
            "qwen2_moe": _llama, "gemma3_text": _llama}


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
