"""RoPE scaling: how a long-context model changes RoPE's frequencies θᵢ (``positions.scaling``).

Three kinds, in transformers 5's arithmetic (``modeling_rope_utils``), each a multiplier mᵢ of
pair i's frequency, θ′ᵢ = θᵢ·mᵢ:

- ``linear``: every θᵢ divided by ``factor`` (positions read as p / factor);
- ``llama3``: by the pair's wavelength λᵢ = 2π/θᵢ against the original context C: λᵢ below
  C / ``high_freq_factor`` kept, above C / ``low_freq_factor`` divided by ``factor``, between
  them smoothed, s = (C/λᵢ − low)/(high − low), mᵢ = (1 − s)/factor + s;
- ``yarn``: a ramp over the pairs from the correction range's low to high, rᵢ = clamp((i −
  low)/(high − low), 0, 1), mᵢ = rᵢ/factor + 1 − rᵢ; and cos and sin times
  ``attention_factor`` (0.1·ln factor + 1 by default);
- ``longrope`` (Phi-3): each pair's frequency divided by its own ``short_factor``, mᵢ =
  1/short_factorᵢ (the factors a model uses within its original context), and cos and sin
  times ``attention_factor`` (1 by default).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import ScenarioError
from engine.reader import (
    FloatArray,
    expect_bool,
    expect_choice,
    expect_int,
    expect_number,
    expect_object,
    expect_vector,
    refuse_unknown,
)
from engine.refusals import Refusal

KINDS = ("linear", "llama3", "yarn", "longrope")
_KEYS: dict[str, tuple[str, ...]] = {
    "linear": ("type", "factor"),
    "llama3": ("type", "factor", "low_freq_factor", "high_freq_factor",
               "original_max_position_embeddings"),
    "yarn": ("type", "factor", "original_max_position_embeddings", "beta_fast", "beta_slow",
             "truncate", "attention_factor"),
    "longrope": ("type", "short_factor", "attention_factor"),
}
"""The keys each kind takes (``type`` names the kind)."""
MAX_CONTEXT = 1 << 24
"""The largest original context a document may give (far past any model's)."""


@dataclass(frozen=True)
class RopeScaling:
    """A validated ``positions.scaling`` (the defaults are transformers')."""

    type: str
    factor: float = 1.0
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    original: int = 8192
    beta_fast: float = 32.0
    beta_slow: float = 1.0
    truncate: bool = True
    attention_factor: float = 1.0
    short_factor: tuple[float, ...] = ()

    def multipliers(self, r: int, base: float) -> FloatArray:
        """mᵢ of each pair i = 0 … r/2 − 1 (θ′ᵢ = θᵢ·mᵢ)."""
        theta = np.power(base, -2.0 * np.arange(r // 2) / r)
        if self.type == "linear":
            return np.full(r // 2, 1.0 / self.factor)
        if self.type == "longrope":
            return 1.0 / np.array(self.short_factor, dtype=np.float64)
        if self.type == "llama3":
            wavelength = 2 * math.pi / theta
            smooth = self._smooth(wavelength)
            medium = (1 - smooth) / self.factor + smooth
            kept: FloatArray = np.where(wavelength > self.original / self.low_freq_factor,
                                        1.0 / self.factor, 1.0)
            found: FloatArray = np.where(self._medium(wavelength), medium, kept)
            return found
        ramp = self.ramp(r, base)
        yarn: FloatArray = ramp / self.factor + (1 - ramp)
        return yarn

    def _smooth(self, wavelength: FloatArray) -> FloatArray:
        """llama3's s = (C/λ − low)/(high − low)."""
        smooth: FloatArray = ((self.original / wavelength - self.low_freq_factor)
                              / (self.high_freq_factor - self.low_freq_factor))
        return smooth

    def _medium(self, wavelength: FloatArray) -> npt.NDArray[np.bool_]:
        """llama3's pairs between the two wavelengths (both ends included)."""
        medium: npt.NDArray[np.bool_] = ~(wavelength < self.original / self.high_freq_factor) \
            & ~(wavelength > self.original / self.low_freq_factor)
        return medium

    def correction_range(self, r: int, base: float) -> tuple[float, float]:
        """yarn's low and high pair: where ``beta_fast`` and ``beta_slow`` turns fit in the
        original context, floored and ceiled with ``truncate``, within 0 … r − 1."""
        def pair(turns: float) -> float:
            return r * math.log(self.original / (turns * 2 * math.pi)) / (2 * math.log(base))
        low, high = pair(self.beta_fast), pair(self.beta_slow)
        if self.truncate:
            low, high = math.floor(low), math.ceil(high)
        return max(low, 0), min(high, r - 1)

    def ramp(self, r: int, base: float) -> FloatArray:
        """yarn's rᵢ = clamp((i − low)/(high − low), 0, 1) (high + 0.001 when they meet)."""
        low, high = self.correction_range(r, base)
        if low == high:
            high += 0.001
        ramp: FloatArray = np.clip((np.arange(r // 2) - low) / (high - low), 0, 1)
        return ramp

    def described(self, r: int, base: float) -> dict[str, float]:
        """The numbers a sentence about the whole scaling quotes: its factor; llama3's two
        wavelengths (``short``: kept below, ``long``: divided above); yarn's ramp (``start``,
        ``end``) and attention factor."""
        if self.type == "llama3":
            return {"factor": self.factor, "short": self.original / self.high_freq_factor,
                    "long": self.original / self.low_freq_factor}
        if self.type == "yarn":
            start, end = self.correction_range(r, base)
            return {"factor": self.factor, "start": start, "end": end,
                    "attention": self.attention_factor}
        if self.type == "longrope":
            return {"attention": self.attention_factor}
        return {"factor": self.factor}

    def reason(self, i: int, r: int, base: float) -> tuple[str, dict[str, Any]]:
        """What the scaling did to pair i: a phrase key of :mod:`engine.phrases` and its
        fields (numbers as numbers; the caller formats them)."""
        m = float(self.multipliers(r, base)[i])
        if self.type == "linear":
            return "rope_linear", {"factor": self.factor}
        if self.type == "longrope":
            return "rope_longrope", {"i": i, "short": self.short_factor[i], "m": m}
        if self.type == "yarn":
            low, high = self.correction_range(r, base)
            return "rope_yarn", {"i": i, "start": low, "end": high,
                                 "ramp": float(self.ramp(r, base)[i]), "factor": self.factor,
                                 "m": m}
        wavelength = 2 * math.pi / base ** (-2 * i / r)
        fields = {"wavelength": wavelength, "original": self.original, "factor": self.factor,
                  "low": self.low_freq_factor, "high": self.high_freq_factor, "m": m,
                  "long": self.original / self.low_freq_factor,
                  "short": self.original / self.high_freq_factor}
        if self._medium(np.array([wavelength]))[0]:
            return "rope_llama3_smoothed", {
                **fields, "s": float(self._smooth(np.array([wavelength]))[0])}
        return ("rope_llama3_long" if wavelength > fields["long"] else "rope_llama3_short"), fields

    def to_document(self) -> dict[str, Any]:
        """The JSON object of ``positions.scaling`` (every key of the kind, written out)."""
        values: dict[str, Any] = {
            "type": self.type, "factor": self.factor, "low_freq_factor": self.low_freq_factor,
            "high_freq_factor": self.high_freq_factor,
            "original_max_position_embeddings": self.original, "beta_fast": self.beta_fast,
            "beta_slow": self.beta_slow, "truncate": self.truncate,
            "attention_factor": self.attention_factor,
            "short_factor": [_plain(value) for value in self.short_factor]}
        return {key: _plain(values[key]) for key in _KEYS[self.type]}


def _plain(value: Any) -> Any:
    """A whole float as an int (8, not 8.0), as a person types it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def yarn_attention_factor(factor: float) -> float:
    """YaRN's default cos/sin factor, 0.1·ln(factor) + 1 (1 for a factor up to 1)."""
    return 1.0 if factor <= 1 else 0.1 * math.log(factor) + 1.0


def parse_scaling(value: object, place: str) -> RopeScaling:
    """Validate a ``positions.scaling`` object.

    Raises
    ------
    ScenarioError
        The first problem found, naming its place (``positions.scaling.factor``).
    """
    obj = expect_object(value, place)
    if "type" not in obj:
        raise ScenarioError(f"{place}.type", Refusal("missing"))
    kind = expect_choice(obj["type"], f"{place}.type", KINDS)
    refuse_unknown(obj, _KEYS[kind], place)
    numbers = {key: _positive(obj, key, place) for key in _KEYS[kind]
               if key in obj and key not in ("type", "truncate", "short_factor",
                                             "original_max_position_embeddings")}
    if kind == "longrope":
        return RopeScaling(type=kind, short_factor=_factors(obj, place),
                           attention_factor=numbers.get("attention_factor", 1.0))
    if "factor" not in numbers:
        raise ScenarioError(f"{place}.factor", Refusal("missing"))
    found: dict[str, Any] = dict(numbers)
    if kind != "linear":
        key = "original_max_position_embeddings"
        if key not in obj:
            raise ScenarioError(f"{place}.{key}", Refusal("missing"))
        found["original"] = expect_int(obj[key], f"{place}.{key}", 1, MAX_CONTEXT)
    if kind == "llama3":
        for key in ("low_freq_factor", "high_freq_factor"):
            if key not in numbers:
                raise ScenarioError(f"{place}.{key}", Refusal("missing"))
        if numbers["low_freq_factor"] == numbers["high_freq_factor"]:
            raise ScenarioError(f"{place}.high_freq_factor",
                                Refusal("rope_llama3_equal", low=numbers["low_freq_factor"]))
    if kind == "yarn":
        found["truncate"] = expect_bool(obj.get("truncate", True), f"{place}.truncate")
        found.setdefault("attention_factor", yarn_attention_factor(numbers["factor"]))
    return RopeScaling(type=kind, **found)


def _factors(obj: Mapping[str, Any], place: str) -> tuple[float, ...]:
    """longrope's ``short_factor``: one number above 0 per turned pair (their count is checked
    against the stack's r by :func:`engine.positions.check_stack`)."""
    if "short_factor" not in obj:
        raise ScenarioError(f"{place}.short_factor", Refusal("missing"))
    factors = expect_vector(obj["short_factor"], f"{place}.short_factor")
    for k, value in enumerate(factors.tolist()):
        if value <= 0:
            raise ScenarioError(f"{place}.short_factor[{k}]",
                                Refusal("base_not_positive", got=value))
    return tuple(factors.tolist())


def _positive(obj: Mapping[str, Any], key: str, place: str) -> float:
    number = expect_number(obj[key], f"{place}.{key}")
    if number <= 0:
        raise ScenarioError(f"{place}.{key}", Refusal("base_not_positive", got=obj[key]))
    return number


__all__ = ["KINDS", "RopeScaling", "parse_scaling", "yarn_attention_factor"]
