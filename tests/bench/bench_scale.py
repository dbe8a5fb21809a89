"""2026's checkpoint shapes (issue 37, "Speed and memory"): import + compute against transformers.

Run with ``.venv/bin/python tests/bench/bench_scale.py [--shapes qwen2.5-0.5b gemma-3-270m
llama-3.2-1b gpt2-small] [--runs 3]`` (not collected by pytest; never fails). For each shape it
writes a random bfloat16 checkpoint with the published config's sizes (``config.json`` as the
model card gives it, its RoPE scaling left out: the shapes are what is measured) and the Llama
fixture's tokenizer (GPT-2 small: float32 and its own tokenizer, :mod:`tests.bench.gpt2_small`),
then
runs, in fresh processes taken in turn (ours, theirs, ours, …):

- ours: ``import_checkpoint`` + ``compute`` of a 16-token text;
- theirs: transformers ``from_pretrained`` in float32 + one forward of the same ids;

each timed inside its process after its imports, its peak memory the process's ``VmHWM``. A
last pair on the shape cut to 2 layers compares our logits with transformers' in float64, its
float32 casts (RMSNorm, softmax, RoPE's angles) computed in float64 as the importer's tests
patch them (|Δ| the largest difference). ``--root`` runs ours from another tree
(``/work/main``: before and after on the same machine); ours imports as the program does, the
weights left in the checkpoint (issue 37, item 1), ``--eager`` widens them all into the document
(``mapped=False``); ``--ours-only`` leaves transformers out (Llama-3.1-8B's 32 GB of float32).
Threads are pinned to one on both sides. Prints the median and the p95 of each; needs the disk
the checkpoints take (Llama-3.2-1B: 2.5 GB, Llama-3.1-8B: 16 GB) and, with ``--eager``, the
weights as float64 (Llama-3.2-1B: 9.9 GB).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from tests.bench.gpt2_small import make_checkpoint

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER = ROOT / "tests" / "engine" / "checkpoints" / "llama" / "tokenizer.json"
TEXT = "the cat sat on the mat and the dog ran"
SHAPES: dict[str, dict[str, Any]] = {
    "qwen2.5-0.5b": {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"],
                     "vocab_size": 151936, "hidden_size": 896, "intermediate_size": 4864,
                     "num_hidden_layers": 24, "num_attention_heads": 14,
                     "num_key_value_heads": 2, "max_position_embeddings": 32768,
                     "rms_norm_eps": 1e-6, "hidden_act": "silu", "use_sliding_window": False,
                     "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0},
                     "tie_word_embeddings": True, "torch_dtype": "bfloat16"},
    "llama-3.2-1b": {"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                     "vocab_size": 128256, "hidden_size": 2048, "intermediate_size": 8192,
                     "num_hidden_layers": 16, "num_attention_heads": 32,
                     "num_key_value_heads": 8, "head_dim": 64,
                     "max_position_embeddings": 131072, "rms_norm_eps": 1e-5,
                     "hidden_act": "silu", "attention_bias": False, "mlp_bias": False,
                     "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0},
                     "tie_word_embeddings": True, "torch_dtype": "bfloat16"},
    "gemma-3-270m": {"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"],
                     "vocab_size": 262144, "hidden_size": 640, "intermediate_size": 2048,
                     "num_hidden_layers": 18, "num_attention_heads": 4,
                     "num_key_value_heads": 1, "head_dim": 256, "query_pre_attn_scalar": 256,
                     "max_position_embeddings": 32768, "rms_norm_eps": 1e-6,
                     "hidden_activation": "gelu_pytorch_tanh", "sliding_window": 512,
                     "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
                     "final_logit_softcapping": None, "attn_logit_softcapping": None,
                     "tie_word_embeddings": True, "torch_dtype": "bfloat16"},
    "llama-3.1-8b": {"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                     "vocab_size": 128256, "hidden_size": 4096, "intermediate_size": 14336,
                     "num_hidden_layers": 32, "num_attention_heads": 32,
                     "num_key_value_heads": 8, "head_dim": 128,
                     "max_position_embeddings": 131072, "rms_norm_eps": 1e-5,
                     "hidden_act": "silu", "attention_bias": False, "mlp_bias": False,
                     "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0},
                     "tie_word_embeddings": False, "torch_dtype": "bfloat16"},
    "smollm2-360m": {"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                     "vocab_size": 49152, "hidden_size": 960, "intermediate_size": 2560,
                     "num_hidden_layers": 32, "num_attention_heads": 15,
                     "num_key_value_heads": 5, "max_position_embeddings": 8192,
                     "rms_norm_eps": 1e-5, "hidden_act": "silu",
                     "rope_parameters": {"rope_type": "default", "rope_theta": 100000.0},
                     "tie_word_embeddings": True, "torch_dtype": "bfloat16"},
}
PEAK = ('print(next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") '
        'if line.startswith("VmHWM:")))')
OURS = """
import sys, time
sys.path.insert(0, {root!r})
import numpy as np
from engine import compute
from engine.checkpoint import import_checkpoint
started = time.perf_counter()
trace = compute(import_checkpoint({folder!r}, {text!r}{mapped}))
print(time.perf_counter() - started)
np.save({out!r}, trace.arrays["logits"])
print(list(trace.scenario.token_ids))
""" + PEAK
THEIRS = """
import sys, time, types, torch, transformers
sys.path.insert(0, {root!r})
torch.set_num_threads(1)
if {exact!r}:  # RMSNorm, softmax and RoPE's angles in float64, as the importer's tests patch them
    from tests.engine.test_engine_checkpoint_transformers import exact_float64
    exact_float64(types.SimpleNamespace(setattr=setattr))
