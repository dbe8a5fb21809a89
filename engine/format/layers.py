"""Reading the modules of a scenario document: attention, feed-forward, block, layer, head.

Each function takes the module's JSON value, its document path (the place every refusal names)
and the sizes it must match, and returns the validated module or raises
:class:`~engine.format.errors.ScenarioError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.mapped_weight import MappedWeight, Weight, expect_weight
from engine.format.reader import (
    MAX_CELLS,
    MAX_HEADS,
    MAX_VOCAB,
    MAX_WIDTH,
    FloatArray,
    describe,
    expect_bool,
    expect_choice,
    expect_int,
    expect_labels,
    expect_matrix,
    expect_number,
    expect_object,
    expect_vector,
    refuse_large_result,
    refuse_unknown,
)
from engine.forward.numerics import key_visibility
from engine.scenario.modules import (
    ACTIVATIONS,
    NORMS,
    PLACEMENTS,
    QK_NORM_SPANS,
    QK_NORMS,
    RESIDUALS,
    Attention,
    Block,
    FeedForward,
    Head,
    Layer,
    Mixture,
    Transform,
)
from engine.words.refusals import Refusal

ATTENTION_KEYS = ("heads", "causal", "scale", "scale_dk", "Wq", "Wk", "Wv", "bq", "bk", "bv",
                  "Wo", "bo", "kv_heads", "window", "key_mask", "qk_norm", "qk_norm_over",
                  "gamma_q", "gamma_k", "beta_q", "beta_k", "ablate_heads", "softcap", "rope_base",
                  "rope_scaled")
CROSS_KEYS = tuple(key for key in ATTENTION_KEYS
                   if key not in ("causal", "rope_base", "rope_scaled"))
LAYER_BLOCK_KEYS = ("norm", "eps", "placement", "residual", "pre_norms", "gamma1", "beta1",
                    "gamma_c", "beta_c", "gamma2", "beta2", "gamma3", "beta3", "gamma4", "beta4",
                    "ffn")
HEAD_KEYS = ("final_norm", "gamma_f", "beta_f", "transform", "unembed", "bias", "vocab",
             "softcap")
TRANSFORM_KEYS = ("W", "b", "activation", "gamma", "beta", "eps")
HEAD_OWN_KEYS = ("norm", "eps", *HEAD_KEYS)
SHORTHAND_BLOCK_KEYS = (*LAYER_BLOCK_KEYS, *HEAD_KEYS)
LAYER_KEYS = ("attention", "cross_attention", "block")
FFN_KEYS = ("W1", "b1", "Wg", "bg", "activation", "W2", "b2")
MIXTURE_KEYS = ("router", "top_k", "normalize", "experts", "shared_gate", "shared")
MAX_EXPERTS = 128
"""The most experts a mixture may have (Qwen3-MoE's 128)."""
MAX_CHOSEN = 17
"""The most experts a token may choose (torch.topk sorts up to 16 before the k-th by insertion:
:mod:`engine.forward.top_k` replays that)."""
DEFAULT_EPS = 1e-5


def _at(place: str, key: str) -> str:
    return f"{place}.{key}" if place else key


def check_scores(heads: int, n: int, n_keys: int, place: str) -> None:
    """Refuse an attention at ``place`` whose scores (heads × n × n_keys) pass the limit."""
    if heads * n * n_keys > MAX_CELLS:
        positions = Refusal("square_positions", n=n) if n == n_keys \
            else Refusal("grid_positions", n=n, keys=n_keys)
        raise ScenarioError(_at(place, "heads"), Refusal("scores_limit", heads=heads,
                                                         positions=positions, limit=MAX_CELLS))


def parse_attention(value: object, place: str, *, n: int, d: int, n_keys: int | None = None,
                    d_keys: int | None = None, cross: bool = False, encoder: bool = False,
                    eps: float = DEFAULT_EPS) -> Attention:
    """Attention reading rows of width ``d`` (queries) and ``d_keys`` (keys and values).

    ``n_keys``/``d_keys`` differ from ``n``/``d`` for cross-attention, whose keys are the
    encoder's rows. Cross-attention has no ``causal`` key; an encoder's self-attention reads
    every source token, so there ``causal`` may only say false.
    """
    n_keys = n if n_keys is None else n_keys
    d_keys = d if d_keys is None else d_keys
    att = expect_object(value, place)
    refuse_unknown(att, CROSS_KEYS if cross else ATTENTION_KEYS, place)
    heads = expect_int(att.get("heads", 1), _at(place, "heads"), 1, MAX_HEADS)
    causal = False if cross else expect_bool(att.get("causal", not encoder), _at(place, "causal"))
    if encoder and causal:
        raise ScenarioError(_at(place, "causal"), Refusal("encoder_causal"))
    scale = expect_bool(att.get("scale", True), _at(place, "scale"))
    scale_dk = parse_positive(att.get("scale_dk"), _at(place, "scale_dk"))
    if scale_dk is not None and not scale:
        raise ScenarioError(_at(place, "scale_dk"), Refusal("scale_dk_needs_scale"))
    check_scores(heads, n, n_keys, place)
    groups = heads
    if "kv_heads" in att:
        groups = expect_int(att["kv_heads"], _at(place, "kv_heads"), 1, MAX_HEADS)
        if heads % groups:
            raise ScenarioError(_at(place, "kv_heads"), Refusal("kv_heads_divide", groups=groups,
                                                                heads=heads))
    for name in ("Wq", "Wk", "Wv"):
        if name not in att:
            raise ScenarioError(_at(place, name), Refusal("missing"))
    to_d = Refusal("match_d", d=d)
    to_keys = Refusal("match_encoder_width", d=d_keys) if cross else to_d
    Wq = expect_weight(att["Wq"], _at(place, "Wq"), rows=d, rows_reason=to_d, max_rows=MAX_WIDTH)
    width_q = int(Wq.shape[1])
    if groups == heads:
        width_k = width_q
        k_reason = Refusal("match_wq_width")
    else:
        if width_q % heads:
            raise ScenarioError(_at(place, "Wq"), Refusal("heads_split", columns=width_q,
                                                          heads=Refusal("heads_of", heads=heads)))
        width_k = width_q // heads * groups
        k_reason = Refusal("key_heads_of", groups=groups, d_k=width_q // heads)
    Wk = expect_weight(att["Wk"], _at(place, "Wk"), rows=d_keys, rows_reason=to_keys,
                       cols=width_k, cols_reason=k_reason, max_rows=MAX_WIDTH)
    Wv = expect_weight(att["Wv"], _at(place, "Wv"), rows=d_keys, rows_reason=to_keys,
                       max_rows=MAX_WIDTH)
    width_v = int(Wv.shape[1])
    refuse_large_result(_at(place, "Wq"), Refusal("result_q"), n, width_q)
    refuse_large_result(_at(place, "Wv"), Refusal("result_v"), n_keys, width_v)
    if width_q % heads:
        raise ScenarioError(_at(place, "Wq"), Refusal("heads_split", columns=width_q,
                                                      heads=Refusal("heads_of", heads=heads)))
    if width_v % groups:
        what = Refusal("kv_heads_of", groups=groups) if groups != heads \
            else Refusal("heads_of", heads=heads)
        raise ScenarioError(_at(place, "Wv"), Refusal("heads_split", columns=width_v, heads=what))
    mixed_width = width_v // groups * heads
    refuse_large_result(_at(place, "Wv"), Refusal("result_mixed"), n, mixed_width)

    def bias(name: str, length: int, reason: Refusal) -> FloatArray | None:
        if name not in att:
            return None
        return expect_vector(att[name], _at(place, name), length, reason)

    bq = bias("bq", width_q, Refusal("match_columns_of", matrix="Wq"))
    bk = bias("bk", width_k, Refusal("match_columns_of", matrix="Wk"))
    bv = bias("bv", width_v, Refusal("match_columns_of", matrix="Wv"))
    Wo = bo = None
    if "Wo" in att:
        Wo = expect_weight(att["Wo"], _at(place, "Wo"), rows=mixed_width,
                           rows_reason=Refusal("match_value_columns", columns=mixed_width),
                           max_rows=MAX_WIDTH)
        refuse_large_result(_at(place, "Wo"), Refusal("result_output"), n, int(Wo.shape[1]))
        bo = bias("bo", int(Wo.shape[1]), Refusal("match_columns_of", matrix="Wo"))
    elif "bo" in att:
        raise ScenarioError(_at(place, "bo"), Refusal("bias_needs_wo"))
    window = (expect_int(att["window"], _at(place, "window"), 1, 1_000_000)
              if "window" in att else None)
    key_mask = _key_mask(att["key_mask"], _at(place, "key_mask"), n_keys) \
        if "key_mask" in att else None
    qk_norm, over, gammas, shifts = _qk_norm(att, place, width_q // heads, heads, groups)
    attention = Attention(heads=heads, causal=causal, scale=scale, scale_dk=scale_dk, Wq=Wq,
                          Wk=Wk, Wv=Wv, bq=bq, bk=bk, bv=bv, Wo=Wo, bo=bo,
                          kv_heads=groups if "kv_heads" in att else None, window=window,
                          key_mask=key_mask, qk_norm=qk_norm, gamma_q=gammas[0], gamma_k=gammas[1],
                          beta_q=shifts[0], beta_k=shifts[1], qk_norm_over=over, qk_eps=eps,
                          ablate_heads=_ablate_heads(att, _at(place, "ablate_heads"), heads),
                          softcap=parse_positive(att.get("softcap"), _at(place, "softcap")),
                          rope_base=parse_positive(att.get("rope_base"),
                                                   _at(place, "rope_base")),
                          rope_scaled=expect_bool(att.get("rope_scaled", True),
                                                  _at(place, "rope_scaled")))
    _refuse_blind_rows(attention, place, n, n_keys)
    return attention


def _qk_norm(att: Mapping[str, Any], place: str, d_k: int, heads: int, groups: int
             ) -> tuple[str | None, str, tuple[FloatArray | None, FloatArray | None],
                        tuple[FloatArray | None, FloatArray | None]]:
    """The QK-norm's kind, what it spans (``qk_norm_over``), its scales ``gamma_q``/``gamma_k``
    (all 1 when absent) and LayerNorm's shifts ``beta_q``/``beta_k`` (None when absent): d_k
    numbers each over each head, the projection's width (h·d_k for q, g·d_k for k) over all
    heads."""
    if "qk_norm" not in att:
        for name in ("qk_norm_over", "gamma_q", "gamma_k", "beta_q", "beta_k"):
            if name in att:
                raise ScenarioError(_at(place, name), Refusal(
                    "qk_span_needs_norm" if name == "qk_norm_over"
                    else "qk_scale_needs_norm" if name.startswith("gamma")
                    else "qk_shift_needs_layernorm"))
        return None, "head", (None, None), (None, None)
    kind = expect_choice(att["qk_norm"], _at(place, "qk_norm"), QK_NORMS)
    over = expect_choice(att.get("qk_norm_over", "head"), _at(place, "qk_norm_over"),
                         QK_NORM_SPANS)
    widths = (d_k, d_k) if over == "head" else (heads * d_k, groups * d_k)
    gammas, shifts = [], []
    for which, width in zip("qk", widths, strict=True):
        why = Refusal("match_d_k", d_k=d_k) if over == "head" \
            else Refusal("match_columns_of", matrix=f"W{which}")
        gamma, beta = f"gamma_{which}", f"beta_{which}"
        gammas.append(expect_vector(att[gamma], _at(place, gamma), width, why) if gamma in att
                      else np.ones(width, dtype=np.float64))
        if beta in att and kind != "layernorm":
            raise ScenarioError(_at(place, beta), Refusal("qk_shift_needs_layernorm"))
        shifts.append(expect_vector(att[beta], _at(place, beta), width, why) if beta in att
                      else None)
    return kind, over, (gammas[0], gammas[1]), (shifts[0], shifts[1])


def _key_mask(value: object, place: str, n_keys: int) -> tuple[bool, ...]:
    if not isinstance(value, list | tuple):
        raise ScenarioError(place, Refusal("key_mask_list", count=n_keys, got=describe(value)))
    if len(value) != n_keys:
        raise ScenarioError(place, Refusal("key_mask_count", count=n_keys, got=len(value)))
    mask = []
    for k, item in enumerate(value):
        if isinstance(item, bool) or item not in (0, 1):
            raise ScenarioError(f"{place}[{k}]", Refusal("key_mask_item", got=describe(item)))
        mask.append(bool(item))
    return tuple(mask)


def _ablate_heads(att: Mapping[str, Any], place: str, heads: int) -> tuple[int, ...]:
    """The distinct 0-based heads whose outputs are set to 0 (none when the key is absent)."""
    if "ablate_heads" not in att:
        return ()
    value = att["ablate_heads"]
    if not isinstance(value, list | tuple):
        raise ScenarioError(place, Refusal("ablate_heads_list", high=heads - 1,
                                           got=describe(value)))
    chosen: list[int] = []
    for k, item in enumerate(value):
        head = expect_int(item, f"{place}[{k}]", 0, heads - 1)
        if head in chosen:
            raise ScenarioError(f"{place}[{k}]", Refusal("ablate_heads_twice", head=head))
        chosen.append(head)
    return tuple(chosen)


def _refuse_blind_rows(attention: Attention, place: str, n: int, n_keys: int) -> None:
    """A query that sees no key has no shares: refuse the window or key mask that does that."""
    if attention.window is None and attention.key_mask is None:
        return
    seen = key_visibility(n, n_keys, attention.causal, attention.window, attention.key_mask)
    blind = np.flatnonzero(~seen.any(axis=1))
    if blind.size:
        where = "key_mask" if attention.key_mask is not None else "window"
        raise ScenarioError(_at(place, where), Refusal("mask_hides_all", query=int(blind[0])))


def parse_ffn(value: object, place: str, n: int, d: int) -> FeedForward:
    """The feed-forward of a block, reading and writing rows of width ``d``."""
    ffn = expect_object(value, place)
    refuse_unknown(ffn, FFN_KEYS, place)
    for name in ("W1", "W2"):
        if name not in ffn:
            raise ScenarioError(_at(place, name), Refusal("missing"))
    W1 = expect_weight(ffn["W1"], _at(place, "W1"), rows=d, rows_reason=Refusal("match_d", d=d),
                       max_rows=MAX_WIDTH, max_cols=4 * MAX_WIDTH)
    f = int(W1.shape[1])
    refuse_large_result(_at(place, "W1"), Refusal("result_hidden"), n, f)
    W2 = expect_weight(ffn["W2"], _at(place, "W2"), rows=f,
                       rows_reason=Refusal("match_w1_columns", columns=f), cols=d,
                       cols_reason=Refusal("match_d", d=d), max_rows=4 * MAX_WIDTH)
    b1 = (expect_vector(ffn["b1"], _at(place, "b1"), f, Refusal("match_columns_of", matrix="W1"))
          if "b1" in ffn else None)
    b2 = (expect_vector(ffn["b2"], _at(place, "b2"), d, Refusal("match_d", d=d))
          if "b2" in ffn else None)
    Wg = bg = None
    if "Wg" in ffn:
        Wg = expect_weight(ffn["Wg"], _at(place, "Wg"), rows=d, rows_reason=Refusal("match_d", d=d),
                           cols=f, cols_reason=Refusal("match_w1_columns", columns=f),
                           max_rows=MAX_WIDTH, max_cols=4 * MAX_WIDTH)
        bg = (expect_vector(ffn["bg"], _at(place, "bg"), f,
                            Refusal("match_columns_of", matrix="Wg"))
              if "bg" in ffn else None)
    elif "bg" in ffn:
        raise ScenarioError(_at(place, "bg"), Refusal("gate_bias_needs_gate"))
    activation = expect_choice(ffn.get("activation", "relu"), _at(place, "activation"),
                               ACTIVATIONS)
    return FeedForward(W1=W1, b1=b1, W2=W2, b2=b2, Wg=Wg, bg=bg, activation=activation)


def parse_mixture(value: Mapping[str, Any], place: str, n: int, d: int) -> Mixture:
    """A mixture of experts (an ``ffn`` with a ``router``): the router (d × E), ``top_k``
    (1 … E), ``normalize`` (default true), a list of E feed-forwards and, together or not at
    all, a shared expert (a feed-forward every row runs) and its gate (d × 1)."""
    refuse_unknown(value, MIXTURE_KEYS, place)
    for name in ("router", "top_k", "experts"):
        if name not in value:
            raise ScenarioError(_at(place, name), Refusal("missing"))
    router = expect_matrix(value["router"], _at(place, "router"), rows=d,
                           rows_reason=Refusal("match_d", d=d), max_rows=MAX_WIDTH,
                           max_cols=MAX_EXPERTS, weights=True)
    count = int(router.shape[1])
    top_k = expect_int(value["top_k"], _at(place, "top_k"), 1, min(count, MAX_CHOSEN))
    normalize = expect_bool(value.get("normalize", True), _at(place, "normalize"))
    experts = value["experts"]
    if not isinstance(experts, list) or len(experts) != count:
        raise ScenarioError(_at(place, "experts"), Refusal(
            "experts_list", count=count, got=describe(experts)))
    for name, other in (("shared", "shared_gate"), ("shared_gate", "shared")):
        if name in value and other not in value:
            raise ScenarioError(_at(place, other), Refusal("missing"))
    shared = gate = None
    if "shared" in value:
        gate = expect_matrix(value["shared_gate"], _at(place, "shared_gate"), rows=d,
                             rows_reason=Refusal("match_d", d=d), cols=1,
                             cols_reason=Refusal("shared_gate_column"), max_rows=MAX_WIDTH,
                             weights=True)
        shared = parse_ffn(value["shared"], f"{place}.shared", n, d)
    return Mixture(router=router, top_k=top_k, normalize=normalize,
                   experts=tuple(parse_ffn(expert, f"{place}.experts.{e}", n, d)
                                 for e, expert in enumerate(experts)),
                   shared_gate=gate, shared=shared)


def parse_feed_forward(value: object, place: str, n: int, d: int) -> FeedForward | Mixture:
    """A block's ``ffn``: a mixture of experts when it has a ``router``, else one feed-forward."""
    if isinstance(value, Mapping) and "router" in value:
        return parse_mixture(value, place, n, d)
    return parse_ffn(value, place, n, d)


def row_of(doc: Mapping[str, Any], place: str, name: str, d: int, fill: float) -> FloatArray:
    if name not in doc:
        return np.full(d, fill, dtype=np.float64)
    return expect_vector(doc[name], _at(place, name), d, Refusal("match_d", d=d))


def parse_block(value: object, place: str, *, n: int, d: int, attention: Attention,
                attention_place: str, cross: Attention | None = None,
                allowed: tuple[str, ...] = LAYER_BLOCK_KEYS) -> Block:
    """The block of one layer (its head keys, in the shorthand, are read by :func:`parse_head`).
    """
    blk = expect_object(value, place)
    refuse_unknown(blk, allowed, place)
    if attention.d_out != d:
        source = Refusal("wo_columns") if attention.Wo is not None else Refusal("value_columns")
        raise ScenarioError(_at(attention_place, "Wo" if attention.Wo is not None else "Wv"),
                            Refusal("block_width", source=source, d=d, got=attention.d_out))
    norm, eps = block_norm(blk, place)
    placement = expect_choice(blk.get("placement", "pre"), _at(place, "placement"), PLACEMENTS)
    residual = expect_choice(blk.get("residual", "sequential"), _at(place, "residual"),
                             RESIDUALS)
    if residual == "parallel" and placement != "pre":
        raise ScenarioError(_at(place, "residual"), Refusal("parallel_needs_pre"))
    if residual == "parallel" and cross is not None:
        raise ScenarioError(_at(place, "residual"), Refusal("parallel_no_cross"))
    gamma_c = beta_c = None
    if cross is not None:
        gamma_c = row_of(blk, place, "gamma_c", d, 1.0)
        beta_c = row_of(blk, place, "beta_c", d, 0.0)
    else:
        for name in ("gamma_c", "beta_c"):
            if name in blk:
                raise ScenarioError(_at(place, name), Refusal("cross_norm_only"))
    if "ffn" not in blk:
        raise ScenarioError(_at(place, "ffn"), Refusal("ffn_missing"))
    ffn = parse_feed_forward(blk["ffn"], _at(place, "ffn"), n, d)
    sandwich = placement == "pre" and residual == "sequential" and cross is None
    rows = _pre_norms(blk, place, d, sandwich)
    outputs = _output_norms(blk, place, d, sandwich)
    return Block(norm=norm, eps=eps, placement=placement, residual=residual, gamma_c=gamma_c,
                 beta_c=beta_c, ffn=ffn, **rows, **outputs)


PRE_NORM_ROWS = ("gamma1", "beta1", "gamma2", "beta2")


def _pre_norms(blk: Mapping[str, Any], place: str, d: int,
               sandwich: bool) -> dict[str, FloatArray | None]:
    """γ1, β1, γ2 and β2 of the norms before the attention and the feed-forward (1 and 0 when
    absent); all None when ``pre_norms`` is false (OLMo 2: the sub-layers read the stream),
    which only a pre-norm block of sequential residuals without cross-attention may say."""
    if expect_bool(blk.get("pre_norms", True), _at(place, "pre_norms")):
        return {name: row_of(blk, place, name, d, 1.0 if name.startswith("gamma") else 0.0)
                for name in PRE_NORM_ROWS}
    if not sandwich:
        raise ScenarioError(_at(place, "pre_norms"), Refusal("no_pre_norms_sequential"))
    for name in PRE_NORM_ROWS:
        if name in blk:
            raise ScenarioError(_at(place, name), Refusal("pre_norm_without_pre_norms"))
    return dict.fromkeys(PRE_NORM_ROWS)


def _output_norms(blk: Mapping[str, Any], place: str, d: int,
                  sandwich: bool) -> dict[str, FloatArray]:
    """The norms of the attention's output (``gamma3``/``beta3``) and the feed-forward's
    (``gamma4``/``beta4``) before their residuals: each there when either of its keys is
    (the other 1 or 0), and only in a pre-norm block of sequential residuals without
    cross-attention (``sandwich``)."""
    rows: dict[str, FloatArray] = {}
    for which in ("3", "4"):
        given = [name for name in (f"gamma{which}", f"beta{which}") if name in blk]
        if given and not sandwich:
            raise ScenarioError(_at(place, given[0]), Refusal("output_norm_sequential"))
        if given:
            rows[f"gamma{which}"] = row_of(blk, place, f"gamma{which}", d, 1.0)
            rows[f"beta{which}"] = row_of(blk, place, f"beta{which}", d, 0.0)
    return rows


def block_norm(blk: Mapping[str, Any], place: str, norm: str = "layernorm",
               eps: float = DEFAULT_EPS) -> tuple[str, float]:
    """The ``norm`` and ``eps`` keys of a block or head (with their defaults)."""
    kind = expect_choice(blk.get("norm", norm), _at(place, "norm"), NORMS)
    value = expect_number(blk.get("eps", eps), _at(place, "eps"))
    if value < 0:
        raise ScenarioError(_at(place, "eps"), Refusal("eps_negative", eps=value))
    return kind, value


def parse_head(head: Mapping[str, Any], place: str, *, n: int, d: int, last: Layer,
               own_norm: bool, table: Weight | None = None) -> Head:
    """The final norm and vocabulary head over rows of width ``d``.

    ``own_norm``: the head is a top-level ``head`` object, whose ``norm`` and ``eps`` default
    to the last layer's block's; in the version-1 shorthand they are the block's own.
    ``table``: the document's embedding, which ``"unembed": "embedding.T"`` reads transposed
    (a tied head, :func:`tied_unembed`).
    """
    block = last.block
    default_norm = block.norm if block is not None else "layernorm"
    default_eps = block.eps if block is not None else DEFAULT_EPS
    norm, eps = block_norm(head, place, default_norm, default_eps) if own_norm \
        else (default_norm, default_eps)
    pre = block is not None and block.placement == "pre"
    final_norm = expect_bool(head.get("final_norm", pre), _at(place, "final_norm"))
    unembed = bias = None
    vocab: tuple[str, ...] = ()
    if "unembed" in head:
        unembed = expect_weight(tied_unembed(head["unembed"], _at(place, "unembed"), table),
                                _at(place, "unembed"), rows=d,
                                rows_reason=Refusal("match_d", d=d), max_rows=MAX_WIDTH,
                                max_cols=MAX_VOCAB)
        size = int(unembed.shape[1])
        refuse_large_result(_at(place, "unembed"), Refusal("result_logits"), n, size)
        vocab = (expect_labels(head["vocab"], _at(place, "vocab"), size) if "vocab" in head
                 else tuple(f"v{k + 1}" for k in range(size)))
        if "bias" in head:
            bias = expect_vector(head["bias"], _at(place, "bias"), size,
                                 Refusal("match_columns_of", matrix="unembed"))
    else:
        for name, what in (("vocab", Refusal("vocabulary_labels")),
                           ("bias", Refusal("vocabulary_bias")),
                           ("softcap", Refusal("vocabulary_softcap")),
                           ("transform", Refusal("vocabulary_transform"))):
            if name in head:
                raise ScenarioError(_at(place, name), Refusal("needs_unembed", what=what,
                                                              head=_at(place, "unembed")))
    transform = (parse_transform(head["transform"], _at(place, "transform"), d)
                 if "transform" in head else None)
    return Head(norm=norm, eps=eps, final_norm=final_norm,
                gamma_f=row_of(head, place, "gamma_f", d, 1.0),
                beta_f=row_of(head, place, "beta_f", d, 0.0), transform=transform,
                unembed=unembed, bias=bias, vocab=vocab,
                softcap=parse_positive(head.get("softcap"), _at(place, "softcap")))


TIED_UNEMBED = "embedding.T"
"""A head's ``unembed`` that is the embedding's transpose, one tensor with it (a checkpoint's
``tie_word_embeddings``): an edit of either sets both."""


def tied_unembed(value: object, place: str, table: Weight | None) -> object:
    """``value``, or the embedding's transpose where it is :data:`TIED_UNEMBED` (any other
    text refused: only the embedding can be named)."""
    if not isinstance(value, str):
        return value
    if value != TIED_UNEMBED:
        raise ScenarioError(place, Refusal("tied_unembed_text", tied=TIED_UNEMBED,
                                           got=describe(value)))
    if table is None:
        raise ScenarioError(place, Refusal("tied_unembed_table", tied=TIED_UNEMBED))
    if isinstance(table, MappedWeight):
        return table.T
    table.flags.writeable = False  # read-only, as the scenario holds it: its view is kept
    return table.T


def parse_positive(value: object, place: str) -> float | None:
    """A soft cap c (c·tanh(x / c)), an attention's ``scale_dk`` or ``rope_base``: null or
    absent for none, else a finite number above 0."""
    if value is None:
        return None
    number = expect_number(value, place)
    if number <= 0:
        raise ScenarioError(place, Refusal("scale_not_positive", got=number))
    return number


def parse_transform(value: object, place: str, d: int) -> Transform:
    """A masked-language-model head's transform over rows of width ``d``: a d × d ``W`` (and
    ``b``), its ``activation`` (GELU by default), then a LayerNorm of γ, β and ``eps``."""
    doc = expect_object(value, place)
    refuse_unknown(doc, TRANSFORM_KEYS, place)
    if "W" not in doc:
        raise ScenarioError(_at(place, "W"), Refusal("missing"))
    W = expect_matrix(doc["W"], _at(place, "W"), rows=d, cols=d,
                      rows_reason=Refusal("match_d", d=d), cols_reason=Refusal("match_d", d=d),
                      max_rows=MAX_WIDTH, weights=True)
    activation = expect_choice(doc.get("activation", "gelu"), _at(place, "activation"),
                               ACTIVATIONS)
    return Transform(W=W, b=row_of(doc, place, "b", d, 0.0), activation=activation,
                     gamma=row_of(doc, place, "gamma", d, 1.0),
                     beta=row_of(doc, place, "beta", d, 0.0),
                     eps=block_norm(doc, place)[1])


def parse_layer(value: object, place: str, *, n: int, d: int,
                memory: tuple[int, int] | None, encoder: bool = False) -> Layer:
    """One layer of a stack over rows of width ``d``; ``memory`` is the encoder's (n, d), if
    the document has one."""
    doc = expect_object(value, place)
    refuse_unknown(doc, LAYER_KEYS, place)
    if "attention" not in doc:
        raise ScenarioError(_at(place, "attention"), Refusal("attention_missing"))
    block_doc = expect_object(doc["block"], _at(place, "block")) if "block" in doc else None
    eps = block_norm(block_doc, _at(place, "block"))[1] if block_doc is not None else DEFAULT_EPS
    attention = parse_attention(doc["attention"], _at(place, "attention"), n=n, d=d,
                                encoder=encoder, eps=eps)
    cross = None
    if "cross_attention" in doc:
        if encoder:
            raise ScenarioError(_at(place, "cross_attention"), Refusal("encoder_cross"))
        if memory is None:
            raise ScenarioError(_at(place, "cross_attention"), Refusal("cross_no_encoder"))
        if block_doc is None:
            raise ScenarioError(_at(place, "cross_attention"), Refusal("cross_needs_block"))
        cross = parse_attention(doc["cross_attention"], _at(place, "cross_attention"), n=n, d=d,
                                n_keys=memory[0], d_keys=memory[1], cross=True, eps=eps)
        if cross.d_out != d:
            raise ScenarioError(_at(place, "cross_attention.Wo" if cross.Wo is not None
                                    else "cross_attention.Wv"),
                                Refusal("cross_width", d=d, got=cross.d_out))
    block = None
    if block_doc is not None:
        block = parse_block(block_doc, _at(place, "block"), n=n, d=d, attention=attention,
                            attention_place=_at(place, "attention"), cross=cross)
    elif attention.d_out != d:
        source = "Wo" if attention.Wo is not None else "Wv"
        raise ScenarioError(_at(place, f"attention.{source}"),
                            Refusal("layer_width", d=d, got=attention.d_out))
    return Layer(attention=attention, cross_attention=cross, block=block)


def parse_layers(value: object, place: str, *, n: int, d: int, limit: int,
                 memory: tuple[int, int] | None = None, encoder: bool = False
                 ) -> tuple[Layer, ...]:
    """A list of 1 to ``limit`` layers, each over rows of width ``d``."""
    if not isinstance(value, list | tuple):
        raise ScenarioError(place, Refusal("layers_list", got=describe(value)))
    if not value:
        raise ScenarioError(place, Refusal("no_layers"))
    if len(value) > limit:
        raise ScenarioError(place, Refusal("layers_limit", count=len(value), limit=limit))
    return tuple(parse_layer(item, f"{place}.{k}", n=n, d=d, memory=memory, encoder=encoder)
                 for k, item in enumerate(value))


__all__ = [
    "ATTENTION_KEYS",
    "HEAD_KEYS",
    "HEAD_OWN_KEYS",
    "LAYER_BLOCK_KEYS",
    "SHORTHAND_BLOCK_KEYS",
    "block_norm",
    "parse_attention",
    "parse_block",
    "parse_ffn",
    "parse_head",
    "parse_layer",
    "parse_layers",
    "parse_transform",
    "row_of",
]
