"""The OLMo 2 layout: Llama's tensors without the norms before the attention and the
feed-forward (``post_attention_layernorm`` and ``post_feedforward_layernorm`` norm their outputs
before the residuals), and a QK-norm over the whole projection (``q_norm`` of h·d_k weights over
all heads' query columns, ``k_norm`` of g·d_k over the key heads'), before the split into heads
and RoPE; ``rms_norm_eps`` 1e-5 when the config does not give it."""

from __future__ import annotations

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    return llama.parts(checkpoint, config, chosen, olmo=True)


__all__ = ["parts"]
