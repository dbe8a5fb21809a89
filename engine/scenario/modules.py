"""The modules a scenario is made of: attention, feed-forward, block, layer, head, encoder.

Every module is an immutable dataclass whose array fields are read-only. Fields are keyword-only and
declared in document order: :mod:`engine.scenario.tree` walks them in that order to list parameter
paths, so a new field placed here is found, edited, resized and counted without a hand-kept list.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.format.mapped_weight import Weight
from engine.format.reader import FloatArray
from engine.scenario.frozen import Frozen

if TYPE_CHECKING:
    from engine.scenario.positions import Positions

NORMS = ("layernorm", "rmsnorm", "none")
PLACEMENTS = ("pre", "post")
ACTIVATIONS = ("relu", "gelu", "silu", "identity", "gelu_tanh")
RESIDUALS = ("sequential", "parallel")
QK_NORMS = ("rmsnorm", "layernorm")
QK_NORM_SPANS = ("head", "all_heads")
"""What a QK-norm normalises: each head's d_k columns (Qwen3), or all heads' columns of Q (and of
K) together (OLMo 2)."""


@dataclass(frozen=True, eq=False, kw_only=True)
class Attention(Frozen):
    """Multi-head attention parameters (right multiplication: ``Q = X @ Wq``).

    ``kv_heads`` g < h is grouped-query attention: query head i reads key/value head
    ⌊i·g/h⌋. ``qk_eps`` is the ε of the QK-norm (the layer's ``block.eps``); it is not a key of
    the attention's own document. ``beta_q``/``beta_k`` are a LayerNorm QK-norm's shift (Phi's
    ``q_layernorm.bias``); None adds nothing. ``qk_norm_over`` "head" normalises each head's d_k
    columns with γ of width d_k shared by the heads, "all_heads" the whole projection (Q's h·d_k
    columns, K's g·d_k) with γ as wide, before the split into heads. ``ablate_heads`` lists the
    0-based heads whose outputs (their slice of the concatenated heads, before Wo) are set to 0.
    """

    heads: int
    causal: bool
    scale: bool
    scale_dk: float | None = None
    """The number whose square root divides the scores in place of d_k (Gemma 2's
    ``query_pre_attn_scalar``); None: d_k. Only with ``scale``."""
    Wq: Weight
    Wk: Weight
    Wv: Weight
    bq: FloatArray | None = None
    bk: FloatArray | None = None
    bv: FloatArray | None = None
    Wo: Weight | None = None
    bo: FloatArray | None = None
    kv_heads: int | None = None
    window: int | None = None
    key_mask: tuple[bool, ...] | None = None
    qk_norm: str | None = None
    gamma_q: FloatArray | None = None
    gamma_k: FloatArray | None = None
    beta_q: FloatArray | None = None
    beta_k: FloatArray | None = None
    qk_norm_over: str = "head"
    qk_eps: float = 1e-5
    ablate_heads: tuple[int, ...] = ()
    softcap: float | None = None
    """Gemma 2's cap c of the scaled scores, c·tanh(s / c), before the mask; None: uncapped."""
    rope_base: float | None = None
    """RoPE's base θ for this self-attention's turn in place of the stack's ``positions.base``
    (Gemma 3: 10000 in its sliding layers, 1000000 in its global ones); None: the stack's."""
    rope_scaled: bool = True
    """Whether this self-attention's RoPE takes the stack's ``positions.scaling``; False: its
    frequencies as they are (Gemma 3 4B scales its global layers only)."""

    @property
    def own_rope(self) -> bool:
        """Whether this self-attention turns by angles of its own, not the stack's (its own
        base, or the stack's scaling left out)."""
        return self.rope_base is not None or not self.rope_scaled

    def turned_by(self, stack: Positions) -> Positions:
        """What this self-attention turns by under the stack's ``stack``: its own ``rope_base``
        in place of the stack's base, and the stack's scaling unless it leaves it out
        (``rope_scaled`` false)."""
        if not self.own_rope:
            return stack
        return replace(stack, base=stack.base if self.rope_base is None else self.rope_base,
                       scaling=stack.scaling if self.rope_scaled else None)

    @property
    def groups(self) -> int:
        """g: the number of key/value heads (h without grouped-query attention)."""
        return self.kv_heads if self.kv_heads is not None else self.heads

    @property
    def d_k(self) -> int:
        """Width of one head's query and key."""
        return int(self.Wq.shape[1]) // self.heads

    @property
    def d_v(self) -> int:
        """Width of one head's value."""
        return int(self.Wv.shape[1]) // self.groups

    @property
    def d_out(self) -> int:
        """Width of the attention output (after Wo, or the concatenated heads)."""
        return int(self.Wo.shape[1]) if self.Wo is not None else self.heads * self.d_v

    def qk_norm_width(self, which: str) -> int:
        """The columns one QK-norm of ``which`` ("q" or "k") normalises together: d_k, or the
        whole projection's (h·d_k for q, g·d_k for k)."""
        if self.qk_norm_over == "head":
            return self.d_k
        return self.d_k * (self.heads if which == "q" else self.groups)

    @property
    def scale_number(self) -> float:
        """The number under the square root the scores are divided by: ``scale_dk``, else d_k."""
        return self.scale_dk if self.scale_dk is not None else self.d_k

    def kv_head(self, head: int) -> int:
        """The key/value head that query head ``head`` reads."""
        return head * self.groups // self.heads


@dataclass(frozen=True, eq=False, kw_only=True)
class FeedForward(Frozen):
    """Position-wise feed-forward network ``activation(x @ W1 + b1) @ W2 + b2``; with ``Wg``
    gated: ``(activation(x @ Wg + bg) ⊙ (x @ W1 + b1)) @ W2 + b2``."""

    W1: Weight
    b1: FloatArray | None = None
    W2: Weight
    b2: FloatArray | None = None
    Wg: Weight | None = None
    bg: FloatArray | None = None
    activation: str = "relu"


@dataclass(frozen=True, eq=False, kw_only=True)
class Mixture(Frozen):
    """A mixture of experts in place of one feed-forward (Mixtral): each row's router logits
    ``x @ router`` (d × E), their softmax over the E experts (the shares), the ``top_k``
    largest shares (ties: the lower expert first, as ``torch.topk``), their weights (the chosen
    shares, divided by their sum when ``normalize``), and Σₖ weightₖ · expertₖ(x). With a
    ``shared`` expert (Qwen2-MoE), every row also adds σ(x · shared_gate) · shared(x), its gate
    (d × 1) one number per row."""

    router: FloatArray
    top_k: int
    normalize: bool = True
    experts: tuple[FeedForward, ...]
    shared_gate: FloatArray | None = None
    shared: FeedForward | None = None


@dataclass(frozen=True, eq=False, kw_only=True)
class Block(Frozen):
    """The norms, residuals and feed-forward of one layer around its attention.

    ``gamma_c``/``beta_c`` are the norm of the cross-attention sub-block (decoder layers of an
    encoder–decoder only). ``gamma3``/``beta3`` and ``gamma4``/``beta4`` norm the attention's
    and the feed-forward's outputs before their residuals (Gemma 2's sandwich; None: no such
    norm). Without pre-norms (``gamma1``, ``beta1``, ``gamma2``, ``beta2`` None: OLMo 2) the
    attention and the feed-forward read the stream itself.
    """

    norm: str
    eps: float
    placement: str
    residual: str = "sequential"
    gamma1: FloatArray | None
    beta1: FloatArray | None
    gamma_c: FloatArray | None = None
    beta_c: FloatArray | None = None
    gamma2: FloatArray | None
    beta2: FloatArray | None
    gamma3: FloatArray | None = None
    beta3: FloatArray | None = None
    gamma4: FloatArray | None = None
    beta4: FloatArray | None = None
    ffn: FeedForward | Mixture

    @property
    def pre_norms(self) -> bool:
        """Whether the attention and the feed-forward read a norm of the stream (not OLMo 2)."""
        return self.gamma1 is not None

    @property
    def feed_forwards(self) -> tuple[FeedForward, ...]:
        """The feed-forward, or the mixture's experts."""
        return self.ffn.experts if isinstance(self.ffn, Mixture) else (self.ffn,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Layer(Frozen):
    """One layer of a stack: self-attention, optionally cross-attention, optionally a block."""

    attention: Attention
    cross_attention: Attention | None = None
    block: Block | None = None

    @property
    def width(self) -> int:
        """Width of the rows the layer hands on."""
        return self.attention.d_out


@dataclass(frozen=True, eq=False, kw_only=True)
class Transform(Frozen):
    """A masked-language-model head's transform before its vocabulary (BERT's
    ``cls.predictions.transform``): ``LayerNorm(activation(x @ W + b)) · γ + β`` with ``eps``."""

    W: FloatArray
    b: FloatArray
    activation: str = "gelu"
    gamma: FloatArray
    beta: FloatArray
    eps: float = 1e-5


@dataclass(frozen=True, eq=False, kw_only=True)
class Head(Frozen):
    """The final norm and the vocabulary head; with a ``transform`` a masked-language-model
    head (it fills ``[MASK]`` positions, it does not predict the next token)."""

    norm: str
    eps: float
    final_norm: bool
    gamma_f: FloatArray
    beta_f: FloatArray
    transform: Transform | None = None
    unembed: Weight | None = None
    bias: FloatArray | None = None
    vocab: tuple[str, ...] = ()
    softcap: float | None = None
    """Gemma 2's cap c of the logits, c·tanh(logits / c); None: uncapped."""


@dataclass(frozen=True, eq=False, kw_only=True)
class BlockWithHead(Head, Block):
    """A block together with the head's keys, as version 1 kept them in one ``block``: what
    :attr:`engine.scenario.scenario.Scenario.block` shows (the first layer's block and the
    document's
    head; without a head, no final norm and no vocabulary)."""


@dataclass(frozen=True, eq=False, kw_only=True)
class EmbeddingNorm(Frozen):
    """A norm of each summed input row (``embedding_norm``: BERT's ``embeddings.LayerNorm``,
    BART's ``layernorm_embedding``); its output is X, the rows the first layer reads."""

    norm: str = "layernorm"
    eps: float = 1e-5
    gamma: FloatArray
    beta: FloatArray


@dataclass(frozen=True, eq=False, kw_only=True)
class Encoder(Frozen):
    """The encoder of an encoder–decoder: its own tokens and rows, a non-causal stack and a final
    norm; its output (the memory) feeds every decoder layer's cross-attention.

    ``norm`` and ``eps`` of the final norm are the last layer's block's (not document keys).
    ``X`` holds the rows as given or looked up, before ``embedding_scale``, positions and
    ``embedding_norm``.
    """

    tokens: tuple[str, ...]
    token_ids: tuple[int, ...] | None = None
    X: FloatArray
    embedding_scale: float | None = None
    positions: Positions | None = None
    embedding_norm: EmbeddingNorm | None = None
    layers: tuple[Layer, ...]
    final_norm: bool
    gamma_f: FloatArray
    beta_f: FloatArray
    norm: str = "layernorm"
    eps: float = 1e-5

    @property
    def n(self) -> int:
        """Number of source positions."""
        return int(self.X.shape[0])


__all__ = ["ACTIVATIONS", "NORMS", "PLACEMENTS", "QK_NORMS", "QK_NORM_SPANS", "RESIDUALS",
           "Attention", "Block",
           "BlockWithHead", "EmbeddingNorm",
           "Encoder", "FeedForward", "Frozen", "Head", "Layer", "Mixture", "Transform"]
