"""The document being edited and its named edits, with no Qt: the model under the window.

Every change a user makes is an :class:`Operation`, a frozen dataclass that knows what it does
to a scenario (:meth:`Operation.apply`, pure: scenarios are immutable) and what it is called
in each language (:meth:`Operation.label`). :meth:`Document.edit` turns one into an
:class:`Edit`, the scenario before and after: undo shows ``before`` again, bit for bit. The Qt
side (:class:`app.state.document.DocumentState` and the undo commands of
:mod:`app.state.history`) only wraps these.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np

from app.model.outline import same_outline
from app.model.parts import layer_name, place_name, split_layer
from app.texts.titles import norm_name
from app.texts.words import CATALOGUES, say
from engine import Scenario, ScenarioError, Trace, parse_scenario
from engine.format.generation_keys import Generation, Settings
from engine.format.mapped_weight import cell
from engine.format.numbers import format_exact
from engine.format.reader import FloatArray
from engine.format.writer import as_held, to_document
from engine.forward.alibi import alibi_slopes
from engine.generation.append import extend
from engine.generation.grow import grown
from engine.generation.redraw import redrawn, with_settings
from engine.scenario.edit import (
    TIED,
    tied_to,
    with_cell,
    with_document_value,
    with_document_values,
)
from engine.scenario.positions import DEFAULT_BASE, KINDS
from engine.scenario.resize import Sizes, resize
from engine.scenario.swap import swap_tokens
from engine.words.refusals import Refusal


class Operation(ABC):
    """One named edit of the document."""

    traced_is_a_pass: ClassVar[bool] = False
    """Whether :meth:`traced` runs a forward pass of its own (a new position through every
    layer): a big document's is then worked in the runner, not on the interface thread."""

    @abstractmethod
    def apply(self, scenario: Scenario) -> Scenario:
        """The scenario after this edit; raises :class:`~engine.ScenarioError` if refused."""

    @abstractmethod
    def label(self, lang: str) -> str:
        """What the edit is called in ``lang`` (``"en"`` or ``"zh"``): the undo step's text."""

    def merges_with(self, later: Operation) -> bool:
        """Whether ``later``, made right after this, joins it in one undo step."""
        del later
        return False

    def traced(self, before: Trace, after: Scenario) -> Trace | None:
        """The trace of ``after`` (what this edit made) worked from ``before``, the trace of the
        document it was made on, where the edit allows that without a whole forward pass;
        None: compute it."""
        del before, after
        return None


@dataclass(frozen=True)
class SetCell(Operation):
    """Set one number: ``row``, ``col`` of the matrix at ``path`` (``col`` of a vector)."""

    path: str
    row: int
    col: int
    value: float
    vector: bool = False

    def apply(self, scenario: Scenario) -> Scenario:
        index = (self.col,) if self.vector else (self.row, self.col)
        after = with_cell(scenario, self.path, index, self.value)
        same_outline(scenario, after)
        return after

    @property
    def place(self) -> str:
        """``Wq[1,0]``, or ``gamma1[2]`` for a vector."""
        name = place_name(self.path)
        return f"{name}[{self.col}]" if self.vector else f"{name}[{self.row},{self.col}]"

    def label(self, lang: str) -> str:
        return say("edit.cell", lang, place=self.place, value=format_exact(self.value))

    def merges_with(self, later: Operation) -> bool:
        """Typing into one cell again and again is one undo step."""
        return isinstance(later, SetCell) and (later.path, later.row, later.col, later.vector) \
            == (self.path, self.row, self.col, self.vector)


def changed_array(operation: Operation, scenario: Scenario) -> str | None:
    """The array whose first reader a cell edit of ``scenario`` (the document before or
    after it) is worked again from: the edited one; of an embedding and a head that are one
    tensor (:func:`~engine.scenario.edit.tied_to`), the embedding when the text looks up the
    edited entry, else the head (no looked-up row changed); None for other edits."""
    if not isinstance(operation, SetCell):
        return None
    if tied_to(scenario, operation.path) is None:
        return operation.path
    entry = operation.row if operation.path == TIED[0] else operation.col
    encoder = scenario.encoder
    looked_up = {*(scenario.token_ids or ()),
                 *((encoder.token_ids or ()) if encoder is not None else ())}
    return TIED[0] if entry in looked_up else TIED[1]


