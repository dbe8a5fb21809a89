"""The scenario model: everything needed to recompute every step, validated on the way in.

A scenario is built only by :func:`parse_scenario`, which refuses a malformed document with one
:class:`~engine.errors.ScenarioError`. Scenarios are immutable; an edit makes a new one with
:meth:`Scenario.with_parameter`, which runs the same checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from engine.errors import ScenarioError
from engine.numbers import DECIMALS_RANGE
from engine.reader import (
    MAX_CELLS,
    MAX_HEADS,
    MAX_NUMBERS,
    MAX_POSITIONS,
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
    expect_text,
    expect_vector,
    refuse_large_result,
    refuse_unknown,
)

FORMAT_NAME = "qkv-studio"
FORMAT_VERSION = 1
NORMS = ("layernorm", "rmsnorm", "none")
PLACEMENTS = ("pre", "post")
ACTIVATIONS = ("relu", "gelu", "silu", "identity")

_TOP_KEYS = ("format", "version", "title", "note", "tokens", "X", "token_ids", "embedding",
             "attention", "block", "display")
_DISPLAY_KEYS = ("decimals",)
_ATTENTION_KEYS = ("heads", "causal", "scale", "Wq", "Wk", "Wv", "bq", "bk", "bv", "Wo", "bo")
_BLOCK_KEYS = ("norm", "eps", "placement", "gamma1", "beta1", "gamma2", "beta2", "ffn",
               "final_norm", "gamma_f", "beta_f", "unembed", "vocab")
_FFN_KEYS = ("W1", "b1", "activation", "W2", "b2")


class _Frozen:
    """Every array field of a model is read-only, also after unpickling: a scenario handed to a
    worker thread or process, an undo command or a trace can never change under another
    holder."""

    def __post_init__(self) -> None:
        for item in fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()


@dataclass(frozen=True, eq=False)
class Attention(_Frozen):
    """Multi-head attention parameters (right multiplication: ``Q = X @ Wq``)."""

    heads: int
    causal: bool
    scale: bool
    Wq: FloatArray
    Wk: FloatArray
    Wv: FloatArray
    bq: FloatArray | None = None
    bk: FloatArray | None = None
    bv: FloatArray | None = None
    Wo: FloatArray | None = None
    bo: FloatArray | None = None

    @property
    def d_k(self) -> int:
        """Width of one head's query and key."""
        return int(self.Wq.shape[1]) // self.heads

    @property
    def d_v(self) -> int:
        """Width of one head's value."""
        return int(self.Wv.shape[1]) // self.heads

    @property
    def d_out(self) -> int:
        """Width of the attention output (after Wo, or the concatenated heads)."""
        return int(self.Wo.shape[1]) if self.Wo is not None else int(self.Wv.shape[1])


@dataclass(frozen=True, eq=False)
class FeedForward(_Frozen):
    """Position-wise feed-forward network ``activation(x @ W1 + b1) @ W2 + b2``."""

    W1: FloatArray
    W2: FloatArray
    activation: str = "relu"
    b1: FloatArray | None = None
    b2: FloatArray | None = None


