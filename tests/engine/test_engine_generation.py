"""Training targets and their loss, the generation record, appending a token and a whole run
(issue 24)."""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from engine import ScenarioError, compute, dumps_scenario, explain, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.append import extend
from engine.generation.run import generate
from tests.engine.generation_documents import built, cases, example, learned_table
from tests.examples import EXAMPLES


def _refusal(document: object) -> ScenarioError:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(document)
    return refused.value


# -- targets and the loss -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["three-layers", "encoder-decoder", "alibi", "g01-shorthand"])
def test_the_loss_is_minus_log_the_probability_of_each_target(name: str) -> None:
    doc = cases()[name]
    n = len(doc["token_ids"])
    doc["targets"] = [(k + 1) % 3 for k in range(n)]
    trace = compute(parse_scenario(doc))
    logits = trace.arrays["logits"].tolist()
    expected = []
    for i, target in enumerate(doc["targets"]):  # cross-entropy from the logits, by hand
        total = sum(math.exp(v) for v in logits[i])
        expected.append(-math.log(math.exp(logits[i][target]) / total))
    np.testing.assert_allclose(trace.arrays["loss"], expected, rtol=1e-13)
    probs = trace.arrays["probs"]
    np.testing.assert_allclose(trace.arrays["loss"],
                               -np.log(probs[np.arange(n), doc["targets"]]), rtol=1e-13)
    assert trace.arrays["loss_mean"].shape == (1,)
    assert math.isclose(float(trace.arrays["loss_mean"][0]), sum(expected) / n, rel_tol=1e-13)
    printed = trace.to_json()
    assert printed["targets"] == doc["targets"]
    assert printed["arrays"]["loss"] == pytest.approx(expected, rel=1e-13)


def test_explain_gives_the_arithmetic_of_a_loss() -> None:
    doc = example("three-layers")
    doc["targets"] = [1, 2, 0]
    trace = compute(parse_scenario(doc))
    p = float(trace.arrays["probs"][1, 2])
    text = explain(trace, "loss", (1,)).text()
    assert text.startswith("loss[1] = −log probs[1,2] = −log(")
    assert f"{-math.log(p):.6f}"[:6] in text and "“爱”" in text and "“你”" in text
    mean = explain(trace, "loss_mean", (0,), "zh")
    assert mean.value == pytest.approx(float(np.mean(trace.arrays["loss"])), rel=1e-15)
    assert "loss[0] + loss[1] + loss[2]" in mean.formula and "3 个位置" in mean.details[0]


def test_a_saved_document_keeps_its_targets_and_its_run() -> None:
    doc = example("three-layers")
    doc["targets"] = [1, 2, 0]
    saved = json.loads(dumps_scenario(parse_scenario(doc)))
    assert saved["targets"] == [1, 2, 0]
    doc = example("three-layers")
    doc["generation"] = {"temperature": 0.7, "top_k": 2, "top_p": 0.9, "seed": 11,
                         "chosen": [1, 2]}
    again = json.loads(dumps_scenario(parse_scenario(doc)))
    assert again["generation"] == doc["generation"]
    default = example("three-layers")
    default["generation"] = {}
    assert json.loads(dumps_scenario(parse_scenario(default)))["generation"] == {
        "temperature": 1, "top_p": 1, "seed": 0, "chosen": []}


