"""The scenario model: everything needed to recompute every step, validated on the way in.

A scenario is built only by :func:`~engine.format.document.parse_scenario`, which refuses a
malformed document with one :class:`~engine.format.errors.ScenarioError`. Scenarios are immutable;
an edit makes a new one (:mod:`engine.scenario.edit`), which runs the same checks. This record
knows nothing of documents: reading and writing them is :mod:`engine.format`'s.

A scenario is a tree of modules (:mod:`engine.scenario.modules`): the input rows, optional
positions, an optional encoder, the layers of the main stack and an optional head. A document
written in the version-1 shorthand (top-level ``attention`` / ``block``) is a one-layer stack that
remembers its shape: its document paths stay ``attention.Wq``, ``block.ffn.W1``, ``block.unembed``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

import numpy as np

from engine.exercises.document import Exercise
from engine.files.memory import memory_short
from engine.format.embedding import trace_numbers as input_numbers
from engine.format.errors import ScenarioError
from engine.format.generation_keys import Generation
from engine.format.mapped_weight import MappedWeight, Weight, widened
from engine.format.reader import MAX_POSITIONS, MAX_WIDTH, FloatArray
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
from engine.scenario.tree import Locator, array_fields, module_at, walk
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
    embedding: Weight | None = None
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
        return tuple(module_at(self, locator) for locator in self.attention_places)

    @cached_property
    def attention_places(self) -> tuple[Locator, ...]:
        """Where each of :attr:`attentions` sits: the tree's shape alone, which an edit of an
        array keeps and hands on (:mod:`engine.scenario.edit`)."""
        return tuple(locator for locator, node in walk(self) if isinstance(node, Attention))

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
            d = self.layers[0].width
            return BlockWithHead(**own, final_norm=False, gamma_f=np.ones(d),
                                 beta_f=np.zeros(d))
        heads = {item.name: getattr(head, item.name) for item in fields(head)
                 if item.name not in own}  # the norm and ε are the block's own
        return BlockWithHead(**own, **heads)

    def document_path(self, locator: Locator) -> str:
        """Where the module at ``locator`` sits in this scenario's document."""
        if self.shorthand and locator[:2] == ("layers", 0):
            locator = locator[2:]
        elif self.head_in_block and locator[:1] == ("head",):
            locator = ("block", *locator[1:])
        return ".".join(str(key) for key in locator)

    @cached_property
    def array_places(self) -> dict[str, tuple[Locator, str]]:
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
        ``"layers.1.block.ffn.W1"`` (a weight left in its checkpoint widened, for as long as it
        is held).

        Raises
        ------
        KeyError
            If the scenario has no array at ``path``.
        """
        return widened(self.weight(path))

    def weight(self, path: str) -> Weight:
        """The array at ``path`` as held: a weight left in its checkpoint as it is, not widened
        (its shape, size and identity read without touching its numbers).

        Raises
        ------
        KeyError
            If the scenario has no array at ``path``.
        """
        if path in self.array_places:
            locator, name = self.array_places[path]
            held: Weight = getattr(module_at(self, locator), name)
            return held
        if path == "X" or path.endswith(".X"):  # looked up from the embedding: readable
            owner = self if path == "X" else self.module(path[:-2])
            if isinstance(owner, Scenario | Encoder):
                return owner.X
        raise KeyError(path)

    def parameter_paths(self) -> list[str]:
        """Every editable array of this scenario, in document order (X only without token ids)."""
        return list(self.array_places)

    @cached_property
    def parameters(self) -> dict[str, Weight]:
        """Every editable array by its document path, in document order (what
        :meth:`parameter_paths` lists), a weight left in its checkpoint as it is."""
        return {path: getattr(module_at(self, locator), name)
                for path, (locator, name) in self.array_places.items()}

    def module(self, path: str) -> Any:
        """The model object at a module path such as ``"layers.1.attention"`` or ``"block"``.

        Raises
        ------
        KeyError
            If there is no module at ``path``.
        """
        met = self._modules
        if path not in met:
            met[path] = module_at(self, self.module_places[path])
        return met[path]

    @cached_property
    def _modules(self) -> dict[str, Any]:
        """The modules asked for by document path (:meth:`module`), each found once."""
        return {}

    @cached_property
    def module_places(self) -> dict[str, Locator]:
        """Every module's locator by document path; in the shorthand ``block`` is the layer's
        block (the head, at the same path, comes later in the walk). The tree's shape alone,
        which an edit of an array keeps and hands on (:mod:`engine.scenario.edit`): walking a
        document with exercises took about half a millisecond of every cell edit."""
        places: dict[str, Locator] = {}
        for locator, _node in walk(self):
            places.setdefault(self.document_path(locator), locator)
        return places


def check_size(scenario: Scenario) -> None:
    """Refuse a document whose trace passes the limit, or whose numbers and trace together
    would not fit in this computer's memory as float64 (:mod:`engine.files.memory`; of the
    weights left in their checkpoint, the largest, widened while it is computed)."""
    trace = _refuse_large_trace(scenario)
    count = number_count(scenario)
    short = memory_short(_held_count(scenario) + trace)
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
    if head is not None and head.softcap is not None:  # logits_uncapped
        count += scenario.n * len(vocab)
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


def _held_count(scenario: Scenario) -> int:
    """The numbers the document holds in memory as float64: every one but those of the weights
    left in their checkpoint, of which only the largest is ever widened at once."""
    weights = scenario.parameters.values()
    mapped = [weight.size for weight in weights if isinstance(weight, MappedWeight)]
    return number_count(scenario) - sum(mapped) + max(mapped, default=0)


def number_count(scenario: Scenario) -> int:
    """How many numbers the document's matrices and rows hold together (what its file stores),
    over every module of the tree."""
    stored = sum(array.size for array in scenario.parameters.values())
    masks = sum(len(getattr(node, "key_mask", None) or ()) for _, node in walk(scenario))
    return int(stored + masks)


__all__ = ["ACTIVATIONS", "MAX_POSITIONS", "MAX_WIDTH", "NORMS",
           "PLACEMENTS", "Attention", "Block", "BlockWithHead", "Encoder", "FeedForward", "Head",
           "Layer", "Scenario", "check_size"]
