"""Reading a trace's tape: what a step's arrays, parameters, token axes and model are.

Every painter and text dispatches on a step's ``op`` and finds its operands here, from the step's
``scope``, ``module``, ``rows`` and ``keys`` (see docs/format-v2.md), never from an array's name.
Imports no Qt.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from app.bidi import codes_left_to_right, isolate
from engine import Attention, Step, Trace
from engine.scenario.names import short_name
from engine.scenario.op_kinds import steps_of
from engine.scenario.op_table import op_table


@dataclass(frozen=True)
class TapeRole:
    """What an op kind's step is on the tape.

    Attributes
    ----------
    attention
        A step of an attention sub-layer (self- or cross-attention): its module is the attention.
    columns
        The token list labelling the columns of what it writes: the step's ``keys``, the
        ``vocab``, or ``""`` (numbered features).
    key_rows
        Its writes after the first have the keys' rows when the step has keys (cross-attention's
        K and V are the encoder's rows).
    cached
        What the KV cache keeps of it when a token was generated: ``"projections"`` (the
        earlier rows' keys and values), ``"queries"`` (worked for the new query alone), or
        ``""`` (not a step the cache concerns).
    """

    attention: bool = False
    columns: Literal["keys", "vocab", ""] = ""
    key_rows: bool = False
    cached: Literal["projections", "queries", ""] = ""


ROLES = op_table("tape.role", {
    "embed": TapeRole(),
    "positions": TapeRole(),
    "inputs": TapeRole(),
    "norm": TapeRole(key_rows=True),  # a cross-attention's QK-norm: K_normed has the keys' rows
    "projection": TapeRole(attention=True, key_rows=True, cached="projections"),
    "rope": TapeRole(),
    "scores": TapeRole(attention=True, columns="keys", cached="queries"),
    "weights": TapeRole(attention=True, columns="keys", cached="queries"),
    "mix": TapeRole(attention=True, cached="queries"),
    "residual": TapeRole(),
    "ffn": TapeRole(),
    "router": TapeRole(),
    "experts": TapeRole(),
    "transform": TapeRole(),
    "logits": TapeRole(columns="vocab"),
    "softcap": TapeRole(columns="vocab"),
    "probs": TapeRole(columns="vocab"),
    "loss": TapeRole(),
    "sample": TapeRole(),
})
"""Each op kind's role on the tape."""

"""The ops of an attention sub-layer (self- or cross-attention)."""


def array_name(step: Step, key: str) -> str:
    """The trace array ``key`` (a version-1 name: ``"Q"``, ``"weights"``) of the step's scope."""
    return step.scope + key


def parameter_path(step: Step, key: str) -> str:
    """The document path of the parameter ``key`` (``"Wq"``, ``"ffn.W1"``) of the step's
    module."""
    return f"{step.module}.{key}"


def display_name(path: str) -> str:
    """The name a user sees for a parameter at any module path: ``layers.1.block.gamma1`` →
    ``γ1`` as ``block.gamma1`` is, an expert's ``….experts.2.W1`` ``experts.2.W1``, a shared
    expert's ``….shared.W1`` ``shared.W1`` (see :func:`engine.scenario.names.short_name`)."""
    if ".experts." in path or ".shared." in path:
        return short_name(path)
    return short_name("block." + path.rsplit(".", 1)[-1])


def module_of(trace: Trace, step: Step) -> Any:
    """The model object at the step's module path (``"attention"``, ``"layers.1.block"``)."""
    return trace.scenario.module(step.module)


def qk_norm_of(trace: Trace, step: Step) -> str | None:
    """The QK-norm (``"rmsnorm"``, ``"layernorm"``) a norm step applies to an attention's
    queries and keys; None for a block's norm."""
    model = module_of(trace, step)
    return model.qk_norm if isinstance(model, Attention) else None


def norm_kind(trace: Trace, step: Step) -> str:
    """The norm a norm step applies: its block's ``norm``, or its attention's QK-norm."""
    kind = qk_norm_of(trace, step)
    return kind if kind is not None else str(module_of(trace, step).norm)


def attention_of(trace: Trace, step: Step | None = None) -> Any:
    """The attention a step uses, or the document's first attention (heads, causal …) for a
    step outside attention."""
    if step is not None and ROLES[step.op].attention and step.module:
        return module_of(trace, step)
    for each in trace.steps:
        if ROLES[each.op].attention and each.module:
            return module_of(trace, each)
    raise ValueError("this trace has no attention step")


def axes_of(trace: Trace, name: str) -> tuple[str, str]:
    """The token lists labelling the rows and the columns of the array ``name``, read from the
    step that writes it: rows ``"tokens"`` or ``"enc.tokens"`` (a cross-attention's K and V
    have the encoder's rows); columns the keys of scores and shares, the vocabulary of logits
    and probabilities, else ``""`` (numbered features). An input no step writes (``enc.X``)
    has the rows of the first step that reads it."""
    for step in trace.steps:
        if name not in step.writes:
            continue
        role = ROLES[step.op]
        rows = step.keys if role.key_rows and step.keys and name != step.writes[0] else step.rows
        columns = step.keys if role.columns == "keys" else role.columns
        return rows, columns
    reader = next((step for step in trace.steps if name in step.reads), None)
    return (reader.rows if reader is not None else "tokens"), ""


def shares_step(trace: Trace, index: int) -> Step:
    """The softmax step whose shares step ``index`` is about: its own scope's, else the first."""
    scope = trace.steps[index].scope
    weights = steps_of(trace.steps, "weights")
    return next((s for s in weights if s.scope == scope), weights[0])


def attention_at(trace: Trace, scope: str) -> Any:
    """The attention whose arrays have ``scope`` (the one its projections use)."""
    return next(module_of(trace, s) for s in steps_of(trace.steps, "projection")
                if s.scope == scope)


def kv_head(attention: Any, head: int) -> int:
    """The key/value head a query head reads (grouped-query attention shares them)."""
    return int(attention.kv_head(head))


def tokens_of(trace: Trace, list_name: str) -> list[str]:
    """The labels of a token list: ``"tokens"``, ``"enc.tokens"`` or ``"vocab"``, each as
    :func:`shown_token` shows it."""
    return list(shown_tokens(trace.tokens_of(list_name)))


_CONTROLS = {"\n": "↵", "\t": "⇥"}
_UNSEEN = frozenset(("Cc", "Cf", "Co", "Cn", "Zs", "Zl", "Zp"))
"""Unicode categories that draw nothing, or nothing to tell them by, or break the line:
control and format characters (a zero-width space, a right-to-left override that would turn
the label's other words round), private and unassigned code points, spaces other than the
plain one (no-break, ideographic), line and paragraph separators."""
_RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff]")
"""The blocks of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana…): a quick search that
spares the other tokens :func:`~app.bidi.isolate`'s character-by-character look."""
_JOINER = "\u200d"
"""The zero-width joiner: seen as part of an emoji sequence (👩‍👧) between two characters."""
SPACE = "␣"
"""A space at either end of a token, as it is shown."""
_WRITTEN_MARKS = {ord(mark): f"<U+{ord(mark):04X}>" for mark in (SPACE, *_CONTROLS.values())}
_SHOWN_KEPT = 4
_shown: OrderedDict[int, tuple[tuple[str, ...], tuple[str, ...]]] = OrderedDict()
_shown_lock = threading.Lock()


