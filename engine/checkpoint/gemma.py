"""The Gemma layouts: Llama's, with these differences. The looked-up rows are multiplied by
√d (``embedding_scale``: transformers keeps √d as a float32 number, so that is the number
taken), every RMSNorm multiplies by 1 + weight (the stored weight is γ − 1), the head is the
embedding unless the config unties it, and ``head_dim`` is 256 when the config leaves it out.
The feed-forward is GeGLU with ``hidden_act`` (Gemma, whose legacy ``"gelu"`` transformers
reads as GELU's tanh form) or ``hidden_activation`` (Gemma 2). Gemma 2 norms the attention's
and the feed-forward's outputs before their residuals (the block's γ3, γ4), slides a window on
its ``layer_types`` (by default every other layer, the first sliding) and divides the scores
by √``query_pre_attn_scalar`` (each attention's ``scale_dk`` when that is not d_k). Gemma 2
caps its scores (``attn_logit_softcapping``, by default 50: each attention's ``softcap``) and
its logits (``final_logit_softcapping``, by default 30: the head's ``softcap``); null turns a
cap off. A bidirectional attention is
refused (not computed yet), and so is Gemma's (``gemma``) config giving a cap: transformers'
Gemma does not read it, yet its weights were trained with it."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts
from engine.format.errors import ScenarioError
from engine.format.layers import parse_positive
from engine.words.refusals import Refusal

HEAD_DIM = 256


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    """Gemma's parts, or Gemma 2's (``model_type`` ``gemma2``)."""
    second = config.values["model_type"] == "gemma2"
    caps = {name: _cap(config, name, default if second else None)
            for name, default in CAPS.items()}
    for name, cap in caps.items():
        if cap is not None and not second:  # transformers' Gemma does not read them
            raise ScenarioError(config.at(name), Refusal("softcapping"))
    if config.flag("use_bidirectional_attention", False):
        raise ScenarioError(config.at("use_bidirectional_attention"), Refusal("bidirectional"))
    if second:
        activation = config.activation("hidden_activation", default="gelu_pytorch_tanh")
    else:
        activation = ("gelu_tanh" if config.values.get("hidden_act") in (None, "gelu")
                      else config.activation("hidden_act", default="gelu_pytorch_tanh"))
    found = llama.parts(checkpoint, config, chosen, tied=True, activation=activation,
                        norm_shift=1.0, head_dim=HEAD_DIM, sandwich=second)
    scale = float(np.float32(math.sqrt(config.whole("hidden_size"))))
    scores, final = caps["attn_logit_softcapping"], caps["final_logit_softcapping"]
    head = {**found.head, "softcap": final} if found.head and final is not None else found.head
    attention: dict[str, float] = {} if scores is None else {"softcap": scores}
    if second:
        scalar = config.number("query_pre_attn_scalar", default=HEAD_DIM)
        if scalar <= 0:
            raise ScenarioError(config.at("query_pre_attn_scalar"),
                                Refusal("scale_not_positive", got=scalar))
        if scalar != config.whole("head_dim", default=HEAD_DIM):
            attention["scale_dk"] = scalar  # Gemma 2 27B: ÷ √144 with heads 128 wide
    layers = [{**layer, "attention": {**layer["attention"], **attention}}
              for layer in found.layers]
    return replace(found, embedding_scale=scale, head=head, layers=layers)


CAPS = {"attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0}
"""Gemma 2's soft caps and transformers' defaults when the config leaves them out."""


def _cap(config: Config, name: str, default: float | None) -> float | None:
    """The soft cap ``name``: absent, ``default``; null, none; else a number above 0."""
    if name not in config.values:
        return default
    return parse_positive(config.values[name], config.at(name))


__all__ = ["parts"]
