"""The Qwen3-MoE layout: Qwen3's attention (QK-norm, ``head_dim`` d / h when the config does not
give it) and Qwen2-MoE's sparse layers without the shared expert (:mod:`qwen2_moe`): in each, a
mixture of experts in ``mlp`` (the router ``gate``, E SwiGLU experts ``moe_intermediate_size``
wide, the chosen shares renormalised when ``norm_topk_prob``); a dense layer's ``mlp`` is
Llama's feed-forward, ``intermediate_size`` wide."""

from __future__ import annotations

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts
from engine.checkpoint.qwen2_moe import sparse_layers

EXPERTS, CHOSEN, EXPERT_WIDTH = 128, 8, 768
"""``num_experts`` (which transformers 5 saves as ``num_local_experts``), ``num_experts_per_tok``
and ``moe_intermediate_size`` when the config does not give them (transformers' defaults)."""


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    feed_forward = sparse_layers(config, ("num_experts", "num_local_experts"), EXPERTS, CHOSEN,
                                 EXPERT_WIDTH, None)
    return llama.parts(checkpoint, config, chosen, qk_norm=True, feed_forward=feed_forward)


__all__ = ["parts"]
