"""Changing a scenario's sizes while keeping every number that still has a place.

The sizes apply to the whole tree: every layer's attention takes the new heads and head widths,
every row of the stream the new model width. Each parameter is fitted by the rule of its field
(:data:`_RULES`, keyed by module type and field name), found by walking the tree: a new module
type or field needs a rule here, never a list of paths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine.files.memory import memory_short
from engine.format.errors import ScenarioError
from engine.format.mapped_weight import widened
from engine.format.reader import MAX_HEADS, MAX_POSITIONS, MAX_WIDTH, FloatArray
from engine.format.writer import as_held, to_document
from engine.scenario.modules import (
    Attention,
    Block,
    EmbeddingNorm,
    Encoder,
    FeedForward,
    Head,
    Mixture,
    Transform,
)
from engine.scenario.positions import Positions
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal


@dataclass(frozen=True)
class Sizes:
    """The sizes a user can change: positions, model width, head widths and head count."""

    n: int
    d: int
    d_k: int
    d_v: int
    heads: int

    @staticmethod
    def of(scenario: Scenario) -> Sizes:
        a = scenario.attention
        return Sizes(n=scenario.n, d=scenario.d, d_k=a.d_k, d_v=a.d_v, heads=a.heads)


SIZE_LIMITS = Sizes(n=MAX_POSITIONS, d=MAX_WIDTH, d_k=MAX_WIDTH, d_v=MAX_WIDTH, heads=MAX_HEADS)
"""The largest value of each size that the engine accepts (each alone: a document must also keep
``heads × d_k`` and ``heads × d_v`` within :data:`~engine.format.reader.MAX_WIDTH` and its cells
within
:data:`~engine.format.reader.MAX_CELLS`, which reading it checks)."""


@dataclass(frozen=True)
class Resized:
    """The resized document and how many non-zero numbers it had to drop."""

    document: dict[str, object]
    dropped: int


Fitted = tuple[FloatArray, int]


def _fit(array: FloatArray, rows: int, cols: int, fill: float = 0.0) -> Fitted:
    out = np.full((rows, cols), fill, dtype=np.float64)
    r, c = min(rows, array.shape[0]), min(cols, array.shape[1])
    out[:r, :c] = array[:r, :c]
    kept = np.zeros(array.shape, dtype=bool)
    kept[:r, :c] = True
    return out, int(np.count_nonzero(array[~kept]))


def _fit_heads(array: FloatArray, rows: int, old: tuple[int, int], new: tuple[int, int],
               fill: float = 0.0) -> Fitted:
    """Fit a matrix whose columns are ``heads × width`` blocks, block by block (new columns and
    heads ``fill``)."""
    old_heads, old_width = old
    new_heads, new_width = new
    blocks = []
    dropped = 0
    for h in range(max(old_heads, new_heads)):
        if h >= old_heads:
            blocks.append(np.full((rows, new_width), fill))
            continue
        source = array[:, h * old_width:(h + 1) * old_width]
        fitted, lost = _fit(source, rows, new_width, fill)
        if h < new_heads:
            blocks.append(fitted)
            dropped += lost
        else:
            dropped += int(np.count_nonzero(source))
    return np.hstack(blocks), dropped


def _fit_row(vector: FloatArray, length: int, fill: float = 0.0) -> Fitted:
    fitted, dropped = _fit(vector.reshape(1, -1), 1, length, fill)
    return fitted[0], dropped


def _fit_head_row(vector: FloatArray, old: tuple[int, int], new: tuple[int, int],
                  fill: float = 0.0) -> Fitted:
    fitted, dropped = _fit_heads(vector.reshape(1, -1), 1, old, new, fill)
    return fitted[0], dropped


@dataclass(frozen=True)
class _Change:
    """What one attention module becomes: heads, key/value heads and head widths, old → new."""

    old: Sizes
    new: Sizes
    groups: tuple[int, int]
    block: bool
    """The attention's output joins a stream of width d (see :func:`_attention_of`), so Wo's
    columns follow d."""

    def q(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return (self.old.heads, self.old.d_k), (self.new.heads, self.new.d_k)

    def k(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return (self.groups[0], self.old.d_k), (self.groups[1], self.new.d_k)

    def v(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return (self.groups[0], self.old.d_v), (self.groups[1], self.new.d_v)


def _wo(array: FloatArray, c: _Change) -> Fitted:
    """Wo's rows are the heads' value columns; its columns follow d when a block adds it."""
    out_cols = c.new.d if c.block else int(array.shape[1])
    fitted, dropped = _fit_heads(array.T, out_cols, (c.old.heads, c.old.d_v),
                                 (c.new.heads, c.new.d_v))
    return fitted.T, dropped


Rule = Callable[[FloatArray, _Change], Fitted]

_RULES: dict[tuple[type, str], Rule] = {
    (Attention, "Wq"): lambda a, c: _fit_heads(a, c.new.d, *c.q()),
    (Attention, "Wk"): lambda a, c: _fit_heads(a, c.new.d, *c.k()),
    (Attention, "Wv"): lambda a, c: _fit_heads(a, c.new.d, *c.v()),
    (Attention, "bq"): lambda a, c: _fit_head_row(a, *c.q()),
    (Attention, "bk"): lambda a, c: _fit_head_row(a, *c.k()),
    (Attention, "bv"): lambda a, c: _fit_head_row(a, *c.v()),
    (Attention, "Wo"): _wo,
    (Attention, "bo"): lambda a, c: _fit_row(a, c.new.d if c.block else int(a.shape[0])),
    (Attention, "gamma_q"): lambda a, c: _fit_row(a, c.new.d_k, 1.0),
    (Attention, "gamma_k"): lambda a, c: _fit_row(a, c.new.d_k, 1.0),
    (Attention, "beta_q"): lambda a, c: _fit_row(a, c.new.d_k),
    (Attention, "beta_k"): lambda a, c: _fit_row(a, c.new.d_k),
    (Scenario, "type_table"): lambda a, c: _fit(a, int(a.shape[0]), c.new.d),
    (EmbeddingNorm, "gamma"): lambda a, c: _fit_row(a, c.new.d, 1.0),
    (EmbeddingNorm, "beta"): lambda a, c: _fit_row(a, c.new.d),
    (FeedForward, "W1"): lambda a, c: _fit(a, c.new.d, int(a.shape[1])),
    (FeedForward, "Wg"): lambda a, c: _fit(a, c.new.d, int(a.shape[1])),
    (FeedForward, "W2"): lambda a, c: _fit(a, int(a.shape[0]), c.new.d),
    (FeedForward, "b1"): lambda a, c: (a, 0),
    (FeedForward, "bg"): lambda a, c: (a, 0),
    (FeedForward, "b2"): lambda a, c: _fit_row(a, c.new.d),
    (Mixture, "router"): lambda a, c: _fit(a, c.new.d, int(a.shape[1])),
    (Mixture, "shared_gate"): lambda a, c: _fit(a, c.new.d, 1),
    (Head, "unembed"): lambda a, c: _fit(a, c.new.d, int(a.shape[1])),
    (Head, "bias"): lambda a, c: (a, 0),
    (Transform, "W"): lambda a, c: _fit(a, c.new.d, c.new.d),
    (Transform, "b"): lambda a, c: _fit_row(a, c.new.d),
    (Encoder, "X"): lambda a, c: _fit(a, int(a.shape[0]), c.new.d),
    (Positions, "table"): lambda a, c: _fit(a, int(a.shape[0]) + max(0, c.new.n - c.old.n),
                                            c.new.d),
    (Positions, "slopes"): lambda a, c: _fit_row(a, c.new.heads),
}
"""(module type, field) → how its array fits the new sizes. Rows of d (γ, β) are the default."""


def _fit_any(module: object, name: str, array: FloatArray, change: _Change) -> Fitted:
    if isinstance(module, Attention) and module.qk_norm_over == "all_heads" \
            and name in ("gamma_q", "gamma_k", "beta_q", "beta_k"):  # as wide as Q's or K's
        heads = change.q() if name.endswith("q") else change.k()
        return _fit_head_row(array, *heads, 1.0 if name.startswith("gamma") else 0.0)
    rule = _RULES.get((type(module), name))
    if rule is not None:
        return rule(array, change)
    if isinstance(module, Block | Head | Encoder | Transform) \
            and name.startswith(("gamma", "beta")):
        return _fit_row(array, change.new.d, 1.0 if name.startswith("gamma") else 0.0)
    raise KeyError(f"{type(module).__name__}.{name}: no resize rule")


def _set(document: dict[str, Any], path: str, value: object) -> None:
    node, key = _holder(document, path)
    node[key] = value


def _at(document: dict[str, Any], path: str) -> object:
    """The document's value at ``path``."""
    node, key = _holder(document, path)
    return node[key]


