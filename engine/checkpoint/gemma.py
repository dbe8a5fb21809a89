"""The Gemma layouts: Llama's, with these differences. The looked-up rows are multiplied by
√d (``embedding_scale``, the float64 √d a float64 transformers model multiplies by: its float32
√d differs from it by 1e-8 of its size unless d is a square), every RMSNorm multiplies by
1 + weight (the stored weight is γ − 1), the head is the embedding unless the config unties
it, and ``head_dim`` is 256 when the config leaves it out.
The feed-forward is GeGLU with ``hidden_act`` (Gemma, whose legacy ``"gelu"`` transformers
reads as GELU's tanh form) or ``hidden_activation`` (Gemma 2 and 3). Gemma 2 and 3 norm the
attention's and the feed-forward's outputs before their residuals (the block's γ3, γ4), slide
a window on their ``layer_types`` (Gemma 2 by default every other layer, the first sliding;
Gemma 3 all but every sixth) and divide the scores by √``query_pre_attn_scalar`` (each
attention's ``scale_dk`` when that is not d_k). Gemma 2 caps its scores
(``attn_logit_softcapping``, by default 50: each attention's ``softcap``) and its logits
(``final_logit_softcapping``, by default 30: the head's ``softcap``); null turns a cap off.
Gemma 3 caps nothing by default; its logits' cap is read, its scores' is refused (its
attention never passes it on). Gemma 3 RMSNorms each head's queries and keys (``q_norm``,
``k_norm``, 1 + weight) before RoPE, and turns its sliding layers by their own base
(:mod:`engine.checkpoint.gemma3`). A bidirectional attention is refused (not computed yet),
and so is Gemma's (``gemma``) config giving a cap: transformers' Gemma does not read it, yet
its weights were trained with it."""

from __future__ import annotations

import math
from dataclasses import replace

from engine.checkpoint import gemma3, llama
from engine.checkpoint.config import FULL, Config, config_float
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts
from engine.format.errors import ScenarioError
from engine.format.layers import parse_positive
from engine.words.refusals import Refusal

HEAD_DIM = 256


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    """Gemma's parts, Gemma 2's (``model_type`` ``gemma2``) or Gemma 3's (``gemma3_text``)."""
    family = config.values["model_type"]
    later, third = family != "gemma", family == "gemma3_text"
    caps = {name: _cap(config, name, default if family == "gemma2" else None)
            for name, default in CAPS.items()}
    for name, cap in caps.items():
        if cap is not None and not later:  # transformers' Gemma does not read them
            raise ScenarioError(config.at(name), Refusal("softcapping"))
    if third and caps["attn_logit_softcapping"] is not None:  # its attention never passes it
        raise ScenarioError(config.at("attn_logit_softcapping"), Refusal("softcapping_unread"))
    if config.flag("use_bidirectional_attention", False):
        raise ScenarioError(config.at("use_bidirectional_attention"), Refusal("bidirectional"))
    if later:
        activation = config.activation("hidden_activation", default="gelu_pytorch_tanh")
    else:
        activation = ("gelu_tanh" if config.values.get("hidden_act", "gelu") == "gelu"
                      else config.activation("hidden_act", default="gelu_pytorch_tanh"))
    d_k = config.whole("head_dim", default=HEAD_DIM)
    turns = gemma3.rope(config) if third else None
    positions = None if turns is None else turns.positions(d_k)
    found = llama.parts(checkpoint, config, chosen, tied=True, activation=activation,
                        norm_shift=1.0, head_dim=HEAD_DIM, sandwich=later, qk_norm=third,
                        positions=positions)
    scale = math.sqrt(config.whole("hidden_size"))
    scores, final = caps["attn_logit_softcapping"], caps["final_logit_softcapping"]
    head = {**found.head, "softcap": final} if found.head and final is not None else found.head
    attention: dict[str, float] = {} if scores is None else {"softcap": scores}
    if later:
        scalar = config.whole("query_pre_attn_scalar", default=HEAD_DIM)  # an int there
        if scalar != d_k:
            attention["scale_dk"] = scalar  # Gemma 2 27B: ÷ √144 with heads 128 wide
    types = config.layer_types(config.whole("num_hidden_layers")) if third else None
    layers = [{**layer, "attention": {**layer["attention"], **attention,
                                      **({} if turns is None else
                                         turns.own(types[k] if types else FULL))}}
              for k, layer in zip(chosen, found.layers, strict=True)]
    return replace(found, embedding_scale=scale, head=head, layers=layers)


CAPS = {"attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0}
"""Gemma 2's soft caps and transformers' defaults when the config leaves them out."""


def _cap(config: Config, name: str, default: float | None) -> float | None:
    """The soft cap ``name``: absent, ``default``; null, none; else a number above 0."""
    if name not in config.values:
        return default
    value = config.values[name]
    return None if value is None else parse_positive(config_float(value, config.at(name)),
                                                     config.at(name))


__all__ = ["parts"]
