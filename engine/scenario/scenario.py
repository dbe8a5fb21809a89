"""The scenario model: everything needed to recompute every step, validated on the way in.

A scenario is built only by :func:`parse_scenario`, which refuses a malformed document with one
:class:`~engine.format.errors.ScenarioError`. Scenarios are immutable; an edit makes a new one with
:meth:`Scenario.with_parameter`, which runs the same checks.

A scenario is a tree of modules (:mod:`engine.scenario.modules`): the input rows, optional
positions, an optional encoder, the layers of the main stack and an optional head. A document
written in the version-1 shorthand (top-level ``attention`` / ``block``) is a one-layer stack that
remembers its shape: its document paths stay ``attention.Wq``, ``block.ffn.W1``, ``block.unembed``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

from engine.exercises.document import Exercise
from engine.files.memory import memory_short
from engine.format.document import parse_document
from engine.format.embedding import trace_numbers as input_numbers
from engine.format.errors import ScenarioError
from engine.format.generation_keys import Generation
from engine.format.reader import MAX_POSITIONS, MAX_WIDTH, FloatArray
from engine.format.writer import FORMAT_NAME, FORMAT_VERSION, as_array, to_document
from engine.forward import lineage
from engine.forward.positions import trace_numbers as position_numbers
from engine.forward.size import MAX_TRACE_NUMBERS, trace_numbers
from engine.scenario.modules import (
    ACTIVATIONS,
    NORMS,
    PLACEMENTS,
    Attention,
    Block,
    BlockWithHead,
    EmbeddingNorm,
    Encoder,
    FeedForward,
    Frozen,
    Head,
    Layer,
)
from engine.scenario.positions import Positions
from engine.scenario.tree import Locator, array_fields, module_at, replaced, walk
from engine.words.refusals import Refusal


@dataclass(frozen=True, eq=False, kw_only=True)
class Scenario(Frozen):
    """A validated scenario document."""

    title: str
    note: str = ""
    tokens: tuple[str, ...]
    token_ids: tuple[int, ...] | None = None
    X: FloatArray
    """The input rows as given or looked up by token id, before ``embedding_scale``, positions,
    type rows and ``embedding_norm`` (the trace's ``embedded`` … ``X``)."""
    embedding: FloatArray | None = None
    embedding_scale: float | None = None
    """Every looked-up row times this number before anything is added (Gemma's √d)."""
    token_types: tuple[int, ...] | None = None
    """Each position's row of ``type_table`` (BERT's segment ids)."""
    type_table: FloatArray | None = None
    """T × d rows added by ``token_types``, as positions are added."""
    positions: Positions | None = None
    embedding_norm: EmbeddingNorm | None = None
    """A norm of the summed rows; its output is the trace's ``X``."""
    encoder: Encoder | None = None
    layers: tuple[Layer, ...]
    head: Head | None = None
    targets: tuple[int, ...] | None = None
    """The vocabulary id each position should predict (``targets``): the trace adds the loss."""
    generation: Generation | None = None
    """A generation run's settings and the ids it appended (``generation``)."""
    decimals: int | None = None
    """Decimals the frames print (``display.decimals``); None keeps each frame's default."""
    exercises: tuple[Exercise, ...] = ()
    """The document's exercises (:mod:`engine.exercises`), as read; never a student's answers."""
    shorthand: bool = True
    """Written in the version-1 shorthand: top-level ``attention`` and ``block``, no ``layers``."""
    head_in_block: bool = False
    """Shorthand whose head keys (``final_norm``, ``unembed`` …) sit in ``block``, as in
    version 1."""

    @property
    def n(self) -> int:
        """Number of positions."""
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        """Model width: features per input row."""
        return int(self.X.shape[1])

    @property
    def attention(self) -> Attention:
        """The first layer's attention (the only one in the version-1 shorthand)."""
        return self.layers[0].attention

    @cached_property
    def attentions(self) -> tuple[Attention, ...]:
        """Every attention of the document, in document order: the encoder's layers', then
        each layer's self-attention and cross-attention."""
        return tuple(node for _, node in walk(self) if isinstance(node, Attention))

    @property
    def has_block(self) -> bool:
        """Whether any layer of the main stack has a block (what a block setting changes)."""
        return any(layer.block is not None for layer in self.layers)

    @property
    def most_heads(self) -> int:
        """The most heads any attention of the document has (what a head chooser offers)."""
        return max(a.heads for a in self.attentions)

    @cached_property
    def block(self) -> BlockWithHead | None:
        """The first layer's block (the only one in the version-1 shorthand) with the head's
        keys, as version 1 kept them together; None when the first layer has no block."""
        block = self.layers[0].block
        if block is None:
            return None
        own = {item.name: getattr(block, item.name) for item in fields(block)}
        head = self.head
        if head is None:
            d = int(block.gamma1.shape[0])
            return BlockWithHead(**own, final_norm=False, gamma_f=np.ones(d),
                                 beta_f=np.zeros(d))
        heads = {item.name: getattr(head, item.name) for item in fields(head)
                 if item.name not in own}  # the norm and ε are the block's own
        return BlockWithHead(**own, **heads)

    def to_document(self) -> dict[str, Any]:
        """The scenario as a JSON-ready document (version 2; the version-1 shorthand keeps its
        shape); integral numbers written as ints."""
        return to_document(self)

    def document_path(self, locator: Locator) -> str:
        """Where the module at ``locator`` sits in this scenario's document."""
        if self.shorthand and locator[:2] == ("layers", 0):
            locator = locator[2:]
        elif self.head_in_block and locator[:1] == ("head",):
            locator = ("block", *locator[1:])
        return ".".join(str(key) for key in locator)

    @cached_property
    def _places(self) -> dict[str, tuple[Locator, str]]:
        """Every parameter's document path → (locator of its module, field name), in document
        order."""
        places: dict[str, tuple[Locator, str]] = {}
        for locator, node in walk(self):
            module = self.document_path(locator)
            looked_up = isinstance(node, Scenario | Encoder) and node.token_ids is not None
            for name in array_fields(node):
                if name == "X" and looked_up:
                    continue  # looked up from the embedding, not a value of the document
                places[f"{module}.{name}" if module else name] = (locator, name)
        return places

    def parameter(self, path: str) -> FloatArray:
        """The editable array at a document path such as ``"attention.Wq"`` or
        ``"layers.1.block.ffn.W1"``.

        Raises
        ------
        KeyError
            If the scenario has no array at ``path``.
        """
        if path in self._places:
            locator, name = self._places[path]
            value: FloatArray = getattr(module_at(self, locator), name)
            return value
        if path == "X" or path.endswith(".X"):  # looked up from the embedding: readable
            owner = self if path == "X" else self.module(path[:-2])
            if isinstance(owner, Scenario | Encoder):
                return owner.X
        raise KeyError(path)

    def parameter_paths(self) -> list[str]:
        """Every editable array of this scenario, in document order (X only without token ids)."""
        return list(self._places)

    @cached_property
    def parameters(self) -> dict[str, FloatArray]:
        """Every editable array by its document path, in document order (what
        :meth:`parameter_paths` lists)."""
        return {path: getattr(module_at(self, locator), name)
                for path, (locator, name) in self._places.items()}

    def module(self, path: str) -> Any:
        """The model object at a module path such as ``"layers.1.attention"`` or ``"block"``.

        Raises
        ------
        KeyError
            If there is no module at ``path``.
        """
        return self._modules[path]

    @cached_property
    def _modules(self) -> dict[str, Any]:
        """Every module by document path; in the shorthand ``block`` is the layer's block (the
        head, at the same path, comes later in the walk)."""
        modules: dict[str, Any] = {}
        for locator, node in walk(self):
            modules.setdefault(self.document_path(locator), node)
        return modules

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
        if value is not None and path in self._places:
            array = np.array(value, dtype=np.float64)
            if array.shape == self.parameter(path).shape and bool(np.isfinite(array).all()):
                locator, name = self._places[path]
                edited: Scenario = replaced(self, locator,
                                            lambda node: replace(node, **{name: array}))
                if path == "embedding":
                    edited = _looked_up_again(edited, array)
                return edited
        return self.with_document_value(path, value)

    def with_cell(self, path: str, index: tuple[int, ...], value: float) -> Scenario:
        """A new scenario with one number of the array at ``path`` set (``index``: row and
        column, or the column of a vector).

        The array is copied once and only the new number is checked: the others were checked when
        the array was made, and every other array is shared with this scenario; the copy's descent
        is noted (:mod:`engine.forward.lineage`) so views can update what they worked out from the
        old array cell by cell. A number that is not finite is refused as :meth:`with_parameter`
        refuses it.

        Raises
        ------
        ScenarioError
            If ``value`` is not finite; this scenario is unchanged.
        IndexError
            If ``index`` is outside the array.
        """
        original = self.parameter(path)
        changed = original.copy(order="K")
        changed[index] = value
        if path not in self._places or not math.isfinite(value):
            return self.with_parameter(path, changed)
        if changed.strides == original.strides:
            lineage.record(changed, original, np.ravel_multi_index(index, changed.shape))
        locator, name = self._places[path]
        edited: Scenario = replaced(self, locator, lambda node: replace(node, **{name: changed}))
        return _looked_up_again(edited, changed) if path == "embedding" else edited

    def with_document_value(self, path: str, value: object) -> Scenario:
        """A new scenario with any document value at ``path`` replaced, then re-validated.

        The other arrays go to :func:`parse_scenario` as arrays, not as lists of numbers, so
        their check is one vectorised pass (no number-by-number reading or writing).
        """
        document = to_document(self, as_array)
        node: Any = document
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
        last: Any = int(keys[-1]) if isinstance(node, list) else keys[-1]
        if value is None:
            if isinstance(node, list):
                del node[last]
            else:
                node.pop(last, None)
        else:
            node[last] = value
        return parse_scenario(document)


def _looked_up_again(scenario: Scenario, embedding: FloatArray) -> Scenario:
    """The scenario whose rows looked up by token id follow a new embedding table."""
    if scenario.token_ids is not None:
        scenario = replace(scenario, X=embedding[list(scenario.token_ids)])
    encoder = scenario.encoder
    if encoder is not None and encoder.token_ids is not None:
        scenario = replace(scenario, encoder=replace(encoder,
                                                     X=embedding[list(encoder.token_ids)]))
    return scenario


def parse_scenario(document: object) -> Scenario:
    """Validate a scenario document and build the model.

    Raises
    ------
    ScenarioError
        The first problem found, naming its place.
    """
    scenario = Scenario(**parse_document(document))
    check_size(scenario)
    return scenario


def check_size(scenario: Scenario) -> None:
    """Refuse a document whose trace passes the limit, or whose numbers and trace together
    would not fit in this computer's memory as float64 (:mod:`engine.files.memory`)."""
    trace = _refuse_large_trace(scenario)
    count = number_count(scenario)
    short = memory_short(count + trace)
    if short is not None:
        raise ScenarioError("document", Refusal("document_memory", count=count, trace=trace,
                                                need=short[0], have=short[1]))


def _refuse_large_trace(scenario: Scenario) -> int:
    """The numbers of the document's trace, all layers together, refused past the limit."""
    encoder = scenario.encoder
    n_keys = encoder.n if encoder is not None else 0
    vocab = scenario.head.vocab if scenario.head is not None else ()
    head = scenario.head
    draws = (scenario.token_ids is not None and scenario.embedding is not None
             and scenario.targets is None and head is not None and head.unembed is not None
             and head.transform is None)
    count = trace_numbers(scenario.n, scenario.d, scenario.layers, n_keys, len(vocab), draws)
    if head is not None and head.transform is not None:  # transform_pre, _hidden, transform
        count += 3 * scenario.n * scenario.d
    count += position_numbers(scenario.positions, scenario.n, scenario.d,
                              [layer.attention for layer in scenario.layers])
    count += input_numbers(scenario.n, scenario.d, scenario.type_table is not None,
                           scenario.embedding_norm is not None)
    if encoder is not None:
        count += input_numbers(encoder.n, int(encoder.X.shape[1]), False,
                               encoder.embedding_norm is not None)
        count += trace_numbers(encoder.n, int(encoder.X.shape[1]), encoder.layers)
        count += position_numbers(encoder.positions, encoder.n, int(encoder.X.shape[1]),
                                  [layer.attention for layer in encoder.layers])
    if count > MAX_TRACE_NUMBERS:
        place = "layers" if not scenario.shorthand else "document"
        raise ScenarioError(place, Refusal("trace_numbers_limit", count=count,
                                           limit=MAX_TRACE_NUMBERS))
    return count


def number_count(scenario: Scenario) -> int:
    """How many numbers the document's matrices and rows hold together (what its file stores),
    over every module of the tree."""
    stored = sum(array.size for array in scenario.parameters.values())
    masks = sum(len(getattr(node, "key_mask", None) or ()) for _, node in walk(scenario))
    return int(stored + masks)


__all__ = ["ACTIVATIONS", "FORMAT_NAME", "FORMAT_VERSION", "MAX_POSITIONS", "MAX_WIDTH", "NORMS",
           "PLACEMENTS", "Attention", "Block", "BlockWithHead", "Encoder", "FeedForward", "Head",
           "Layer", "Scenario", "parse_scenario"]