started = time.perf_counter()
model = transformers.AutoModelForCausalLM.from_pretrained({folder!r}, dtype=torch.{dtype},
                                                          attn_implementation="eager")
with torch.no_grad():
    logits = model(torch.tensor([{ids!r}])).logits[0]
print(time.perf_counter() - started)
import numpy as np
np.save({out!r}, logits.double().numpy())
print([])
""" + PEAK


def tensors(config: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every tensor a Llama-style checkpoint of ``config`` stores (a tied head: no lm_head;
    Gemma 3's four more norms a layer)."""
    d, hidden = int(config["hidden_size"]), int(config["intermediate_size"])
    heads, groups = int(config["num_attention_heads"]), int(config["num_key_value_heads"])
    d_k = int(config.get("head_dim", d // heads))
    shapes = {"model.embed_tokens.weight": (int(config["vocab_size"]), d),
              "model.norm.weight": (d,)}
    if not config["tie_word_embeddings"]:
        shapes["lm_head.weight"] = (int(config["vocab_size"]), d)
    for k in range(int(config["num_hidden_layers"])):
        at = f"model.layers.{k}."
        shapes.update({at + "self_attn.q_proj.weight": (heads * d_k, d),
                       at + "self_attn.k_proj.weight": (groups * d_k, d),
                       at + "self_attn.v_proj.weight": (groups * d_k, d),
                       at + "self_attn.o_proj.weight": (d, heads * d_k),
                       at + "mlp.gate_proj.weight": (hidden, d),
                       at + "mlp.up_proj.weight": (hidden, d),
                       at + "mlp.down_proj.weight": (d, hidden),
                       at + "input_layernorm.weight": (d,),
                       at + "post_attention_layernorm.weight": (d,)})
        if config["model_type"] == "gemma3_text":  # the sandwich's norms and QK-norm
            shapes.update({at + "pre_feedforward_layernorm.weight": (d,),
                           at + "post_feedforward_layernorm.weight": (d,),
                           at + "self_attn.q_norm.weight": (d_k,),
                           at + "self_attn.k_norm.weight": (d_k,)})
        if config["model_type"] == "qwen2":
            shapes.update({at + f"self_attn.{p}_proj.bias": (size * d_k,)
                           for p, size in (("q", heads), ("k", groups), ("v", groups))})
    return shapes


def made(folder: Path, name: str, layers: int | None = None) -> int:
    """The checkpoint of shape ``name`` (``layers``: cut to that many), written into
    ``folder``; its bytes. GPT-2 small is made by :mod:`tests.bench.gpt2_small` (float32, as
    the model card's file stores it)."""
    if name == "gpt2-small":
        return make_checkpoint(folder, **({} if layers is None else {"layers": layers}))
    config = SHAPES[name]
    return write_checkpoint(folder, config if layers is None
                            else {**config, "num_hidden_layers": layers})


def write_checkpoint(folder: Path, config: dict[str, Any]) -> int:
    """A random bfloat16 checkpoint of ``config`` written a tensor at a time; its bytes."""
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config), "utf-8")
    shutil.copy(TOKENIZER, folder / "tokenizer.json")
    shapes = tensors(config)
    header, start = {}, 0
    for name, shape in shapes.items():
        end = start + 2 * math.prod(shape)
        header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [start, end]}
        start = end
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    rng = np.random.default_rng(37)
    with (folder / "model.safetensors").open("wb") as stream:
        stream.write(struct.pack("<Q", len(text)) + text)
        for name, shape in shapes.items():
            if len(shape) == 1 and name.endswith("norm.weight"):
                values = 1.0 + 0.1 * rng.standard_normal(shape, dtype=np.float32)
            else:
                values = 0.02 * rng.standard_normal(shape, dtype=np.float32)
            stream.write(values.astype(ml_dtypes.bfloat16).tobytes())
    return 8 + len(text) + start