def shown_token(token: str) -> str:
    """``token`` as a label shows it, so that no token breaks a label's line, shows as
    nothing, looks like another or turns the words around it: a space at either end as ␣
    (`` the`` and ``the`` are two tokens of a real vocabulary), a newline as ↵, a tab as ⇥;
    any other character of :data:`_UNSEEN` (a control or format character, a space other than
    the plain one) as its code (``<0x0D>``, as a byte-level tokenizer names a byte;
    ``<U+202E>``), and a ␣, ↵ or ⇥ the token itself holds too (``<U+2423>``); every other
    character as it is, a right-to-left token isolated (:func:`~app.bidi.isolate`), each code
    it holds between left-to-right marks (:func:`~app.bidi.codes_left_to_right`: ``مر<0xD8>``
    reads ``<0xD8>`` left to right after the letters, never ``>0xD8<``)."""
    if not token.isascii() and (SPACE in token or "↵" in token or "⇥" in token):
        token = token.translate(_WRITTEN_MARKS)
    if not token.isprintable():
        token = "".join(_CONTROLS.get(ch) or (
            (f"<0x{ord(ch):02X}>" if ord(ch) < 0x100 else f"<U+{ord(ch):04X}>")
            if ch != " " and unicodedata.category(ch) in _UNSEEN
            and not (ch == _JOINER and 0 < k < len(token) - 1) else ch)
            for k, ch in enumerate(token))
    if token[:1] == " " or token[-1:] == " ":
        core = token.strip(" ")
        lead = len(token) - len(token.lstrip(" "))
        token = SPACE * lead + core + SPACE * (len(token) - lead - len(core))
    if not _RIGHT_TO_LEFT.search(token):
        return token
    return isolate(codes_left_to_right(token))  # an id keeps its side


