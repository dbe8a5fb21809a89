"""The config.json of a checkpoint, read as transformers 5 reads it.

Families and transformers versions name the same setting differently, and a family reads only
some of the spellings: the RoPE base is ``rope_parameters["rope_theta"]`` (or a given
``rope_scaling``'s, which replaces ``rope_parameters``), else ``rope_theta`` beside it, or for
GPT-NeoX ``rotary_emb_base`` instead. A family's layout asks for each setting under the names
its transformers modeling reads; a key that changes numbers the engine does not compute is
refused by name (``…/config.json.rope_scaling``), as is every bad value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from engine.format.errors import ScenarioError
from engine.format.reader import (
    MAX_POSITIONS,
    describe,
    expect_bool,
    expect_int,
    expect_number,
    expect_vector,
)
from engine.forward.rope_scaling import KINDS as SCALINGS
from engine.forward.rope_scaling import yarn_attention_factor
from engine.words.refusals import Refusal

FAMILIES = ("gpt2", "llama", "mistral", "qwen2", "qwen3", "gpt_neox", "gemma", "gemma2", "phi",
            "phi3", "opt", "bert", "stablelm", "starcoder2", "mixtral", "qwen3_moe", "olmo2",
            "qwen2_moe", "gemma3_text")
"""The model types this version imports."""
ACTIVATIONS = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh",
               "silu": "silu", "swish": "silu", "relu": "relu", "linear": "identity"}
"""transformers' activation names and the engine's (gelu_new and gelu_pytorch_tanh are one
formula, the tanh form; ``gelu_fast`` rounds √(2/π) to 0.7978845608, so it is not that formula
and is refused)."""
MAX_SIZE = 1 << 24
"""The largest size a config may give (far past any checkpoint's width, heads or context)."""
DYNAMIC = "dynamic"
SLIDING = "sliding_attention"
FULL = "full_attention"
LLAMA_SCALINGS = ("linear", "llama3", "yarn", DYNAMIC)
"""The RoPE scalings the Llama-shaped families compute (``dynamic``: as the plain RoPE it is
within a context of at least the positions the engine computes)."""
WINDOWED = ("mistral", "phi3", "qwen2", "qwen3", "starcoder2", "gemma2", "mixtral", "qwen3_moe",
            "qwen2_moe", "gemma3_text")
"""The families whose modeling slides a window."""
EVERY_LAYER = ("mistral", "phi3", "starcoder2", "mixtral")
"""The families that slide every layer's window by ``sliding_window`` alone."""
TYPED_LAYERS = ("gemma2", "gemma3_text")
"""The families that slide their ``layer_types`` whatever ``use_sliding_window`` says."""
SLIDING_PATTERN = 6
"""Gemma 3's ``sliding_window_pattern`` when its config leaves it out: every sixth layer is
full."""
GEMMAS = ("gemma", "gemma2", "gemma3_text")
OTHERS_THAN_GPT2 = tuple(family for family in FAMILIES if family != "gpt2")
NULLABLE: dict[str, tuple[str, ...]] = {
    # GPT-2's spellings, which the other families' configs do not read
    "n_embd": OTHERS_THAN_GPT2, "n_head": OTHERS_THAN_GPT2, "n_layer": OTHERS_THAN_GPT2,
    "n_positions": OTHERS_THAN_GPT2, "n_inner": ("gpt2",),
    "head_dim": ("gpt_neox", "llama", "mistral", "mixtral", "stablelm", "starcoder2"),
    "num_key_value_heads": ("llama", "olmo2", "phi", "phi3", "qwen2", "qwen3"),
    "sliding_window": WINDOWED,
    "layer_types": ("gemma2", "gemma3_text", "qwen2", "qwen2_moe", "qwen3"),
    "attn_logit_softcapping": GEMMAS, "final_logit_softcapping": GEMMAS,
    "use_bidirectional_attention": GEMMAS,
    "attention_bias": ("phi3",),
    "position_embedding_type": ("bert",),
    "word_embed_proj_dim": ("opt",),
    "mlp_only_layers": ("qwen2_moe", "qwen3_moe"),
}
"""The keys the importer reads whose null transformers 5 takes, and the families it takes it in
(as absent, or as each key's own meaning of null: no window, no cap). A null under any other key
the importer reads is refused: transformers' typed config refuses it (``Field
'query_pre_attn_scalar' expected int, got NoneType``) or its model fails on the None, so no
default the importer could pick would be transformers' number."""

SOURCES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"layers\.\d+\.block\.ffn\.top_k"), ("num_experts_per_tok",)),
    (re.compile(r"layers\.\d+\.block\.eps"),
     ("rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "norm_epsilon")),
    (re.compile(r"positions\.rotary_dims"), ("partial_rotary_factor", "rotary_pct")),
    (re.compile(r"positions\.base"), ("rope_theta", "rotary_emb_base")),
)
"""Document places whose value an importer takes from one config key, and the keys it may be
(in the RoPE settings first, else beside them): a refusal there names the key."""


class Config:
    """A config.json's values, read by the names a family may use for them."""

    def __init__(self, values: Mapping[str, Any], place: str) -> None:
        self.values = values
        self.place = place

    def at(self, name: str) -> str:
        """The place of the key ``name``, for a refusal (``…/config.json.hidden_size``)."""
        return f"{self.place}.{name}"

    def source(self, place: str) -> str | None:
        """The config key (``rope_parameters.factor``, ``num_experts_per_tok``) the imported
        document's ``place`` was taken from, when it is one key (:data:`SOURCES`)."""
        name, rope = self._rope()
        if place.startswith("positions.scaling."):
            key = place.removeprefix("positions.scaling.")
            return f"{name}.{key}" if key in rope else None
        names = next((names for pattern, names in SOURCES if pattern.fullmatch(place)), ())
        for key in names:
            if key in rope:
                return f"{name}.{key}"
            if self.values.get(key) is not None:
                return key
        return None

    def nullable(self, name: str) -> bool:
        """Whether transformers takes a null under ``name`` in this family (:data:`NULLABLE`)."""
        return self.values.get("model_type") in NULLABLE.get(name, ())

    def _given(self, names: tuple[str, ...]) -> str | None:
        """The first of ``names`` the config gives a value for: a null counts as given (and is
        refused by the caller's reading) unless transformers takes it (:meth:`nullable`)."""
        return next((name for name in names if name in self.values
                     and (self.values[name] is not None or not self.nullable(name))), None)

    def family(self) -> str:
        """The model type, refused unless this version imports it."""
        kind = self.values.get("model_type")
        if kind is None:
            raise ScenarioError(self.at("model_type"), Refusal("missing"))
        if kind not in FAMILIES:
            raise ScenarioError(self.at("model_type"),
                                Refusal("family_unknown", family=describe(kind),
                                        families=", ".join(FAMILIES)))
        return str(kind)

    def plain(self) -> None:
        """Refuses a ``quantization_config``: transformers would load the weights through its
        quantizer (quantizing plain ones on the way), not as the stored floats the engine reads."""
        given = self.values.get("quantization_config")
        if given is None:
            return
        method = given.get("quant_method") if isinstance(given, Mapping) else given
        raise ScenarioError(self.at("quantization_config"),
                            Refusal("quantized", method=describe(method)))

    def whole(self, *names: str, default: int | None = None, low: int = 1) -> int:
        """A size under the first of ``names`` given (else ``default``; none: refused)."""
        name = self._given(names)
        if name is None:
            if default is None:
                raise ScenarioError(self.at(names[0]), Refusal("missing"))
            return default
        return config_int(self.values[name], self.at(name), low)

    def number(self, *names: str, default: float) -> float:
        """An ε under the first of ``names`` given, else ``default``: a key transformers' config
        types ``float``, so a whole number written without a decimal point (``1``) is refused,
        as transformers refuses it."""
        name = self._given(names)
        return default if name is None else config_float(self.values[name], self.at(name))

    def flag(self, name: str, default: bool) -> bool:
        """A true/false setting (absent, or null where transformers takes it: ``default``)."""
        if self._given((name,)) is None:
            return default
        return expect_bool(self.values[name], self.at(name))

    def activation(self, *names: str, default: str) -> str:
        """The engine's name for the feed-forward's activation."""
        name = self._given(names)
        if name is None:
            return ACTIVATIONS[default]
        given = self.values[name]
        if not isinstance(given, str) or given not in ACTIVATIONS:
            options = " | ".join(f'"{option}"' for option in ACTIVATIONS)
            raise ScenarioError(self.at(name), Refusal("not_choice", options=options,
                                                        got=describe(given)))
        return ACTIVATIONS[given]

    def _setting(self, name: str, default: float) -> float:
        """A number transformers takes whenever the key is there (a null too: refused here)."""
        return expect_number(self.values[name], self.at(name)) if name in self.values else default

    def _rope(self) -> tuple[str, Mapping[str, Any]]:
        """The RoPE settings transformers 5 reads, and their key: a ``rope_scaling`` that is
        given (not null, not empty) replaces ``rope_parameters`` whole, as transformers'
        ``convert_rope_params_to_dict`` does. Refused when it scales the angles otherwise than
        ``linear``, ``llama3``, ``yarn`` or ``dynamic`` (``rope_type``, else ``type``) or gives
        settings per layer type."""
        name = "rope_scaling" if self.values.get("rope_scaling") else "rope_parameters"
        given = self.values.get(name)
        if given is None:
            return name, {}
        if not isinstance(given, Mapping):
            raise ScenarioError(self.at(name), Refusal("not_object", got=describe(given)))
        kind = rope_type(given)
        if kind != "default" and kind not in (*SCALINGS, DYNAMIC, "su"):  # su: Phi-3's longrope
            raise ScenarioError(self.at(name), Refusal("rope_scaled", kind=describe(kind)))
        nested = next((key for key, value in given.items() if isinstance(value, Mapping)), None)
        if nested is not None:
            raise ScenarioError(self.at(f"{name}.{nested}"), Refusal("rope_per_layer"))
        return name, given

    def rope_scaling(self, computed: tuple[str, ...] = LLAMA_SCALINGS, pairs: int = 0,
                     original: int | None = None) -> dict[str, Any] | None:
        """The document's ``positions.scaling`` as transformers 5 computes it (None: no
        scaling), every setting resolved: llama3's and yarn's original context is the config's
        own ``original_max_position_embeddings`` when given (it wins over the RoPE settings';
        null is refused: transformers would compute with None), else the settings', else
        ``max_position_embeddings``; yarn's ``factor`` is required (null: the contexts'
        ratio), ``beta_fast``/``beta_slow`` are 32/1 when absent or 0, its attention factor
        comes from ``mscale``/``mscale_all_dim`` or the factor, ``truncate`` is true (null:
        false). ``computed``: the kinds the family's layout computes (another is refused).
        ``longrope`` (Phi-3, whose config makes ``su`` and ``yarn`` longrope too): its
        ``short_factor`` (``pairs`` numbers) and attention factor (√(1 + ln factor / ln C), factor
        = the contexts' ratio when not given), C the config's key else ``original`` (Phi-3's
        4096); refused when C is under the 512 positions the engine computes (past C
        transformers turns by ``long_factor``). ``dynamic`` (NTK) raises the base only for a
        sequence longer than ``max_position_embeddings``, so within it the angles are the plain
        RoPE's (None); its ``factor`` must be given (transformers reads it), and a context
        under the 512 positions the engine computes is refused: a text or a generated token
        could pass it."""
        name, rope = self._rope()
        kind = rope_type(rope)
        if kind == "default":
            return None
        if "longrope" in computed and kind in ("su", "yarn"):
            kind = "longrope"  # as Phi-3's config converts them
        if kind not in computed:
            raise ScenarioError(self.at(name), Refusal("rope_scaled", kind=describe(kind)))

        def setting(key: str) -> float | None:
            value = rope.get(key)
            return None if value is None else expect_number(value, self.at(f"{name}.{key}"))

        def needed(key: str) -> float:
            found = setting(key)
            if found is None:
                raise ScenarioError(self.at(f"{name}.{key}"), Refusal("missing"))
            return found

        if kind == "linear":
            return {"type": kind, "factor": needed("factor")}
        if kind == DYNAMIC:
            needed("factor")
            context = self.whole("max_position_embeddings")
            if context < MAX_POSITIONS:
                raise ScenarioError(self.at("max_position_embeddings"), Refusal(
                    "dynamic_short_context", context=context, limit=MAX_POSITIONS))
            return None
        key = "original_max_position_embeddings"
        if kind == "longrope":
            return self._longrope(name, rope, pairs, original)
        original = (config_int(self.values[key], self.at(key)) if key in self.values
                    else expect_int(rope[key], self.at(f"{name}.{key}"), 1, MAX_SIZE)
                    if rope.get(key) is not None
                    else self.whole("max_position_embeddings"))
        if kind == "llama3":
            return {"type": kind, "factor": needed("factor"),
                    "low_freq_factor": needed("low_freq_factor"),
                    "high_freq_factor": needed("high_freq_factor"), key: original}
        factor = needed("factor") if "factor" not in rope else setting("factor")
        if factor is None:  # given as null: the contexts' ratio (absent: transformers refuses)
            factor = self.whole("max_position_embeddings") / original
        attention = setting("attention_factor")
        if attention is None:
            mscale, all_dims = setting("mscale"), setting("mscale_all_dim")
            attention = (_mscale(factor, mscale) / _mscale(factor, all_dims)
                         if mscale and all_dims else yarn_attention_factor(factor))
        truncate = rope.get("truncate", True)
        return {"type": kind, "factor": factor, key: original,
                "beta_fast": setting("beta_fast") or 32, "beta_slow": setting("beta_slow") or 1,
                "truncate": truncate is not None and expect_bool(truncate,
                                                                 self.at(f"{name}.truncate")),
                "attention_factor": attention}

    def _longrope(self, name: str, rope: Mapping[str, Any], pairs: int,
                  original: int | None) -> dict[str, Any]:
        """Phi-3's longrope within its original context (see :meth:`rope_scaling`)."""
        key = "original_max_position_embeddings"
        context = (config_int(self.values[key], self.at(key)) if key in self.values
                   else original or self.whole("max_position_embeddings"))
        if context < MAX_POSITIONS:
            raise ScenarioError(self.at(key), Refusal("longrope_short_context", original=context))
        for needed in ("short_factor", "long_factor"):
            if rope.get(needed) is None:
                raise ScenarioError(self.at(f"{name}.{needed}"), Refusal("missing"))
        place = self.at(f"{name}.short_factor")
        short = expect_vector(rope["short_factor"], place, pairs,
                              Refusal("longrope_pairs", pairs=pairs))
        factor = (self.whole("max_position_embeddings") / context if rope.get("factor") is None
                  else expect_number(rope["factor"], self.at(f"{name}.factor")))
        attention = (expect_number(rope["attention_factor"], self.at(f"{name}.attention_factor"))
                     if rope.get("attention_factor") is not None else 1.0 if factor <= 1
                     else math.sqrt(1 + math.log(factor) / math.log(context)))
        return {"type": "longrope", "short_factor": short.tolist(), "attention_factor": attention}

    def rope_base(self, spelling: str = "rope_theta") -> float:
        """The RoPE base θ: the RoPE settings' ``rope_theta``, else the key ``spelling`` beside
        them (GPT-NeoX: ``rotary_emb_base``, the only one it reads there), else 10000."""
        name, rope = self._rope()
        if "rope_theta" in rope:
            return expect_number(rope["rope_theta"], self.at(f"{name}.rope_theta"))
        return self._setting(spelling, 10000.0)

    def rotary_fraction(self, spelling: str, default: float) -> float:
        """The share of each head's columns RoPE turns: the RoPE settings'
        ``partial_rotary_factor``, else the key ``spelling`` beside them (GPT-NeoX:
        ``rotary_pct``; Phi: ``partial_rotary_factor``), else ``default``."""
        name, rope = self._rope()
        if "partial_rotary_factor" in rope:
            return expect_number(rope["partial_rotary_factor"],
                                 self.at(f"{name}.partial_rotary_factor"))
        return self._setting(spelling, default)

    def windows(self, layers: int) -> list[int | None]:
        """Each layer's sliding window (None: the layer sees the whole past), as each family's
        modeling reads it: Mistral, Phi-3, Starcoder2, Mixtral slide every layer by
        ``sliding_window`` (``layer_types`` unread); Qwen2 and Qwen3 slide the ``layer_types``
        marked ``sliding_attention`` (by default those from ``max_window_layers``, 28, on), and
        only when ``use_sliding_window`` (Qwen3-MoE every layer then; Qwen2-MoE by default the
        even layers under ``max_window_layers``, and a layer marked sliding without
        ``use_sliding_window`` is refused: its window would be 0 keys); Gemma 2 and Gemma 3
        slide their :meth:`layer_types`; Llama and
        every other family slide none, whatever the
        config says. An absent ``sliding_window`` (4096 in transformers) is wider than any text the
        engine computes: no window."""
        family = self.values.get("model_type")
        if family not in WINDOWED:
            return [None] * layers
        # Qwen2-MoE's config saves its unused window as 0 when use_sliding_window is false
        unread = family == "qwen2_moe" and not self.flag("use_sliding_window", False)
        window = None if unread or self.values.get("sliding_window") is None \
            else self.whole("sliding_window")
        if family in EVERY_LAYER:
            return [window] * layers
        if family not in TYPED_LAYERS and not self.flag("use_sliding_window", False):
            window = None
        if family == "qwen3_moe":  # every layer when use_sliding_window, as its attention does
            return [window] * layers
        types = self.layer_types(layers)
        if family == "qwen2_moe":
            types = self._qwen2_moe_types(layers, types)
        if types is None:
            first = self.whole("max_window_layers", default=28, low=0)
            types = [SLIDING if k >= first else FULL for k in range(layers)]
        return [window if kind == SLIDING else None for kind in types]

    def _qwen2_moe_types(self, layers: int, given: list[str] | None) -> list[str]:
        """Qwen2-MoE's layer types: ``given``, else sliding the even layers under
        ``max_window_layers`` when ``use_sliding_window``; a sliding layer without it is refused
        (transformers then slides a window of 0 keys, which hides every key)."""
        slides = self.flag("use_sliding_window", False)
        if given is None:
            first = self.whole("max_window_layers", default=28, low=0)
            return [SLIDING if slides and k % 2 == 0 and k < first else FULL
                    for k in range(layers)]
        if SLIDING in given and not slides:
            raise ScenarioError(self.at("layer_types"), Refusal("window_of_nothing"))
        return given

    def layer_types(self, layers: int) -> list[str] | None:
        """``layer_types``: one of full or sliding attention per layer; when absent, Gemma 2's
        default (the first layer and every other one after it slide), Gemma 3's (every layer
        but each ``sliding_window_pattern``-th, by default 6, slides), else None."""
        types = self.values.get("layer_types")
        family = self.values.get("model_type")
        if types is None and family == "gemma2":
            return [SLIDING if k % 2 == 0 else FULL for k in range(layers)]
        if types is None and family == "gemma3_text":
            pattern = self.whole("sliding_window_pattern", default=SLIDING_PATTERN)
            return [SLIDING if (k + 1) % pattern else FULL for k in range(layers)]
        if types is None:
            return None
        if not (isinstance(types, list) and len(types) == layers
                and all(kind in (FULL, SLIDING) for kind in types)):
            raise ScenarioError(self.at("layer_types"),
                                Refusal("layer_types", layers=layers, got=describe(types)))
        return types


def config_int(value: object, place: str, low: int = 1) -> int:
    """A whole number from ``low`` to :data:`MAX_SIZE` under a key transformers' config types
    ``int``: written with a fraction part (``2.0``) it is refused, as transformers' typed config
    refuses it (the document format takes 2.0 for 2; a config.json does not)."""
    if isinstance(value, float):
        raise ScenarioError(place, Refusal("config_whole_float", got=describe(value)))
    return expect_int(value, place, low, MAX_SIZE)


def config_float(value: object, place: str) -> float:
    """A number under a key transformers' config types ``float``: written as a whole number
    (``1``, not ``1.0``) it is refused, as transformers' typed config refuses it."""
    if isinstance(value, int) and not isinstance(value, bool):
        raise ScenarioError(place, Refusal("config_float_whole", got=describe(value)))
    return expect_number(value, place)


def rope_type(rope: Mapping[str, Any]) -> Any:
    """The RoPE settings' kind: ``rope_type``, else ``type``, else ``default``."""
    return rope["rope_type"] if "rope_type" in rope else rope.get("type", "default")


def _mscale(factor: float, mscale: float) -> float:
    """YaRN's 0.1·mscale·ln(factor) + 1 (1 for a factor up to 1)."""
    return 1.0 if factor <= 1 else 0.1 * mscale * math.log(factor) + 1.0


__all__ = ["FAMILIES", "Config"]
