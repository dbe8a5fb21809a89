"""The Mixtral layout: Mistral's attention and norms, and in each layer a mixture of experts
(``block_sparse_moe``): the router ``gate`` (E × d) and E SwiGLU experts, each ``w1`` (the gate),
``w3`` (up) and ``w2`` (down), as the hub stores them (transformers 5 fuses them in memory
into ``gate_up_proj`` and ``down_proj`` and writes them back apart). Every chosen share is
renormalised, as ``MixtralTopKRouter`` does."""

from __future__ import annotations

from typing import Any

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Tensors, linear

EXPERTS, CHOSEN = 8, 2
"""``num_local_experts`` and ``num_experts_per_tok`` when the config does not give them
(transformers' defaults for Mixtral)."""


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    count = config.whole("num_local_experts", default=EXPERTS)
    top_k = config.whole("num_experts_per_tok", default=CHOSEN)

    def experts(tensor: Tensors, at: str, d: int, hidden: int, activation: str,
                bias: bool) -> dict[str, Any]:
        moe = f"{at}block_sparse_moe."
        found = []
        for e in range(count):
            ffn: dict[str, Any] = {"activation": activation}
            tensor.linear(ffn, ("Wg", "bg"), f"{moe}experts.{e}.w1", hidden, d, bias=bias)
            tensor.linear(ffn, ("W1", "b1"), f"{moe}experts.{e}.w3", hidden, d, bias=bias)
            tensor.linear(ffn, ("W2", "b2"), f"{moe}experts.{e}.w2", d, hidden, bias=bias)
            found.append(ffn)
        return {"router": linear(tensor(f"{moe}gate.weight", count, d)), "top_k": top_k,
                "normalize": True, "experts": found}

    return llama.parts(checkpoint, config, chosen, feed_forward=experts)


__all__ = ["parts"]
