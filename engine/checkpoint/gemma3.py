"""Gemma 3's RoPE, read as transformers 5's ``Gemma3TextConfig`` reads it: one base per layer
type, ``rope_parameters["full_attention"]`` and ``["sliding_attention"]`` (each's
``rope_theta``), else the legacy ``rope_theta`` (full) and ``rope_local_base_freq`` (sliding),
else 1,000,000 and 10,000. The document's ``positions.base`` is the full layers'; a sliding
layer whose base differs gets its attention's ``rope_base``. A scaling is refused: transformers
applies a legacy ``rope_scaling`` to the full layers only (Gemma 3 4B's linear 8), which one
``positions.scaling`` for every layer cannot say."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.checkpoint.config import FULL, SLIDING, Config, rope_type
from engine.format.errors import ScenarioError
from engine.format.layers import parse_positive
from engine.format.reader import describe, expect_object
from engine.words.refusals import Refusal

THETAS = {FULL: 1_000_000.0, SLIDING: 10_000.0}
"""Each layer type's base when the config gives none (transformers' ``default_theta``)."""
LEGACY = {FULL: "rope_theta", SLIDING: "rope_local_base_freq"}
"""Each layer type's base beside the RoPE settings, as older configs spell it."""


def bases(config: Config) -> dict[str, float]:
    """The RoPE base of each layer type (``full_attention``, ``sliding_attention``)."""
    scaling = config.values.get("rope_scaling")
    if scaling:  # transformers merges it into the full layers' settings alone
        kind = rope_type(expect_object(scaling, config.at("rope_scaling")))
        if kind != "default":
            raise ScenarioError(config.at("rope_scaling"),
                                Refusal("rope_scaled_full", kind=describe(kind)))
    given = config.values.get("rope_parameters")
    settings: Mapping[str, Any] = ({} if given is None
                                   else expect_object(given, config.at("rope_parameters")))
    other = next((key for key in settings if key not in THETAS), None)
    if other is not None:
        raise ScenarioError(config.at(f"rope_parameters.{other}"), Refusal("rope_layer_types"))
    found = {}
    for layer_type, default in THETAS.items():
        place = f"rope_parameters.{layer_type}"
        entry = settings.get(layer_type)
        own = None if entry is None else expect_object(entry, config.at(place))
        if own is not None and rope_type(own) != "default":
            raise ScenarioError(config.at(place),
                                Refusal("rope_scaled", kind=describe(rope_type(own))))
        if own is None or own.get("rope_theta") is None:
            place, theta = LEGACY[layer_type], config.values.get(LEGACY[layer_type], default)
        else:
            place, theta = f"{place}.rope_theta", own["rope_theta"]
        found[layer_type] = parse_positive(theta, config.at(place)) or default  # null: default
    return found


__all__ = ["bases"]