def _holder(document: dict[str, Any], path: str) -> tuple[Any, Any]:
    """The object or list holding the value at ``path``, and its key there."""
    node: Any = document
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node, int(keys[-1]) if isinstance(node, list) else keys[-1]


def _attention_of(scenario: Scenario, path: str) -> tuple[object, Attention | None, bool]:
    """The module holding the parameter at ``path``; the attention it belongs to (if any); and
    whether that attention's output joins a stream of width d: a block adds it, and a stack's
    layer without a block hands it on to the next (only the shorthand's lone attention without
    a block may end at any width)."""
    module_path = path.rsplit(".", 1)[0] if "." in path else ""
    module = scenario.module(module_path)
    if isinstance(module, Attention):
        if scenario.shorthand:
            return module, module, scenario.block is not None
        return module, module, True
    return module, None, True


def _groups(a: Attention, heads: int) -> tuple[int, int]:
    """Key/value heads before and after: kept when they still divide the heads, else h."""
    if a.kv_heads is None or heads % a.kv_heads:
        return a.groups, heads
    return a.groups, a.kv_heads


def resize(scenario: Scenario, sizes: Sizes) -> Resized:
    """A document for ``scenario`` at ``sizes``: new cells are 0 (γ rows 1), old numbers kept.

    Parameters
    ----------
    scenario
        The current scenario.
    sizes
        The wanted sizes; validate the result with :func:`engine.parse_scenario`.
    """
    old = Sizes.of(scenario)
    doc = to_document(scenario, as_held)  # a weight no size changes stays as held (mapped)
    changes = _changes(scenario, doc, sizes, old)
    _refuse_unless_held_fits(scenario, changes, sizes, old)
    dropped = 0

    def put(path: str, fitted: Fitted) -> None:
        nonlocal dropped
        dropped += fitted[1]
        _set(doc, path, fitted[0])

    if scenario.token_ids is not None and scenario.embedding is not None:
        ids = list(scenario.token_ids)[: sizes.n] + [0] * max(0, sizes.n - old.n)
        dropped += max(0, old.n - sizes.n)
        doc["token_ids"] = ids
        if sizes.d != old.d:
            put("embedding", _fit(widened(scenario.embedding), scenario.embedding.shape[0],
                                  sizes.d))
    else:
        put("X", _fit(scenario.X, sizes.n, sizes.d))
    tokens = list(scenario.tokens)[: sizes.n]
    tokens += [f"t{k + 1}" for k in range(len(tokens), sizes.n)]
    doc["tokens"] = tokens
    for key in ("targets", "token_types"):  # new positions: target id 0, type 0
        if doc.get(key) is not None:
            doc[key] = list(doc[key])[: sizes.n] + [0] * max(0, sizes.n - old.n)
    if sizes.n != old.n:
        doc.pop("generation", None)  # its chosen ids no longer end the token ids

    for path, (module, change) in changes.items():
        array = scenario.parameters[path]
        put(path, _fit_any(module, path.rsplit(".", 1)[-1], widened(array), change))
    for path, a in _attentions(scenario):
        _resize_options(doc, path, a, sizes, old)
    for positions in (doc.get("positions"), doc.get("encoder", {}).get("positions")):
        _fit_rotary(positions, old.d_k, sizes.d_k)
    return Resized(document=doc, dropped=dropped)