@dataclass(frozen=True, eq=False)
class SetMatrix(Operation):
    """Replace the whole array at ``path`` (a paste, or an imported file)."""

    path: str
    values: FloatArray
    how: Literal["paste", "import"]
    source: str
    """What came in: the pasted block's shape (``2×3``), or the imported file's name."""

    def apply(self, scenario: Scenario) -> Scenario:
        return with_document_value(scenario, self.path, np.array(self.values, dtype=np.float64))

    def label(self, lang: str) -> str:
        name = place_name(self.path)
        if self.how == "paste":
            return say("edit.paste", lang, shape=self.source, name=name)
        return say("edit.import", lang, source=self.source, name=name)


@dataclass(frozen=True)
class Resize(Operation):
    """Change one size (``key``, from ``old`` to its value in ``sizes``); grown arrays keep
    their numbers, shrunk ones drop the cut-off part (undo brings it back)."""

    sizes: Sizes
    key: str
    old: int

    def apply(self, scenario: Scenario) -> Scenario:
        return parse_scenario(resize(scenario, self.sizes).document)

    def label(self, lang: str) -> str:
        new = getattr(self.sizes, self.key)
        return say("edit.resize", lang, changes=f"{self.key} {self.old}→{new}")


def resized(scenario: Scenario, sizes: Sizes) -> tuple[Scenario, int]:
    """``scenario`` at ``sizes``, checked as a document read from a file, and how many non-zero
    numbers it drops; what :class:`Resize` makes, worked where the caller chooses (a worker: at
    the largest sizes it takes seconds and gigabytes).

    Raises
    ------
    ScenarioError
        If the engine refuses the resized document.
    """
    done = resize(scenario, sizes)
    return parse_scenario(done.document), done.dropped


@dataclass(frozen=True, eq=False)
class Worked(Operation):
    """``operation`` already worked out elsewhere (in a worker): applied to ``before`` it made
    ``after``; applied to another document it is worked again."""

    operation: Operation
    before: Scenario
    after: Scenario

    def apply(self, scenario: Scenario) -> Scenario:
        return self.after if scenario is self.before else self.operation.apply(scenario)

    def label(self, lang: str) -> str:
        return self.operation.label(lang)


OWN_WORDS = {"head.final_norm": "block.final_norm", "head.norm": "block.norm",
             "head.eps": "block.eps"}
"""Options of the head named with the words of the same option in the version-1 block."""


@dataclass(frozen=True)
class SetOption(Operation):
    """Set one option of the document: a switch, a choice, ε, the decimals shown; None removes
    it (its default: an attention's ``scale_dk`` d_k, its ``rope_base`` the stack's)."""

    path: str
    value: bool | int | float | str | None
    drops: tuple[str, ...] = ()
    """Keys removed in the same step, which the new value no longer allows (γ1 … β2 with
    ``pre_norms`` false, ``scale_dk`` with ``scale`` false)."""

    def apply(self, scenario: Scenario) -> Scenario:
        return with_document_values(scenario, {**dict.fromkeys(self.drops),
                                               self.path: self.value})

    def label(self, lang: str) -> str:
        """The option's own words where it has them (``causal mask on``), else
        ``name = value``; an option of a layer of a stack names the layer first (``layer 2:
        causal mask on``)."""
        inside = split_layer(self.path)
        if inside is None:
            return self._words(lang, OWN_WORDS.get(self.path, self.path))
        stack, index, rest = inside
        return f"{layer_name(lang, stack, index)}: {self._words(lang, rest)}"

    def _words(self, lang: str, key: str) -> str:
        if self.value is None:  # the option's own words for its default
            return say(f"edit.{key}_default", lang)
        on_off = "on" if self.value else "off"
        if isinstance(self.value, bool):
            if f"edit.{key}_{on_off}" in CATALOGUES["en"]:
                return say(f"edit.{key}_{on_off}", lang)
            return say(f"edit.option_{on_off}", lang, name=place_name(self.path))
        if key == "block.norm":
            return say(f"edit.{key}", lang, value=norm_name(str(self.value), lang))
        shown = format_exact(self.value) if isinstance(self.value, float) else self.value
        if f"edit.{key}" in CATALOGUES["en"]:
            return say(f"edit.{key}", lang, value=shown)
        return say("edit.option", lang, name=place_name(self.path), value=shown)


