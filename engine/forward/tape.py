"""The tape: the forward pass written as a list of typed steps, one small function per op kind.

Each op function computes its arrays from arrays already on the tape, stores them under the
step's scope (``L2.scores``) and appends its :class:`~engine.forward.step.Step`. Where the op
runs — scope, module path, layer, stack, token lists — comes in a :class:`Place`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.format.errors import ScenarioError
from engine.format.generation_keys import Settings
from engine.format.mapped_weight import Weight, column_block, times
from engine.format.numbers import format_exact
from engine.format.reader import FloatArray
from engine.forward.numerics import activate, key_visibility, norm, row_statistics, softmax
from engine.forward.step import Op, Step
from engine.generation.sampling import sample
from engine.scenario.modules import Attention, FeedForward, Transform
from engine.scenario.names import NORM_NAMES, activation_name
from engine.scenario.op_kinds import head_output
from engine.scenario.positions import Positions
from engine.words import english
from engine.words.refusals import Refusal

BoolArray = npt.NDArray[np.bool_]
VOCABULARY_BLOCK = 1 << 22
"""Numbers of the unembedding widened at a time (32 MiB of float64): its d × V never is."""


@dataclass(frozen=True)
class Place:
    """Where a group of steps runs.

    ``scope`` prefixes the arrays written (``"L2."``); ``module`` is the document path of the
    parameters' module (``"layers.1.attention"``); ``label`` starts each title (``"Layer 2"``,
    empty in the version-1 shorthand).
    """

    scope: str = ""
    module: str = ""
    layer: int = 0
    keys: str = ""
    label: str = ""

    @property
    def stack(self) -> Literal["decoder", "encoder"]:
        return "encoder" if self.scope.startswith("enc.") else "decoder"

    @property
    def rows(self) -> str:
        """The token list of the rows: the encoder's in its scope."""
        return "enc.tokens" if self.stack == "encoder" else "tokens"

    def at(self, module: str, keys: str = "") -> Place:
        """The same place with another module path (and token list of the keys)."""
        return replace(self, module=module, keys=keys)

    def param(self, key: str) -> str:
        """Document path of one of the module's parameters."""
        return f"{self.module}.{key}" if self.module else key


@dataclass
class Tape:
    """The arrays and steps written so far, and each attention's visibility by scope."""

    arrays: dict[str, FloatArray] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    visibility: dict[str, BoolArray] = field(default_factory=dict)
    positions: dict[str, tuple[Positions, str]] = field(default_factory=dict)
    """Each stack's positions (``"decoder"``, ``"encoder"``) and their document path."""
    replay: tuple[Step, ...] = ()
    """The first steps, taken as they are from an earlier trace whose arrays ``arrays`` starts
    with (:mod:`engine.forward.retrace`): their op functions append them and compute nothing."""
    stop: int | None = None
    """Stop the forward pass (:class:`Stopped`) once this many steps are on the tape."""

    def __getitem__(self, name: str) -> FloatArray:
        return self.arrays[name]

    def replayed(self) -> bool:
        """Whether the next step is one of :attr:`replay`: then it is appended, and the op
        function that asked returns without computing."""
        k = len(self.steps)
        if k >= len(self.replay):
            return False
        self.steps.append(self.replay[k])
        return True

    def step(self, place: Place, kind: str, title: str, reads: tuple[str, ...],
             writes: tuple[str, ...], explain_key: str, op: Op, module: str | None = None,
             keys: str | None = None) -> None:
        """Append a step; ``kind`` is its id within the scope (``"scores"``)."""
        self.steps.append(Step(
            f"{place.scope}{kind}", f"{place.label}: {title}" if place.label else title, reads,
            writes, explain_key, op, scope=place.scope,
            module=place.module if module is None else module, layer=place.layer,
            stack=place.stack,
            rows=place.rows, keys=place.keys if keys is None else keys))
        if self.stop is not None and len(self.steps) >= self.stop:
            raise Stopped


