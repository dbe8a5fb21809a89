"""A GPT-2-small-shaped Hugging Face checkpoint made locally: 12 layers, d = 768, 12 heads, a
vocabulary of 50,257 and a context of 1024, seeded random float32 weights (124 million numbers,
498 MB), with a tiny byte-level tokenizer.json (its 48 entries are the first ids of the
vocabulary). Used by ``tests/bench/bench_checkpoint.py`` and the one test that a whole model
computes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

LAYERS, D, HEADS, VOCAB, CONTEXT = 12, 768, 12, 50257, 1024
CORPUS = "the cat sat on the mat. the dog ate the cat's hat."


def tokenizer() -> Tokenizer:
    """A GPT-2-style byte-level BPE of 48 entries, trained on one sentence."""
    made = Tokenizer(models.BPE())
    made.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    made.decoder = decoders.ByteLevel()
    made.post_processor = processors.ByteLevel(trim_offsets=False)
    made.train_from_iterator([CORPUS], trainers.BpeTrainer(
        vocab_size=48, special_tokens=["<|endoftext|>"], show_progress=False))
    return made


def make_checkpoint(folder: Path, *, layers: int = LAYERS, d: int = D, heads: int = HEADS,
                    vocab: int = VOCAB, context: int = CONTEXT, seed: int = 0) -> int:
    """Write the checkpoint into ``folder``; the size of its weights file in bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)

    def random(*shape: int, scale: float = 0.02) -> np.ndarray:
        return (rng.standard_normal(shape, dtype=np.float32) * np.float32(scale))

    def around_one(size: int) -> np.ndarray:
        return 1 + random(size, scale=0.1)

    tensors = {"transformer.wte.weight": random(vocab, d),
               "transformer.wpe.weight": random(context, d, scale=0.01),
               "transformer.ln_f.weight": around_one(d), "transformer.ln_f.bias": random(d)}
    for k in range(layers):
        at = f"transformer.h.{k}."
        tensors.update({
            at + "ln_1.weight": around_one(d), at + "ln_1.bias": random(d),
            at + "attn.c_attn.weight": random(d, 3 * d), at + "attn.c_attn.bias": random(3 * d),
            at + "attn.c_proj.weight": random(d, d), at + "attn.c_proj.bias": random(d),
            at + "ln_2.weight": around_one(d), at + "ln_2.bias": random(d),
            at + "mlp.c_fc.weight": random(d, 4 * d), at + "mlp.c_fc.bias": random(4 * d),
            at + "mlp.c_proj.weight": random(4 * d, d), at + "mlp.c_proj.bias": random(d)})
    save_file(tensors, str(folder / "model.safetensors"))
    config = {"model_type": "gpt2", "n_layer": layers, "n_embd": d, "n_head": heads,
              "n_positions": context, "vocab_size": vocab, "activation_function": "gelu_new",
              "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    tokenizer().save(str(folder / "tokenizer.json"))
    return (folder / "model.safetensors").stat().st_size


def text_of(tokens: int) -> str:
    """A text the tokenizer splits into exactly ``tokens`` tokens."""
    long = (CORPUS + " ") * tokens
    encoding = tokenizer().encode(long)
    return long[:encoding.offsets[tokens - 1][1]]


__all__ = ["CONTEXT", "HEADS", "LAYERS", "VOCAB", "D", "make_checkpoint", "text_of"]
