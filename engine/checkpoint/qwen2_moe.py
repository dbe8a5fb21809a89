"""The Qwen2-MoE layout (Qwen1.5-MoE, Qwen2-57B-A14B): Qwen2's attention (q/k/v biases when
``qkv_bias``, as by default) and, in each sparse layer, a mixture of experts in ``mlp``: the
router ``gate`` (E × d), E SwiGLU experts (``gate_proj``, ``up_proj``, ``down_proj``,
``moe_intermediate_size`` wide), the chosen shares renormalised only when ``norm_topk_prob``
(false by default), and a ``shared_expert`` (a SwiGLU ``shared_expert_intermediate_size`` wide)
every token runs, times σ(x · w_g) of its one-row ``shared_expert_gate``. A layer is sparse
unless ``mlp_only_layers`` lists it, ``decoder_sparse_step`` skips it or ``num_experts`` is 0;
a dense layer's ``mlp`` is Llama's feed-forward, ``intermediate_size`` wide. Qwen3-MoE's
sparse layers are these without the shared expert."""

from __future__ import annotations

from typing import Any

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts, Tensors, linear
from engine.format.errors import ScenarioError
from engine.format.reader import describe
from engine.words.refusals import Refusal

EXPERTS, CHOSEN, EXPERT_WIDTH, SHARED_WIDTH = 60, 4, 1408, 5632
"""``num_experts``, ``num_experts_per_tok``, ``moe_intermediate_size`` and
``shared_expert_intermediate_size`` when the config does not give them (transformers'
defaults for Qwen2-MoE)."""


def _dense_layers(config: Config) -> list[int]:
    value = config.values.get("mlp_only_layers") or []
    if not (isinstance(value, list) and all(isinstance(k, int) for k in value)):
        raise ScenarioError(config.at("mlp_only_layers"),
                            Refusal("layers_list", got=describe(value)))
    return value


def sparse_layers(config: Config, count: tuple[str, ...], experts: int, chosen: int,
                  width: int, shared: int | None) -> llama.FeedForwardReader:
    """Each layer's ``mlp``: a mixture in a sparse layer, Llama's feed-forward in a dense one;
    ``count``: the config keys of the number of experts; ``experts``, ``chosen``, ``width``
    and ``shared`` (the shared expert's width; None: the family has none): the family's
    defaults."""
    count_of = config.whole(*count, default=experts, low=0)
    top_k = config.whole("num_experts_per_tok", default=chosen)
    expert_width = config.whole("moe_intermediate_size", default=width)
    shared_width = (None if shared is None
                    else config.whole("shared_expert_intermediate_size", default=shared))
    step = config.whole("decoder_sparse_step", default=1)
    dense = _dense_layers(config)
    normalize = config.flag("norm_topk_prob", False)

    def feed_forward(tensor: Tensors, at: str, d: int, hidden: int, activation: str,
                     bias: bool) -> dict[str, Any]:
        k = int(at.split(".")[1])
        if k in dense or (k + 1) % step or not count_of:
            return llama.mlp(tensor, at, d, hidden, activation, bias)
        found = [llama.swiglu(tensor, f"{at}mlp.experts.{e}", d, expert_width, activation, bias)
                 for e in range(count_of)]
        mixture = {"router": linear(tensor(f"{at}mlp.gate.weight", count_of, d)),
                   "top_k": top_k, "normalize": normalize, "experts": found}
        if shared_width is not None:
            mixture["shared_gate"] = linear(tensor(f"{at}mlp.shared_expert_gate.weight", 1, d))
            mixture["shared"] = llama.swiglu(tensor, f"{at}mlp.shared_expert", d, shared_width,
                                             activation, bias)
        return mixture

    return feed_forward


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    feed_forward = sparse_layers(config, ("num_experts",), EXPERTS, CHOSEN, EXPERT_WIDTH,
                                 SHARED_WIDTH)
    return llama.parts(checkpoint, config, chosen, feed_forward=feed_forward)


__all__ = ["parts", "sparse_layers"]
