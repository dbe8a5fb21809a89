"""The facts a step text quotes, read from one trace: tokens, sizes, options and numbers.

Every number a step text prints comes from here, formatted by the engine with the decimals the
frames print (:func:`~app.texts.printed.printed_places`), so a value quoted in a text reads as
its grid prints it, and the texts describe the open document and no other. Imports no Qt.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from app.model.operands import (
    array_name,
    ffn_pre,
    kv_head,
    shown_tokens,
    tokens_of,
    visible_of,
)
from app.texts.printed import printed_places
from app.texts.scope import QK_NORM, StepModules, modules_of
from engine import Attention, Block, Scenario, Step, Trace, format_number
from engine.format.mapped_weight import Weight, column_block
from engine.format.numbers import format_exact, format_factor
from engine.format.reader import FloatArray
from engine.forward.tape import vocabulary_scores
from engine.scenario.op_kinds import head_output, steps_of

MAX_SHOWN = 4
"""A row longer than this is cut with an ellipsis."""
MAX_TERMS = 3
"""A dot product with more terms than this shows its first ones and an ellipsis."""


@dataclass(frozen=True)
class NormFacts:
    """Which norm a norm step applies: the array it writes and reads, its γ/β suffix."""

    name: str
    source: str
    suffix: str
    plain: bool
    """Whether its γ are all 1 and its β all 0."""


ROWS_AHEAD = 64
"""The last rows whose logits without the final norm :func:`work_out_vocabulary_facts` works
out with a big document's trace (the receiver is the last row unless one is chosen)."""
_WITHOUT_NORM: dict[tuple[int, ...], tuple[tuple[weakref.ref[Weight], weakref.ref[FloatArray],
                                                 weakref.ref[FloatArray]], int, FloatArray]] = {}
"""Logits without the final norm, by the arrays they come from (and the receiver, for one row
worked out by a step text): the first row held and the rows. The step texts of one trace ask
again at every step change; the runner fills it with a big trace's last rows."""
KEPT = 8
"""The entries :data:`_WITHOUT_NORM` holds before it is emptied."""


@dataclass(frozen=True)
class WithoutNorm:
    """What the logits without a final norm are worked out from: the unembedding, the norm's
    input and output, and the logits (any bias included)."""

    unembed: Weight
    before: FloatArray
    after: FloatArray
    logits: FloatArray

    @property
    def refs(self) -> tuple[weakref.ref[Weight], weakref.ref[FloatArray],
                            weakref.ref[FloatArray]]:
        return weakref.ref(self.unembed), weakref.ref(self.before), weakref.ref(self.after)

    def key(self, receiver: int | None) -> tuple[int, ...]:
        """Where rows of these arrays are kept: one receiver's, or (None) the runner's."""
        ids = (id(self.unembed), id(self.before), id(self.after))
        return ids if receiver is None else (*ids, receiver)

    def known(self, receiver: int) -> FloatArray | None:
        """The receiver's row, when it was worked out for these same arrays."""
        held = (self.unembed, self.before, self.after)
        for key in (self.key(None), self.key(receiver)):
            found = _WITHOUT_NORM.get(key)
            if found is None or not (found[0][0]() is held[0] and found[0][1]() is held[1]
                                     and found[0][2]() is held[2]):
                continue
            first, rows = found[1], found[2]
            if first <= receiver < first + len(rows):
                row: FloatArray = rows[receiver - first]
                return row
        return None

    def rows(self, first: int, stop: int, receiver: int | None = None) -> FloatArray:
        """The logits of rows ``first:stop`` were the final norm off, worked out and kept.

        The logits are linear in the row they read: the norm's input row in place of its output
        changes them by the difference times the unembedding (any bias stays). Only these rows
        are computed, not the whole document again (a second for a 512-row one, at every
        edit)."""
        change = self.before[first:stop] - self.after[first:stop]
        rows: FloatArray = self.logits[first:stop] + vocabulary_scores(change, self.unembed)
        if len(_WITHOUT_NORM) >= KEPT:
            _WITHOUT_NORM.clear()
        _WITHOUT_NORM[self.key(receiver)] = (self.refs, first, rows)
        return rows