@dataclass(frozen=True, eq=False)
class Block(_Frozen):
    """One decoder block around the attention, with optional final norm and vocabulary head."""

    norm: str
    eps: float
    placement: str
    gamma1: FloatArray
    beta1: FloatArray
    gamma2: FloatArray
    beta2: FloatArray
    ffn: FeedForward
    final_norm: bool
    gamma_f: FloatArray
    beta_f: FloatArray
    unembed: FloatArray | None
    vocab: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Scenario(_Frozen):
    """A validated scenario document."""

    title: str
    note: str
    tokens: tuple[str, ...]
    X: FloatArray
    attention: Attention
    block: Block | None = None
    token_ids: tuple[int, ...] | None = None
    embedding: FloatArray | None = None
    decimals: int | None = None
    """Decimals the frames print (``display.decimals``); None keeps each frame's default."""

    @property
    def n(self) -> int:
        """Number of positions."""
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        """Model width: features per input row."""
        return int(self.X.shape[1])

    def to_document(self) -> dict[str, Any]:
        """The scenario as a JSON-ready document (version 1); integral numbers written as ints."""
        return _to_document(self)

    def parameter(self, path: str) -> FloatArray:
        """The editable array at a document path such as ``"attention.Wq"`` or ``"block.ffn.W1"``.

        Raises
        ------
        KeyError
            If the scenario has no array at ``path``.
        """
        node: Any = self
        for key in path.split("."):
            node = getattr(node, key, None) if key in _FIELDS else None
            if node is None:
                raise KeyError(path)
        if not isinstance(node, np.ndarray):
            raise KeyError(path)
        return node

    def parameter_paths(self) -> list[str]:
        """Every editable array of this scenario, in document order (X only without token ids)."""
        return [path for path in _ALL_ARRAY_PATHS if self._has_parameter(path)]

    def _has_parameter(self, path: str) -> bool:
        if path == "X" and self.token_ids is not None:
            return False  # looked up from the embedding, not a value of the document
        try:
            self.parameter(path)
        except KeyError:
            return False
        return True

    def with_parameter(self, path: str, value: FloatArray | list[Any] | None) -> Scenario:
        """A new scenario with the array at ``path`` replaced (``None`` removes an optional one).

        A finite array of the same shape replaces the old one directly (a cell edit costs no
        re-validation of the whole document; a new embedding looks up X again); anything else
        goes through :meth:`with_document_value`.

        Raises
        ------
        ScenarioError
            If the result is not a valid scenario; this scenario is unchanged.
        """
        if value is not None and self._has_parameter(path):
            array = np.array(value, dtype=np.float64)
            if array.shape == self.parameter(path).shape and bool(np.isfinite(array).all()):
                if path == "embedding" and self.token_ids is not None:
                    return replace(self, embedding=array, X=array[list(self.token_ids)])
                edited: Scenario = _replace_path(self, path.split("."), array)
                return edited
        return self.with_document_value(path, value)

    def with_document_value(self, path: str, value: object) -> Scenario:
        """A new scenario with any document value at ``path`` replaced, then re-validated.

        The other arrays go to :func:`parse_scenario` as arrays, not as lists of numbers, so
        their check is one vectorised pass (no number-by-number reading or writing).
        """
        document = _to_document(self, _as_array)
        node = document
        keys = path.split(".")
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        if value is None:
            node.pop(keys[-1], None)
        else:
            node[keys[-1]] = value
        return parse_scenario(document)


_FIELDS = frozenset({"X", "embedding", "attention", "block", "ffn", "Wq", "Wk", "Wv", "bq", "bk",
                     "bv", "Wo", "bo", "gamma1", "beta1", "gamma2", "beta2", "W1", "b1", "W2",
                     "b2", "gamma_f", "beta_f", "unembed"})

def _replace_path(node: Any, keys: list[str], array: FloatArray) -> Any:
    if len(keys) == 1:
        return replace(node, **{keys[0]: array})
    return replace(node, **{keys[0]: _replace_path(getattr(node, keys[0]), keys[1:], array)})


_ALL_ARRAY_PATHS = (
    "X", "embedding",
    "attention.Wq", "attention.Wk", "attention.Wv", "attention.bq", "attention.bk",
    "attention.bv", "attention.Wo", "attention.bo",
    "block.gamma1", "block.beta1", "block.gamma2", "block.beta2",
    "block.ffn.W1", "block.ffn.b1", "block.ffn.W2", "block.ffn.b2",
    "block.gamma_f", "block.beta_f", "block.unembed",
)


