"""A cell edit notes which array the edited copy came from and which cell it set, so views can
bring what they worked out up to date from that cell (issue 15)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from engine import load_scenario
from engine.forward import lineage
from engine.scenario.edit import with_cell
from engine.scenario.scenario import Scenario
from tests.engine.test_engine_gpt2_size import EXAMPLES


@pytest.fixture
def norms() -> Scenario:
    return load_scenario(EXAMPLES / "norms.qkv.json")


def differing_cells(child: np.ndarray, parent: np.ndarray) -> list[int]:
    """The flat indices where two arrays differ, found by reading every number."""
    return np.flatnonzero(child.ravel() != parent.ravel()).tolist()


def test_a_cell_edit_names_its_parent_and_the_cell_it_set(norms: Scenario) -> None:
    before = norms.parameter("block.ffn.W1")
    edited = with_cell(norms, "block.ffn.W1", (1, 0), 40.5)
    child = edited.parameter("block.ffn.W1")
    known = lineage.parent_of(child)
    assert known is not None
    parent, cells = known
    assert parent is before
    assert cells.tolist() == [1 * before.shape[1] + 0]
    assert cells.tolist() == differing_cells(child, parent)
    assert lineage.parent_of(before) is None  # the document's own array came from a file


def test_a_vector_edit_names_its_cell_too(norms: Scenario) -> None:
    before = norms.parameter("block.beta1")
    edited = with_cell(norms, "block.beta1", (1,), -7.0)
    known = lineage.parent_of(edited.parameter("block.beta1"))
    assert known is not None and known[0] is before
    assert known[1].tolist() == [1] == differing_cells(edited.parameter("block.beta1"), before)


def test_edits_in_a_row_each_name_the_one_before(norms: Scenario) -> None:
    first = with_cell(norms, "attention.Wq", (0, 0), 9.0)
    second = with_cell(first, "attention.Wq", (1, 1), 8.0)
    known = lineage.parent_of(second.parameter("attention.Wq"))
    assert known is not None
    assert known[0] is first.parameter("attention.Wq")
    assert known[1].tolist() == differing_cells(second.parameter("attention.Wq"), known[0])


def test_nothing_is_known_once_either_array_is_gone() -> None:
    norms = load_scenario(EXAMPLES / "norms.qkv.json")  # held by nothing else
    edited = with_cell(norms, "block.ffn.W1", (0, 1), 3.0)
    child = edited.parameter("block.ffn.W1")
    del norms, edited
    gc.collect()
    assert lineage.parent_of(child) is None  # the parent went with the first document
    key = id(child)
    assert key in lineage._PARENTS
    del child
    gc.collect()
    assert key not in lineage._PARENTS  # the entry went with the child
    assert all(child() is not None for child, _, _ in lineage._PARENTS.values())


def test_a_child_has_its_parents_shape_and_layout() -> None:
    parent = np.zeros((3, 4))
    with pytest.raises(ValueError, match="shape and layout"):
        lineage.record(np.zeros((4, 3)), parent, [0])
    with pytest.raises(ValueError, match="shape and layout"):
        lineage.record(np.asfortranarray(np.zeros((3, 4))), parent, [0])
