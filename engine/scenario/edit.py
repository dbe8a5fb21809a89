"""Edits of a scenario: a new scenario with one array, one number or any document value replaced.

A finite array of the same shape, or one number of it, replaces the old one directly, sharing
every other array (a cell edit costs no re-validation of the whole document); anything else goes
through the document (:func:`with_document_value`) and is checked as a document read from a file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from engine.format.document import parse_scenario
from engine.format.mapped_weight import (
    MappedWeight,
    Weight,
    is_transposed_view,
    looked_up,
)
from engine.format.reader import FloatArray
from engine.format.writer import as_held, to_document
from engine.forward import lineage
from engine.scenario.scenario import Scenario
from engine.scenario.tree import replaced

SHAPE_OF_TREE = ("module_places", "attention_places")
"""What a scenario works out from its tree's shape alone, kept by an edit of an array."""


def with_parameter(scenario: Scenario, path: str,
                   value: FloatArray | list[Any] | None) -> Scenario:
    """A new scenario with the array at ``path`` replaced (``None`` removes an optional one).

    A finite array of the same shape replaces the old one directly (a cell edit costs no
    re-validation of the whole document; a new embedding looks up X again; an embedding and a
    head that are one tensor both, :func:`tied_to`); anything else goes through
    :func:`with_document_value`.

    Raises
    ------
    ScenarioError
        If the result is not a valid scenario; this scenario is unchanged.
    """
    if value is not None and path in scenario.array_places:
        array = np.array(value, dtype=np.float64)
        if array.shape == scenario.parameter(path).shape and bool(np.isfinite(array).all()):
            if tied_to(scenario, path) is not None:  # one tensor: the head its transpose
                table = array if path == TIED[0] else np.ascontiguousarray(array.T)
                return _array_replaced(_array_replaced(scenario, TIED[0], table), TIED[1],
                                       table.T)
            return _array_replaced(scenario, path, array)
    return with_document_value(scenario, path, value)

def with_cell(scenario: Scenario, path: str, index: tuple[int, ...], value: float) -> Scenario:
    """A new scenario with one number of the array at ``path`` set (``index``: row and
    column, or the column of a vector); of a weight left in its checkpoint, a new overlay
    (:meth:`~engine.format.mapped_weight.MappedWeight.with_cell`).

    The array is copied once and only the new number is checked: the others were checked when
    the array was made, and every other array is shared with this scenario; the copy's descent
    is noted (:mod:`engine.forward.lineage`) so views can update what they worked out from the
    old array cell by cell. A number that is not finite is refused as :func:`with_parameter`
    refuses it.

    An embedding and a head that are one tensor (:func:`tied_to`) stay one: the edit sets the
    number in both, as it would in the model.

    Raises
    ------
    ScenarioError
        If ``value`` is not finite; this scenario is unchanged.
    IndexError
        If ``index`` is outside the array.
    """
    if tied_to(scenario, path) is not None and math.isfinite(value):
        return _tied_cell(scenario, index if path == TIED[0] else index[::-1], value)
    weight = scenario.parameters.get(path)
    if isinstance(weight, MappedWeight) and math.isfinite(value):
        return _array_replaced(scenario, path, weight.with_cell(index, value))
    original = scenario.parameter(path)
    changed = original.copy(order="K")
    changed[index] = value
    if path not in scenario.array_places or not math.isfinite(value):
        return with_parameter(scenario, path, changed)
    if changed.strides == original.strides:
        lineage.record(changed, original, np.ravel_multi_index(index, changed.shape))
    return _array_replaced(scenario, path, changed)


def with_document_value(scenario: Scenario, path: str, value: object) -> Scenario:
    """A new scenario: ``scenario`` with any document value at ``path`` replaced (None: removed),
    then re-validated.

    The other arrays go to :func:`parse_scenario` as arrays, not as lists of numbers, so
    their check is one vectorised pass (no number-by-number reading or writing).
    """
    return with_document_values(scenario, {path: value})


def with_document_values(scenario: Scenario, values: Mapping[str, object]) -> Scenario:
    """As :func:`with_document_value` for several paths at once, in order, re-validated once
    (a switch and the keys it no longer allows: ``pre_norms`` false without γ1 … β2)."""
    document = to_document(scenario, as_held)
    for path, value in values.items():
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


TIED = ("embedding", "head.unembed")
"""The arrays a checkpoint may tie: the head is then the embedding's transpose."""


def tied_to(scenario: Scenario, path: str) -> str | None:
    """The other of the embedding and the head when ``path`` is one of them and the two are
    one tensor, the head its transpose (a checkpoint's ``tie_word_embeddings``: both left in
    the checkpoint as the same tensor, or the head a view of the embedding); else None."""
    if path not in TIED:
        return None
    table, head = (scenario.parameters.get(name) for name in TIED)
    one = is_transposed_view(head, table)
    return TIED[1 - TIED.index(path)] if one else None


def held_tied(scenario: Scenario) -> Scenario:
    """``scenario`` with an embedding and a head that are one tensor left in a checkpoint
    widened once, the head a view of the embedding's numbers: a self-contained copy then
    stores them once, the head as the embedding's transpose, and opens tied."""
    table = scenario.parameters.get(TIED[0])
    if not isinstance(table, MappedWeight) or tied_to(scenario, TIED[0]) is None:
        return scenario
    return with_parameter(scenario, TIED[0], table.widened())


def _tied_cell(scenario: Scenario, index: tuple[int, ...], value: float) -> Scenario:
    """``scenario`` with the embedding's number at ``index`` set, and the head, its
    transpose, following it (a view of the new table once the table is an array)."""
    table, head = (scenario.parameters[name] for name in TIED)
    if isinstance(table, MappedWeight) and isinstance(head, MappedWeight):
        new_table = table.with_cell(index, value)
    else:
        new_table = np.array(table, order="K")
        new_table[index] = value
        new_table.flags.writeable = False
    new_head = head.with_cell(index[::-1], value) \
        if isinstance(new_table, MappedWeight) and isinstance(head, MappedWeight) \
        else np.asarray(new_table).T
    return _array_replaced(_array_replaced(scenario, TIED[0], new_table), TIED[1], new_head)


def _array_replaced(scenario: Scenario, path: str, array: Weight) -> Scenario:
    """The scenario with the array at ``path`` (one of :attr:`Scenario.array_places`) replaced
    by ``array``, every other array shared. Its places are this scenario's (an array for an
    array): they are handed on, not walked again (a variant search makes thousands), and so
    are the places of its modules and attentions where this scenario has found them (every
    cell edit in the window asks for both)."""
    locator, name = scenario.array_places[path]
    edited: Scenario = replaced(scenario, locator, lambda node: replace(node, **{name: array}))
    if path == "embedding":
        edited = _looked_up_again(edited, array)
    edited.__dict__["array_places"] = scenario.array_places
    for shape in SHAPE_OF_TREE:
        if shape in scenario.__dict__:
            edited.__dict__[shape] = scenario.__dict__[shape]
    return edited


def _looked_up_again(scenario: Scenario, embedding: Weight) -> Scenario:
    """The scenario whose rows looked up by token id follow a new embedding table."""
    if scenario.token_ids is not None:
        scenario = replace(scenario, X=looked_up(embedding, scenario.token_ids))
    encoder = scenario.encoder
    if encoder is not None and encoder.token_ids is not None:
        scenario = replace(scenario, encoder=replace(encoder,
                                                     X=looked_up(embedding, encoder.token_ids)))
    return scenario


__all__ = ["with_cell", "with_document_value", "with_document_values", "with_parameter"]