def _changes(scenario: Scenario, doc: dict[str, Any], sizes: Sizes,
             old: Sizes) -> dict[str, tuple[object, _Change]]:
    """The weights (but X and the embedding) whose sizes change, each with its module and its
    change; a tied head, written ``"embedding.T"``, follows the embedding."""
    found: dict[str, tuple[object, _Change]] = {}
    for path in scenario.parameters:
        if path in ("X", "embedding") or isinstance(_at(doc, path), str):
            continue
        module, attention, block = _attention_of(scenario, path)
        groups = _groups(attention, sizes.heads) if attention is not None else (1, 1)
        change = _Change(old=_sizes_of(attention, old), new=sizes, groups=groups, block=block)
        if replace(change.old, n=sizes.n) == sizes and not isinstance(module, Positions):
            continue  # no size of it changed: kept as it is, not read
        found[path] = module, change
    return found


def _refuse_unless_held_fits(scenario: Scenario, changes: dict[str, tuple[object, _Change]],
                             sizes: Sizes, old: Sizes) -> None:
    """Refuse, before anything is widened, new sizes none smaller that would hold more float64
    numbers than this computer's memory: each weight they change is held widened, with at least
    the numbers it had (a 2026 checkpoint's weights, left in their file until then, would
    otherwise be read in until the computer runs out of memory)."""
    if any(getattr(sizes, size) < getattr(old, size) for size in ("n", "d", "d_k", "d_v",
                                                                   "heads")):
        return  # a smaller size: what it changes may shrink
    count = sum(int(np.prod(scenario.parameters[path].shape)) for path in changes)
    if sizes.d != old.d and scenario.embedding is not None:
        count += int(np.prod(scenario.embedding.shape))
    short = memory_short(count)
    if short is not None:
        raise ScenarioError("", Refusal("resize_memory", count=count, need=short[0],
                                        have=short[1]))