def run(code: str) -> tuple[float, list[int], int]:
    """Seconds, token ids and peak bytes a child process prints (numpy asks for no huge pages,
    as app/__init__.py sets it for the window and the command line: with them, a fresh
    float64 array's pages took three times as long here)."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "NUMPY_MADVISE_HUGEPAGE": "0"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False, timeout=3600)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    seconds, ids, peak = done.stdout.strip().splitlines()[-3:]
    return float(seconds), json.loads(ids), int(peak)


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):8.2f} (p95 {float(np.percentile(values, 95)):.2f})"


def bench(name: str, work: Path, runs: int, root: str, eager: bool, theirs: bool) -> None:
    """``eager``: ours widens every weight into the document; ``theirs``: run
    transformers float32 too (Llama-3.1-8B's 32 GB of float32 do not fit this machine)."""
    folder = work / name
    size = made(folder, name)
    out = str(work / "logits.npy")
    keep = ", mapped=False" if eager else ""
    ours_s, ours_m, theirs_s, theirs_m = [], [], [0.0], [0.0]
    ids: list[int] = []
    for _ in range(runs):
        seconds, ids, peak = run(OURS.format(root=root, folder=str(folder), text=TEXT, out=out,
                                             mapped=keep))
        ours_s.append(seconds)
        ours_m.append(peak / 2**30)
        if theirs:
            seconds, _, peak = run(THEIRS.format(root=str(ROOT), exact=False, folder=str(folder),
                                                 dtype="float32", ids=ids, out=out))
            theirs_s.append(seconds)
            theirs_m.append(peak / 2**30)
    shutil.rmtree(folder)
    if theirs:
        theirs_s, theirs_m = theirs_s[1:], theirs_m[1:]
    small = work / f"{name}-2"
    made(small, name, layers=2)
    run(OURS.format(root=root, folder=str(small), text=TEXT, out=out, mapped=keep))
    mine = np.load(out)
    run(THEIRS.format(root=str(ROOT), exact=True, folder=str(small), dtype="float64", ids=ids,
                      out=out))
    delta = float(np.abs(mine - np.load(out)).max())
    shutil.rmtree(small)
    print(f"{name:14} {size / 2**30:5.2f} GiB, {len(ids)} tokens | time s ours "
          f"{summary(ours_s)} theirs {summary(theirs_s)} | peak GiB ours {summary(ours_m)} "
          f"theirs {summary(theirs_m)} | |Δ logits| 2 layers vs float64 {delta:.1e}",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="*", default=["qwen2.5-0.5b"],
                        choices=sorted([*SHAPES, "gpt2-small"]))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", default=str(ROOT), help="the tree whose engine is ours")
    parser.add_argument("--eager", action="store_true",
                        help="ours widens every weight into the document (mapped=False)")
    parser.add_argument("--ours-only", action="store_true", help="do not run transformers")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qkv-scale-") as work:
        for name in options.shapes:
            bench(name, Path(work), options.runs, options.root, options.eager,
                  not options.ours_only)


if __name__ == "__main__":
    main()