class Stopped(Exception):  # noqa: N818 - a planned end, not an error
    """The tape holds its :attr:`Tape.stop` steps: the rest of the forward pass is not run."""


def _optional(*pairs: tuple[str, object]) -> tuple[str, ...]:
    return tuple(name for name, value in pairs if value is not None)


def embed(tape: Tape, place: Place, name: str, rows: FloatArray, scale: float | None) -> None:
    """Rows of the embedding table looked up by token id (times ``scale`` when given), written
    as ``name``."""
    if tape.replayed():
        return
    tape.arrays[name] = rows
    title = english("title.input.embed", scaled=english(
        "title.embed_scaled", scale=format_exact(scale)) if scale is not None else "")
    tape.step(place, "embed", title, (f"{place.scope}token_ids", "embedding"), (name,),
              "input.embed", "embed", module="")


def inputs(tape: Tape, place: Place, attention: Attention, source: str) -> None:
    """The picture of the input and the three parameter paths (attention alone)."""
    if tape.replayed():
        return
    tape.step(place, "inputs", english("title.attention.inputs"),
              (source, *_projection_params(place, attention)), (), "attention.inputs", "inputs")


def _projection_params(place: Place, a: Attention) -> tuple[str, ...]:
    return tuple(place.param(name) for name in
                 ("Wq", "Wk", "Wv", *_optional(("bq", a.bq), ("bk", a.bk), ("bv", a.bv))))


def normalise(tape: Tape, place: Place, kind: str, name: str, source: str,
               gamma: tuple[str, FloatArray], beta: tuple[str, FloatArray], block_norm: str,
               eps: float, title: str, explain_key: str) -> None:
    """A norm of each row: writes ``name`` and its statistics ``name_stats``; reads the source,
    γ and (LayerNorm and no norm only: RMSNorm has no shift) β."""
    if tape.replayed():
        return
    out = f"{place.scope}{name}"
    x = tape[source]
    tape.arrays[out] = norm(block_norm, x, gamma[1], beta[1], eps)
    tape.arrays[f"{out}_stats"] = row_statistics(block_norm, x, eps)
    reads = (source, gamma[0]) if block_norm == "rmsnorm" else (source, gamma[0], beta[0])
    tape.step(place, kind, title, reads, (out,), explain_key, "norm")


def query_rows(a: Attention, x: FloatArray) -> FloatArray:
    """Q = x·Wq + bq."""
    q: FloatArray = times(x, a.Wq) + (a.bq if a.bq is not None else 0.0)
    return q


def key_value_rows(a: Attention, kv: FloatArray) -> tuple[FloatArray, FloatArray]:
    """K = kv·Wk + bk and V = kv·Wv + bv."""
    k: FloatArray = times(kv, a.Wk) + (a.bk if a.bk is not None else 0.0)
    v: FloatArray = times(kv, a.Wv) + (a.bv if a.bv is not None else 0.0)
    return k, v


def projections(tape: Tape, place: Place, a: Attention, source: str,
                keys_source: str | None = None) -> None:
    """Q, K and V (keys and values from ``keys_source`` in cross-attention)."""
    if tape.replayed():
        return
    s = place.scope
    x = tape[source]
    kv = x if keys_source is None else tape[keys_source]
    tape.arrays[f"{s}Q"] = query_rows(a, x)
    tape.arrays[f"{s}K"], tape.arrays[f"{s}V"] = key_value_rows(a, kv)
    reads = (source,) if keys_source is None else (source, keys_source)
    key = _key(place, "projections")
    tape.step(place, "projections", english(f"title.{key}"),
              (*reads, *_projection_params(place, a)), (f"{s}Q", f"{s}K", f"{s}V"), key,
              "projection", keys="" if keys_source is None else place.keys)


def _key(place: Place, kind: str) -> str:
    """The explanation key of an attention step: cross-attention (keys from another token list
    than the queries, as the decoder reading the encoder) has its own texts."""
    cross = place.keys not in ("", place.rows)
    return f"cross_attention.{kind}" if cross else f"attention.{kind}"