def parse_scenario(document: object) -> Scenario:
    """Validate a scenario document and build the model.

    Raises
    ------
    ScenarioError
        The first problem found, naming its place.
    """
    doc = expect_object(document, "")
    refuse_unknown(doc, _TOP_KEYS, "")
    if "format" in doc and doc["format"] != FORMAT_NAME:
        raise ScenarioError("format", f'expected "{FORMAT_NAME}", got {describe(doc["format"])}')
    version = expect_int(doc.get("version", FORMAT_VERSION), "version", 1, 1_000_000)
    if version > FORMAT_VERSION:
        raise ScenarioError("version", f"this document is version {version}, made by a newer "
                            f"QKV Studio; this one reads up to version {FORMAT_VERSION}")
    title = expect_text(doc.get("title", "Untitled"), "title")
    note = expect_text(doc.get("note", ""), "note", 2000)

    token_ids: tuple[int, ...] | None = None
    embedding: FloatArray | None = None
    if "token_ids" in doc or "embedding" in doc:
        if "X" in doc:
            raise ScenarioError("X", "give either X or token_ids with embedding, not both")
        if "embedding" not in doc:
            raise ScenarioError("embedding", "token_ids need an embedding table to look up")
        embedding = expect_matrix(doc["embedding"], "embedding", max_rows=MAX_VOCAB)
        raw_ids = doc.get("token_ids")
        if not isinstance(raw_ids, list) or not raw_ids:
            raise ScenarioError("token_ids", "expected a list of token ids")
        if len(raw_ids) > MAX_POSITIONS:
            raise ScenarioError("token_ids", f"{len(raw_ids)} positions is more than the limit "
                                f"of {MAX_POSITIONS}")
        vocab_rows = int(embedding.shape[0])
        token_ids = tuple(expect_int(t, f"token_ids[{k}]", 0, vocab_rows - 1)
                          for k, t in enumerate(raw_ids))
        X = embedding[list(token_ids)]
    elif "X" in doc:
        X = expect_matrix(doc["X"], "X")
    else:
        raise ScenarioError("X", "missing: give the input rows X (or token_ids and embedding)")
    n, d = int(X.shape[0]), int(X.shape[1])
    tokens = (expect_labels(doc["tokens"], "tokens", n) if "tokens" in doc
              else tuple(f"t{k + 1}" for k in range(n)))

    if "attention" not in doc:
        raise ScenarioError("attention", "missing: give at least Wq, Wk and Wv")
    attention = _parse_attention(doc["attention"], n, d)
    block = _parse_block(doc["block"], n, d, attention) if "block" in doc else None
    scenario = Scenario(title=title, note=note, tokens=tokens, X=X, attention=attention,
                        block=block, token_ids=token_ids, embedding=embedding,
                        decimals=_parse_display(doc["display"]) if "display" in doc else None)
    count = number_count(scenario)
    if count > MAX_NUMBERS:
        raise ScenarioError("document", f"{count:,} numbers in all is more than the limit of "
                            f"{MAX_NUMBERS:,} a document may hold (so that it can be saved and "
                            "opened again)")
    return scenario


def _parse_display(value: object) -> int | None:
    """How the document asks to be shown: ``{"decimals": 3}`` (every key optional)."""
    display = expect_object(value, "display")
    refuse_unknown(display, _DISPLAY_KEYS, "display")
    if "decimals" not in display:
        return None
    return expect_int(display["decimals"], "display.decimals", *DECIMALS_RANGE)


def number_count(scenario: Scenario) -> int:
    """How many numbers the document's matrices and rows hold together (what its file stores)."""
    parts: list[object] = [scenario, scenario.attention]
    if scenario.block is not None:
        parts += [scenario.block, scenario.block.ffn]
    stored = sum(value.size for part in parts for value in vars(part).values()
                 if isinstance(value, np.ndarray))
    looked_up = scenario.X.size if scenario.token_ids is not None else 0  # not in the file
    return int(stored - looked_up)


