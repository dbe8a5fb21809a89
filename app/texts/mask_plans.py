"""What hides a score and which query heads share a K/V head, decided once from one attention.

A step's scores may be hidden by the causal mask, a sliding window of w (position i reads keys
i − w + 1 … i) or a key mask (padding keys are never read), alone or together, and g K/V heads
may be shared by h query heads. The step texts, the shares step's title and the frames' notes all
name these from the step's own attention (its layer may differ from the first). The words are the
sentence catalogues'. Imports no Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.texts.sentences import Listed, Say, Token, say

if TYPE_CHECKING:
    from engine.scenario.modules import Attention


def beyond_causal(attention: Attention) -> bool:
    """Whether a window or a key mask hides keys besides (or instead of) the causal mask."""
    return attention.window is not None or bool(_padding(attention))


def _padding(attention: Attention) -> list[int]:
    """The keys the key mask marks as padding (0)."""
    mask = attention.key_mask or ()
    return [j for j, seen in enumerate(mask) if not seen]


def _window(attention: Attention, short: bool) -> Say:
    w = attention.window
    assert w is not None
    first = f"i − {w - 1}" if w > 1 else "i"
    if short:
        return say("mask.name_window", w=w)
    return say("mask.window" if attention.causal else "mask.window_open", w=w, first=first)


def mask_rule(attention: Attention, keys: Sequence[str]) -> Listed | None:
    """Which rules hide keys, each with the document's numbers: the causal mask, the window of w
    (with the keys position i reads), the key mask (naming the padding ``keys``); None when no
    key is hidden by any rule."""
    parts: list[Say] = [say("mask.causal")] if attention.causal else []
    if attention.window is not None:
        parts.append(_window(attention, short=False))
    padding = _padding(attention)
    if padding:
        parts.append(say("mask.keys", keys=Listed([Token(keys[j]) for j in padding])))
    return Listed(parts) if parts else None


def shares_title(attention: Attention) -> Listed:
    """The shares step's title naming every rule that hides keys ("causal mask, window of 2 and
    softmax shares")."""
    names: list[Say] = [say("mask.name_causal")] if attention.causal else []
    if attention.window is not None:
        names.append(_window(attention, short=True))
    if _padding(attention):
        names.append(say("mask.name_keys"))
    return Listed([*names, say("mask.name_shares")])


def kv_sharing(attention: Attention) -> Listed | None:
    """Which query heads read each K/V head ("query heads 1–2 read K/V head 1"), or None when
    every query head has its own."""
    if attention.groups >= attention.heads:
        return None
    readers: dict[int, list[int]] = {}
    for head in range(attention.heads):
        readers.setdefault(attention.kv_head(head), []).append(head + 1)
    parts = [say("kv.reads_many", first=heads[0], last=heads[-1], kv=group + 1)
             if len(heads) > 1 else say("kv.reads_one", head=heads[0], kv=group + 1)
             for group, heads in readers.items()]
    return Listed(parts)
