"""The Qwen3 layout: Llama's, with each head's queries and keys RMSNormed (``q_norm``,
``k_norm``: d_k weights shared by the heads, the layer's ε) before RoPE, and ``head_dim`` 128
when the config does not give it (transformers' default for Qwen3, not d / h)."""

from __future__ import annotations

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts

HEAD_DIM = 128


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    return llama.parts(checkpoint, config, chosen, head_dim=HEAD_DIM, qk_norm=True)


__all__ = ["parts"]