def _fit_rotary(positions: Any, old_d_k: int, d_k: int) -> None:
    """RoPE's rotary_dims within the new d_k: the largest even width that fits (a default
    width follows d_k while d_k stays even)."""
    if not isinstance(positions, dict) or positions.get("kind") != "rope":
        return
    r = int(positions.get("rotary_dims", old_d_k))
    if r > d_k or ("rotary_dims" not in positions and d_k % 2):
        positions["rotary_dims"] = max(2, min(r, d_k) // 2 * 2)


def _sizes_of(attention: Attention | None, old: Sizes) -> Sizes:
    if attention is None:
        return old
    return Sizes(n=old.n, d=old.d, d_k=attention.d_k, d_v=attention.d_v, heads=attention.heads)


def _attentions(scenario: Scenario) -> list[tuple[str, Attention]]:
    """Every attention module with its document path."""
    found = []
    for path in scenario.parameters:
        if path.endswith(".Wq"):
            found.append((path[:-3], scenario.module(path[:-3])))
    return found


def _resize_options(doc: dict[str, Any], path: str, a: Attention, sizes: Sizes,
                    old: Sizes) -> None:
    """Heads, key/value heads and the key mask of the attention at ``path``."""
    node: Any = doc
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    node["heads"] = sizes.heads
    groups = _groups(a, sizes.heads)[1]
    if a.kv_heads is not None:
        if groups == sizes.heads:
            node.pop("kv_heads", None)
        else:
            node["kv_heads"] = groups
    cross = path.endswith("cross_attention")
    on_tokens = not cross and not path.startswith("encoder.")
    if a.ablate_heads:
        node["ablate_heads"] = [head for head in a.ablate_heads if head < sizes.heads]
    if a.key_mask is not None and on_tokens:
        mask = [int(seen) for seen in a.key_mask][: sizes.n]
        node["key_mask"] = mask + [1] * max(0, sizes.n - old.n)
