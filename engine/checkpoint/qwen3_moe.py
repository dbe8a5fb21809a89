"""The Qwen3-MoE layout: Qwen3's attention (QK-norm, ``head_dim`` d / h when the config does not
give it) and, in each sparse layer, a mixture of experts in ``mlp``: the router ``gate`` (E × d)
and E SwiGLU experts (``gate_proj``, ``up_proj``, ``down_proj``, ``moe_intermediate_size``
wide), the chosen shares renormalised when ``norm_topk_prob``. A layer is sparse unless
``mlp_only_layers`` lists it or ``decoder_sparse_step`` skips it; a dense layer's ``mlp`` is
Llama's feed-forward, ``intermediate_size`` wide."""

from __future__ import annotations

from typing import Any

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Tensors, linear
from engine.format.errors import ScenarioError
from engine.format.reader import describe
from engine.words.refusals import Refusal

EXPERTS, CHOSEN, EXPERT_WIDTH = 128, 8, 768
"""``num_experts`` (which transformers 5 saves as ``num_local_experts``), ``num_experts_per_tok``
and ``moe_intermediate_size`` when the config does not give them (transformers' defaults)."""


def _dense_layers(config: Config) -> list[int]:
    value = config.values.get("mlp_only_layers") or []
    if not (isinstance(value, list) and all(isinstance(k, int) for k in value)):
        raise ScenarioError(config.at("mlp_only_layers"),
                            Refusal("layers_list", got=describe(value)))
    return value


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    count = config.whole("num_experts", "num_local_experts", default=EXPERTS)
    top_k = config.whole("num_experts_per_tok", default=CHOSEN)
    width = config.whole("moe_intermediate_size", default=EXPERT_WIDTH)
    step = config.whole("decoder_sparse_step", default=1)
    dense = _dense_layers(config)
    normalize = config.flag("norm_topk_prob", False)

    def experts(tensor: Tensors, at: str, d: int, hidden: int, activation: str,
                bias: bool) -> dict[str, Any]:
        k = int(at.split(".")[1])
        if k in dense or (k + 1) % step:
            return llama.mlp(tensor, at, d, hidden, activation, bias)
        found = [llama.swiglu(tensor, f"{at}mlp.experts.{e}", d, width, activation, bias)
                 for e in range(count)]
        return {"router": linear(tensor(f"{at}mlp.gate.weight", count, d)), "top_k": top_k,
                "normalize": normalize, "experts": found}

    return llama.parts(checkpoint, config, chosen, qk_norm=True, feed_forward=experts)


__all__ = ["parts"]
