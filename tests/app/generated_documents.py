"""Version-2 documents drawn from every construct of the format, for the generated-documents test.

A :class:`Spec` names the choices (positions, heads, each layer's block and attention, an
encoder and its length); :func:`build` writes the document with the builders of
:mod:`tests.engine.v2_documents`; :func:`constructs` says which constructs a spec uses, so that
a test can check every one is met. Width 4, two columns per head.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from engine import parse_scenario
from engine.generation.append import can_generate
from tests.engine.v2_documents import Doc, attention, block, head, learned_table

D = 4
NORMS = ("layernorm", "rmsnorm", "none")
ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "silu", "identity")
POSITIONS = ("none", "sinusoidal", "learned", "rope", "alibi")
CONSTRUCTS = frozenset({
    *(f"positions {kind}" for kind in POSITIONS), *(f"norm {norm}" for norm in NORMS),
    *(f"activation {act}" for act in ACTIVATIONS), "qk_norm", "kv_heads", "window",
    "key_mask", "parallel residual", "gated ffn", "head bias", "post-norm", "unscaled",
    "not causal", "first layer without block", "layers differ", "encoder–decoder",
    "target longer than source", "target shorter than source", "odd labels",
    "targets: the loss", "token ids: the draw", "embedding_scale", "token types",
    "embedding_norm layernorm", "embedding_norm rmsnorm", "sinusoidal halves", "qk_norm shift",
    "alibi paper slopes", "masked-LM head", "rope scaling", "output norms", "ablate_heads",
    "mixture of experts", "shared expert", "head softcap", "attention softcap",
    "qk_norm all_heads", "no pre-norms", "scale_dk", "rope_base", "rope_scaled false",
    "rope context", "tied head", "a generation run"})
"""Every construct the generated documents must meet."""


@dataclass(frozen=True)
class LayerSpec:
    """One layer: its attention's options and its block's (``block`` False: none)."""

    block: bool = True
    norm: str = "layernorm"
    activation: str = "gelu"
    gated: bool = False
    placement: str = "pre"
    parallel: bool = False
    scale: bool = True
    causal: bool = True
    window: int | None = None
    key_mask: bool = False
    qk_norm: str | None = None
    qk_shift: bool = False
    """A LayerNorm QK-norm's shifts ``beta_q``/``beta_k``."""
    qk_all: bool = False
    """The QK-norm spans all heads' columns together (``qk_norm_over`` "all_heads", OLMo 2)."""
    output_norms: bool = False
    """Norms of the attention's and feed-forward's outputs (``gamma3``…``beta4``, Gemma 2)."""
    no_pre_norms: bool = False
    """``pre_norms`` false: the sub-layers read the stream itself (OLMo 2)."""
    ablate: bool = False
    """``ablate_heads`` lists the attention's last head (its output set to 0)."""
    experts: int = 0
    """A mixture of this many experts (two chosen per token) in place of the feed-forward."""
    shared: bool = False
    """The mixture's shared expert behind its sigmoid gate (Qwen2-MoE's; with ``experts``)."""
    softcap: bool = False
    """The self-attention's scores soft-capped (``softcap`` 0.5, Gemma 2's; not with ALiBi,
    which refuses it)."""
    scale_dk: bool = False
    """The self-attention's scores divided by √3 in place of √d_k (``scale_dk``, Gemma 2's
    ``query_pre_attn_scalar``; only when scaled)."""
    rope_base: bool = False
    """The self-attention turns by its own RoPE base 100 (``rope_base``, Gemma 3's local
    layers; only under RoPE positions, and beside a scaling only with ``rope_unscaled``)."""
    rope_unscaled: bool = False
    """The self-attention leaves the stack's RoPE scaling out (``rope_scaled`` false, Gemma 3
    4B's sliding layers; only under a scaling)."""