def head_normed(a: Attention, rows: FloatArray, which: str) -> FloatArray:
    """``rows`` normalised by the attention's QK-norm of ``which`` (``"q"`` or ``"k"``: γ, the
    optional β, and the number of heads): each head's d_k columns, or the whole row when the
    norm spans all heads (OLMo 2)."""
    assert a.qk_norm is not None
    gamma, beta = getattr(a, f"gamma_{which}"), getattr(a, f"beta_{which}")
    width = a.qk_norm_width(which)
    split = rows.reshape(rows.shape[0], -1, width)
    normed: FloatArray = norm(a.qk_norm, split, gamma,
                              beta if beta is not None else np.zeros(width), a.qk_eps)
    return normed.reshape(rows.shape)


def qk_norm(tape: Tape, place: Place, a: Attention) -> None:
    """QK-norm: each head's d_k columns of Q and of K normalised, or all heads' columns together
    (RMSNorm or LayerNorm, the latter with its shifts β when given)."""
    if tape.replayed():
        return
    assert a.qk_norm is not None and a.gamma_q is not None and a.gamma_k is not None
    s = place.scope
    for name in ("Q", "K"):
        tape.arrays[f"{s}{name}_normed"] = head_normed(a, tape[f"{s}{name}"], name.lower())
    shifts = _optional((place.param("beta_q"), a.beta_q), (place.param("beta_k"), a.beta_k))
    title = english("title.attention.qk_norm" if a.qk_norm_over == "head" else
                    "title.attention.qk_norm_all", norm=NORM_NAMES[a.qk_norm])
    tape.step(place, "qk_norm", title,
              (f"{s}Q", f"{s}K", place.param("gamma_q"), place.param("gamma_k"), *shifts),
              (f"{s}Q_normed", f"{s}K_normed"), "attention.qk_norm", "norm")


def head_scores(a: Attention, Q: FloatArray, K: FloatArray) -> FloatArray:
    """q·k of every query row against every key row, per head (÷ √d_k when scaled; with
    ``scale_dk`` s, × s^(−1/2) as transformers' Gemma 2 multiplies): h × n × n_keys; a query
    head reads its key/value head's keys."""
    n, n_keys, h = int(Q.shape[0]), int(K.shape[0]), a.heads
    qh = Q.reshape(n, h, a.d_k).transpose(1, 0, 2)
    kh = K.reshape(n_keys, a.groups, a.d_k).transpose(1, 0, 2)
    if a.groups != h:
        kh = kh[[a.kv_head(head) for head in range(h)]]
    product: FloatArray = qh @ kh.transpose(0, 2, 1)
    if a.scale_dk is not None:
        product *= a.scale_dk ** -0.5
    elif a.scale:
        product /= np.sqrt(a.d_k)
    return product


def scores(tape: Tape, place: Place, a: Attention, q: str, k: str,
           bias: FloatArray | None = None, bias_reads: tuple[str, ...] = ()) -> None:
    """q·k per head (÷ √d_k when scaled); with ``bias`` (h × n × n_keys, e.g. ALiBi) the scaled
    q·k is written as ``qk``, the bias as ``alibi`` and their sum as ``scores``; with the
    attention's ``softcap`` c the scaled q·k is written as ``scores_uncapped`` and c·tanh(it /
    c) as ``scores`` (Gemma 2's cap, part of this step: the mask and softmax read it)."""
    if tape.replayed():
        return
    s = place.scope
    product = head_scores(a, tape[q], tape[k])
    scaled = "" if not a.scale else english("title.scores_scaled") if a.scale_dk is None \
        else english("title.scores_scaled_by", dk=format_exact(a.scale_dk))
    reads: tuple[str, ...] = (q, k)
    writes: tuple[str, ...]
    if a.softcap is not None:  # no bias: ALiBi with a cap is refused
        tape.arrays[f"{s}scores_uncapped"] = product
        tape.arrays[f"{s}scores"] = soft_capped(a.softcap, product, place.param("softcap"))
        then = english("title.scores_capped", cap=format_exact(a.softcap))
        writes = (f"{s}scores_uncapped", f"{s}scores")
    elif bias is None:
        tape.arrays[f"{s}scores"] = product
        then, writes = "", (f"{s}scores",)
    else:
        tape.arrays[f"{s}qk"] = product
        tape.arrays[f"{s}alibi"] = bias
        tape.arrays[f"{s}scores"] = product + bias
        then, reads = english("title.scores_biased"), (q, k, *bias_reads)
        writes = (f"{s}qk", f"{s}alibi", f"{s}scores")
    tape.step(place, "scores", english("title.attention.scores", scaled=scaled, then=then),
              reads, writes, _key(place, "scores"), "scores")


