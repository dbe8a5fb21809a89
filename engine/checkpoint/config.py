"""The config.json of a checkpoint, read under each of its spellings.

Families and transformers versions name the same setting differently: the RoPE base is
``rope_parameters["rope_theta"]`` (transformers 5), ``rope_theta`` or GPT-NeoX's
``rotary_emb_base``; the rotated share of a head is ``partial_rotary_factor`` (inside
``rope_parameters`` or beside it) or GPT-NeoX's older ``rotary_pct``. Every refusal names the
config key (``…/config.json.hidden_size``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ScenarioError
from engine.reader import describe, expect_bool, expect_int, expect_number
from engine.refusals import Refusal

FAMILIES = ("gpt2", "llama", "mistral", "qwen2", "qwen3", "gpt_neox", "gemma", "phi", "opt",
            "bert")
"""The model types this version imports."""
ACTIVATIONS = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh",
               "gelu_fast": "gelu_tanh", "silu": "silu", "swish": "silu", "relu": "relu",
               "linear": "identity"}
"""transformers' activation names and the engine's (gelu_new, gelu_fast and gelu_pytorch_tanh are
one formula, the tanh form)."""
MAX_SIZE = 1 << 24
"""The largest size a config may give (far past any checkpoint's width, heads or context)."""
SLIDING = "sliding_attention"


class Config:
    """A config.json's values, read by the names a family may use for them."""

    def __init__(self, values: Mapping[str, Any], place: str) -> None:
        self.values = values
        self.place = place

    def _at(self, name: str) -> str:
        return f"{self.place}.{name}"

    def _given(self, names: tuple[str, ...]) -> str | None:
        """The first of ``names`` the config gives a value (not null) for."""
        return next((name for name in names if self.values.get(name) is not None), None)

    def family(self) -> str:
        """The model type, refused unless this version imports it."""
        kind = self.values.get("model_type")
        if kind is None:
            raise ScenarioError(self._at("model_type"), Refusal("missing"))
        if kind not in FAMILIES:
            raise ScenarioError(self._at("model_type"),
                                Refusal("family_unknown", family=describe(kind),
                                        families=", ".join(FAMILIES)))
        return str(kind)

    def whole(self, *names: str, default: int | None = None, low: int = 1) -> int:
        """A size under the first of ``names`` given (else ``default``; none: refused)."""
        name = self._given(names)
        if name is None:
            if default is None:
                raise ScenarioError(self._at(names[0]), Refusal("missing"))
            return default
        return expect_int(self.values[name], self._at(name), low, MAX_SIZE)

    def number(self, *names: str, default: float) -> float:
        """A number (an ε, a base) under the first of ``names`` given, else ``default``."""
        name = self._given(names)
        return default if name is None else expect_number(self.values[name], self._at(name))

    def flag(self, name: str, default: bool) -> bool:
        """A true/false setting (null or absent: ``default``)."""
        value = self.values.get(name)
        return default if value is None else expect_bool(value, self._at(name))

    def activation(self, *names: str, default: str) -> str:
        """The engine's name for the feed-forward's activation."""
        name = self._given(names)
        if name is None:
            return ACTIVATIONS[default]
        given = self.values[name]
        if not isinstance(given, str) or given not in ACTIVATIONS:
            options = " | ".join(f'"{option}"' for option in ACTIVATIONS)
            raise ScenarioError(self._at(name), Refusal("not_choice", options=options,
                                                        got=describe(given)))
        return ACTIVATIONS[given]

    def _rope(self) -> Mapping[str, Any]:
        """``rope_parameters`` (or the older ``rope_scaling``), refused when it scales angles."""
        for name in ("rope_parameters", "rope_scaling"):
            given = self.values.get(name)
            if given is None:
                continue
            if not isinstance(given, Mapping):
                raise ScenarioError(self._at(name), Refusal("not_object", got=describe(given)))
            kind = given.get("rope_type", given.get("type", "default"))
            if kind != "default":
                raise ScenarioError(self._at(name), Refusal("rope_scaled", kind=describe(kind)))
            return given
        return {}

    def rope_base(self) -> float:
        """The RoPE base θ (10000 when no spelling gives it)."""
        rope = self._rope()
        if rope.get("rope_theta") is not None:
            return expect_number(rope["rope_theta"], self._at("rope_parameters.rope_theta"))
        return self.number("rope_theta", "rotary_emb_base", default=10000.0)

    def rotary_fraction(self, default: float) -> float:
        """The share of each head's columns RoPE turns."""
        rope = self._rope()
        if rope.get("partial_rotary_factor") is not None:
            return expect_number(rope["partial_rotary_factor"],
                                 self._at("rope_parameters.partial_rotary_factor"))
        return self.number("partial_rotary_factor", "rotary_pct", default=default)

    def windows(self, layers: int, *, every_layer: bool) -> list[int | None]:
        """Each layer's sliding window (None: the layer sees the whole past).

        ``layer_types`` (transformers 5) says which layers slide; without it a Mistral-style
        config (``every_layer``) slides in every layer when it gives ``sliding_window``, and a
        Qwen2-style one in the layers from ``max_window_layers`` on when ``use_sliding_window``.
        """
        if self.values.get("sliding_window") is None:
            return [None] * layers
        window = self.whole("sliding_window")
        types = self.values.get("layer_types")
        if isinstance(types, list) and len(types) == layers:
            return [window if kind == SLIDING else None for kind in types]
        if every_layer:
            return [window] * layers
        if not self.flag("use_sliding_window", False):
            return [None] * layers
        first = self.whole("max_window_layers", default=0, low=0)
        return [window if k >= first else None for k in range(layers)]


__all__ = ["FAMILIES", "Config"]