def shown_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`shown_token` of each of ``tokens``, worked out once for the last few lists asked
    for (a vocabulary of 128,256 entries is labelled at every frame: 30-45 ms to work out);
    the same tuple when every token shows as it is."""
    with _shown_lock:  # the worker that measures a vocabulary's labels asks too
        known = _shown.get(id(tokens))
        if known is not None and known[0] is tokens:
            _shown.move_to_end(id(tokens))
            return known[1]
    shown = tuple(shown_token(token) for token in tokens)
    if shown == tokens:
        shown = tokens
    with _shown_lock:
        _shown[id(tokens)] = (tokens, shown)
        while len(_shown) > _SHOWN_KEPT:  # the least recently asked first: a run's growing
            _shown.popitem(last=False)  # token lists, never the vocabulary each frame asks for
    return shown


def visible_of(trace: Trace, step: Step) -> npt.NDArray[np.bool_]:
    """Which keys each query row of the step's attention may read (n × n_keys)."""
    return trace.visible_for(step.scope)


def norm_statistics(trace: Trace, step: Step) -> npt.NDArray[np.float64]:
    """The per-row statistics a norm step divides by (the trace's ``<norm>_stats``)."""
    return trace.arrays[step.writes[0] + "_stats"]


def ffn_pre(trace: Trace, step: Step) -> npt.NDArray[np.float64]:
    """The feed-forward's x·W1 + b1 before the activation (the trace's ``ffn_pre``; a gated
    feed-forward's ``ffn_up``)."""
    name = array_name(step, "ffn_pre")
    return trace.arrays[name if name in trace.arrays else array_name(step, "ffn_up")]


def _layer_prefix(stack: str, layer: int) -> str:
    return ("enc." if stack == "encoder" else "") + f"L{layer}."


def same_step_in_layer(trace: Trace, index: int, layer: int,
                       stack: str = "decoder") -> int | None:
    """The step of layer ``layer`` of ``stack`` that does what step ``index`` does in its own
    layer (``L1.cross.scores`` → ``L2.cross.scores``); that layer's first step when ``index``
    is outside that stack's layers or the layer lacks such a step; None without that layer."""
    step = trace.steps[index]
    if step.layer and step.stack == stack:
        target = _layer_prefix(stack, layer) + step.id.removeprefix(
            _layer_prefix(stack, step.layer))
        if any(s.id == target for s in trace.steps):
            return trace.step_index(target)
    return next((k for k, s in enumerate(trace.steps)
                 if s.layer == layer and s.stack == stack), None)