def weights(tape: Tape, place: Place, a: Attention) -> None:
    """The mask (causal, window, key mask) and the softmax of each row of scores."""
    if tape.replayed():
        return
    s = place.scope
    raw = tape[f"{s}scores"]
    n, n_keys = int(raw.shape[1]), int(raw.shape[2])
    visible = key_visibility(n, n_keys, a.causal, a.window, a.key_mask)
    tape.visibility[s] = visible
    tape.arrays[f"{s}weights"] = softmax(raw, np.broadcast_to(visible, raw.shape))
    title = english("title.attention.weights_causal" if a.causal else "title.attention.weights")
    tape.step(place, "weights", title, (f"{s}scores",),
              (f"{s}weights",), _key(place, "weights"), "weights")


def head_mix(a: Attention, w: FloatArray, V: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Shares (h × n × n_keys) times V per head, heads concatenated (``mixed``; an ablated
    head's slice is 0), then Wo and bo when given (``attn_out``)."""
    h, n, n_keys = (int(k) for k in w.shape)
    vh = V.reshape(n_keys, a.groups, a.d_v).transpose(1, 0, 2)
    if a.groups != h:
        vh = vh[[a.kv_head(head) for head in range(h)]]
    mixed: FloatArray = (w @ vh).transpose(1, 0, 2).reshape(n, h * a.d_v)
    for head in a.ablate_heads:
        mixed[:, head * a.d_v:(head + 1) * a.d_v] = 0.0
    out: FloatArray = (times(mixed, a.Wo) + (a.bo if a.bo is not None else 0.0)
                       if a.Wo is not None else mixed)
    return mixed, out


def mix(tape: Tape, place: Place, a: Attention) -> None:
    """Shares times V per head, heads concatenated, then Wo (and bo) when given."""
    if tape.replayed():
        return
    s = place.scope
    tape.arrays[f"{s}mixed"], tape.arrays[f"{s}attn_out"] = head_mix(a, tape[f"{s}weights"],
                                                                     tape[f"{s}V"])
    out_params = tuple(place.param(p) for p in _optional(("Wo", a.Wo), ("bo", a.bo)))
    ablated = ""
    if a.ablate_heads:
        listed = english("list.separator").join(str(head + 1) for head in sorted(a.ablate_heads))
        ablated = english("title.mix_ablated_many" if len(a.ablate_heads) > 1 else
                          "title.mix_ablated_one", heads=listed)
    title = english("title.attention.mix", wo=english("title.mix_wo") if a.Wo is not None else "",
                    ablated=ablated)
    tape.step(place, "mix", title,
              (f"{s}weights", f"{s}V", *out_params), (f"{s}mixed", f"{s}attn_out"),
              _key(place, "mix"), "mix")


def residual(tape: Tape, place: Place, kind: str, terms: tuple[str, ...],
             explain_key: str) -> None:
    """``scope + kind`` = the sum of ``terms``, added left to right (the stream first, then a
    sub-layer's output; a parallel residual adds both sub-layers' outputs to the stream)."""
    if tape.replayed():
        return
    out = f"{place.scope}{kind}"
    total = tape[terms[0]]
    for term in terms[1:]:
        total = total + tape[term]
    tape.arrays[out] = total
    tape.step(place, kind, english(f"title.{explain_key}"), terms, (out,), explain_key,
              "residual", module="")


def pre_activation(f: FeedForward, x: FloatArray) -> FloatArray:
    """z = x @ W1 + b1: the feed-forward's hidden units before the activation."""
    z: FloatArray = times(x, f.W1) + (f.b1 if f.b1 is not None else 0.0)
    return z


def hidden_units(f: FeedForward, x: FloatArray
                 ) -> tuple[FloatArray | None, FloatArray, FloatArray]:
    """The gate (None ungated), z = x @ W1 + b1 and the hidden units of ``f`` on rows ``x``."""
    z = pre_activation(f, x)
    if f.Wg is None:
        return None, z, activate(f.activation, z)
    gate = activate(f.activation, times(x, f.Wg) + (f.bg if f.bg is not None else 0.0))
    return gate, z, gate * z


def ffn_output(f: FeedForward, hidden: FloatArray) -> FloatArray:
    """hidden @ W2 + b2: the feed-forward's output rows."""
    out: FloatArray = times(hidden, f.W2) + (f.b2 if f.b2 is not None else 0.0)
    return out


def feed_forward(tape: Tape, place: Place, f: FeedForward, source: str) -> None:
    """The FFN: ``ffn_pre`` and ``ffn_hidden`` (gated: ``ffn_gate``, ``ffn_up``, their product
    ``ffn_hidden``), then ``ffn_out``."""
    if tape.replayed():
        return
    s = place.scope
    gate, z, hidden = hidden_units(f, tape[source])
    if gate is None:
        tape.arrays[f"{s}ffn_pre"] = z
        written: tuple[str, ...] = (f"{s}ffn_hidden", f"{s}ffn_out")
    else:
        tape.arrays[f"{s}ffn_gate"] = gate
        tape.arrays[f"{s}ffn_up"] = z
        written = (f"{s}ffn_gate", f"{s}ffn_up", f"{s}ffn_hidden", f"{s}ffn_out")
    tape.arrays[f"{s}ffn_hidden"] = hidden
    tape.arrays[f"{s}ffn_out"] = ffn_output(f, hidden)
    params = tuple(place.param(f"ffn.{p}") for p in (
        "W1", *_optional(("b1", f.b1)), *_optional(("Wg", f.Wg), ("bg", f.bg)), "W2",
        *_optional(("b2", f.b2))))
    name = activation_name(f.activation, gated=f.Wg is not None)
    tape.step(place, "ffn", english("title.block.ffn", activation=name),
              (source, *params), written, "block.ffn", "ffn")


def transform(tape: Tape, place: Place, source: str, t: Transform) -> None:
    """A masked-language-model head's transform (``place`` is the transform's module):
    ``transform_pre`` = source · W + b, ``transform_hidden`` its activation, and
    ``transform`` the LayerNorm of each hidden row (γ, β, ε)."""
    if tape.replayed():
        return
    z = tape[source] @ t.W + t.b
    hidden = activate(t.activation, z)
    tape.arrays["transform_pre"] = z
    tape.arrays["transform_hidden"] = hidden
    tape.arrays["transform"] = norm("layernorm", hidden, t.gamma, t.beta, t.eps)
    tape.step(place, "transform", english("title.head.transform"),
              (source, *(place.param(p) for p in ("W", "b", "gamma", "beta"))),
              ("transform_pre", "transform_hidden", "transform"), "head.transform", "transform")


def vocabulary_scores(rows: FloatArray, unembed: Weight) -> FloatArray:
    """rows · unembed, a block of :data:`VOCABULARY_BLOCK` numbers of the unembedding at a
    time (the whole d × V matrix, mapped or not, is never widened at once; the same blocks
    whichever it is, so the two give the same numbers bit for bit)."""
    d, vocab = (int(k) for k in unembed.shape)
    scores = np.empty((rows.shape[0], vocab))
    step = max(1, VOCABULARY_BLOCK // max(1, d))
    for start in range(0, vocab, step):
        scores[:, start:start + step] = rows @ column_block(unembed, start, start + step)
    return scores


def logits(tape: Tape, place: Place, source: str, unembed: Weight,
           bias: FloatArray | None, written: str = "logits") -> None:
    """One score per vocabulary entry: the row times unembed (plus the vocabulary bias), written
    as ``written`` (``logits_uncapped`` when a soft cap follows)."""
    if tape.replayed():
        return
    scores = vocabulary_scores(tape[source], unembed)
    tape.arrays[written] = scores + (bias if bias is not None else 0.0)
    tape.step(place, "logits", english("title.block.logits"),
              (source, place.param("unembed"), *_optional((place.param("bias"), bias))),
              (written,), "block.logits", "logits")


def soft_capped(cap: float, x: FloatArray, place: str | None = None) -> FloatArray:
    """cap · tanh(x / cap), as transformers' Gemma 2 computes it. ``place``: the cap's key,
    refused there when x / cap overflows (a cap as small as 1e-320), as that cap's fault."""
    if place is None:
        quotient = x / cap
    else:
        with np.errstate(over="ignore"):
            quotient = x / cap
        bad = np.argwhere(~np.isfinite(quotient))
        if bad.size:
            value = float(x[tuple(bad[0])])
            raise ScenarioError(place, Refusal("softcap_overflow", cap=format_exact(cap),
                                               x=format_exact(value)))
    capped: FloatArray = cap * np.tanh(quotient)
    return capped


def softcap(tape: Tape, place: Place, cap: float) -> None:
    """Gemma 2's soft cap of the logits: ``logits`` = cap · tanh(``logits_uncapped`` / cap)."""
    if tape.replayed():
        return
    tape.arrays["logits"] = soft_capped(cap, tape["logits_uncapped"], place.param("softcap"))
    tape.step(place, "softcap", english("title.block.softcap", cap=format_exact(cap)),
              ("logits_uncapped",),
              ("logits",), "block.softcap", "softcap")


def probs(tape: Tape, place: Place) -> None:
    """Softmax of each row of logits."""
    if tape.replayed():
        return
    scores = head_output(tape.steps)
    tape.arrays["probs"] = softmax(tape[scores])
    tape.step(place, "probs", english("title.block.probs"), (scores,), ("probs",),
              "block.probs", "probs")


def loss(tape: Tape, place: Place, targets: tuple[int, ...]) -> None:
    """Cross-entropy at every position at once: ``loss[i] = −log probs[i, targets[i]]`` and
    their mean ``loss_mean`` (one number), worked from the logits as log-sum-exp minus the
    target's logit, so a probability that underflows to 0 still gives a finite loss."""
    if tape.replayed():
        return
    scores = head_output(tape.steps)
    row_logits = tape[scores]
    top = row_logits.max(axis=-1)
    with np.errstate(over="ignore"):  # a shift past −1.8e308 is −∞: its exp is exactly 0
        total = np.exp(row_logits - top[:, None]).sum(axis=-1)
    picked = row_logits[np.arange(row_logits.shape[0]), list(targets)]
    per_position: FloatArray = top + np.log(total) - picked
    tape.arrays["loss"] = per_position
    tape.arrays["loss_mean"] = np.array([per_position.mean()])
    tape.step(place, "loss", english("title.block.loss"),
              (scores, "probs"), ("loss", "loss_mean"), "block.loss", "loss")


def draw(tape: Tape, place: Place, settings: Settings, t: int) -> None:
    """Generation step ``t`` (1-based): the next token drawn from the last position's logits
    (:func:`engine.generation.sampling.sample`), its arrays under the names ``gen{t}.…``."""
    if tape.replayed():
        return
    scores = head_output(tape.steps)
    arrays = sample(tape[scores][-1], settings, t).trace_arrays(t)
    tape.arrays.update(arrays)
    tape.step(place, "sample", english("title.block.sample"),
              (scores,), tuple(arrays), "block.sample", "sample")