@dataclass(frozen=True)
class AblateHead(Operation):
    """Ablate head ``head`` (0-based) of the attention at ``path`` (its output set to 0), or
    restore it; the other ablated heads stay as they are."""

    path: str
    """The attention's module path: ``attention``, ``layers.1.attention`` …."""
    head: int
    on: bool

    def apply(self, scenario: Scenario) -> Scenario:
        heads = set(scenario.module(self.path).ablate_heads)
        heads = heads | {self.head} if self.on else heads - {self.head}
        return with_document_value(scenario, f"{self.path}.ablate_heads",
                                            sorted(heads) if heads else None)

    def label(self, lang: str) -> str:
        """``head 2 ablated (output 0)``, after the layer in a stack (``layer 2: …``)."""
        words = say("edit.ablate_on" if self.on else "edit.ablate_off", lang, head=self.head + 1)
        inside = split_layer(self.path)
        return words if inside is None else f"{layer_name(lang, inside[0], inside[1])}: {words}"


@dataclass(frozen=True)
class SetLabel(Operation):
    """Rename one token (``tokens``) or vocabulary entry (``block.vocab``)."""

    path: str
    """``"tokens"`` or ``"block.vocab"``."""
    col: int
    text: str

    def apply(self, scenario: Scenario) -> Scenario:
        labels = list(labels_at(scenario, self.path))
        labels[self.col] = self.text
        return with_document_value(scenario, self.path, labels)

    def label(self, lang: str) -> str:
        return say(f"edit.{self.path}", lang, col=self.col, text=self.text)


def identity(d: int) -> list[list[float]]:
    return [[1.0 if r == c else 0.0 for c in range(d)] for r in range(d)]


def default_block(d: int) -> dict[str, Any]:
    """A pre-norm LayerNorm block with an identity-like ReLU feed-forward and no head."""
    return {"norm": "layernorm", "eps": 1e-5, "placement": "pre",
            "gamma1": [1.0] * d, "beta1": [0.0] * d, "gamma2": [1.0] * d, "beta2": [0.0] * d,
            "ffn": {"W1": identity(d), "activation": "relu", "W2": identity(d)},
            "final_norm": True, "gamma_f": [1.0] * d, "beta_f": [0.0] * d}


def node_at(document: dict[str, Any], path: str) -> Any:
    """The value at a dotted path of a document (``layers.1.block``; numbers index lists)."""
    node: Any = document
    for key in path.split(".") if path else ():
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


@dataclass(frozen=True)
class SetBlock(Operation):
    """Add a decoder block (:func:`default_block`) to the layer at ``layer`` (``""``: the
    version-1 shorthand, whose block also holds the final norm) or remove it."""

    on: bool
    layer: str = ""

    def apply(self, scenario: Scenario) -> Scenario:
        document = to_document(scenario, as_held)
        owner = node_at(document, self.layer)
        if self.on:
            owner["block"] = default_block(scenario.d)
            if self.layer:  # a layer of a stack: the final norm belongs to the head
                for key in ("final_norm", "gamma_f", "beta_f"):
                    owner["block"].pop(key)
        else:
            owner.pop("block", None)
        return parse_scenario(document)

    def label(self, lang: str) -> str:
        words = say("edit.block_on" if self.on else "edit.block_off", lang)
        inside = split_layer(self.layer + ".")
        return f"{layer_name(lang, inside[0], inside[1])}: {words}" if inside else words


