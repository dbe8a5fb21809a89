"""The Gemma layout: Llama's, with these differences. The looked-up rows are multiplied by
√d (``embedding_scale``: transformers keeps √d as a float32 number, so that is the number
taken), every RMSNorm multiplies by 1 + weight (the stored weight is γ − 1), the head is the
embedding unless the config unties it, and ``head_dim`` is 256 (16 key/value heads) when the
config leaves it out. The feed-forward is GeGLU with ``hidden_act``, whose legacy ``"gelu"``
transformers reads as GELU's tanh form (``hidden_activation`` is not read). Gemma 2's score
and logit capping and a bidirectional attention are refused: not computed yet."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts
from engine.errors import ScenarioError
from engine.refusals import Refusal

HEAD_DIM = 256


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    for name in ("attn_logit_softcapping", "final_logit_softcapping"):
        if config.values.get(name) is not None:
            raise ScenarioError(config.at(name), Refusal("softcapping"))
    if config.flag("use_bidirectional_attention", False):
        raise ScenarioError(config.at("use_bidirectional_attention"), Refusal("bidirectional"))
    activation = ("gelu_tanh" if config.values.get("hidden_act") in (None, "gelu")
                  else config.activation("hidden_act", default="gelu_pytorch_tanh"))
    found = llama.parts(checkpoint, config, chosen, tied=True, activation=activation,
                        norm_shift=1.0, head_dim=HEAD_DIM)
    scale = float(np.float32(math.sqrt(config.whole("hidden_size"))))
    return replace(found, embedding_scale=scale)


__all__ = ["parts"]