@dataclass(frozen=True)
class Spec:
    """A whole document: tokens, positions, heads, layers, head, and an encoder's length."""

    seed: int
    n: int
    positions: str
    layers: tuple[LayerSpec, ...]
    heads: int = 2
    kv_heads: int | None = None
    head: bool = True
    head_bias: bool = True
    source: int | None = None
    """The encoder's number of tokens; None: no encoder."""
    ending: str = "none"
    """After the probabilities (with a head): ``"targets"`` (the loss step), ``"draw"`` (token
    ids looked up in an embedding: the draw of the next token) or ``"none"``."""
    odd_labels: bool = False
    """Token and vocabulary labels a teacher may type: empty, a space, a line break, 40
    characters, right-to-left, emoji (:data:`ODD_LABELS`)."""
    scale: bool = False
    """Rows looked up by token id (in reverse order), times ``embedding_scale``."""
    types: bool = False
    """``token_types`` (two segments) and a ``type_table`` of two rows."""
    embedding_norm: str | None = None
    """The norm of the summed rows (``layernorm``, ``rmsnorm``), in the encoder too."""
    layout: str = "interleaved"
    """A sinusoid's layout (``halves``: every sine, then every cosine)."""
    slopes: bool = True
    """ALiBi's slopes given; False: the paper's default (for h not a power of two, its rule)."""
    masked_lm: bool = False
    """The head (if any) is a masked-language model's: a ``transform`` before the vocabulary,
    and the second token is ``[MASK]`` (the blank it fills)."""
    softcap: bool = False
    """The head's logits soft-capped (``head.softcap`` 0.5: small, so the cap bites)."""
    scaling: bool = False
    """RoPE's frequencies scaled (yarn over an original context of 64 positions: its ramp and
    its attention factor on cos and sin)."""
    context: bool = False
    """RoPE's ``positions.context`` (a checkpoint's context: generation stops there), two
    positions past the text's."""
    tied: bool = False
    """With the draw's embedding: the head's ``unembed`` is ``"embedding.T"`` (one tensor with
    the embedding, a vocabulary entry per embedding row)."""


ODD_LABELS = ("", "line\nbreak", "مرحبا", "x" * 40, " ", "👩‍👧 🔥")
"""Labels the engine accepts that a sentence, a table cell or a slide may stumble on."""


def _labels(prefix: str, count: int, odd: bool) -> list[str]:
    return [ODD_LABELS[k % len(ODD_LABELS)] if odd else f"{prefix}{k}" for k in range(count)]


def _positions(spec: Spec, seed: int, rows: int) -> Doc:
    kind = spec.positions
    if kind == "learned":
        return {"kind": "learned", "table": learned_table(seed, rows + 1, D), "offset": 1}
    if kind == "alibi" and spec.slopes:
        return {"kind": "alibi", "slopes": [0.5 ** (k + 1) for k in range(spec.heads)]}
    if kind == "sinusoidal" and spec.layout != "interleaved":
        return {"kind": kind, "layout": spec.layout}
    context = {"context": spec.n + 2} if kind == "rope" and spec.context else {}
    if kind == "rope" and spec.scaling:
        return {"kind": kind, "base": 100, "scaling": {
            "type": "yarn", "factor": 4, "original_max_position_embeddings": 64}, **context}
    return {"kind": kind, **context}


def _vector(rng: np.random.Generator, size: int) -> list[float]:
    return (1 + rng.standard_normal(size) * 0.3).round(3).tolist()


def _shift(rng: np.random.Generator, size: int) -> list[float]:
    return (rng.standard_normal(size) * 0.3).round(3).tolist()