def _parse_attention(value: object, n: int, d: int) -> Attention:
    att = expect_object(value, "attention")
    refuse_unknown(att, _ATTENTION_KEYS, "attention")
    heads = expect_int(att.get("heads", 1), "attention.heads", 1, MAX_HEADS)
    causal = expect_bool(att.get("causal", True), "attention.causal")
    scale = expect_bool(att.get("scale", True), "attention.scale")
    if heads * n * n > MAX_CELLS:
        raise ScenarioError("attention.heads", f"{heads} heads × {n}² positions is more than the "
                            f"limit of {MAX_CELLS} scores")
    for name in ("Wq", "Wk", "Wv"):
        if name not in att:
            raise ScenarioError(f"attention.{name}", "missing")
    to_d = f" to match d={d}"
    Wq = expect_matrix(att["Wq"], "attention.Wq", rows=d, rows_reason=to_d)
    width_k = int(Wq.shape[1])
    Wk = expect_matrix(att["Wk"], "attention.Wk", rows=d, rows_reason=to_d, cols=width_k,
                       cols_reason=" to match Wq (queries and keys must have the same width)")
    Wv = expect_matrix(att["Wv"], "attention.Wv", rows=d, rows_reason=to_d)
    width_v = int(Wv.shape[1])
    refuse_large_result("attention.Wq", "Q", n, width_k)
    refuse_large_result("attention.Wv", "V", n, width_v)
    if width_k % heads:
        raise ScenarioError("attention.Wq", f"{width_k} columns do not split into {heads} heads")
    if width_v % heads:
        raise ScenarioError("attention.Wv", f"{width_v} columns do not split into {heads} heads")

    def bias(name: str, length: int, reason: str) -> FloatArray | None:
        if name not in att:
            return None
        return expect_vector(att[name], f"attention.{name}", length, reason)

    bq = bias("bq", width_k, " to match Wq's columns")
    bk = bias("bk", width_k, " to match Wk's columns")
    bv = bias("bv", width_v, " to match Wv's columns")
    Wo = bo = None
    if "Wo" in att:
        Wo = expect_matrix(att["Wo"], "attention.Wo", rows=width_v,
                           rows_reason=f" to match the {width_v} concatenated value columns")
        refuse_large_result("attention.Wo", "the attention output", n, int(Wo.shape[1]))
        bo = bias("bo", int(Wo.shape[1]), " to match Wo's columns")
    elif "bo" in att:
        raise ScenarioError("attention.bo", "an output bias needs Wo")
    return Attention(heads=heads, causal=causal, scale=scale, Wq=Wq, Wk=Wk, Wv=Wv, bq=bq, bk=bk,
                     bv=bv, Wo=Wo, bo=bo)


def _parse_block(value: object, n: int, d: int, attention: Attention) -> Block:
    blk = expect_object(value, "block")
    refuse_unknown(blk, _BLOCK_KEYS, "block")
    if attention.d_out != d:
        source = "Wo's columns" if attention.Wo is not None else "the concatenated value columns"
        raise ScenarioError("attention.Wo" if attention.Wo is not None else "attention.Wv",
                            f"the block adds the attention output to X, so {source} must be "
                            f"d={d}, got {attention.d_out}")
    norm = expect_choice(blk.get("norm", "layernorm"), "block.norm", NORMS)
    eps = expect_number(blk.get("eps", 1e-5), "block.eps")
    if eps < 0:
        raise ScenarioError("block.eps", f"ε must not be negative, got {eps}")
    placement = expect_choice(blk.get("placement", "pre"), "block.placement", PLACEMENTS)

    def row(name: str, fill: float) -> FloatArray:
        if name not in blk:
            return np.full(d, fill, dtype=np.float64)
        return expect_vector(blk[name], f"block.{name}", d, f" to match d={d}")

    if "ffn" not in blk:
        raise ScenarioError("block.ffn", "missing: a block needs its feed-forward network")
    ffn_doc = expect_object(blk["ffn"], "block.ffn")
    refuse_unknown(ffn_doc, _FFN_KEYS, "block.ffn")
    for name in ("W1", "W2"):
        if name not in ffn_doc:
            raise ScenarioError(f"block.ffn.{name}", "missing")
    W1 = expect_matrix(ffn_doc["W1"], "block.ffn.W1", rows=d, rows_reason=f" to match d={d}",
                       max_cols=4 * MAX_WIDTH)
    f = int(W1.shape[1])
    refuse_large_result("block.ffn.W1", "the hidden layer", n, f)
    W2 = expect_matrix(ffn_doc["W2"], "block.ffn.W2", rows=f,
                       rows_reason=f" to match W1's {f} columns", cols=d,
                       cols_reason=f" to match d={d}", max_rows=4 * MAX_WIDTH)
    b1 = (expect_vector(ffn_doc["b1"], "block.ffn.b1", f, " to match W1's columns")
          if "b1" in ffn_doc else None)
    b2 = (expect_vector(ffn_doc["b2"], "block.ffn.b2", d, f" to match d={d}")
          if "b2" in ffn_doc else None)
    activation = expect_choice(ffn_doc.get("activation", "relu"), "block.ffn.activation",
                               ACTIVATIONS)
    ffn = FeedForward(W1=W1, W2=W2, activation=activation, b1=b1, b2=b2)

    final_norm = expect_bool(blk.get("final_norm", placement == "pre"), "block.final_norm")
    unembed = None
    vocab: tuple[str, ...] = ()
    if "unembed" in blk:
        unembed = expect_matrix(blk["unembed"], "block.unembed", rows=d,
                                rows_reason=f" to match d={d}", max_cols=MAX_VOCAB)
        size = int(unembed.shape[1])
        refuse_large_result("block.unembed", "the logits", n, size)
        vocab = (expect_labels(blk["vocab"], "block.vocab", size) if "vocab" in blk
                 else tuple(f"v{k + 1}" for k in range(size)))
    elif "vocab" in blk:
        raise ScenarioError("block.vocab", "vocabulary labels need the head block.unembed")
    return Block(norm=norm, eps=eps, placement=placement, gamma1=row("gamma1", 1.0),
                 beta1=row("beta1", 0.0), gamma2=row("gamma2", 1.0), beta2=row("beta2", 0.0),
                 ffn=ffn, final_norm=final_norm, gamma_f=row("gamma_f", 1.0),
                 beta_f=row("beta_f", 0.0), unembed=unembed, vocab=vocab)


