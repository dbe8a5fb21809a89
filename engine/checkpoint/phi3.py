"""The Phi-3 layout: Llama's (RMSNorm pre-norm layers, SwiGLU, grouped heads, RoPE pairing i
with i + r/2), its projections fused: ``qkv_proj`` holds the queries', keys' and values' rows
one after the other, ``gate_up_proj`` the gate's then the up projection's; no biases; RoPE on
the first ``partial_rotary_factor`` of each head (all by default); every layer slides
``sliding_window`` when given (``config.windows``); its ``longrope`` scaling is refused."""

from __future__ import annotations

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    return llama.parts(checkpoint, config, chosen, fused=True)


__all__ = ["parts"]