def without_norm(trace: Trace, step: Step) -> WithoutNorm:
    """The arrays the logits without the final norm ``step`` (of a trace with a vocabulary)
    are worked out from."""
    logits = steps_of(trace.steps, "logits")[0]
    return WithoutNorm(trace.scenario.weight(logits.reads[1]), trace.arrays[step.reads[0]],
                       trace.arrays[step.writes[0]], trace.arrays[logits.writes[0]])


def work_out_vocabulary_facts(trace: Trace) -> None:
    """What the step texts of ``trace`` quote of the whole vocabulary, worked out now (by the
    runner, with a big document's trace, off the interface thread): the last
    :data:`ROWS_AHEAD` rows' logits without the final norm."""
    if not steps_of(trace.steps, "logits"):
        return
    for step in trace.steps:
        if step.explain_key == "block.final_norm":
            arrays = without_norm(trace, step)
            n = len(arrays.before)
            arrays.rows(max(0, n - ROWS_AHEAD), n)


@dataclass(frozen=True, eq=False)
class Facts:
    """One step of one trace, seen from one receiver (the position a text follows).

    Attributes
    ----------
    trace
        The computation the text is about.
    index
        The step's position in ``trace.steps``.
    receiver
        The position whose row the text follows (0-based).
    head
        The attention head the text follows (0-based).
    """

    trace: Trace
    index: int
    receiver: int
    head: int = 0

    # -- the document ------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self.trace.scenario

    @property
    def step(self) -> Step:
        return self.trace.steps[self.index]

    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens of this step's rows (the encoder's in an encoder step)."""
        return tuple(tokens_of(self.trace, self.step.rows))

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def d(self) -> int:
        return int(self.scenario.X.shape[1])

    @property
    def token(self) -> str:
        """The receiver's token."""
        return self.tokens[self.receiver]

    @cached_property
    def modules(self) -> StepModules:
        """The step's own modules: its attention, its layer's block, its norm."""
        return modules_of(self.scenario, self.step)

    @property
    def attention(self) -> Attention:
        """The attention of this step (its layer's outside attention)."""
        return self.modules.attention

    @property
    def block(self) -> Block | None:
        """The block of this step's layer."""
        return self.modules.block

    @property
    def heads(self) -> int:
        return self.attention.heads

    @property
    def d_k(self) -> int:
        return self.attention.d_k

    @property
    def d_v(self) -> int:
        return self.attention.d_v

    @property
    def causal(self) -> bool:
        return self.attention.causal

    @property
    def scaled(self) -> bool:
        return self.attention.scale

    @property
    def scale_number(self) -> str:
        """The number under the root the scores are divided by, as written (d_k, or the
        attention's ``scale_dk``)."""
        return format_exact(self.attention.scale_number)

    @property
    def has_wo(self) -> bool:
        return self.attention.Wo is not None

    @property
    def norm(self) -> str:
        """``"layernorm"``, ``"rmsnorm"`` or ``"none"`` of this step's norm (``"none"`` without
        a block)."""
        return self.modules.norm

    @property
    def eps(self) -> str:
        """ε of this step's norm as written in a document (``1e-05``, ``0``)."""
        return format_exact(self.modules.eps)

    def array(self, name: str) -> FloatArray:
        return self.trace.arrays[name]

    # -- formatting -------------------------------------------------------------------------
    @cached_property
    def places(self) -> int:
        """Decimals of every number the text prints: the frames' (:func:`printed_places`)."""
        return printed_places(self.trace)

    def num(self, value: float) -> str:
        """One number as the frames print it (``1.414``, ``−0.5``, ``2``)."""
        return format_number(float(value), self.places)

    def row(self, values: FloatArray | list[float]) -> str:
        """A row in brackets, cut after :data:`MAX_SHOWN` entries: ``[1, −1]``."""
        shown = [self.num(v) for v in values[:MAX_SHOWN]]  # not a list of 50,257 first
        more = ", …" if len(values) > MAX_SHOWN else ""
        return "[" + ", ".join(shown) + more + "]"

    def dot_terms(self, a: FloatArray, b: FloatArray) -> str:
        """The terms of a·b: ``1·1 + (−1)·(−1)``, the first :data:`MAX_TERMS` and ``+ …``."""
        terms = [f"{self.factor(x)}·{self.factor(y)}"
                 for x, y in list(zip(a, b, strict=True))[:MAX_TERMS]]
        return " + ".join(terms) + (" + …" if len(a) > MAX_TERMS else "")

    def factor(self, value: float) -> str:
        """A factor inside a product, negative in parentheses: ``(−1)``."""
        return format_factor(float(value), self.places)

    def receiver_row(self, name: str) -> str:
        """The receiver's row of a 2-D trace array, formatted."""
        return self.row(self.array(name)[self.receiver])

    # -- attention, for the receiver and the head in focus ---------------------------------------
    def name(self, key: str) -> str:
        """The name of the array ``key`` (``"Q"``, ``"weights"``) in this step's scope."""
        return array_name(self.step, key)

    def scoped(self, key: str) -> FloatArray:
        """The array ``key`` of this step's scope."""
        return self.array(self.name(key))

    def scoped_row(self, key: str) -> str:
        """The receiver's row of the array ``key`` of this step's scope, formatted."""
        return self.receiver_row(self.name(key))

    @property
    def residual_sum(self) -> str:
        """``stream + output = new stream`` for the receiver's rows of a residual step (a
        parallel one adds two outputs)."""
        terms = " + ".join(self.receiver_row(name) for name in self.step.reads)
        return f"{terms} = {self.receiver_row(self.step.writes[0])}"

    @property
    def norm2_is_norm1(self) -> bool:
        """Whether this layer's second norm has the first's γ and β (Phi's one shared norm;
        RMSNorm's unused β left out)."""
        block = self.modules.block
        assert block is not None
        pairs = [(block.gamma1, block.gamma2)]
        if block.norm != "rmsnorm":
            pairs.append((block.beta1, block.beta2))
        return all(first is not None and second is not None and np.array_equal(first, second)
                   for first, second in pairs)

    @property
    def _scores_step(self) -> Step:
        """The step that computes this scope's scores (its reads are the q and k rows)."""
        return next(s for s in steps_of(self.trace.steps, "scores")
                    if s.scope == self.step.scope)

    def q(self, i: int) -> FloatArray:
        h = self.head
        return self.array(self._scores_step.reads[0])[i, h * self.d_k:(h + 1) * self.d_k]

    def k(self, j: int) -> FloatArray:
        h = kv_head(self.attention, self.head)  # grouped-query attention shares K and V
        return self.array(self._scores_step.reads[1])[j, h * self.d_k:(h + 1) * self.d_k]

    def v(self, j: int) -> FloatArray:
        h = kv_head(self.attention, self.head)
        return self.scoped("V")[j, h * self.d_v:(h + 1) * self.d_v]

    @property
    def keys(self) -> list[str]:
        """The tokens of this step's keys (the encoder's for cross-attention)."""
        return tokens_of(self.trace, self.step.keys or self.step.rows)

    @cached_property
    def visible(self) -> list[int]:
        """The positions the receiver may read."""
        row = np.asarray(visible_of(self.trace, self.step)[self.receiver], dtype=bool)
        return [int(j) for j in np.flatnonzero(row)]

    @cached_property
    def hidden(self) -> list[int]:
        """The positions the mask hides from the receiver."""
        row = np.asarray(visible_of(self.trace, self.step)[self.receiver], dtype=bool)
        return [int(j) for j in np.flatnonzero(~row)]

    def raw_score(self, j: int) -> float:
        return float(self.q(self.receiver) @ self.k(j))

    def score(self, j: int) -> float:
        """The receiver's score against key ``j``: what the softmax reads (capped, if so)."""
        return float(self.scoped("scores")[self.head, self.receiver, j])

    def scaled_score(self, j: int) -> float:
        """The receiver's q·k against key ``j`` (÷ √dₖ, or √scale_dk, when scaled), before a
        soft cap."""
        name = "scores_uncapped" if self.attention.softcap is not None else "scores"
        return float(self.scoped(name)[self.head, self.receiver, j])

    def share(self, j: int) -> float:
        return float(self.scoped("weights")[self.head, self.receiver, j])

    @property
    def scale_root(self) -> str:
        """√ of the number the scores are divided by (d_k, or the attention's ``scale_dk``)."""
        return self.num(np.sqrt(self.attention.scale_number))

    @cached_property
    def exps(self) -> list[float]:
        """exp(s − max) of each visible key's score, in the order of :attr:`visible`."""
        scores = self.scoped("scores")[self.head, self.receiver, self.visible]
        return [float(e) for e in np.exp(scores - scores.max())]

    def mixed_head(self) -> FloatArray:
        h = self.head
        return self.scoped("mixed")[self.receiver, h * self.d_v:(h + 1) * self.d_v]

    # -- the block ---------------------------------------------------------------------------
    def mean(self, name: str) -> float:
        return float(self.array(name)[self.receiver].mean())

    def variance(self, name: str) -> float:
        return float(self.array(name)[self.receiver].var())

    def mean_square(self, name: str) -> float:
        return float((self.array(name)[self.receiver] ** 2).mean())

    @property
    def activation(self) -> str:
        return self.block.feed_forwards[0].activation if self.block is not None else ""

    @property
    def hidden_width(self) -> int:
        return int(self.block.feed_forwards[0].W1.shape[1]) if self.block is not None else 0

    @property
    def vocab(self) -> tuple[str, ...]:
        """The head's entries as labels show them (a right-to-left entry isolated: listed
        raw, ``שלום, مرحبا, עולם`` read as one right-to-left run, last entry first)."""
        return shown_tokens(self.modules.vocab)

    @property
    def head_output(self) -> str:
        """The array the vocabulary head ends with, which the probabilities read."""
        return head_output(self.trace.steps)

    @property
    def raw_logits(self) -> str:
        """The array the logits step writes: ``logits``, or ``logits_uncapped`` before a cap."""
        return steps_of(self.trace.steps, "logits")[0].writes[0]

    def top_entry(self, name: str | None = None) -> int:
        """The vocabulary entry with the receiver's largest logit (or probability)."""
        return int(np.argmax(self.array(name or self.raw_logits)[self.receiver]))

    @cached_property
    def logits_without_final_norm(self) -> FloatArray:
        """The receiver's logits were the final norm off (for "turn it off: …" sentences):
        those the runner worked out with the trace, else this row's (:meth:`WithoutNorm.rows`)."""
        arrays = without_norm(self.trace, self.step)
        known = arrays.known(self.receiver)
        if known is not None:
            return known  # the same arrays: a step change (38 million products for GPT-2)
        row: FloatArray = arrays.rows(self.receiver, self.receiver + 1, self.receiver)[0]
        return row


    # -- the words of single steps ----------------------------------------------------------------
    @property
    def token_ids(self) -> tuple[int, ...]:
        return self.scenario.token_ids or ()

    @property
    def table_rows(self) -> int:
        table = self.scenario.embedding
        return int(table.shape[0]) if table is not None else 0

    @property
    def unused_id(self) -> int | None:
        """The first embedding row no token uses, or None (found among the first rows: a set of
        a 128,256-row table's ids took 0.1 s of every embedding text)."""
        used = set(self.token_ids)
        return next((row for row in range(self.table_rows) if row not in used), None)

    @property
    def source(self) -> str:
        """The array the step reads first (``X`` or ``norm1`` for the projections)."""
        return self.step.reads[0]

    @property
    def memory(self) -> str:
        """The encoder's memory a cross-attention's projections read for K and V; ``""`` for
        self-attention."""
        cross = self.step.keys not in ("", self.step.rows)
        return self.step.reads[1] if cross else ""

    @property
    def kv_row(self) -> int:
        """The key position whose k and v a projection text quotes: the receiver's own, or the
        last key when the keys (the encoder's memory) are fewer."""
        return min(self.receiver, len(self.keys) - 1)

    def kv_row_text(self, key: str) -> str:
        """Row :attr:`kv_row` of the array ``key`` (``"K"``, ``"V"``) of this step's scope."""
        return self.row(self.scoped(key)[self.kv_row])

    @property
    def has_bias(self) -> bool:
        a = self.attention
        return any(b is not None for b in (a.bq, a.bk, a.bv))

    @property
    def has_value_bias(self) -> bool:
        a = self.attention
        return a.bv is not None or a.bo is not None

    @property
    def q0_terms(self) -> str:
        """The terms of Q[receiver, 0]: the source row times Wq's first column (plus bq)."""
        a = self.attention
        first = column_block(a.Wq, 0, 1)[:, 0]
        terms = self.dot_terms(self.array(self.source)[self.receiver], first)
        return terms + (f" + {self.factor(a.bq[0])}" if a.bq is not None else "")

    @property
    def example_keys(self) -> list[int]:
        """The keys a text quotes: the first position, then the receiver itself."""
        return [0] if self.receiver == 0 or self.receiver >= len(self.keys) else [0, self.receiver]

    def score_terms(self, j: int) -> str:
        return self.dot_terms(self.q(self.receiver), self.k(j))

    @property
    def shown_visible(self) -> list[int]:
        """The visible keys a text lists: at most :data:`MAX_TERMS`."""
        return self.visible[:MAX_TERMS]

    def _sum_text(self, values: list[float]) -> str:
        """``a + b = 1``: ``=`` only when every term is shown and the rounded terms add to 1."""
        whole = len(values) <= MAX_TERMS + 1
        shown = [self.num(v) for v in (values if whole else values[:MAX_TERMS])]
        terms = " + ".join(shown if whole else [*shown, "…"])
        exact = whole and abs(sum(round(v, self.places) for v in values) - 1) < 1e-9
        return f"{terms} {'=' if exact else '≈'} 1"

    @property
    def share_sum(self) -> str:
        """``0.804 + 0.196 = 1`` for the receiver's visible shares (``≈`` when rounding shows)."""
        shares = self.scoped("weights")[self.head, self.receiver, self.visible]
        return self._sum_text([float(w) for w in shares])

    @property
    def prob_sum(self) -> str:
        return self._sum_text(self.array("probs")[self.receiver].tolist())

    @property
    def d_out(self) -> int:
        return self.attention.d_out

    @property
    def mix_bounds(self) -> tuple[str, str, str]:
        """Smallest visible V entry, the receiver's mix and the largest, in column 0 of the head."""
        h = kv_head(self.attention, self.head)
        column = self.scoped("V")[self.visible, h * self.d_v]
        return (self.num(float(column.min())), self.num(float(self.mixed_head()[0])),
                self.num(float(column.max())))

    @property
    def pre(self) -> bool:
        return self.block is not None and self.block.placement == "pre"

    @property
    def pre_norms(self) -> bool:
        """Whether the layer norms what its sub-layers read (a block without pre-norms, OLMo 2,
        does not; a post-norm block's norms count)."""
        return self.block is None or self.block.pre_norms

    @property
    def has_final_norm(self) -> bool:
        """Whether a final norm comes right after this step's layer (the last of its stack)."""
        return self.modules.final_norm_follows

    @property
    def norm_facts(self) -> NormFacts:
        """The norm this (norm) step applies; for the QK-norm, the norm of q (it reads Q, K,
        γ_q, γ_k, then a LayerNorm's β_q, β_k)."""
        qk = self.step.explain_key == QK_NORM
        gamma = self.step.reads[2 if qk else 1]
        suffix = gamma.rsplit(".", 1)[-1].removeprefix("gamma")
        shifts = () if qk else self.step.reads[2:]  # RMSNorm reads no β
        plain = bool(np.all(self.scenario.parameter(gamma) == 1)
                     and all(np.all(self.scenario.parameter(beta) == 0) for beta in shifts))
        return NormFacts(name=self.step.writes[0], source=self.step.reads[0], suffix=suffix,
                         plain=plain)

    def head_row(self, name: str) -> FloatArray:
        """The receiver's columns of the head in focus in the array ``name`` (Q or Q_normed)."""
        h = self.head
        row: FloatArray = self.array(name)[self.receiver, h * self.d_k:(h + 1) * self.d_k]
        return row

    def qk_norm_row(self, name: str) -> FloatArray:
        """The receiver's columns of ``name`` (Q or Q_normed) that the QK-norm spans: the head
        in focus's, or the whole row when it spans all heads."""
        if self.modules.attention.qk_norm_over == "head":
            return self.head_row(name)
        row: FloatArray = self.array(name)[self.receiver]
        return row

    @property
    def qk_unscaled_mean_square(self) -> float:
        """Mean square of the normed q the QK-norm spans, less β_q (when given), divided by γ_q
        (its non-zero entries): close to 1, whatever γ_q and β_q are."""
        gamma = self.scenario.parameter(self.step.reads[2])
        beta = self.modules.attention.beta_q
        kept = gamma != 0
        normed = self.qk_norm_row(self.step.writes[0]) - (beta if beta is not None else 0.0)
        return float(np.mean((normed[kept] / gamma[kept]) ** 2))

    def largest(self, name: str) -> float:
        """The receiver's entry of largest size in the array ``name``."""
        row = self.array(name)[self.receiver]
        return float(row[int(np.argmax(np.abs(row)))])

    def largest_logit(self, logits: FloatArray | None = None) -> tuple[float, str]:
        """The receiver's largest logit (in its row ``logits``, by default this trace's) and
        its vocabulary entry."""
        row = self.array(self.raw_logits)[self.receiver] if logits is None else logits
        top = int(np.argmax(row))
        return float(row[top]), self.vocab[top]

    @property
    def ffn_source(self) -> str:
        return self.step.reads[0]

    @property
    def pre_activation(self) -> FloatArray:
        """The receiver's x·W1 + b1, before the activation."""
        z: FloatArray = ffn_pre(self.trace, self.step)[self.receiver]
        return z

    @property
    def head_source(self) -> str:
        """The array the vocabulary head reads."""
        return self.step.reads[0]

    def logit_terms(self, entry: int) -> str:
        """row · unembed[:, entry], plus the entry's vocabulary bias when the head has one."""
        unembed = self.scenario.weight(self.step.reads[1])
        terms = self.dot_terms(self.array(self.head_source)[self.receiver],
                               column_block(unembed, entry, entry + 1)[:, 0])
        if len(self.step.reads) > 2:  # the head's bias (Phi's, a masked LM's)
            terms += f" + {self.factor(float(self.scenario.parameter(self.step.reads[2])[entry]))}"
        return terms


def facts_for(trace: Trace, index: int, receiver: int | None = None, head: int = 0) -> Facts:
    """The facts of step ``index`` of ``trace`` for ``receiver`` (the last position if None)."""
    index = max(0, min(len(trace.steps) - 1, index))
    n = len(tokens_of(trace, trace.steps[index].rows))
    chosen = n - 1 if receiver is None else max(0, min(n - 1, receiver))
    heads = modules_of(trace.scenario, trace.steps[index]).attention.heads  # layers differ
    return Facts(trace=trace, index=index, receiver=chosen, head=max(0, min(heads - 1, head)))
