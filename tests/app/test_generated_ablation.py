"""The ablation question on every generated example document (every construct of the format,
:mod:`tests.app.generated_documents`): switching off each head of each attention is answered on
the document whose own ``ablate_heads`` lists it too (written into the JSON here), and a head
the document already ablates is refused."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.exercises.answers import SAME, answer
from engine.exercises.fit import attention_paths, check_fit
from engine.scenario.modules import Attention
from tests.app.generated_documents import EXAMPLES, Spec, build


def _node(doc: dict[str, Any], path: str) -> dict[str, Any]:
    node: Any = doc
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    assert isinstance(node, dict)
    return node


def _question(attention: str, head: int, step: str, array: str, cell: list[int]
              ) -> dict[str, Any]:
    words = {"en": "a", "zh": "甲"}
    return {"title": words, "prompt": words, "kind": "ablation", "step": step,
            "ablate": {"attention": attention, "heads": [head]},
            "watch": {"array": array, "cell": cell}}


@pytest.mark.parametrize("spec", EXAMPLES, ids=lambda spec: f"seed{spec.seed}")
def test_every_head_of_a_generated_document_is_switched_off(spec: Spec) -> None:
    doc = build(spec)
    scenario = parse_scenario(doc)
    trace = compute(scenario)
    last = next(s for s in reversed(trace.steps)
                if s.writes and 1 <= trace.arrays[s.writes[0]].ndim <= 3)
    array = last.writes[0]
    cell = [n - 1 for n in trace.arrays[array].shape]
    asked = refused = 0
    for path in attention_paths(scenario):
        attention = scenario.module(path)
        assert isinstance(attention, Attention)
        for head in range(attention.heads):
            question = _question(path, head, last.id, array, cell)
            own = compute(parse_scenario({**doc, "exercises": [question]}))
            if head in attention.ablate_heads:
                with pytest.raises(ScenarioError, match="switching it off again"):
                    check_fit(own)
                refused += 1
                continue
            check_fit(own)
            solved = answer(own, own.scenario.exercises[0])
            switched = copy.deepcopy(doc)
            node = _node(switched, path)
            node["ablate_heads"] = [*node.get("ablate_heads", []), head]
            expected = float(compute(parse_scenario(switched)).arrays[array][tuple(cell)])
            moved = solved.moved[0]
            assert moved.before == float(trace.arrays[array][tuple(cell)])
            assert moved.after == pytest.approx(expected, rel=1e-12, abs=1e-12)
            way = "same" if abs(expected - moved.before) <= SAME * max(1.0, abs(moved.before)) \
                else "rise" if expected > moved.before else "fall"
            assert solved.direction == way
            asked += 1
    assert asked >= 1
    assert refused == sum(len(a.ablate_heads) for a in scenario.attentions)


def test_some_generated_example_already_ablates_a_head() -> None:
    assert any(layer.ablate for spec in EXAMPLES for layer in spec.layers)
