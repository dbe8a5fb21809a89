"""The ``ablation`` exercise (issue 38 item 3): heads of an attention switched off, the watched
probability's way answered on the recomputed document and checked against a forward pass of the
three-layers example written out here in numpy; read, written back and refused by place."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import ScenarioError, compute, parse_scenario
from engine.exercises.answers import SAME, answer, check
from engine.exercises.fit import check_fit
from engine.exercises.lesson import lesson_lost, lessons
from engine.format.writer import to_document
from tests.engine.ablation_reference import reference_probs
from tests.examples import EXAMPLES


def words(text: str) -> dict[str, str]:
    return {"en": text, "zh": f"（{text}）"}


def ablation(attention: str = "layers.0.attention", heads: list[int] | None = None,
             **extra: Any) -> dict[str, Any]:
    return {"title": words("a"), "prompt": words("p"), "kind": "ablation", "step": "probs",
            "ablate": {"attention": attention, "heads": [0] if heads is None else heads},
            "watch": {"array": "probs", "cell": [2, 0]}, **extra}


def three_layers(*exercises: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES / "three-layers.qkv.json").read_text("utf-8"))
    if exercises:
        doc["exercises"] = list(exercises)
    return doc


# -- the built-in question -------------------------------------------------------------------

def test_the_built_in_question_rises_as_the_hand_computation_says() -> None:
    doc = three_layers()
    scenario = parse_scenario(doc)
    question = scenario.exercises[2]
    assert question.kind == "ablation"
    solved = answer(compute(scenario), question)
    before, after = reference_probs(doc, {})[2, 0], reference_probs(doc, {0: {0}})[2, 0]
    assert round(before, 3) == 0.674 and round(after, 3) == 0.819  # printed as the frames do
    moved = solved.moved[0]
    assert (moved.before, moved.after) == pytest.approx((before, after), abs=1e-12)
    assert solved.direction == "rise"  # layer 1's first head worked against 我 after 你
    verdicts = [check(compute(scenario), question, way)[0].right
                for way in ("rise", "fall", "same")]
    assert verdicts == [True, False, False]


def test_the_heads_are_merged_with_those_the_document_ablates() -> None:
    doc = three_layers(ablation("layers.1.attention", [0]))
    doc["layers"][1]["attention"]["ablate_heads"] = [1]
    trace = compute(parse_scenario(doc))
    moved = answer(trace, trace.scenario.exercises[0]).moved[0]
    assert moved.before == pytest.approx(reference_probs(doc, {1: {1}})[2, 0], abs=1e-12)
    assert moved.after == pytest.approx(reference_probs(doc, {1: {0, 1}})[2, 0], abs=1e-12)
    assert reference_probs(doc, {1: {0, 1}})[2, 0] != pytest.approx(
        reference_probs(doc, {1: {0}})[2, 0], abs=1e-6)  # the merge matters here


def test_two_heads_and_a_watch_before_the_attention_is_the_same() -> None:
    both = ablation("layers.2.attention", [1, 0])
    shares = {**ablation("layers.0.attention", [1]), "step": "L1.weights",
              "watch": {"array": "L1.weights", "cell": [1, 2, 0]}}
    doc = three_layers(both, shares)
    trace = compute(parse_scenario(doc))
    solved = [answer(trace, e) for e in trace.scenario.exercises]
    assert solved[0].moved[0].after == pytest.approx(
        reference_probs(doc, {2: {0, 1}})[2, 0], abs=1e-12)
    # switching a head off never reaches the shares of its own attention
    assert solved[1].direction == "same" and abs(solved[1].moved[0].change) <= SAME


def test_an_ablation_is_written_back_as_read_with_its_answers() -> None:
    answered = ablation("layers.2.attention", [1, 0], answers={"direction": "fall"},
                        checked=True)
    doc = three_layers(ablation(), answered)
    written = to_document(parse_scenario(doc))
    assert written["exercises"] == doc["exercises"]
    again = parse_scenario(written).exercises
    assert again == parse_scenario(doc).exercises
    assert again[1].answers == (("direction", "fall"),) and again[1].checked


@pytest.mark.parametrize(("change", "message"), [
    ({"ablate": None}, "exercises[0].ablate: missing: every exercise of this kind needs it"),
    ({"ablate": {"attention": "layers.0.attention"}},
     "exercises[0].ablate.heads: missing: every exercise of this kind needs it"),
    ({"ablate": {"attention": "layers.0.attention", "heads": []}},
     "exercises[0].ablate.heads: expected at least one item"),
    ({"ablate": {"attention": "layers.0.attention", "heads": [1, 1]}},
     "exercises[0].ablate.heads[1]: head 1 is already listed: give each head once"),
    ({"ablate": {"attention": "", "heads": [0]}}, "exercises[0].ablate.attention: empty: "
                                                  "write a text"),
    ({"ablate": {"attention": "layers.0.attention", "heads": [0], "head": 1}},
     "exercises[0].ablate.head: unknown key (allowed here: attention, heads)"),
    ({"edit": {"array": "X", "cell": [0, 0], "by": 1}},
     "exercises[0].edit: unknown key (allowed here: title, prompt, kind, step, ablate, watch, "
     "answers, checked)"),
    ({"answers": {"choices[0]": True}},
     'exercises[0].answers.choices[0]: this kind of exercise is answered at "direction" only'),
    ({"answers": {"direction": "up"}},
     'exercises[0].answers.direction: expected one of "rise" | "fall" | "same", got "up"'),
])
def test_a_malformed_ablation_is_refused_on_reading(change: dict[str, Any], message: str
                                                    ) -> None:
    exercise = {key: value for key, value in {**ablation(), **change}.items()
                if value is not None}
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(three_layers(exercise))
    assert str(caught.value) == message


@pytest.mark.parametrize(("ablate", "message"), [
    ({"attention": "layers.0.block", "heads": [0]},
     "exercises[0].ablate.attention: no attention layers.0.block in this document (its "
     "attentions: layers.0.attention, layers.1.attention, layers.2.attention)"),
    ({"attention": "layers.3.attention", "heads": [0]},
     "exercises[0].ablate.attention: no attention layers.3.attention in this document (its "
     "attentions: layers.0.attention, layers.1.attention, layers.2.attention)"),
    ({"attention": "layers.1.attention", "heads": [0, 2]},
     "exercises[0].ablate.heads[1]: head 2 is not one of layers.1.attention's heads (0 … 1)"),
    ({"attention": "layers.2.attention", "heads": [1]},
     "exercises[0].ablate.heads[0]: layers.2.attention already ablates head 1 (its "
     "ablate_heads): switching it off again changes nothing"),
])
def test_an_ablation_that_does_not_fit_is_refused(ablate: dict[str, Any], message: str
                                                  ) -> None:
    doc = three_layers({**ablation(), "ablate": ablate})
    doc["layers"][2]["attention"]["ablate_heads"] = [1]
    with pytest.raises(ScenarioError) as caught:
        check_fit(compute(parse_scenario(doc)))
    assert str(caught.value) == message


def test_the_lesson_is_the_way_the_watched_number_goes() -> None:
    doc = three_layers(ablation())
    trace = compute(parse_scenario(doc))
    (taught,) = lessons(trace, trace.scenario.exercises)
    assert taught.way == "rise" and not taught.stays
    assert lesson_lost(trace, [taught]) is None
    # Unembedding 我 with the opposite sign turns the ablation's rise into a fall.
    flipped = copy.deepcopy(doc)
    for row in flipped["head"]["unembed"]:
        row[0] = -row[0]
    other = compute(parse_scenario(flipped))
    assert answer(other, other.scenario.exercises[0]).direction == "fall"
    assert lesson_lost(other, [taught]) is taught