@pytest.mark.parametrize(("change", "place", "words"), [
    (lambda d: d.update(targets=[0, 1]), "targets", "expected 3 ids, one per position, got 2"),
    (lambda d: d.update(targets=[0, 3, 1]), "targets[1]", "from 0 to 2, got 3"),
    (lambda d: d.update(targets="abc"), "targets", "expected a list of 3 ids"),
    (lambda d: d.pop("head") and d.update(targets=[0, 1, 2]), "targets", "vocabulary head"),
    (lambda d: d.update(generation={"temperature": -1}), "generation.temperature",
     "from 0 (greedy)"),
    (lambda d: d.update(generation={"top_p": 0}), "generation.top_p", "above 0 and at most 1"),
    (lambda d: d.update(generation={"top_p": 1.01}), "generation.top_p", "at most 1"),
    (lambda d: d.update(generation={"top_k": 0}), "generation.top_k", "from 1 to"),
    (lambda d: d.update(generation={"seed": -3}), "generation.seed", "from 0 to"),
    (lambda d: d.update(generation={"chosen": [0, 1]}), "generation.chosen",
     "expected the last 2 token ids [1, 2]"),
    (lambda d: d.update(generation={"chosen": [0, 1, 2]}), "generation.chosen",
     "leave no prompt"),
    (lambda d: d.update(generation={"beam": 2}), "generation.beam", "unknown key"),
    # A run with targets: token t's document (the run cut before t) had fewer positions than
    # targets, and the window's token button ended in a traceback.
    (lambda d: d.update(targets=[1, 2, 0], generation={"chosen": [2]}), "generation",
     "a document with training targets holds no generation run: remove one of them"),
    # A run whose document cannot draw (an entry without an embedding row): its tokens' frames
    # and export --run showed the probabilities step as each token's draw.
    (lambda d: d.update(embedding=d["embedding"][:2], token_ids=[0, 1, 1],
                        generation={"chosen": [1]}), "embedding",
     "2 rows for a vocabulary of 3 entries: each entry the head can draw needs its row"),
])
def test_bad_targets_and_runs_are_refused_at_their_place(change, place: str,  # type: ignore[no-untyped-def]
                                                          words: str) -> None:
    doc = example("three-layers")
    change(doc)
    refused = _refusal(doc)
    assert refused.place == place
    assert words in refused.problem


def test_a_run_needs_token_ids() -> None:
    doc = json.loads(json.dumps(example("three-layers")))
    doc["X"] = doc.pop("embedding")
    del doc["token_ids"]
    doc["generation"] = {}
    refused = _refusal(doc)
    assert refused.place == "generation" and "token_ids" in refused.problem


# -- appending a token --------------------------------------------------------------------------

def test_extend_appends_the_id_its_row_its_label_and_a_seen_key() -> None:
    document = parse_scenario(built(9, attention_keys={"key_mask": [1, 0, 1, 1]}))
    longer = extend(document, 5)
    assert longer.token_ids == (0, 1, 2, 3, 5)
    assert longer.tokens == (*document.tokens, "v5")
    assert document.embedding is not None
    assert np.array_equal(longer.X[-1], document.embedding[5])
    assert all(layer.attention.key_mask == (True, False, True, True, True)
               for layer in longer.layers)
    assert document.n == 4  # unchanged


def test_extend_refuses_clearly() -> None:
    no_ids = parse_scenario(json.loads((EXAMPLES / "three-layers.qkv.json").read_text("utf-8")))
    with pytest.raises(ScenarioError, match=r"^token_ids: generating needs token_ids"):
        extend(no_ids, 0)
    no_head = copy.deepcopy(example("three-layers"))
    del no_head["head"]["unembed"]
    del no_head["head"]["vocab"]
    with pytest.raises(ScenarioError, match=r"^head\.unembed: generating needs a vocabulary head"):
        extend(parse_scenario(no_head), 0)
    with pytest.raises(ScenarioError, match=r"^token_ids: id 3 is not a vocabulary entry"):
        extend(parse_scenario(example("three-layers")), 3)
    trained = example("three-layers")
    trained["targets"] = [0, 1, 2]
    with pytest.raises(ScenarioError, match=r"^targets: "):
        extend(parse_scenario(trained), 0)
    table = parse_scenario(built(2, positions=learned_table(4)))
    with pytest.raises(ScenarioError, match=r"^positions\.table: the learned table has 4 rows"):
        extend(table, 0)


# -- a run --------------------------------------------------------------------------------------