def _plain(array: FloatArray) -> Any:
    """Nested lists with integral values written as ints, so saved files read naturally.

    Vectorised: numpy decides which numbers are integral, then makes the lists in one pass.
    """
    integral = (array == np.trunc(array)) & (np.abs(array) < 1e15)
    if integral.all():
        return array.astype(np.int64).tolist()
    if not integral.any():
        return array.tolist()
    mixed = array.astype(object)
    mixed[integral] = array[integral].astype(np.int64).tolist()
    return mixed.tolist()


def _as_array(array: FloatArray) -> Any:
    """The array itself: a document for :func:`parse_scenario`, never for a file."""
    return array


def _to_document(s: Scenario, write: Callable[[FloatArray], Any] = _plain) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "title": s.title}
    if s.note:
        doc["note"] = s.note
    doc["tokens"] = list(s.tokens)
    if s.token_ids is not None and s.embedding is not None:
        doc["token_ids"] = list(s.token_ids)
        doc["embedding"] = write(s.embedding)
    else:
        doc["X"] = write(s.X)
    a = s.attention
    att: dict[str, Any] = {"heads": a.heads, "causal": a.causal, "scale": a.scale,
                           "Wq": write(a.Wq), "Wk": write(a.Wk), "Wv": write(a.Wv)}
    for name, value in (("bq", a.bq), ("bk", a.bk), ("bv", a.bv), ("Wo", a.Wo), ("bo", a.bo)):
        if value is not None:
            att[name] = write(value)
    doc["attention"] = att
    if s.block is not None:
        b = s.block
        ffn: dict[str, Any] = {"W1": write(b.ffn.W1)}
        if b.ffn.b1 is not None:
            ffn["b1"] = write(b.ffn.b1)
        ffn["activation"] = b.ffn.activation
        ffn["W2"] = write(b.ffn.W2)
        if b.ffn.b2 is not None:
            ffn["b2"] = write(b.ffn.b2)
        blk: dict[str, Any] = {"norm": b.norm, "eps": b.eps, "placement": b.placement,
                               "gamma1": write(b.gamma1), "beta1": write(b.beta1),
                               "gamma2": write(b.gamma2), "beta2": write(b.beta2), "ffn": ffn,
                               "final_norm": b.final_norm, "gamma_f": write(b.gamma_f),
                               "beta_f": write(b.beta_f)}
        if b.unembed is not None:
            blk["unembed"] = write(b.unembed)
            blk["vocab"] = list(b.vocab)
        doc["block"] = blk
    if s.decimals is not None:
        doc["display"] = {"decimals": s.decimals}
    return doc


__all__ = ["ACTIVATIONS", "MAX_POSITIONS", "MAX_WIDTH", "NORMS", "PLACEMENTS", "Attention",
           "Block", "FeedForward", "Scenario", "parse_scenario"]