@dataclass(frozen=True)
class SetHead(Operation):
    """Add a vocabulary head (identity unembedding, entries v1 … vd) or remove it: in the
    block of a version-1 shorthand document that keeps its head there, else in ``head``."""

    on: bool

    def apply(self, scenario: Scenario) -> Scenario:
        document = to_document(scenario, as_held)
        if scenario.shorthand and "head" not in document:
            head = document["block"]
        else:
            head = document.setdefault("head", {"final_norm": False,
                                                "gamma_f": [1.0] * scenario.d,
                                                "beta_f": [0.0] * scenario.d})
        if self.on:
            head["unembed"] = identity(scenario.d)
            head["vocab"] = [f"v{k + 1}" for k in range(scenario.d)]
        else:
            for key in ("unembed", "bias", "vocab"):
                head.pop(key, None)
        return parse_scenario(document)

    def label(self, lang: str) -> str:
        return say("edit.head_on" if self.on else "edit.head_off", lang)


@dataclass(frozen=True)
class SwapTokens(Operation):
    """Exchange the tokens at positions ``i`` and ``j`` (:func:`engine.scenario.swap.swap_tokens`):
    their labels and rows move, every parameter and the positions stay put. ``names`` are the
    two tokens' labels, for the edit's name."""

    i: int
    j: int
    names: tuple[str, str] = ("", "")

    @staticmethod
    def of(scenario: Scenario, i: int, j: int) -> SwapTokens:
        """The swap of ``i`` and ``j`` in ``scenario``, named by its tokens."""
        tokens = scenario.tokens
        names = (tokens[i] if 0 <= i < len(tokens) else "", tokens[j] if 0 <= j < len(tokens)
                 else "")
        return SwapTokens(i, j, names)

    def apply(self, scenario: Scenario) -> Scenario:
        if self.i == self.j:
            raise ScenarioError("tokens", Refusal("swap_same", i=self.i))
        try:
            return swap_tokens(scenario, self.i, self.j)
        except IndexError:
            n = scenario.n
            raise ScenarioError("tokens", Refusal("swap_outside", i=self.i, j=self.j, n=n,
                                                  last=n - 1)) from None

    def label(self, lang: str) -> str:
        return say("edit.swap", lang, i=self.i, j=self.j, a=self.names[0], b=self.names[1])


def default_positions(kind: str, scenario: Scenario) -> dict[str, Any] | None:
    """The ``positions`` object a new choice of ``kind`` starts from (None: no positions): the
    usual base 10000; a learned table of zeros, one row per position; ALiBi's default slopes
    written out, one per head, so that they can be edited (when the stack's layers differ in
    heads, one list cannot fit them all: each layer then takes its own default); RoPE on every
    column of a head."""
    if kind == "none":
        return None
    if kind == "learned":
        return {"kind": kind, "table": [[0.0] * scenario.d for _ in range(scenario.n)]}
    if kind == "alibi":
        heads = {layer.attention.heads for layer in scenario.layers}
        if len(heads) > 1:
            return {"kind": kind}
        return {"kind": kind, "slopes": alibi_slopes(heads.pop()).tolist()}
    return {"kind": kind, "base": DEFAULT_BASE}


@dataclass(frozen=True)
class SetPositions(Operation):
    """Choose the positional encoding (:data:`engine.scenario.positions.KINDS`), starting from
    :func:`default_positions`."""

    kind: str

    def apply(self, scenario: Scenario) -> Scenario:
        if self.kind not in KINDS:
            raise ScenarioError("positions.kind", Refusal("not_choice", options=", ".join(KINDS),
                                                          got=repr(self.kind)))
        return with_document_value(scenario, "positions", default_positions(self.kind, scenario))

    def label(self, lang: str) -> str:
        return say("edit.positions", lang, kind=say("edit." + (f"positions_{self.kind}"), lang))


def run_of(scenario: Scenario) -> Generation:
    """The document's generation run (a new one, with the default settings, if it has none)."""
    return scenario.generation if scenario.generation is not None else Generation()