def test_a_seed_reproduces_a_run_and_a_continued_run_equals_one_longer_run() -> None:
    document = parse_scenario(built(4, positions={"kind": "rope"}))
    settings = Settings(temperature=1.3, top_p=0.95, seed=21)
    run = generate(document, 5, settings)
    assert [t.draw.chosen for t in run.tokens] == \
        [t.draw.chosen for t in generate(document, 5, settings).tokens]
    assert run.scenario.generation is not None
    ids = [t.draw.chosen for t in run.tokens]
    assert run.scenario.generation.chosen == tuple(ids)
    assert run.scenario.token_ids == (0, 1, 2, 3, *ids)
    assert [t.position for t in run.tokens] == [3, 4, 5, 6, 7]
    first = generate(document, 2, settings).scenario
    resumed = generate(parse_scenario(json.loads(dumps_scenario(first))), 3, settings)
    assert resumed.scenario.token_ids == run.scenario.token_ids
    assert resumed.scenario.generation == run.scenario.generation


def test_the_reported_probabilities_are_those_of_the_extended_document() -> None:
    for name in ("encoder-decoder", "learned", "rope-kv_heads-window-mask"):
        document = parse_scenario(cases()[name])
        run = generate(document, 3, Settings(temperature=0.8, seed=5))
        full = compute(run.scenario)
        for token in run.tokens:
            np.testing.assert_allclose(token.probs, full.arrays["probs"][token.position],
                                       rtol=0, atol=1e-12)


def test_greedy_runs_pick_the_most_probable_entry_every_time() -> None:
    document = parse_scenario(cases()["three-layers"])
    run = generate(document, 4, Settings(temperature=0.0))
    for token in run.tokens:
        assert token.draw.chosen == int(np.argmax(token.probs))
        assert token.label == document.head.vocab[token.draw.chosen]  # type: ignore[union-attr]


def test_a_stack_that_is_not_causal_generates_by_full_recompute() -> None:
    document = parse_scenario(built(20, attention_keys={"causal": False}))
    run = generate(document, 2, Settings(temperature=0.0))
    at_the_time = compute(extend(document, run.tokens[0].draw.chosen))
    np.testing.assert_allclose(run.tokens[1].probs, at_the_time.arrays["probs"][-1], atol=0)
    # without the mask the last token changes every earlier row: what was reported is gone
    assert not np.allclose(compute(run.scenario).arrays["probs"][4], run.tokens[1].probs)


def test_resizing_the_positions_fits_the_targets_and_ends_the_run() -> None:
    from dataclasses import replace

    from engine.scenario.resize import Sizes, resize

    doc = example("three-layers")
    doc["targets"] = [1, 2, 0]
    trained = parse_scenario(doc)
    sizes = Sizes.of(trained)
    longer = parse_scenario(resize(trained, replace(sizes, n=4)).document)
    assert longer.targets == (1, 2, 0, 0)
    assert parse_scenario(resize(trained, replace(sizes, n=2)).document).targets == (1, 2)
    ran = generate(parse_scenario(example("three-layers")), 1, Settings(temperature=0.0))
    assert ran.scenario.generation is not None
    shorter = parse_scenario(resize(ran.scenario, replace(sizes, n=3)).document)
    assert shorter.generation is None
    kept = parse_scenario(resize(ran.scenario, replace(sizes, n=4, d=5)).document)
    assert kept.generation == ran.scenario.generation


@pytest.mark.parametrize("name", list(cases()))
def test_extend_equals_the_longer_document_read_as_a_file(name: str) -> None:
    """``extend`` builds the longer document from the checked one without reading its arrays
    again; it equals the document written with the token appended (its id, label, key-mask
    entry and chosen id) and read back whole."""
    document = parse_scenario({**cases()[name], "generation": {"seed": 4, "chosen": []}})
    for token in (2, 0, 1):
        doc = json.loads(dumps_scenario(document))
        assert document.head is not None
        doc["token_ids"].append(token)
        doc["tokens"].append(document.head.vocab[token])
        for attention in [doc["attention"]] if "attention" in doc else \
                [layer["attention"] for layer in doc["layers"]]:
            if "key_mask" in attention:
                attention["key_mask"].append(1)
        doc["generation"]["chosen"].append(token)
        expected = parse_scenario(doc)
        longer = extend(document, token)
        assert dumps_scenario(longer) == dumps_scenario(expected)
        assert np.array_equal(longer.X, expected.X)
        document = longer