def _layer(rng: np.random.Generator, spec: Spec, lay: LayerSpec, n: int, cross: bool) -> Doc:
    extra: dict[str, Any] = {"scale": lay.scale, "causal": lay.causal}
    if lay.window is not None:
        extra["window"] = lay.window
    if lay.key_mask:
        extra["key_mask"] = [0 if k == n // 2 and n > 1 else 1 for k in range(n)]
    if lay.ablate:
        extra["ablate_heads"] = [spec.heads - 1]
    if _capped(spec, lay):
        extra["softcap"] = 0.5
    if lay.scale and lay.scale_dk:
        extra["scale_dk"] = 3.0
    if _own_base(spec, lay):
        extra["rope_base"] = 100.0
    if _unscaled(spec, lay):
        extra["rope_scaled"] = False
    d_k = D // spec.heads if spec.heads <= 2 else 2
    if lay.qk_norm is not None:
        groups = spec.kv_heads or spec.heads
        q_width, k_width = (spec.heads * d_k, groups * d_k) if lay.qk_all else (d_k, d_k)
        extra.update(qk_norm=lay.qk_norm, gamma_q=_vector(rng, q_width),
                     gamma_k=_vector(rng, k_width))
        if lay.qk_all:
            extra["qk_norm_over"] = "all_heads"
        if lay.qk_shift and lay.qk_norm == "layernorm":  # RMSNorm has no shift
            extra.update(beta_q=_shift(rng, q_width), beta_k=_shift(rng, k_width))
    layer: Doc = {"attention": attention(rng, D, heads=spec.heads, d_k=d_k, d_v=d_k,
                                         kv_heads=spec.kv_heads, **extra)}
    if cross:
        layer["cross_attention"] = attention(rng, D, heads=spec.heads, d_k=d_k, d_v=d_k)
    if lay.block:
        keys: dict[str, Any] = {"residual": "parallel"} if lay.parallel else {}
        layer["block"] = block(rng, D, placement=lay.placement, norm=lay.norm,
                               activation=lay.activation, gated=lay.gated, cross=cross,
                               experts=lay.experts, shared=lay.shared, **keys)
        if lay.output_norms:
            layer["block"].update({f"{name}{which}": draw(rng, D) for which in "34"
                                   for name, draw in (("gamma", _vector), ("beta", _shift))})
        if lay.no_pre_norms:
            for name in ("gamma1", "beta1", "gamma2", "beta2"):
                del layer["block"][name]
            layer["block"]["pre_norms"] = False
    return layer


def _own_base(spec: Spec, lay: LayerSpec) -> bool:
    """Whether the layer turns by its own RoPE base (RoPE positions, without a scaling or
    leaving it out)."""
    return lay.rope_base and spec.positions == "rope" and (not spec.scaling
                                                           or _unscaled(spec, lay))


def _unscaled(spec: Spec, lay: LayerSpec) -> bool:
    """Whether the layer leaves the stack's RoPE scaling out (there is one to leave out)."""
    return lay.rope_unscaled and spec.positions == "rope" and spec.scaling


def _capped(spec: Spec, lay: LayerSpec) -> bool:
    """Whether the layer's self-attention caps its scores (ALiBi refuses a cap)."""
    return lay.softcap and spec.positions != "alibi"


def build(spec: Spec) -> Doc:
    """The version-2 document ``spec`` describes."""
    rng = np.random.default_rng(spec.seed)
    doc: Doc = {"format": "qkv-studio", "version": 2, "title": f"generated {spec.seed}",
                "tokens": _labels("t", spec.n, spec.odd_labels),
                "X": (rng.standard_normal((spec.n, D))).round(3).tolist()}
    if spec.source is not None:
        source = spec.source
        plain = LayerSpec(norm=spec.layers[0].norm, causal=False)
        doc["encoder"] = {
            "tokens": [f"s{k}" for k in range(source)],
            "X": (rng.standard_normal((source, D))).round(3).tolist(),
            "positions": _positions(spec, spec.seed + 1, source),
            "layers": [_layer(rng, spec, plain, source, cross=False)]}
    if spec.positions != "none" or spec.seed % 2:
        doc["positions"] = _positions(spec, spec.seed, spec.n)
    doc["layers"] = [_layer(rng, spec, lay, spec.n, cross=spec.source is not None)
                     for lay in spec.layers]
    if spec.head:
        doc["head"] = head(rng, D)
        if not spec.head_bias:
            del doc["head"]["bias"]
        if spec.softcap:
            doc["head"]["softcap"] = 0.5
        doc["head"]["vocab"] = _labels("v", len(doc["head"]["vocab"]), spec.odd_labels)
        if spec.masked_lm:
            doc["head"]["transform"] = {
                "W": rng.standard_normal((D, D)).round(3).tolist(), "b": _shift(rng, D),
                "activation": "gelu", "gamma": _vector(rng, D), "beta": _shift(rng, D),
                "eps": 1e-12}
            doc["tokens"][1] = "[MASK]"
        _end(doc, spec, rng)
    _embedding(doc, spec, rng)
    return doc


def _embedding(doc: Doc, spec: Spec, rng: np.random.Generator) -> None:
    """What happens to the rows before the first layer: the scale (rows then looked up by
    token id), the type rows, the embedding norm (the encoder's too)."""
    if spec.scale:
        if "X" in doc:
            doc["embedding"] = doc.pop("X")
            doc["token_ids"] = list(reversed(range(spec.n)))
        doc["embedding_scale"] = 2.0
    if spec.types:
        doc["token_types"] = [0 if k < spec.n // 2 else 1 for k in range(spec.n)]
        doc["type_table"] = rng.standard_normal((2, D)).round(3).tolist()
    if spec.embedding_norm is not None:
        for owner in (doc, doc.get("encoder")):
            if owner is None:
                continue
            norm: Doc = {"norm": spec.embedding_norm, "eps": 1e-6, "gamma": _vector(rng, D)}
            if spec.embedding_norm == "layernorm":
                norm["beta"] = _shift(rng, D)
            owner["embedding_norm"] = norm


def _end(doc: Doc, spec: Spec, rng: np.random.Generator) -> None:
    """Targets for the loss, or the rows X as the first rows of an embedding (token ids)."""
    vocab = len(doc["head"]["vocab"])
    if spec.ending == "targets":
        doc["targets"] = [(k + 1) % vocab for k in range(spec.n)]
    elif spec.ending == "draw":
        x = np.array(doc.pop("X"))
        extra = rng.standard_normal((max(0, vocab - spec.n), D)).round(3)
        doc["embedding"] = np.vstack([x, extra]).tolist()
        doc["token_ids"] = list(range(spec.n))
        doc["generation"] = {"temperature": 0.8, "top_k": 3, "top_p": 0.9, "seed": spec.seed}
        if spec.tied:
            entries = len(doc["embedding"])
            doc["head"].update(unembed="embedding.T",
                               vocab=_labels("v", entries, spec.odd_labels))
            if "bias" in doc["head"]:
                doc["head"]["bias"] = _vector(rng, entries)


def constructs(spec: Spec) -> set[str]:
    """The constructs of :data:`CONSTRUCTS` that ``spec``'s document uses."""
    met = {f"positions {spec.positions}"}
    for lay in spec.layers:
        if lay.block:
            met |= {f"norm {lay.norm}", f"activation {lay.activation}"}
            met |= {name for name, on in (("gated ffn", lay.gated),
                                          ("parallel residual", lay.parallel),
                                          ("mixture of experts", lay.experts > 0),
                                          ("shared expert", lay.experts > 0 and lay.shared),
                                          ("post-norm", lay.placement == "post"),
                                          ("output norms", lay.output_norms),
                                          ("no pre-norms", lay.no_pre_norms)) if on}
        met |= {name for name, on in (("qk_norm", lay.qk_norm is not None),
                                      ("qk_norm all_heads", lay.qk_norm is not None
                                       and lay.qk_all),
                                      ("window", lay.window is not None),
                                      ("key_mask", lay.key_mask), ("unscaled", not lay.scale),
                                      ("ablate_heads", lay.ablate),
                                      ("attention softcap", _capped(spec, lay)),
                                      ("scale_dk", lay.scale and lay.scale_dk),
                                      ("rope_base", _own_base(spec, lay)),
                                      ("rope_scaled false", _unscaled(spec, lay)),
                                      ("not causal", not lay.causal)) if on}
    if not spec.layers[0].block:
        met.add("first layer without block")
    if len(set(spec.layers)) > 1:
        met.add("layers differ")
    if spec.kv_heads is not None:
        met.add("kv_heads")
    met |= {name for name, on in (
        ("embedding_scale", spec.scale), ("token types", spec.types),
        ("sinusoidal halves", spec.positions == "sinusoidal" and spec.layout == "halves"),
        ("rope scaling", spec.positions == "rope" and spec.scaling),
        ("rope context", spec.positions == "rope" and spec.context),
        ("tied head", spec.head and spec.ending == "draw" and spec.tied),
        ("alibi paper slopes", spec.positions == "alibi" and not spec.slopes
         and spec.heads & (spec.heads - 1) != 0),
        ("qk_norm shift", any(lay.qk_norm == "layernorm" and lay.qk_shift
                              for lay in spec.layers))) if on}
    if spec.embedding_norm is not None:
        met.add(f"embedding_norm {spec.embedding_norm}")
    if spec.odd_labels:
        met.add("odd labels")
    masked_lm = spec.head and spec.masked_lm
    if masked_lm:
        met.add("masked-LM head")
    if spec.head and spec.ending == "targets":
        met.add("targets: the loss")
    if spec.head and spec.ending == "draw" and not masked_lm:  # a masked LM does not draw
        met.add("token ids: the draw")
        if can_generate(parse_scenario(build(spec))):
            met.add("a generation run")
    if spec.head and spec.head_bias:
        met.add("head bias")
    if spec.head and spec.softcap:
        met.add("head softcap")
    if spec.source is not None:
        met.add("encoder–decoder")
        if spec.n != spec.source:
            met.add("target longer than source" if spec.n > spec.source
                    else "target shorter than source")
    return met


@st.composite
def layer_specs(draw: st.DrawFn, n: int, first: bool, cross: bool) -> LayerSpec:
    """One layer's choices; a cross-attention layer keeps its block, a parallel residual is
    pre-norm without cross-attention, and a key mask comes with a window of two or more."""
    has_block = cross or not first or draw(st.booleans())
    placement = draw(st.sampled_from(("pre", "post")))
    parallel = placement == "pre" and not cross and draw(st.booleans())
    key_mask = draw(st.booleans())
    sandwich = placement == "pre" and not parallel and not cross
    narrowest = 2 if key_mask else 1  # a masked key leaves each query a neighbour to see
    return LayerSpec(
        block=has_block, norm=draw(st.sampled_from(NORMS)),
        activation=draw(st.sampled_from(ACTIVATIONS)), gated=draw(st.booleans()),
        placement=placement, parallel=parallel,
        scale=draw(st.booleans()), causal=draw(st.booleans()),
        window=draw(st.none() | st.integers(narrowest, max(narrowest, n - 1))),
        key_mask=key_mask,
        qk_norm=draw(st.none() | st.sampled_from(("rmsnorm", "layernorm"))),
        qk_shift=draw(st.booleans()), qk_all=draw(st.booleans()),
        experts=draw(st.sampled_from((0, 3))), shared=draw(st.booleans()),
        output_norms=sandwich and draw(st.booleans()),
        no_pre_norms=sandwich and has_block and draw(st.booleans()),
        ablate=draw(st.booleans()), softcap=draw(st.booleans()),
        scale_dk=draw(st.booleans()), rope_base=draw(st.booleans()))


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    """Any document of :func:`build`: one to three layers, or an encoder–decoder whose target
    is longer or shorter than its source."""
    n = draw(st.integers(2, 5))
    source = draw(st.none() | st.integers(2, 4))
    heads = draw(st.sampled_from((1, 2, 3, 4)))
    kv_heads = draw(st.none() | st.sampled_from(
        tuple(g for g in (1, 2) if g < heads and heads % g == 0) or (None,)))
    count = draw(st.integers(1, 3 if source is None else 2))
    layers = tuple(draw(layer_specs(n, first=k == 0, cross=source is not None))
                   for k in range(count))
    return Spec(seed=draw(st.integers(0, 10_000)), n=n, source=source,
                positions=draw(st.sampled_from(POSITIONS)), layers=layers, heads=heads,
                kv_heads=kv_heads, head=draw(st.booleans()), head_bias=draw(st.booleans()),
                ending=draw(st.sampled_from(("none", "targets", "draw"))),
                odd_labels=draw(st.booleans()), scale=draw(st.booleans()),
                types=draw(st.booleans()),
                embedding_norm=draw(st.none() | st.sampled_from(("layernorm", "rmsnorm"))),
                layout=draw(st.sampled_from(("interleaved", "halves"))),
                slopes=draw(st.booleans()), masked_lm=draw(st.booleans()),
                softcap=draw(st.booleans()), context=draw(st.booleans()),
                tied=draw(st.booleans()))


GENERATED = 5
"""Documents drawn at random by each of the two test_generated_random_* modules, besides the
:data:`EXAMPLES` (about 10 s a document on a 2-core machine; the single module of 20 documents
took five minutes, half of CI's time budget)."""


EXAMPLES: tuple[Spec, ...] = (
    # the three documents the tester found: qk_norm, a target longer than its source, and a
    # stack whose first layer has no block
    Spec(seed=1, n=4, positions="rope", layers=(LayerSpec(qk_norm="rmsnorm", rope_base=True),
                                                LayerSpec(qk_norm="layernorm", norm="rmsnorm")),
         heads=4, kv_heads=2, ending="draw", softcap=True, context=True),
    Spec(seed=2, n=5, source=3, positions="sinusoidal",
         layers=(LayerSpec(), LayerSpec(placement="post", activation="relu"))),
    Spec(seed=3, n=3, positions="none",
         layers=(LayerSpec(block=False), LayerSpec(norm="rmsnorm", activation="silu",
                                                   gated=True, experts=3, shared=True),
                 LayerSpec(norm="none", placement="post", scale=False, causal=False))),
    # the rest of the constructs
    Spec(seed=4, n=2, source=4, positions="learned", heads=1,
         layers=(LayerSpec(activation="gelu_tanh", key_mask=True),)),
    # labels as a teacher may type them (a line break drew a slide's second line at 18 pt)
    Spec(seed=6, n=5, positions="rope", odd_labels=True, ending="targets", scaling=True,
         layers=(LayerSpec(), LayerSpec(block=False, rope_unscaled=True, rope_base=True),
                 LayerSpec(norm="rmsnorm", output_norms=True, softcap=True, qk_norm="rmsnorm",
                           qk_all=True, no_pre_norms=True, scale_dk=True))),
    Spec(seed=5, n=5, positions="alibi", heads=2, kv_heads=1, head_bias=False,
         layers=(LayerSpec(parallel=True, window=2, activation="identity"),
                 LayerSpec(key_mask=True, causal=False, placement="post", ablate=True))),
    # what real checkpoints add: BERT's embeddings (scaled here too), Marian's sinusoids with
    # an encoder's own norm, ALiBi's paper slopes for three heads, Phi's QK-norm shifts
    Spec(seed=7, n=4, positions="learned", scale=True, types=True, embedding_norm="layernorm",
         layers=(LayerSpec(placement="post", causal=False),
                 LayerSpec(placement="post", causal=False)), ending="targets"),
    Spec(seed=8, n=4, source=3, positions="sinusoidal", layout="halves",
         embedding_norm="rmsnorm", layers=(LayerSpec(qk_norm="layernorm", qk_shift=True),)),
    Spec(seed=9, n=5, positions="alibi", heads=3, slopes=False, scale=True, ending="draw",
         layers=(LayerSpec(),), tied=True),
    # BERT's masked-LM head: the transform, then the tied vocabulary fills [MASK] (no draw)
    Spec(seed=10, n=4, positions="learned", types=True, embedding_norm="layernorm",
         masked_lm=True, ending="draw",
         layers=(LayerSpec(placement="post", causal=False),
                 LayerSpec(placement="post", causal=False))),
)
"""Specs that together meet every construct (test_generated_documents checks they do)."""
