"""How many numbers a scenario's trace will hold, from the shapes alone (before computing)."""

from __future__ import annotations

from engine.scenario.modules import Attention, Block, Layer, Mixture

MAX_TRACE_NUMBERS = 1 << 26
"""Numbers in one trace, every array of every layer together (512 MiB of float64). A whole
GPT-2 small at 64 positions makes about 20 million; a stack past the limit is refused here
before anything is computed."""


def _attention(a: Attention, n: int, n_keys: int) -> int:
    q, k, v = int(a.Wq.shape[1]), int(a.Wk.shape[1]), int(a.Wv.shape[1])
    normed = (n * q + n_keys * k) if a.qk_norm is not None else 0
    grids = 2 if a.softcap is None else 3  # scores and weights (and scores_uncapped)
    angles = n * a.d_k // 2 if a.own_rope else 0  # its own rope_angles
    return (n * q + n_keys * (k + v) + normed + angles + grids * a.heads * n * n_keys
            + n * (a.heads * a.d_v + a.d_out))


def _feed_forward(block: Block, n: int, d: int) -> int:
    """A feed-forward's three hidden arrays (n × f); a mixture's router arrays (n × E twice,
    n × k twice), its experts' outputs (k × n × d) and a shared expert's gate and output
    (n, n × d)."""
    f = block.ffn
    if isinstance(f, Mixture):
        shared = n + n * d if f.shared is not None else 0
        return 2 * n * int(f.router.shape[1]) + 2 * n * f.top_k + f.top_k * n * d + shared
    return 3 * n * int(f.W1.shape[1])


def _layer(layer: Layer, n: int, n_keys: int) -> int:
    count = _attention(layer.attention, n, n)
    if layer.cross_attention is not None:
        count += _attention(layer.cross_attention, n, n_keys)
    block = layer.block
    if block is not None:
        d = layer.width
        norms = 2 + (layer.cross_attention is not None)
        count += norms * 2 * n * d + norms * 3 * n + _feed_forward(block, n, d) + 2 * n * d
    return count


DRAW_ARRAYS = 4
"""Arrays of a vocabulary's length a draw writes (``gen{t}.logits``, ``.tempered``, ``.kept`` at
most, ``.sample_probs``), besides its one chosen id."""


def trace_numbers(n: int, d: int, layers: tuple[Layer, ...], n_keys: int = 0,
                  vocab: int = 0, draws: bool = False) -> int:
    """Numbers in the trace of a stack over ``n`` rows of width ``d`` (``n_keys``: encoder rows
    its cross-attention reads; ``vocab``: the head's entries; ``draws``: the trace ends with the
    draw of the next token)."""
    drawn = DRAW_ARRAYS * vocab + 1 if draws else 0
    return (n * d + sum(_layer(layer, n, n_keys) for layer in layers) + n * (d + 3 + 2 * vocab)
            + drawn)


__all__ = ["MAX_TRACE_NUMBERS", "trace_numbers"]
