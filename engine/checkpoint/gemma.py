"""The Gemma layout: Llama's, with three differences. The looked-up rows are multiplied by
√d (``embedding_scale``: transformers keeps √d as a float32 number, so that is the number
taken), every RMSNorm multiplies by 1 + weight (the stored weight is γ − 1), and the head is
the embedding unless the config unties it. The feed-forward is GeGLU with GELU's tanh form
(a config's legacy ``"gelu"`` means that form too, as transformers reads it)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from engine.checkpoint import llama
from engine.checkpoint.config import Config
from engine.checkpoint.folder import Checkpoint
from engine.checkpoint.layout import Parts


def parts(checkpoint: Checkpoint, config: Config, chosen: list[int]) -> Parts:
    given = config.values.get("hidden_activation") or config.values.get("hidden_act")
    activation = ("gelu_tanh" if given in (None, "gelu")
                  else config.activation("hidden_activation", "hidden_act",
                                         default="gelu_pytorch_tanh"))
    found = llama.parts(checkpoint, config, chosen, tied=True, activation=activation,
                        norm_shift=1.0)
    scale = float(np.float32(math.sqrt(config.whole("hidden_size"))))
    return replace(found, embedding_scale=scale)


__all__ = ["parts"]
