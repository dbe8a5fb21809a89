"""A cell edit's trace worked again from the first step the edited array feeds
(:mod:`engine.forward.retrace`) equals ``compute`` of the edited document bit for bit: every
built-in
example and generated document, a cell of every parameter (each layer, embeddings, head)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import Scenario, ScenarioError, Trace, compute, load_scenario, parse_scenario
from engine.forward.retrace import first_reader, retraced
from engine.scenario.edit import with_cell
from tests.engine.v2_documents import CASES, document

EXAMPLES = sorted((Path(__file__).parents[2] / "resources" / "examples").glob("*.qkv.json"))


def assert_same(got: Trace | None, want: Trace) -> None:
    """Every array, step and visibility of ``got`` is ``want``'s, exactly."""
    assert got is not None
    assert list(got.arrays) == list(want.arrays)
    for name, array in want.arrays.items():
        assert np.array_equal(got.arrays[name], array), name
    assert got.steps == want.steps
    assert set(got.visibility) == set(want.visibility)
    for scope, visible in want.visibility.items():
        assert np.array_equal(got.visibility[scope], visible), scope
    assert got.scenario is not None


def edited(scenario: Scenario, path: str) -> Scenario:
    """``scenario`` with the last cell of the array at ``path`` moved by 0.375."""
    array = scenario.parameter(path)
    cell = tuple(size - 1 for size in array.shape)
    return with_cell(scenario, path, cell, float(array[cell]) + 0.375)


def check_every_parameter(scenario: Scenario) -> int:
    """Edit a cell of each parameter in turn and compare; the steps taken as they were."""
    before = compute(scenario)
    reused = 0
    for path in scenario.parameter_paths():
        after = edited(scenario, path)
        start = first_reader(before, path)
        assert_same(retraced(before, after, start), compute(after))
        reused += start
    return reused


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_every_cell_edit_of_a_built_in_example_is_exact(path: Path) -> None:
    check_every_parameter(load_scenario(path))


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_cell_edit_of_a_generated_document_is_exact(case: str) -> None:
    check_every_parameter(parse_scenario(CASES[case]()))


def test_a_deep_stack_reuses_the_steps_before_the_edit() -> None:
    """Four layers: an edit of layer k's W1 takes every step before layer k's feed-forward as
    it was; an edit of the head's unembed recomputes only the logits and what follows."""
    scenario = parse_scenario(document(80, n=5, d=6, layers=4))
    before = compute(scenario)
    ids = [step.id for step in before.steps]
    assert check_every_parameter(scenario) > 0
    for k in range(4):
        path = f"layers.{k}.block.ffn.W1"
        assert ids[first_reader(before, path)] == f"L{k + 1}.ffn"
    assert ids[first_reader(before, "head.unembed")] == "logits"
    assert first_reader(before, "embedding") == first_reader(before, "X") == 0


def test_a_partial_trace_is_fresh_through_its_step_and_continues_exactly() -> None:
    """Worked through the edited step only, the trace holds the new numbers there and the old
    ones after; continued from there, it equals ``compute``."""
    scenario = parse_scenario(document(81, n=5, d=6, layers=3))
    before = compute(scenario)
    after = edited(scenario, "layers.1.block.ffn.W1")
    start = first_reader(before, "layers.1.block.ffn.W1")
    want = compute(after)
    partial = retraced(before, after, start, through=start)
    assert partial is not None and partial.steps == want.steps
    for name in partial.steps[start].writes:
        assert np.array_equal(partial.arrays[name], want.arrays[name])
        assert not np.array_equal(before.arrays[name], want.arrays[name])
    assert np.array_equal(partial.arrays["logits"], before.arrays["logits"])
    assert_same(retraced(partial, after, start + 1), want)


def test_reusing_one_step_too_many_is_caught() -> None:
    """The equality above is what guards the reuse: one step more taken as it was (the edited
    step itself) leaves old numbers in the trace."""
    scenario = parse_scenario(document(82, n=5, d=6, layers=2))
    before = compute(scenario)
    after = edited(scenario, "layers.0.block.ffn.W1")
    start = first_reader(before, "layers.0.block.ffn.W1")
    with pytest.raises(AssertionError):
        assert_same(retraced(before, after, start + 1), compute(after))


def test_another_structure_or_an_overflow_is_computed_instead() -> None:
    """None when the trace cannot be worked on: a start past the end, an overflow."""
    scenario = parse_scenario(document(83, n=4, d=4, layers=2))
    before = compute(scenario)
    assert retraced(before, scenario, len(before.steps) + 1) is None
    huge = with_cell(scenario, "layers.1.block.ffn.W1", (0, 0), 1e307)
    huge = with_cell(huge, "layers.1.block.ffn.W2", (0, 0), 1e307)
    start = first_reader(before, "layers.1.block.ffn.W1")
    assert retraced(before, huge, start) is None
    with pytest.raises(ScenarioError, match=r"L2\.ffn"):
        compute(huge)