@dataclass(frozen=True)
class AppendToken(Operation):
    """Append the vocabulary entry ``token_id`` (drawn, or picked by the user) as the next
    token (:func:`engine.generation.append.extend`: its id, embedding row, position and key-mask
    entry) and record it among the run's ``chosen`` ids, keeping the run's settings. Redo
    shows the document this made: the id is stored, never drawn again. ``text`` is the
    entry's label, for the edit's name."""

    token_id: int
    text: str = ""
    traced_is_a_pass: ClassVar[bool] = True

    def apply(self, scenario: Scenario) -> Scenario:
        return extend(replace(scenario, generation=run_of(scenario)), self.token_id)

    def label(self, lang: str) -> str:
        return say("edit.append_token", lang, id=self.token_id, text=self.text)

    def traced(self, before: Trace, after: Scenario) -> Trace | None:
        """Grown from the KV cache: the new position's row alone is computed."""
        return grown(before, after)


@dataclass(frozen=True)
class SetGeneration(Operation):
    """Change one setting of the run (``key``, a field of
    :class:`~engine.format.generation_keys.Settings`) to its value in ``settings``; the ids already
    chosen stay the run's, so the next draw is the run's next. Temperature 0 is greedy."""

    settings: Settings
    key: str

    def apply(self, scenario: Scenario) -> Scenario:
        return with_settings(scenario, self.settings)

    def traced(self, before: Trace, after: Scenario) -> Trace | None:
        """Only the draw is worked again, from the logits ``before`` has."""
        return redrawn(before, after)

    def label(self, lang: str) -> str:
        value = getattr(self.settings, self.key)
        if self.key == "temperature" and value == 0:
            return say("edit.generation_greedy", lang)
        if value is None:  # top-k off
            return say("edit.generation_top_k_off", lang)
        shown = format_exact(value) if isinstance(value, float) else value
        return say("edit." + (f"generation_{self.key}"), lang, value=shown)

    def merges_with(self, later: Operation) -> bool:
        """Dragging the temperature (or stepping one setting again and again) is one undo
        step; choosing greedy (temperature 0) or leaving it is a step of its own."""
        if not isinstance(later, SetGeneration) or later.key != self.key:
            return False
        return self.key != "temperature" or 0.0 not in (self.settings.temperature,
                                                       later.settings.temperature)


def labels_at(scenario: Scenario, path: str) -> tuple[str, ...]:
    """The labels at ``path``: ``"tokens"``, ``"encoder.tokens"``, or the vocabulary
    (``"block.vocab"`` or ``"head.vocab"``; none without a head)."""
    if path == "tokens":
        return scenario.tokens
    if path == "encoder.tokens":
        return scenario.encoder.tokens if scenario.encoder is not None else ()
    if path in ("block.vocab", "head.vocab"):
        return scenario.head.vocab if scenario.head is not None else ()
    raise KeyError(path)


@dataclass(frozen=True)
class Edit:
    """An operation made: the scenario before it and after it."""

    operation: Operation
    before: Scenario
    after: Scenario

    def then(self, later: Edit) -> Edit:
        """This edit and ``later`` (made right after it) as one."""
        return Edit(later.operation, self.before, later.after)


@dataclass(frozen=True)
class CellChange:
    """A cell edit remembered by its two numbers instead of its two documents: an old undo
    step of a big matrix keeps 16 bytes, not a copy of the matrix. Undo and redo set the number
    in the document shown then (undoing in order, that is the document the edit made, or made
    before it)."""

    undo: SetCell
    redo: SetCell

    @staticmethod
    def of(edit: Edit) -> CellChange | None:
        """The change of a cell edit (None for any other edit)."""
        operation = edit.operation
        if not isinstance(operation, SetCell):
            return None
        index = (operation.col,) if operation.vector else (operation.row, operation.col)
        old = cell(edit.before.weight(operation.path), index)
        return CellChange(replace(operation, value=old), operation)


@dataclass
class Document:
    """The scenario being edited and the file it is saved in (``None``: not saved yet)."""

    scenario: Scenario
    path: Path | None = None

    def edit(self, operation: Operation) -> Edit:
        """What ``operation`` would make of the current scenario; the document is unchanged
        until the edit is shown. Raises :class:`~engine.ScenarioError` if refused."""
        return Edit(operation, self.scenario, operation.apply(self.scenario))
