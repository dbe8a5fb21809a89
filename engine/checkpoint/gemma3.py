"""Gemma 3's RoPE, read as transformers 5's ``Gemma3TextConfig`` reads it: settings per layer
type, ``rope_parameters["full_attention"]`` and ``["sliding_attention"]``, the full layers'
updated by a legacy ``rope_scaling`` when one is given (Gemma 3 4B's linear 8). Each type's base
is its settings' ``rope_theta``, else the legacy ``rope_theta`` (full) and
``rope_local_base_freq`` (sliding), else 1,000,000 and 10,000. The document's ``positions``
are the full layers' (``base``, and ``scaling`` when they scale); a sliding layer whose base
differs gets its attention's ``rope_base``, and under a scaling ``rope_scaled`` false: its
angles are not scaled. Only a linear scaling of the full layers is computed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.checkpoint.config import FULL, SLIDING, Config, rope_type
from engine.format.errors import ScenarioError
from engine.format.layers import parse_positive
from engine.format.reader import describe, expect_number, expect_object
from engine.words.refusals import Refusal

THETAS = {FULL: 1_000_000.0, SLIDING: 10_000.0}
"""Each layer type's base when the config gives none (transformers' ``default_theta``)."""
LEGACY = {FULL: "rope_theta", SLIDING: "rope_local_base_freq"}
"""Each layer type's base beside the RoPE settings, as older configs spell it."""


@dataclass(frozen=True)
class Rope:
    """Gemma 3's RoPE: each layer type's base, and the full layers' linear factor."""

    bases: dict[str, float]
    factor: float | None
    """The full layers' linear scaling (their θᵢ divided by it); None: not scaled."""

    def positions(self, d_k: int) -> dict[str, Any]:
        """The document's ``positions``: the full layers' RoPE."""
        found: dict[str, Any] = {"kind": "rope", "base": self.bases[FULL], "pairing": "half",
                                 "rotary_dims": d_k}
        if self.factor is not None:
            found["scaling"] = {"type": "linear", "factor": self.factor}
        return found

    def own(self, layer_type: str) -> dict[str, Any]:
        """What a layer's attention says of its RoPE beside the stack's: a sliding layer's
        ``rope_base`` when its base is not the full layers', and ``rope_scaled`` false when
        the full layers scale."""
        if layer_type == FULL:
            return {}
        base = self.bases[layer_type]
        return {**({} if base == self.bases[FULL] else {"rope_base": base}),
                **({} if self.factor is None else {"rope_scaled": False})}


def rope(config: Config) -> Rope:
    """Each layer type's RoPE as transformers merges the config's settings."""
    given = config.values.get("rope_parameters")
    settings: Mapping[str, Any] = ({} if given is None
                                   else expect_object(given, config.at("rope_parameters")))
    other = next((key for key in settings if key not in THETAS), None)
    if other is not None:
        raise ScenarioError(config.at(f"rope_parameters.{other}"), Refusal("rope_layer_types"))
    legacy = config.values.get("rope_scaling")
    bases, factor = {}, None
    for layer_type, default in THETAS.items():
        place = f"rope_parameters.{layer_type}"
        entry = settings.get(layer_type)
        own = {} if entry is None else dict(expect_object(entry, config.at(place)))
        places = dict.fromkeys(own, place)
        if layer_type == FULL and legacy is not None:  # transformers updates them with it
            merged = expect_object(legacy, config.at("rope_scaling"))
            own.update(merged)
            places.update(dict.fromkeys(merged, "rope_scaling"))
        kind = rope_type(own)
        if kind != "default":
            where = places.get("rope_type", places.get("type", place))
            factor = _linear_factor(config, where, own, kind, layer_type)
        if own.get("rope_theta") is None:
            where, theta = LEGACY[layer_type], config.values.get(LEGACY[layer_type], default)
            if theta is None:  # transformers' rotary embedding fails on a None base
                expect_number(theta, config.at(where))
        else:
            where, theta = f"{places['rope_theta']}.rope_theta", own["rope_theta"]
        bases[layer_type] = parse_positive(theta, config.at(where)) or default
    return Rope(bases, factor)


def _linear_factor(config: Config, place: str, settings: Mapping[str, Any], kind: Any,
                   layer_type: str) -> float:
    """The factor of the full layers' linear scaling; another scaling is refused at
    ``place``."""
    if layer_type == SLIDING:
        raise ScenarioError(config.at(place),
                            Refusal("rope_scaled_sliding", kind=describe(kind)))
    if kind != "linear":
        raise ScenarioError(config.at(place), Refusal("rope_scaled_full", kind=describe(kind)))
    factor = parse_positive(settings.get("factor"), config.at(f"{place}.factor"))
    if factor is None:
        raise ScenarioError(config.at(f"{place}.factor"), Refusal("missing"))
    return factor


__all__ = ["Rope", "rope"]
